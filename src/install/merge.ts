// Structural merge of harness's data into a project's JSON/TOML data, recording exactly what harness
// owns, and the inverse. Knows nothing of files or formats: plain data in, plain data out.
import { mapEntries } from "./entries.js";

export type Data = Record<string, unknown>;

/**
 * One piece of a shared file that harness owns. `set`: a key harness added (or, with --force, took
 * over: `replaced` holds the project's value to give back). `add`: an array entry harness added.
 * `create`: a container harness had to create; removed at uninstall only when empty again.
 */
export type OwnedItem =
  | { kind: "set"; path: string[]; value: unknown; replaced?: { value: unknown }; hosts: string[] }
  | { kind: "add"; path: string[]; value: unknown; hosts: string[] }
  | { kind: "create"; path: string[]; container: "object" | "array"; hosts: string[] }
  /** `take`: the team's own key harness took away (an agent `harness import` adopted: opencode.json `agent.<name>`); uninstall puts `value` back. */
  | { kind: "take"; path: string[]; value: unknown; hosts: string[] };

export interface Conflict {
  path: string[];
  ours: unknown;
  theirs: unknown;
}

export const isObject = (v: unknown): v is Data => typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date);

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}

export function clone<T>(v: T): T {
  if (Array.isArray(v)) return v.map(clone) as T;
  if (isObject(v)) {
    const out: Data = {};
    for (const k of Object.keys(v)) setKey(out, k, clone(v[k]));
    return out as T;
  }
  return v;
}

