// zod issues → compiler diagnostics with positions and a fix for each.
import type * as z from "zod";
import type { Diagnostic } from "../errors.js";
import { locate, type YamlSource } from "../load/yaml-source.js";

export function fieldPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const seg of path) out += typeof seg === "number" ? `[${seg}]` : out ? `.${String(seg)}` : String(seg);
  return out;
}

/** The value at `path` in the parsed data, and whether the key is there at all. */
function valueAt(data: unknown, path: readonly PropertyKey[]): { present: boolean; value: unknown } {
  let node = data;
  for (const seg of path) {
    if (node === null || typeof node !== "object" || !Object.prototype.hasOwnProperty.call(node, seg)) return { present: false, value: undefined };
    node = (node as Record<PropertyKey, unknown>)[seg];
  }
  return { present: true, value: node };
}

export function diagnoseZod(error: z.ZodError, source: YamlSource, code: string, allowed: (path: readonly PropertyKey[]) => string[], hostHint?: (path: readonly PropertyKey[], key: string) => string | undefined): Diagnostic[] {
  const out: Diagnostic[] = [];
  // Unknown keys first, so a missing field can point at the typo that stands in for it.
  const unknown = new Map<string, string[]>(); // parent path → unknown keys
  for (const issue of error.issues)
    if (issue.code === "unrecognized_keys") unknown.set(fieldPath(issue.path as PropertyKey[]), [...(unknown.get(fieldPath(issue.path as PropertyKey[])) ?? []), ...issue.keys]);
  for (const issue of error.issues) {
    const path = issue.path as PropertyKey[];
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        const keyPath = [...path, key];
        const known = allowed(path);
        const host = hostHint?.(path, key);
        const near = host ? undefined : closest(key, known);
        out.push({
          code,
          severity: "error",
          position: locate(source, keyPath, true),
          field: fieldPath(keyPath),
          message: `unknown field. ${host ? `${host} ` : near ? `Did you mean "${near}"? ` : ""}Known fields here: ${known.join(", ")}.`,
        });
      }
      continue;
    }
    // zod does not report the input by default: look the value up in the data that was parsed.
    const at = valueAt(source.data, path);
    const missing = !at.present && path.length > 0;
    let message: string;
    // a refinement's own message names the fix (an artifact with neither paths nor kind: message)
    if (missing && issue.code !== "custom") {
      const name = String(path.at(-1));
      const typo = (unknown.get(fieldPath(path.slice(0, -1))) ?? []).find((k) => closest(k, [name]) === name);
      message = typo ? `missing required field ("${typo}" below looks like a misspelling of "${name}").` : `missing required field. Add "${name}" here.`;
    } else message = explain(issue, at.value, path);
    out.push({
      code,
      severity: "error",
      position: locate(source, path, missing),
      field: fieldPath(path) || undefined,
      message,
    });
  }
  return out;
}

/** Names people reach for first, mapped to the canonical value (tools above all). */
const ALIASES: Record<string, string> = {
  shell: "bash",
  sh: "bash",
  terminal: "bash",
  exec: "bash",
  fetch: "web-fetch",
  webfetch: "web-fetch",
  websearch: "web-search",
  search: "grep",
  todowrite: "todo",
  task: "spawn-agent",
  agent: "spawn-agent",
  ask: "ask-human",
  multiedit: "edit",
  ls: "glob",
  view: "read",
};

function explain(issue: z.core.$ZodIssue, value: unknown, path: readonly PropertyKey[]): string {
  const text = issue.message.replace(/\.$/, "");
  if (issue.code === "invalid_value" && "values" in issue) {
    const values = (issue.values as unknown[]).filter((v): v is string => typeof v === "string");
    const list = `Use one of: ${(issue.values as unknown[]).map((v) => JSON.stringify(v)).join(", ")}.`;
    if (typeof value !== "string") return `invalid value. ${list}`;
    if (path.at(-1) === "isolation" && value === "worktree") return `"worktree" is Claude Code's isolation; write isolation: subagent and worktree: true.`;
    const alias = ALIASES[value.toLowerCase()];
    const near = values.includes(value.toLowerCase()) ? value.toLowerCase() : alias && values.includes(alias) ? alias : closest(value, values);
    const lower = value !== value.toLowerCase() && values.includes(value.toLowerCase()) ? " Names here are lowercase and host-neutral." : "";
    return `${JSON.stringify(value)} is not one of the allowed values.${near ? ` Did you mean "${near}"?` : ""}${lower} ${list}`;
  }
  if (issue.code === "invalid_type") {
    const expected = (issue as { expected?: string }).expected;
    if (expected === "array" && typeof value === "string") {
      const items = value.split(",").map((v) => v.trim()).filter(Boolean);
      const item = (i: string) => (/^[A-Za-z0-9_./-]+$/.test(i) ? i : JSON.stringify(i)); // "**/x" would read as an alias
      return `expected a list, got a string. Write ${String(path.at(-1))}: [${items.map(item).join(", ")}].`;
    }
    if (expected === "array" || expected === "object" || expected === "record")
      return `expected ${expected === "array" ? "a list" : "a mapping"}, got ${describe(value)}.`;
    return `${lowerFirst(text)}. Write a value of the expected type.`;
  }
  if (issue.code === "too_small" && (issue as { origin?: string }).origin === "array") return `${lowerFirst(text)}.`;
  return /[.!]$/.test(issue.message) ? issue.message : `${text}.`;
}

function describe(value: unknown): string {
  if (value === null) return "null (an empty value)";
  if (Array.isArray(value)) return "a list";
  return typeof value === "object" ? "a mapping" : `a ${typeof value}`;
}

function lowerFirst(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1);
}

/** The known name nearest to `word` by edit distance, if near enough to be a typo. */
export function closest(word: string, known: readonly string[]): string | undefined {
  const prefix = known.find((k) => k.startsWith(word) || word.startsWith(k));
  if (prefix && word.length >= 3) return prefix;
  // "retry" → "retries": all but the last letter in common, at least four letters.
  const stem = known.find((k) => word.length >= 5 && commonPrefix(word.toLowerCase(), k.toLowerCase()) >= word.length - 1);
  if (stem) return stem;
  // "scope" → "write-scope": the word is one part of a hyphenated name.
  const part = known.find((k) => k.split("-").includes(word.toLowerCase()));
  if (part && word.length >= 3) return part;
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(word.length / 3)) + 1;
  for (const k of known) {
    const d = distance(word.toLowerCase(), k.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  return best;
}

function commonPrefix(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length]!;
}
