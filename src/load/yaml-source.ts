// YAML documents that remember where each value came from, so every diagnostic can name a line and column.
//
// Two readers, one result. The happy path reads with js-yaml (its cold start is several times
// cheaper than yaml's) and takes key positions from a line scan of the block mappings; it is used
// only when the text stays inside a plain subset and the scan accounts for exactly the keys
// js-yaml read. Anything else, every error, and every `locate()` goes through yaml's
// position-aware Document, so diagnostics are located as before.
import { load as loadFast, FAILSAFE_SCHEMA, Type } from "js-yaml";
import type { Document, LineCounter, Node } from "yaml";
import { yaml } from "./yaml-lazy.js";
import type { Diagnostic, SourcePosition } from "../errors.js";

type Position = { line: number; column: number };

export interface YamlSource {
  file: string;
  text: string;
  data: unknown;
  /** Lines before the YAML text in its file (1 for front matter after the opening `---`). */
  lineOffset: number;
  /** yaml's Document, built on first use (diagnostics); the happy path never needs it. */
  readonly doc: Document;
  readonly lineCounter: LineCounter;
  /** Key positions from the fast path's scan, when it was taken. */
  scanned?: Record<string, Position>;
}

export function parseYamlSource(file: string, text: string, lineOffset: number): { source: YamlSource; errors: Diagnostic[] } {
  const fast = readFast(text, lineOffset);
  if (fast) return { source: lazySource(file, text, lineOffset, fast.data, fast.fields), errors: [] };
  const { doc, lineCounter } = compose(text);
  const errors: Diagnostic[] = [];
  // The first error is the real one; the rest are usually its echoes.
  for (const e of [...doc.errors.slice(0, 1), ...doc.warnings]) {
    const at = lineCounter.linePos(e.pos[0]);
    errors.push({
      code: "E_YAML",
      severity: e.name === "YAMLWarning" ? "warning" : "error",
      position: { file, line: at.line + lineOffset, column: at.col },
      message: `${firstLine(e.message)}. Fix the YAML syntax here (quote values that contain ": ", "#", or start with "@", "*", "&", "!").`,
    });
  }
  const data = errors.some((e) => e.severity === "error") ? undefined : doc.toJS({ maxAliasCount: 100 });
  return { source: { file, text, doc, data, lineOffset, lineCounter }, errors };
}

function compose(text: string): { doc: Document; lineCounter: LineCounter } {
  const { LineCounter, parseDocument } = yaml();
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true, strict: true });
  return { doc, lineCounter };
}

function lazySource(file: string, text: string, lineOffset: number, data: unknown, scanned: Record<string, Position>): YamlSource {
  let composed: { doc: Document; lineCounter: LineCounter } | undefined;
  return {
    file,
    text,
    data,
    lineOffset,
    scanned,
    get doc() {
      return (composed ??= compose(text)).doc;
    },
    get lineCounter() {
      return (composed ??= compose(text)).lineCounter;
    },
  };
}

// ---- the fast path ----

// yaml 1.2 core schema exactly as the `yaml` package resolves plain scalars (js-yaml's own CORE
// schema differs at the edges: "1_000", "0b1", "+0x1", "-.INF"…). One Type per tag: js-yaml keeps
// only the last type of a tag.
const scalar = (tag: string, test: RegExp, construct: (s: string) => unknown) =>
  new Type(`tag:yaml.org,2002:${tag}`, { kind: "scalar", resolve: (s: string | null) => s !== null && test.test(s), construct: (s: string | null) => construct(s ?? "") });
const INT = /^(?:0o[0-7]+|[-+]?[0-9]+|0x[0-9a-fA-F]+)$/;
const FLOAT = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+|[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*))$/;
const CORE = FAILSAFE_SCHEMA.extend({
  implicit: [
    scalar("null", /^(?:~|[Nn]ull|NULL)?$/, () => null),
    scalar("bool", /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/, (s) => s[0] === "t" || s[0] === "T"),
    scalar("int", INT, (s) => (s[1] === "o" ? parseInt(s.slice(2), 8) : s[1] === "x" ? parseInt(s.slice(2), 16) : parseInt(s, 10))),
    scalar("float", FLOAT, (s) =>
      /^[-+]?\.(?:inf|Inf|INF)$/.test(s) ? (s[0] === "-" ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY) : /^\.nan$/i.test(s) ? NaN : parseFloat(s),
    ),
  ],
});

