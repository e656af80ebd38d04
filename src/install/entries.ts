// Which entries of a shared file's arrays are harness's, as they are on disk now. An entry harness
// added is found by its exact value; once edited by hand it is found by what makes it harness's: it
// names a file harness installed (a hook entry runs `.claude/hooks/harness-audit.mjs`). Nothing else
// identifies an edited entry, so a changed string such as a permission rule is never guessed at.
import { deepEqual, isObject, type Data, type OwnedItem } from "./merge.js";

export type AddItem = Extract<OwnedItem, { kind: "add" }>;

export interface EntryMap {
  /** Each owned entry found on disk: its index, and whether it was edited since harness wrote it. */
  found: Map<AddItem, { index: number; edited: boolean }>;
  /** Entries that name a harness file but no owned entry accounts for: a duplicate or an orphan. */
  strays: { path: string[]; index: number; value: unknown; duplicate: boolean }[];
}

function strings(v: unknown, out: string[] = []): string[] {
  if (typeof v === "string") out.push(v);
  else if (Array.isArray(v)) for (const x of v) strings(x, out);
  else if (isObject(v)) for (const k of Object.keys(v)) strings(v[k], out);
  return out;
}

/**
 * The harness files (`marks`, project-relative paths) that an object entry names in any of its
 * strings. A bare string entry (a permission rule) names none: only its exact value is harness's.
 */
export function namedFiles(v: unknown, marks: readonly string[]): string[] {
  if (!isObject(v)) return [];
  const all = strings(v);
  return marks.filter((m) => all.some((s) => s.includes(m)));
}

/** How alike two values are: the number of equal leaves at equal places. */
function likeness(a: unknown, b: unknown): number {
  if (isObject(a) && isObject(b)) return Object.keys(a).reduce((n, k) => n + (Object.hasOwn(b, k) ? likeness(a[k], b[k]) : 0), 0);
  if (Array.isArray(a) && Array.isArray(b)) return a.reduce((n: number, x, i) => n + (i < b.length ? likeness(x, b[i]) : 0), 0);
  return deepEqual(a, b) ? 1 : 0;
}

function arrayAt(root: Data, path: readonly string[]): unknown[] | null {
  let node: unknown = root;
  for (const key of path) {
    if (!isObject(node) || !Object.hasOwn(node, key)) return null;
    node = node[key];
  }
  return Array.isArray(node) ? node : null;
}

export function mapEntries(root: Data, items: readonly OwnedItem[], marks: readonly string[]): EntryMap {
  const found: EntryMap["found"] = new Map();
  const strays: EntryMap["strays"] = [];
  const byPath = new Map<string, AddItem[]>();
  for (const item of items) if (item.kind === "add") byPath.set(JSON.stringify(item.path), [...(byPath.get(JSON.stringify(item.path)) ?? []), item]);
  for (const adds of byPath.values()) {
    const path = adds[0]!.path;
    const list = arrayAt(root, path);
    if (!list) continue;
    const claimed = new Set<number>();
    for (const item of adds) {
      const i = list.findIndex((x, k) => !claimed.has(k) && deepEqual(x, item.value));
      if (i >= 0) (claimed.add(i), found.set(item, { index: i, edited: false }));
    }
    for (const item of adds) {
      if (found.has(item)) continue;
      const names = namedFiles(item.value, marks);
      if (!names.length) continue;
      let best = -1;
      let score = -1;
      list.forEach((x, k) => {
        if (claimed.has(k) || !namedFiles(x, names).length) return;
        const s = likeness(item.value, x);
        if (s > score) (best = k), (score = s);
      });
      if (best >= 0) (claimed.add(best), found.set(item, { index: best, edited: true }));
    }
    list.forEach((x, k) => {
      if (claimed.has(k) || !namedFiles(x, marks).length) return;
      const duplicate = adds.some((a) => namedFiles(a.value, marks).some((m) => namedFiles(x, [m]).length));
      strays.push({ path, index: k, value: x, duplicate });
    });
  }
  return { found, strays };
}
