// zod issues → compiler diagnostics with positions and a fix for each.
import type * as z from "zod";
import type { Diagnostic } from "../errors.js";
import { locate, type YamlSource } from "../load/yaml-source.js";

export function fieldPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const seg of path) out += typeof seg === "number" ? `[${seg}]` : out ? `.${String(seg)}` : String(seg);
  return out;
}

export function diagnoseZod(error: z.ZodError, source: YamlSource, code: string, allowed: (path: readonly PropertyKey[]) => string[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const issue of error.issues) {
    const path = issue.path as PropertyKey[];
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        const keyPath = [...path, key];
        const known = allowed(path);
        const near = closest(key, known);
        out.push({
          code,
          severity: "error",
          position: locate(source, keyPath, true),
          field: fieldPath(keyPath),
          message: `unknown field. ${near ? `Did you mean "${near}"? ` : ""}Known fields here: ${known.join(", ")}.`,
        });
      }
      continue;
    }
    const missing = issue.code === "invalid_type" && (issue as { input?: unknown }).input === undefined;
    out.push({
      code,
      severity: "error",
      position: locate(source, path, missing),
      field: fieldPath(path) || undefined,
      message: missing ? `missing required field. Add "${String(path.at(-1))}" here.` : explain(issue),
    });
  }
  return out;
}

function explain(issue: z.core.$ZodIssue): string {
  const text = issue.message.replace(/\.$/, "");
  if (issue.code === "invalid_value" && "values" in issue)
    return `invalid value. Use one of: ${(issue.values as unknown[]).map((v) => JSON.stringify(v)).join(", ")}.`;
  if (issue.code === "invalid_type") return `${lowerFirst(text)}. Write a value of the expected type.`;
  if (issue.code === "too_small" && (issue as { origin?: string }).origin === "array") return `${lowerFirst(text)}.`;
  return /[.!]$/.test(issue.message) ? issue.message : `${text}.`;
}

function lowerFirst(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1);
}

/** The known name nearest to `word` by edit distance, if near enough to be a typo. */
export function closest(word: string, known: readonly string[]): string | undefined {
  const prefix = known.find((k) => k.startsWith(word) || word.startsWith(k));
  if (prefix && word.length >= 3) return prefix;
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(word.length / 3)) + 1;
  for (const k of known) {
    const d = distance(word.toLowerCase(), k.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  return best;
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