/** The data and key positions, or null when the text needs the full reader. */
export function readFast(text: string, lineOffset: number): { data: unknown; fields: Record<string, Position> } | null {
  if (OUTSIDE_SUBSET.test(text)) return null;
  const fields = scanKeys(text, lineOffset);
  if (!fields) return null;
  let data: unknown;
  try {
    data = loadFast(text, { schema: CORE });
  } catch {
    return null;
  }
  if (data === undefined) data = null;
  // The scan must account for exactly the keys js-yaml read, or its positions cannot be trusted.
  const expected: string[] = [];
  const walk = (value: unknown, prefix: string, depth: number) => {
    if (!value || typeof value !== "object" || Array.isArray(value) || depth > 3) return;
    for (const key of Object.keys(value)) {
      const path = prefix ? `${prefix}.${key}` : key;
      expected.push(path);
      walk((value as Record<string, unknown>)[key], path, depth + 1);
    }
  };
  walk(data, "", 0);
  const found = Object.keys(fields);
  if (found.length !== new Set(expected).size || !expected.every((k) => Object.hasOwn(fields, k))) return null;
  return { data, fields };
}

// Anywhere in the text, also inside sequences and flow collections the scan skips: anchors,
// aliases, tags, explicit keys, and keys that are empty, null or collections (each reader turns
// those into a different string).
const NODE_START = String.raw`(?:^[ \t]*|[:-][ \t]+|[[{,][ \t]*)`;
const OUTSIDE_SUBSET = new RegExp(
  [
    String.raw`${NODE_START}(?:[&*!]|\?(?:[ \t]|$))`, // anchor, alias, tag, explicit key
    String.raw`(?:^|[\s[{,?-])(?:~|null|Null|NULL)?[ \t]*:(?:[ \t]|$)`, // empty or null key
    String.raw`[\]}][ \t]*:(?:[ \t]|$)`, // a collection as a key
    String.raw`[|>](?:[1-9][-+]?|[-+][1-9]|\+)[ \t]*(?:#.*)?$`, // block scalar keeping blank lines or with an indent: readers differ
  ].join("|"),
  "m",
);
const BLANK = /^[ \t]*(?:#.*)?$/;
const KEY = /^(?:([A-Za-z0-9_][A-Za-z0-9_.\/-]*)|"([^"\\]*)"|'([^']*)'):(?: +(.*))?$/;

/**
 * Positions of block-mapping keys (up to four levels deep, as fieldPositions reports them), or null
 * when the text uses anything the scan does not model: flow collections or quoted scalars over
 * several lines, flow mappings where keys are recorded, unusual keys, tabs in indentation,
 * directives or several documents. Sequences are walked too, so every line's indentation is checked.
 */
