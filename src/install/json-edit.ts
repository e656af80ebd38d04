// Edit a project's JSON text in place (its layout, key order and compact arrays stay) to turn
// `before` into `after`: added keys and entries are inserted before the closing bracket in the
// container's own style, removed ones are cut out with their comma. The result is parsed back and
// must equal `after`; anything else returns null and the caller re-serializes instead.
import { deepEqual, isObject, type Data } from "./merge.js";

type Node =
  | { kind: "object"; start: number; end: number; entries: { key: string; start: number; value: Node }[] }
  | { kind: "array"; start: number; end: number; items: Node[] }
  | { kind: "scalar"; start: number; end: number };

function parse(text: string): Node {
  let i = 0;
  const ws = () => {
    for (;;) {
      while (i < text.length && " \t\r\n\uFEFF".includes(text[i]!)) i++;
      if (text.startsWith("//", i)) i = text.includes("\n", i) ? text.indexOf("\n", i) : text.length;
      else if (text.startsWith("/*", i)) i = text.includes("*/", i + 2) ? text.indexOf("*/", i + 2) + 2 : text.length;
      else return;
    }
  };
  const str = () => {
    const start = i++;
    while (text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (): Node => {
    ws();
    const start = i;
    if (text[i] === "{") {
      i++;
      const entries: { key: string; start: number; value: Node }[] = [];
      ws();
      while (text[i] !== "}") {
        const at = i;
        const key = str();
        ws();
        i++; // ':'
        entries.push({ key, start: at, value: value() });
        ws();
        if (text[i] === ",") i++;
        ws();
      }
      return { kind: "object", start, end: ++i, entries };
    }
    if (text[i] === "[") {
      i++;
      const items: Node[] = [];
      ws();
      while (text[i] !== "]") {
        items.push(value());
        ws();
        if (text[i] === ",") i++;
        ws();
      }
      return { kind: "array", start, end: ++i, items };
    }
    if (text[i] === '"') str();
    else while (i < text.length && !",}]/ \t\r\n".includes(text[i]!)) i++;
    return { kind: "scalar", start, end: i };
  };
  return value();
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

export function jsonEdit(text: string, before: Data, after: Data, unit: string, parseBack: (text: string) => unknown = JSON.parse): string | null {
  if (text.includes("\r") || unit === "") return null;
  let root: Node;
  try {
    root = parse(text);
  } catch {
    return null;
  }
  const edits: Edit[] = [];
  let ok = true;
  const lineIndent = (pos: number) => /^[ \t]*/.exec(text.slice(text.lastIndexOf("\n", pos - 1) + 1))![0];
  // A container is laid out one entry per line when its first entry starts on a new line; an empty
  // one is given that layout (as JSON.stringify with an indent would).
  const multiline = (node: Node, first: number | undefined) => first === undefined || text.slice(node.start, first).includes("\n");
  const render = (v: unknown, indent: string, multi: boolean) => (multi ? JSON.stringify(v, null, unit)!.replace(/\n/g, `\n${indent}`) : JSON.stringify(v)!);

  /** Cut item k of a container's children (spans given), with the comma that joins it. */
  const cut = (node: Node, spans: { start: number; end: number }[], k: number, all: boolean) => {
    if (all) edits.push({ start: node.start + 1, end: node.end - 1, text: "" });
    else if (k > 0) edits.push({ start: spans[k - 1]!.end, end: spans[k]!.end, text: "" });
    else edits.push({ start: spans[0]!.start, end: spans[1]!.start, text: "" });
  };

  /** Cut the children at `removed` (ascending), each run of neighbours as one span, so no two cuts overlap. */
  const cutRuns = (node: Node, spans: { start: number; end: number }[], removed: readonly number[]) => {
    if (removed.length === spans.length) return void (removed.length && cut(node, spans, 0, true));
    for (let r = 0; r < removed.length; ) {
      let last = r;
      while (last + 1 < removed.length && removed[last + 1] === removed[last]! + 1) last++;
      const from = removed[r]!;
      const to = removed[last]!;
      if (from > 0) edits.push({ start: spans[from - 1]!.end, end: spans[to]!.end, text: "" });
      else edits.push({ start: spans[0]!.start, end: spans[to + 1]!.start, text: "" });
      r = last + 1;
    }
  };

  /** Insert rendered children at the end of a container, in its own style. */
  const append = (node: Node, spans: { start: number; end: number }[], parts: ((indent: string, multi: boolean) => string)[]) => {
    if (!parts.length) return;
    const multi = spans.length ? multiline(node, spans[0]!.start) : multiline(node, undefined);
    const outer = lineIndent(node.start);
    const inner = spans.length ? lineIndent(spans[0]!.start) : outer + unit;
    const sep = multi ? `,\n${inner}` : ", ";
    const body = parts.map((p) => p(inner, multi)).join(sep);
    if (spans.length) edits.push({ start: spans[spans.length - 1]!.end, end: spans[spans.length - 1]!.end, text: `${sep}${body}` });
    else edits.push({ start: node.start + 1, end: node.end - 1, text: multi ? `\n${inner}${body}\n${outer}` : body });
  };

  const walkObject = (node: Node, b: Data, a: Data) => {
    if (node.kind !== "object") return void (ok = false);
    const spans = node.entries.map((e) => ({ start: e.start, end: e.value.end }));
    const kept = node.entries.filter((e) => Object.hasOwn(a, e.key));
    const removed: number[] = [];
    node.entries.forEach((e, k) => {
      if (!Object.hasOwn(a, e.key)) removed.push(k);
      else if (!deepEqual(b[e.key], a[e.key])) walkValue(e.value, b[e.key], a[e.key]);
    });
    // every entry gone and others put in their place: the walk below gives up (re-serialized instead)
    if (removed.length < node.entries.length || Object.keys(a).length === 0) cutRuns(node, spans, removed);
    if (kept.length === 0 && node.entries.length && Object.keys(a).length) return void (ok = false);
    const added = Object.keys(a).filter((k) => !Object.hasOwn(b, k));
    append(node, kept.length === node.entries.length ? spans : [], kept.length === node.entries.length ? added.map((k) => (ind: string, multi: boolean) => `${JSON.stringify(k)}: ${render(a[k], ind, multi)}`) : []);
    if (added.length && kept.length !== node.entries.length) ok = false;
  };

  const walkArray = (node: Node, b: unknown[], a: unknown[]) => {
    if (node.kind !== "array") return void (ok = false);
    const spans = node.items.map((n) => ({ start: n.start, end: n.end }));
    if (a.length >= b.length && b.every((x, k) => deepEqual(x, a[k]))) {
      append(node, spans, a.slice(b.length).map((v) => (ind: string, multi: boolean) => render(v, ind, multi)));
      return;
    }
    // The same entries, some changed where they stand (--force puts harness's edited entry back).
    if (a.length === b.length) {
      a.forEach((v, k) => deepEqual(b[k], v) || walkValue(node.items[k]!, b[k], v));
      return;
    }
    // Removals only: `a` must be `b` with some entries taken out, in order.
    let j = 0;
    const drop: number[] = [];
    b.forEach((x, k) => (j < a.length && deepEqual(x, a[j]) ? j++ : drop.push(k)));
    if (j !== a.length) return void (ok = false);
    cutRuns(node, spans, drop);
  };

  const walkValue = (node: Node, b: unknown, a: unknown) => {
    if (isObject(b) && isObject(a)) walkObject(node, b, a);
    else if (Array.isArray(b) && Array.isArray(a)) walkArray(node, b, a);
    else edits.push({ start: node.start, end: node.end, text: render(a, lineIndent(node.start), true) });
  };

  walkObject(root, before, after);
  if (!ok) return null;
  edits.sort((x, y) => y.start - x.start || y.end - x.end);
  for (let k = 1; k < edits.length; k++) if (edits[k]!.end > edits[k - 1]!.start) return null; // overlapping cuts
  let result = text;
  for (const e of edits) result = result.slice(0, e.start) + e.text + result.slice(e.end);
  try {
    return deepEqual(parseBack(result), after) ? result : null;
  } catch {
    return null;
  }
}
