// Edit a project's TOML text in place (its comments and layout stay) to turn `before` into `after`:
// added keys go into their table's section, added tables are appended, removed ones are cut out.
// The result is parsed back and must equal `after`; anything it cannot place exactly returns null,
// and the caller re-serializes instead. Only what harness adds or removes is ever touched.
import { parse as tomlParse, stringify as tomlStringify } from "smol-toml";
import { deepEqual, isObject, setKey, type Data } from "./merge.js";

interface Section {
  path: string[]; // [] = the root table
  array: boolean;
  start: number; // header line (root: 0)
  end: number; // exclusive
}

function parseKeyPath(text: string): string[] | null {
  const parts: string[] = [];
  let rest = text.trim();
  while (rest.length) {
    let m: RegExpExecArray | null;
    if ((m = /^"((?:[^"\\]|\\.)*)"/.exec(rest))) parts.push(JSON.parse(`"${m[1]}"`) as string);
    else if ((m = /^'([^']*)'/.exec(rest))) parts.push(m[1]!);
    else if ((m = /^[A-Za-z0-9_-]+/.exec(rest))) parts.push(m[0]);
    else return null;
    rest = rest.slice(m[0].length).trim();
    if (!rest.length) break;
    if (rest[0] !== ".") return null;
    rest = rest.slice(1).trim();
  }
  return parts;
}

function sections(lines: readonly string[]): Section[] | null {
  const out: Section[] = [{ path: [], array: false, start: 0, end: lines.length }];
  let inString: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    for (const q of ['"""', "'''"]) {
      const n = line.split(q).length - 1;
      if (n % 2 === 1 && (inString === null || inString === q)) inString = inString === null ? q : null;
    }
    if (inString !== null) continue;
    const m = /^\s*(\[\[?)([^\]]*)(\]\]?)\s*(#.*)?$/.exec(line);
    if (!m) continue;
    const path = parseKeyPath(m[2]!);
    if (!path || !path.length) return null;
    out[out.length - 1]!.end = i;
    out.push({ path, array: m[1] === "[[", start: i, end: lines.length });
  }
  return inString === null ? out : null;
}

const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
const startsWith = (p: readonly string[], prefix: readonly string[]) => prefix.every((x, i) => p[i] === x);

function keyLine(line: string, key: string): boolean {
  const m = /^\s*("(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+)\s*=/.exec(line);
  return m !== null && parseKeyPath(m[1]!)?.length === 1 && parseKeyPath(m[1]!)![0] === key;
}

function wrap(path: readonly string[], value: Data): Data {
  let node: Data = value;
  for (const key of [...path].reverse()) {
    const parent: Data = {};
    setKey(parent, key, node);
    node = parent;
  }
  return node;
}

function addInto(tree: Data, path: readonly string[], key: string, value: unknown): void {
  let node = tree;
  for (const k of path) {
    if (!Object.hasOwn(node, k)) setKey(node, k, {});
    node = node[k] as Data;
  }
  setKey(node, key, value);
}

export function tomlEdit(text: string, before: Data, after: Data): string | null {
  if (text.includes("\r")) return null;
  const trailing = text.endsWith("\n");
  const lines = text === "" ? [] : text.split("\n");
  if (trailing) lines.pop();
  const secs = sections(lines);
  if (!secs) return null;
  const remove = new Set<number>();
  const insertAfter = new Map<number, string[]>(); // line index → lines placed after it
  const appendix: Data = {};
  let ok = true;

  const sectioned = (p: readonly string[]) => secs.some((s) => startsWith(s.path, p) && s.path.length >= p.length && !s.array);
  const exact = (p: readonly string[]) => secs.find((s) => same(s.path, p) && !s.array);

  const walk = (path: string[], b: Data, a: Data) => {
    const section = path.length ? exact(path) : secs[0];
    for (const key of Object.keys(b)) {
      if (Object.hasOwn(a, key)) continue;
      const p = [...path, key];
      if (isObject(b[key]) && sectioned(p)) {
        for (const s of secs) if (startsWith(s.path, p)) for (let i = s.start; i < s.end; i++) remove.add(i);
      } else {
        const i = section ? lines.slice(section.start, section.end).findIndex((l, j) => (j > 0 || !path.length) && keyLine(l, key)) : -1;
        if (i < 0) ok = false;
        else remove.add(section!.start + i);
      }
    }
    for (const key of Object.keys(a)) {
      const p = [...path, key];
      const av = a[key];
      if (Object.hasOwn(b, key)) {
        if (deepEqual(b[key], av)) continue;
        if (isObject(b[key]) && isObject(av) && sectioned(p)) walk(p, b[key] as Data, av);
        else ok = false; // a changed value or a non-table container: re-serialize instead
        continue;
      }
      if (isObject(av) || (Array.isArray(av) && av.some(isObject))) {
        addInto(appendix, path, key, av);
      } else if (section) {
        let at = section.end - 1;
        while (at > section.start && lines[at]!.trim() === "") at--;
        if (at < section.start || (path.length === 0 && lines[at]!.trim() === "" )) at = path.length ? section.start : -1;
        const rendered = tomlStringify(wrap([], Object.defineProperty({}, key, { value: av, enumerable: true }) as Data)).replace(/\n+$/, "");
        insertAfter.set(at, [...(insertAfter.get(at) ?? []), rendered]);
      } else {
        addInto(appendix, path, key, av);
      }
    }
  };
  walk([], before, after);
  if (!ok) return null;

  // Appended tables follow exactly one blank line; cut it with a removed run that ends the file.
  let last = lines.length - 1;
  while (last >= 0 && remove.has(last)) last--;
  if (last < lines.length - 1 && last >= 0 && lines[last]!.trim() === "") remove.add(last);

  const out: string[] = [...(insertAfter.get(-1) ?? [])];
  lines.forEach((line, i) => {
    if (!remove.has(i)) out.push(line);
    out.push(...(insertAfter.get(i) ?? []));
  });
  let result = out.join("\n");
  if (trailing || out.length) result += "\n";
  if (Object.keys(appendix).length) {
    const extra = tomlStringify(appendix);
    result = `${result}${result === "" ? "" : "\n"}${extra.endsWith("\n") ? extra : `${extra}\n`}`;
  }
  try {
    return deepEqual(tomlParse(result), after) ? result : null;
  } catch {
    return null;
  }
}
