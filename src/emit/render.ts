// Stage 5: structured HostFiles → exact bytes. The only place structured text is produced.
import { stringify as tomlStringify } from "smol-toml";
import type { HostFile, InstallMode } from "../adapter/types.js";
import { yaml } from "../load/yaml-lazy.js";
import { writeBlockYaml } from "./yaml-block.js";

export interface RenderedFile {
  path: string; // POSIX, relative to out/<host>/
  content: string;
  executable: boolean;
  /** How `harness install` places it in a project (the adapter's declaration; default whole). */
  install?: InstallMode;
}

/** Keys sorted at every depth, so JSON bytes never depend on construction order. */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v === undefined) continue;
      // a "__proto__" key must stay a key, not become the prototype (defineProperty is slower: only there)
      if (key === "__proto__") Object.defineProperty(out, key, { value: sortKeys(v), enumerable: true, writable: true, configurable: true });
      else out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}

export function renderYaml(data: unknown): string {
  // lineWidth 0: never fold long strings (hosts differ in how they read folded scalars).
  // blockQuote false: multi-line strings are double-quoted with escapes. A block scalar that keeps
  // trailing newlines (`|+`) loses one when a host splits front matter at the closing `---`.
  // writeBlockYaml covers the usual shapes with the same bytes, without yaml's cold start.
  return writeBlockYaml(data) ?? yaml().stringify(data, YAML_OPTIONS);
}

export const YAML_OPTIONS = { lineWidth: 0, minContentWidth: 0, aliasDuplicateObjects: false, blockQuote: false } as const;

export function renderJson(data: unknown): string {
  return `${JSON.stringify(sortKeys(data), null, 2)}\n`;
}

export function renderToml(data: Record<string, unknown>): string {
  return ensureTrailingNewline(tomlStringify(data));
}

export function renderMarkdown(frontmatter: Record<string, unknown> | undefined, body: string): string {
  const head = frontmatter && Object.keys(frontmatter).length > 0 ? `---\n${renderYaml(frontmatter)}---\n\n` : "";
  // The body is usually a rope (a role's text and its limits); reading it flattens it into a copy,
  // and writing the file flattens head + body into another. Read the whole file instead: one copy,
  // and a body that already ends in one newline is returned as that flat string, not copied again.
  const whole = head + body;
  if (whole.includes("\r")) return head + ensureTrailingNewline(trimTrailingNewlines(unixNewlines(body)));
  let end = whole.length;
  while (end > head.length && whole.charCodeAt(end - 1) === 10) end--; // the body's trailing newlines
  if (end === whole.length) return `${whole}\n`;
  return end + 1 === whole.length ? whole : whole.slice(0, end + 1);
}

const unixNewlines = (text: string) => (text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text);

/** `text` without its trailing newlines: what .replace(/\n+$/, "") does, without a regex that tries every run of newlines in the text. */
function trimTrailingNewlines(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 10) end--;
  return end === text.length ? text : text.slice(0, end);
}

function ensureTrailingNewline(text: string): string {
  return text.endsWith("\n") ? text : `${text}\n`;
}

export function renderFile(file: HostFile): RenderedFile {
  const content = (() => {
    switch (file.kind) {
      case "markdown":
        return renderMarkdown(file.frontmatter, file.body);
      case "json":
        return renderJson(file.data);
      case "yaml":
        return renderYaml(file.data);
      case "toml":
        return renderToml(file.data);
      case "text":
        return ensureTrailingNewline(unixNewlines(file.text));
    }
  })();
  const executable = file.kind === "text" && file.executable === true;
  if (file.install?.mode === "block" && file.install.entry !== undefined && content.split(file.install.entry).length !== 2)
    throw new Error(`${file.path}: its install entry must occur exactly once in its text`);
  return file.install && file.install.mode !== "whole" ? { path: file.path, content, executable, install: file.install } : { path: file.path, content, executable };
}