/** defineProperty, not assignment: a "__proto__" key stays a key. */
export function setKey(obj: Data, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

const pathKey = (p: readonly string[]) => JSON.stringify(p);

/** `units` patterns are dotted paths; `*` matches any one key. */
export function isUnit(path: readonly string[], units: readonly string[]): boolean {
  return units.some((u) => {
    const parts = u.split(".");
    return parts.length === path.length && parts.every((part, i) => part === "*" || part === path[i]);
  });
}

interface Ctx {
  host: string;
  units: readonly string[];
  shorthand: Readonly<Record<string, string>>;
  force: boolean;
  owned: OwnedItem[];
  conflicts: Conflict[];
}

function claim(ctx: Ctx, kind: OwnedItem["kind"], path: string[], value?: unknown): boolean {
  const key = pathKey(path);
  const item = ctx.owned.find((o) => o.kind === kind && pathKey(o.path) === key && (kind !== "add" || deepEqual((o as { value: unknown }).value, value)));
  if (item && !item.hosts.includes(ctx.host)) item.hosts = [...item.hosts, ctx.host].sort();
  return item !== undefined;
}

function place(target: Data, key: string, value: unknown, path: string[], ctx: Ctx): void {
  if (isObject(value) && !isUnit(path, ctx.units)) {
    setKey(target, key, {});
    ctx.owned.push({ kind: "create", path, container: "object", hosts: [ctx.host] });
    mergeObject(target[key] as Data, value, path, ctx);
  } else if (Array.isArray(value)) {
    setKey(target, key, []);
    ctx.owned.push({ kind: "create", path, container: "array", hosts: [ctx.host] });
    for (const entry of value) addEntry(target[key] as unknown[], entry, path, ctx);
  } else {
    setKey(target, key, clone(value));
    ctx.owned.push({ kind: "set", path, value: clone(value), hosts: [ctx.host] });
  }
}

function addEntry(list: unknown[], entry: unknown, path: string[], ctx: Ctx): void {
  if (list.some((x) => deepEqual(x, entry))) {
    claim(ctx, "add", path, entry); // the project's own equal entry stays the project's
    return;
  }
  list.push(clone(entry));
  ctx.owned.push({ kind: "add", path, value: clone(entry), hosts: [ctx.host] });
}

function mergeObject(target: Data, ours: Data, path: string[], ctx: Ctx): void {
  for (const key of Object.keys(ours)) {
    const p = [...path, key];
    const ov = ours[key];
    if (!Object.hasOwn(target, key)) {
      place(target, key, ov, p, ctx);
      continue;
    }
    const tv = target[key];
    if (isObject(tv) && isObject(ov) && !isUnit(p, ctx.units)) {
      claim(ctx, "create", p);
      mergeObject(tv, ov, p, ctx);
    } else if (Array.isArray(tv) && Array.isArray(ov)) {
      claim(ctx, "create", p);
      for (const entry of ov) addEntry(tv, entry, p, ctx);
    } else if (deepEqual(tv, ov)) {
      claim(ctx, "set", p);
    } else if (expandShorthand(target, key, tv, ov, p, ctx)) {
      continue;
    } else if (ctx.force) {
      const prior = ctx.owned.findIndex((o) => o.kind === "set" && pathKey(o.path) === pathKey(p));
      if (prior >= 0) ctx.conflicts.push({ path: p, ours: ov, theirs: tv }); // two hosts disagree: never silently
      else {
        ctx.owned.push({ kind: "set", path: p, value: clone(ov), replaced: { value: clone(tv) }, hosts: [ctx.host] });
        setKey(target, key, clone(ov));
      }
    } else {
      ctx.conflicts.push({ path: p, ours: ov, theirs: tv });
    }
  }
}

/**
 * A scalar where the other side has an object, at a shorthand path: read the scalar as `{ [key]: it }`.
 * The project's scalar becomes an object holding it plus harness's rules; uninstall gives the scalar back.
 */
function expandShorthand(target: Data, key: string, tv: unknown, ov: unknown, p: string[], ctx: Ctx): boolean {
  const short = Object.entries(ctx.shorthand).find(([pattern]) => isUnit(p, [pattern]))?.[1];
  if (short === undefined || isObject(tv) === isObject(ov) || Array.isArray(tv) || Array.isArray(ov)) return false;
  const wrap = (v: unknown): Data => {
    const o: Data = {};
    setKey(o, short, v);
    return o;
  };
  if (isObject(tv)) {
    mergeObject(tv, wrap(ov), p, ctx);
    return true;
  }
  const merged = wrap(clone(tv));
  const trial: Ctx = { ...ctx, owned: [], conflicts: [] };
  mergeObject(merged, ov as Data, p, trial);
  if (trial.conflicts.length) return false;
  ctx.owned.push({ kind: "set", path: p, value: clone(merged), replaced: { value: clone(tv) }, hosts: [ctx.host] });
  setKey(target, key, merged);
  return true;
}

/** Merge one host's data into `target` (mutated). Items already in `owned` are shared, not doubled. */
export function mergeData(target: Data, ours: Data, opts: { host: string; units?: readonly string[]; shorthand?: Readonly<Record<string, string>>; force?: boolean; owned: OwnedItem[] }): Conflict[] {
  const ctx: Ctx = { host: opts.host, units: opts.units ?? [], shorthand: opts.shorthand ?? {}, force: opts.force ?? false, owned: opts.owned, conflicts: [] };
  mergeObject(target, ours, [], ctx);
  return ctx.conflicts;
}

export function parentOf(root: Data, path: readonly string[]): Data | undefined {
  let node: unknown = root;
  for (const key of path.slice(0, -1)) {
    if (!isObject(node) || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return isObject(node) ? node : undefined;
}

function valueAt(root: Data, path: readonly string[]): { found: boolean; value?: unknown } {
  const parent = parentOf(root, path);
  const key = path[path.length - 1]!;
  return parent && Object.hasOwn(parent, key) ? { found: true, value: parent[key] } : { found: false };
}

/** Owned items whose value on disk is no longer what harness wrote (hand edits, removals). */
export function modifiedItems(root: Data, items: readonly OwnedItem[], marks: readonly string[] = []): OwnedItem[] {
  const { found } = mapEntries(root, items, marks);
  return items.filter((item) => {
    const at = valueAt(root, item.path);
    if (item.kind === "set") return !at.found || !deepEqual(at.value, item.value);
    if (item.kind === "add") return found.get(item)?.edited !== false;
    if (item.kind === "take") return at.found; // the key is back: someone wrote it again
    return false; // a created container the project added to is still fine
  });
}

/**
 * Remove owned items from `root` (mutated), last first, so children go before their containers.
 * Keys changed by hand are kept unless `force` (returned); items already gone need nothing. An
 * array entry harness added goes even when edited by hand, with any duplicate or orphan that names
 * a harness file (`marks`): each runs a script that goes with harness.
 */
export function unmergeData(root: Data, items: readonly OwnedItem[], force: boolean, marks: readonly string[] = []): OwnedItem[] {
  const kept: OwnedItem[] = [];
  const modified = new Set(modifiedItems(root, items, marks));
  const { found, strays } = mapEntries(root, items, marks);
  const drop = new Map<unknown[], number[]>();
  const mark = (path: readonly string[], index: number) => {
    const list = parentOf(root, path)?.[path[path.length - 1]!] as unknown[];
    drop.set(list, [...(drop.get(list) ?? []), index]);
  };
  for (const [item, at] of found) mark(item.path, at.index);
  for (const s of strays) mark(s.path, s.index);
  for (const [list, indices] of drop) for (const i of [...indices].sort((a, b) => b - a)) list.splice(i, 1);
  for (const item of [...items].reverse()) {
    const parent = parentOf(root, item.path);
    const key = item.path[item.path.length - 1]!;
    if (item.kind === "take") {
      // the team's key comes back, unless a key of that name stands there again (theirs: kept)
      if (parent && !Object.hasOwn(parent, key)) setKey(parent, key, clone(item.value));
      else if (parent) kept.push(item);
      continue;
    }
    if (!parent || !Object.hasOwn(parent, key) || item.kind === "add") continue;
    if (item.kind === "create") {
      const v = parent[key];
      const empty = Array.isArray(v) ? v.length === 0 : isObject(v) ? Object.keys(v).length === 0 : false;
      if (empty) delete parent[key];
      continue;
    }
    if (modified.has(item) && !force) {
      kept.push(item);
      continue;
    }
    if (item.replaced) setKey(parent, key, clone(item.replaced.value));
    else delete parent[key];
  }
  return kept.reverse();
}

export const formatPath = (path: readonly string[]) => path.map((k) => (/^[A-Za-z0-9_$-]+$/.test(k) ? k : JSON.stringify(k))).join(".");