function scanKeys(text: string, lineOffset: number): Record<string, Position> | null {
  const out: Record<string, Position> = {};
  // open collections; `path` is the dotted prefix of a mapping reached through mappings only
  const stack: { kind: "map" | "seq"; indent: number; path: string | null; depth: number }[] = [];
  let pending: { indent: number; path: string | null; depth: number; dash?: true } | null = null; // "key:" or "-" with nothing after
  let skipAbove = -1; // lines indented more than this continue the previous scalar
  let rooted = false;
  const open = (kind: "map" | "seq", indent: number): boolean => {
    const top = stack[stack.length - 1];
    // A sequence as an item of a sequence: js-yaml 4 reads "-", then a deeper "- ", then "- v" back at
    // the outer indent as one inner list (yaml: [[null], "v"]); found by the differential property test.
    if (pending?.dash && kind === "seq" && indent > pending.indent) return false;
    if (pending && (indent > pending.indent || (kind === "seq" && indent === pending.indent && top?.kind === "map"))) {
      stack.push({ kind, indent, path: kind === "map" ? pending.path : null, depth: pending.depth + 1 });
      pending = null;
      return true;
    }
    pending = null;
    while (stack.length && stack[stack.length - 1]!.indent > indent) stack.pop();
    // a sequence at its key's indent ends at the next key of that mapping
    if (kind === "map" && stack[stack.length - 1]?.kind === "seq" && stack[stack.length - 1]!.indent === indent) stack.pop();
    if (!stack.length) {
      if (rooted) return false;
      rooted = true;
      stack.push({ kind, indent, path: kind === "map" ? "" : null, depth: 0 });
      return true;
    }
    const here = stack[stack.length - 1]!;
    return here.indent === indent && here.kind === kind;
  };
  // After a value: where its continuation lines may go (null: the value cannot be read here)
  const value = (v: string, column: number, owner: number, recorded: boolean): number | null => {
    if (v[0] === "{" || v[0] === "[") {
      const close = v[0] === "{" ? "}" : "]";
      if (recorded && v[0] === "{") return null;
      return v.replace(/\s+#.*$/, "").endsWith(close) ? -1 : null;
    }
    if (v[0] === '"') return /^"(?:[^"\\]|\\.)*"\s*(?:#.*)?$/.test(v) ? -1 : null;
    if (v[0] === "'") return /^'(?:[^']|'')*'\s*(?:#.*)?$/.test(v) ? -1 : null;
    if ("%@`".includes(v[0]!)) return null;
    return v[0] === "|" || v[0] === ">" ? column : owner; // block scalar: deeper than its key; plain: deeper than its owner
  };
  const lines = text.split("\n");
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!;
    if (BLANK.test(line)) continue;
    let indent = 0;
    while (line.charCodeAt(indent) === 32) indent++;
    if (skipAbove >= 0 && indent > skipAbove) continue;
    skipAbove = -1;
    let rest = line.slice(indent);
    if (rest[0] === "\t") return null;
    let dash = -1; // indent of the innermost "-" on this line
    while (/^-(?: |$)/.test(rest)) {
      if (!open("seq", indent)) return null;
      dash = indent;
      const after = rest.slice(1);
      const gap = after.length - after.trimStart().length;
      if (after.trim() === "" || after.trim()[0] === "#") {
        pending = { indent, path: null, depth: stack[stack.length - 1]!.depth, dash: true };
        rest = "";
        break;
      }
      if (after.includes("\t")) return null;
      pending = { indent, path: null, depth: stack[stack.length - 1]!.depth, dash: true }; // the item's content nests in it
      indent += 1 + gap;
      rest = after.slice(gap);
    }
    if (!rest) continue;
    const m = KEY.exec(rest);
    if (!m) {
      // a scalar: an item's value, or a key's value on the next line (a key the scan cannot read: refuse)
      if (/^[^"'[{].*?:(?:[ \t]|$)/.test(rest)) return null;
      const owner = dash >= 0 ? dash : pending && indent > pending.indent ? pending.indent : null;
      if (owner === null) return null;
      pending = null;
      const next = value(rest, indent, owner, false);
      if (next === null) return null;
      skipAbove = next;
      continue;
    }
    // A key that reads as null, a boolean or a number becomes a different string in each reader.
    if (m[1] !== undefined && (/^(?:~|[Nn]ull|NULL|[Tt]rue|TRUE|[Ff]alse|FALSE)$/.test(m[1]) || INT.test(m[1]) || FLOAT.test(m[1]))) return null;
    if (!open("map", indent)) return null;
    const map = stack[stack.length - 1]!;
    const key = m[1] ?? m[2] ?? m[3]!;
    const path = map.path === null ? null : map.path ? `${map.path}.${key}` : key;
    if (path !== null && map.depth <= 3) out[path] = { line: n + 1 + lineOffset, column: indent + 1 };
    const v = (m[4] ?? "").trim();
    if (v === "" || v[0] === "#") pending = { indent, path, depth: map.depth };
    else {
      const next = value(v, indent, indent, path !== null);
      if (next === null) return null;
      skipAbove = next;
    }
  }
  return out;
}

function firstLine(message: string): string {
  return (message.split("\n")[0] ?? message).replace(/[.\s]+$/, "");
}

/** The position of the deepest node that exists along `path`; the key itself when `atKey`. */
export function locate(source: YamlSource, path: readonly PropertyKey[], atKey = false): SourcePosition {
  const { isMap, isSeq, isScalar, isPair } = yaml();
  let node: unknown = source.doc.contents;
  let best: Node | null = (node as Node) ?? null;
  let keyNode: Node | null = null;
  for (const segment of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(segment));
      if (!pair) break;
      keyNode = pair.key as Node;
      node = pair.value;
      best = (pair.value as Node | null) ?? keyNode;
    } else if (isSeq(node) && typeof segment === "number") {
      const item = node.items[segment];
      if (!item) break;
      keyNode = null;
      node = item;
      best = item as Node;
    } else break;
  }
  const target = atKey && keyNode ? keyNode : best;
  const offset = target?.range?.[0] ?? 0;
  const at = source.lineCounter.linePos(offset);
  return { file: source.file, line: at.line + source.lineOffset, column: at.col };
}

/** Positions of every map key, by dotted path, for later diagnostics (losses name the field). */
export function fieldPositions(source: YamlSource): Record<string, Position> {
  if (source.scanned) return { ...source.scanned };
  const { isMap, isScalar, isPair } = yaml();
  const out: Record<string, Position> = {};
  const walk = (node: unknown, prefix: string, depth: number) => {
    if (!isMap(node) || depth > 3) return;
    for (const pair of node.items) {
      if (!isPair(pair) || !isScalar(pair.key)) continue;
      const key = prefix ? `${prefix}.${String(pair.key.value)}` : String(pair.key.value);
      const at = source.lineCounter.linePos((pair.key as Node).range?.[0] ?? 0);
      out[key] = { line: at.line + source.lineOffset, column: at.col };
      walk(pair.value, key, depth + 1);
    }
  };
  walk(source.doc.contents, "", 0);
  return out;
}
