// Plan an install or an uninstall: read the project and the lock, decide every file's new bytes and
// the new lock. Reads only; src/install/apply.ts writes.
import type { InstallMode } from "../adapter/types.js";
import type { RenderedFile } from "../emit/render.js";
import { compose, dropEntry, findBlock, insertBlock, renderBlock } from "./block.js";
import { formatOf, parseData, renderData } from "./formats.js";
import { renderLock, renderLockValue, sha256, type Lock, type LockEntry } from "./lock.js";
import { mapEntries } from "./entries.js";
import { clone, deepEqual, formatPath, mergeData, modifiedItems, parentOf, setKey, type Data, type OwnedItem } from "./merge.js";
import { handEdits, strip } from "./parts.js";
import { isExecutable, readCurrent } from "./safe-path.js";
import { Targets } from "./targets.js";
import { problemAt, type Problem } from "./locate.js";
import { byCodeUnit } from "../compare.js";
import { configValueSha } from "../import/config.js";

/** ok: as harness left it; the rest are what `check --installed` reports as drift. */
export type FileState = "ok" | "missing" | "modified" | "outdated" | "unrecorded" | "orphaned";

export interface FileChange {
  path: string;
  /** The file on disk, when it is not `path` (a link's target, or a file two planned paths share). */
  target?: string;
  mode: "whole" | "merge" | "block";
  hosts: string[];
  before: string | null;
  after: string | null; // null = remove
  executable: boolean;
  /** Same bytes, but an executable harness file lost its executable bit. */
  fixMode?: true;
  state: FileState;
  /** Why harness left the file as it is (hand edits, conflicts, a file it does not own). */
  problems: Problem[];
}

export interface Plan {
  changes: FileChange[];
  lock: Lock | null; // null = no lock any more
  lockBefore: string | null;
  lockAfter: string | null;
}

export interface HostFiles {
  host: string;
  files: readonly RenderedFile[];
}

const byPath = (a: { path: string }, b: { path: string }) => byCodeUnit(a.path, b.path);
const changed = (c: FileChange) => c.before !== c.after || c.fixMode === true;

interface Wanted {
  mode: InstallMode;
  contributions: { host: string; file: RenderedFile }[];
}

function wanted(outputs: readonly HostFiles[], root: string, lock: Lock | null): Map<string, Wanted> {
  const map = new Map<string, Wanted>();
  for (const o of outputs)
    for (const file of o.files) {
      const mode = file.install ?? { mode: "whole" as const };
      const target = mode.mode === "merge" && mode.alias && usesAlias(root, lock, file.path, mode.alias) ? mode.alias : file.path;
      const w = map.get(target) ?? { mode, contributions: [] };
      if (w.mode.mode !== mode.mode) throw new Error(`${target}: hosts declare different install modes (${w.mode.mode}, ${mode.mode})`);
      w.contributions.push({ host: o.host, file });
      map.set(target, w);
    }
  return map;
}

/** Install into the other name the host reads (opencode.jsonc) when the team's file has that name. */
function usesAlias(root: string, lock: Lock | null, file: string, alias: string): boolean {
  if (lock?.files[alias]) return true;
  if (lock?.files[file]) return false;
  return readCurrent(root, file) === null && readCurrent(root, alias) !== null;
}

function mergeRules(w: Wanted): { units: string[]; shorthand: Record<string, string> } {
  const declared = w.contributions.flatMap((c) => (c.file.install?.mode === "merge" ? [c.file.install] : []));
  return { units: declared.flatMap((d) => d.units ?? []), shorthand: Object.assign({}, ...declared.map((d) => d.shorthand ?? {})) };
}

const brief = (v: unknown) => {
  const s = JSON.stringify(v);
  return s.length > 60 ? `${s.slice(0, 57)}…` : s;
};

/** The file with harness's new part placed into the project's own text `base`. */
function place(path: string, w: Wanted, base: string | null, force: boolean, installed?: { text: string; entry: LockEntry }, name?: string, adopt?: ReadonlyMap<string, string>, adoptKeys?: readonly AdoptedKey[]): { text: string; entry: LockEntry } | { problems: Problem[] } {
  const hosts = w.contributions.map((c) => c.host).sort();
  const created = (installed ? installed.entry.created : base === null) ? { created: true as const } : {};
  if (w.mode.mode === "whole") {
    const content = w.contributions[0]!.file.content;
    if (w.contributions.some((c) => c.file.content !== content)) throw new Error(`${path}: hosts ${hosts.join(", ")} emit different bytes for a whole file`);
    // the team's own agent that `harness import` read (same bytes): replaced, and kept in the lock for uninstall
    const adopted = base !== null && base !== content && adopt?.get(path) === sha256(base);
    if (base !== null && base !== content && !adopted) return { problems: [problemAt("W_NOT_OWNED", path, null, "exists and harness did not write it (harness never overwrites a file it does not own)")] };
    const executable = w.contributions.some((c) => c.file.executable);
    return { text: content, entry: { mode: "whole", hosts, sha256: sha256(content), ...(executable ? { executable: true as const } : {}), ...(adopted ? { original: base, adopted: true as const } : {}) } };
  }
  if (w.mode.mode === "block") {
    const { content, entries } = compose(path, w.contributions.map((c) => ({ host: c.host, content: c.file.content, ...(c.file.install?.mode === "block" && c.file.install.entry !== undefined ? { entry: c.file.install.entry } : {}) })));
    // An installed block is replaced where it stands: the team's text above and below stays put.
    const inPlace = installed?.entry.mode === "block" && findBlock(installed.text, path, name) ? installed : null;
    const block = renderBlock(content, name);
    const { text, separator } = inPlace ? { text: insertBlock(inPlace.text, block, path, name).text, separator: (inPlace.entry as { separator: string }).separator } : insertBlock(base, block, path, name);
    const entry: LockEntry = { mode: "block", hosts, sha256: sha256(text), block: sha256(content), separator, ...created, ...(Object.keys(entries).length ? { entries } : {}), ...(name ? { link: true as const } : {}) };
    return { text, entry: withOriginal(path, text, entry, base) };
  }
  const format = formatOf(path, w.mode.mode === "merge" && w.mode.jsonc === true);
  if (!format) throw new Error(`${path}: install mode "merge" needs a .json or .toml file`);
  const baseData: Data = base === null ? {} : parseData(format, base, path);
  const data = base === null ? {} : parseData(format, base, path);
  const owned: OwnedItem[] = [];
  const problems: Problem[] = [];
  // first, so a key harness writes where an adopted agent stood is no conflict with the team's
  for (const k of takeAdopted(data, adoptKeys ?? [], hosts, owned))
    problems.push(problemAt("W_NOT_OWNED", path, base, `${formatPath(k.key)} changed since harness import read it, so install does not take it away, and ${k.host} would merge it into the generated agent. Run harness import --force again, or remove the key`, [...k.key]));
  for (const c of w.contributions) {
    const ours = parseData(format, c.file.content, `${c.host}: ${path}`);
    for (const k of mergeData(data, ours, { host: c.host, ...mergeRules(w), force, owned }))
      problems.push(problemAt("W_CONFLICT", path, base, `${formatPath(k.path)} is ${brief(k.theirs)} here; ${c.host} needs ${brief(k.ours)}. Kept yours: remove the key, or run with --force to replace it (uninstall gives it back)`, k.path));
  }
  if (problems.length) return { problems };
  const text = renderData(format, data, base, base === null ? null : baseData, path);
  const entry: LockEntry = { mode: "merge", format, hosts, sha256: sha256(text), owned, ...created };
  return { text, entry: withOriginal(path, text, entry, base) };
}

/**
 * The team's agents inside this shared file that `harness import` read (opencode.json `agent.<name>`):
 * each key whose value is still what the import read is taken out, so the host does not merge the
 * unguarded original into the generated agent; the lock keeps the value, uninstall puts it back.
 */
function takeAdopted(data: Data, keys: readonly AdoptedKey[], hosts: readonly string[], owned: OwnedItem[]): AdoptedKey[] {
  const changed: AdoptedKey[] = [];
  for (const k of keys) {
    if (!hosts.includes(k.host)) continue;
    const parent = parentOf(data, k.key);
    const last = k.key[k.key.length - 1]!;
    if (!parent || !Object.hasOwn(parent, last)) continue; // the team took it out themselves
    if (configValueSha(parent[last]) !== k.sha256) {
      changed.push(k);
      continue;
    }
    owned.push({ kind: "take", path: [...k.key], value: clone(parent[last]), hosts: [k.host] });
    delete parent[last];
  }
  return changed;
}

/** Keep the project's bytes in the lock only when taking harness's part out would not give them back. */
function withOriginal(path: string, text: string, entry: LockEntry, base: string | null): LockEntry {
  if (base === null) return entry;
  // as uninstall will read the entry back from the lock, which sorts object keys: a value install
  // took away (an adopted agent entry) comes back in sorted order, so it may not give the bytes back
  const back = strip(path, text, JSON.parse(renderLockValue(entry)) as LockEntry, false).text;
  return back === base ? entry : { ...entry, original: base };
}

/** The files harness installs whole (its scripts): an array entry naming one is harness's. With `drop`, only those no other host keeps. */
function harnessFiles(lock: Lock | null, extra: readonly string[], drop?: readonly string[]): string[] {
  const installed = Object.entries(lock?.files ?? {}).filter(([, e]) => e.mode === "whole" && (!drop || e.hosts.every((h) => drop.includes(h))));
  return [...new Set([...installed.map(([p]) => p), ...extra])].sort(byCodeUnit);
}

/** The same parts owned, by the same hosts: nothing of harness's needs to change in the file. */
function sameParts(next: LockEntry, old: LockEntry): boolean {
  if (next.mode !== old.mode || !deepEqual(next.hosts, old.hosts)) return false;
  if (next.mode === "whole") return next.sha256 === old.sha256 && next.executable === (old as typeof next).executable;
  if (next.mode === "block") return next.block === (old as typeof next).block && deepEqual(next.entries ?? {}, (old as typeof next).entries ?? {});
  // A container harness created and the team has since added to is still harness's to remove when empty.
  const parts = (e: typeof next) => e.owned.filter((o) => o.kind !== "create");
  return next.format === (old as typeof next).format && deepEqual(parts(next), parts(old as typeof next));
}

/** `--force`: harness's edited keys and entries get harness's values where they stand; copies and orphans go. */
function repair(path: string, current: string | null, old: LockEntry, marks: readonly string[]): string | null {
  if (current === null || old.mode !== "merge") return current;
  const before = parseData(old.format, current, path);
  const data = clone(before);
  const { found } = mapEntries(data, old.owned, marks);
  for (const item of modifiedItems(data, old.owned, marks)) {
    const parent = parentOf(data, item.path);
    const key = item.path[item.path.length - 1]!;
    if (item.kind === "set" && parent && Object.hasOwn(parent, key)) setKey(parent, key, clone(item.value));
    const at = item.kind === "add" ? found.get(item) : undefined;
    if (item.kind === "add" && at && parent && Array.isArray(parent[key])) (parent[key] as unknown[])[at.index] = clone(item.value);
  }
  const text = renderData(old.format, data, current, before, path);
  const cleaned = clone(data);
  const { strays } = mapEntries(cleaned, old.owned, marks);
  for (const s of [...strays].sort((a, b) => b.index - a.index)) (parentOf(cleaned, s.path)![s.path[s.path.length - 1]!] as unknown[]).splice(s.index, 1);
  return strays.length ? renderData(old.format, cleaned, text, data, path) : text;
}

function currentState(path: string, current: string | null, old: LockEntry | undefined, edits: readonly Problem[]): FileState {
  if (!old) return "unrecorded";
  if (current === null) return "missing";
  return edits.length ? "modified" : "ok";
}

export interface InstallInput {
  root: string;
  outputs: readonly HostFiles[];
  lock: Lock | null;
  force: boolean;
  header: Omit<Lock, "files" | "hosts">;
  /** path → SHA-256 of an original agent file `harness import` read: install may replace it (and keeps it). */
  adopt?: ReadonlyMap<string, string>;
  /** path → the host `harness import` read that original for. */
  adoptHosts?: ReadonlyMap<string, string>;
  /** shared config path → the agent entries `harness import` read from it (never the whole file). */
  adoptKeys?: ReadonlyMap<string, readonly AdoptedKey[]>;
}

/** One agent entry of a shared config file that `harness import` read: its key, value SHA-256 and host. */
export interface AdoptedKey {
  key: readonly string[];
  sha256: string;
  host: string;
}

export function planInstall(input: InstallInput): Plan {
  const { root, lock, force } = input;
  const want = wanted(input.outputs, root, lock);
  adoptedConfigs(input, want);
  const marks = harnessFiles(lock, [...want].filter(([, w]) => w.mode.mode === "whole").map(([p]) => p));
  const files: Record<string, LockEntry> = {};
  const changes: FileChange[] = [];
  const disk = new Targets(root);
  for (const [path, w] of [...want].sort(([a], [b]) => byCodeUnit(a, b))) {
    const current = disk.read(path);
    const name = disk.blockName(path);
    const old = lock?.files[path];
    const edits = old ? handEdits(path, current, old, marks) : [];
    let state = currentState(path, current, old, edits);
    const hosts = w.contributions.map((c) => c.host).sort();
    const keep = (problems: Problem[]) => {
      if (old) files[path] = old;
      changes.push({ path, mode: w.mode.mode, hosts, before: current, after: current, executable: false, state, problems });
    };
    if (edits.length && !force) {
      keep(edits.map((e) => ({ ...e, message: `${e.message}; kept (--force ${e.code === "W_HAND_EDIT" ? "overwrites it" : "removes it"})` })));
      continue;
    }
    // --force puts harness's edited parts back where they stand and drops copies: one entry, in place.
    const fixed = old && edits.length ? repair(path, current, old, marks) : current;
    const base = old ? strip(path, fixed, old, true, old.hosts, marks).text : current;
    const placed = place(path, w, base, force, old && fixed !== null ? { text: fixed, entry: old } : undefined, name, input.adopt, input.adoptKeys?.get(path));
    if ("problems" in placed) {
      keep(placed.problems);
      continue;
    }
    const executable = placed.entry.mode === "whole" && placed.entry.executable === true;
    const fixMode = executable && current !== null && !isExecutable(root, disk.target(path));
    // Harness's parts are as roles/ want them: the file is left as it is, whatever the team did around them.
    const same = old !== undefined && fixed !== null && sameParts(placed.entry, old) && (fixed === current ? edits : handEdits(path, fixed, old, marks)).length === 0;
    files[path] = same ? old : placed.entry;
    const after = same ? fixed : placed.text;
    if (state === "ok" && (after !== current || fixMode)) state = "outdated";
    disk.put(path, after);
    changes.push({ path, mode: w.mode.mode, hosts, before: current, after, executable, ...(fixMode ? { fixMode: true as const } : {}), state, problems: [] });
  }
  const displaced = displace(input, want, disk, files, changes);
  for (const [path, old] of Object.entries(lock?.files ?? {})) {
    if (want.has(path) || displaced.has(path)) continue;
    changes.push(removal(disk, path, old, force, old.hosts, files, marks));
  }
  disk.settle(changes).sort(byPath);
  return { ...finish(lock, Object.keys(files).length ? { ...input.header, hosts: hostsOf(files), files } : null), changes };
}

/**
 * A shared config holding adopted agent entries that no host of this install merges into (OpenCode's
 * `.opencode/opencode.json` beside the root opencode.json harness writes): planned as a merge with
 * nothing of harness's in it, so its adopted keys are taken away (and given back) all the same.
 */
function adoptedConfigs(input: InstallInput, want: Map<string, Wanted>): void {
  const installing = new Set(input.outputs.map((o) => o.host));
  for (const [path, keys] of input.adoptKeys ?? []) {
    const hosts = [...new Set(keys.map((k) => k.host))].filter((h) => installing.has(h)).sort(byCodeUnit);
    if (want.has(path) || !hosts.length) continue;
    const install = { mode: "merge" as const, jsonc: true as const };
    want.set(path, { mode: install, contributions: hosts.map((host) => ({ host, file: { path, content: "{}", executable: false, install } })) });
  }
}

/**
 * The team's own agents `harness import` read that this install writes no file over (the generated
 * agent lives at another path the host also reads, e.g. OpenCode's `.opencode/agent/x.md` beside
 * `.opencode/agents/x.md`): left in place, the host would load the unguarded original too. While
 * its host is installed each is taken away, byte-identical originals only; the lock keeps its bytes.
 */
function displace(input: InstallInput, want: ReadonlyMap<string, Wanted>, disk: Targets, files: Record<string, LockEntry>, changes: FileChange[]): Set<string> {
  const done = new Set<string>();
  const installing = new Set(input.outputs.map((o) => o.host));
  for (const [path, sha] of input.adopt ?? []) {
    const host = input.adoptHosts?.get(path);
    if (want.has(path) || !host || !installing.has(host)) continue;
    const old = input.lock?.files[path];
    const current = disk.read(path);
    if (old?.removed && current === null) {
      files[path] = old;
      done.add(path);
      changes.push({ path, mode: "whole", hosts: old.hosts, before: null, after: null, executable: false, state: "ok", problems: [] });
    } else if (!old && current !== null && sha256(current) === sha) {
      files[path] = { mode: "whole", hosts: [host], sha256: sha256(""), original: current, adopted: true, removed: true };
      done.add(path);
      disk.put(path, null);
      changes.push({ path, mode: "whole", hosts: [host], before: current, after: null, executable: false, state: "unrecorded", problems: [] });
    }
  }
  return done;
}

/** Take out the parts of `old` that only hosts in `drop` own; keeps hand-edited parts unless force. */
function removal(disk: Targets, path: string, old: LockEntry, force: boolean, drop: readonly string[], files: Record<string, LockEntry>, marks: readonly string[]): FileChange {
  const change = removalOf(disk.read(path), path, old, force, drop, files, marks);
  disk.put(path, change.after);
  return change;
}

function removalOf(current: string | null, path: string, old: LockEntry, force: boolean, drop: readonly string[], files: Record<string, LockEntry>, marks: readonly string[]): FileChange {
  const name = old.mode === "block" ? old.link && path : undefined;
  const remaining = old.hosts.filter((h) => !drop.includes(h));
  const base: FileChange = { path, mode: old.mode, hosts: old.hosts, before: current, after: current, executable: false, state: current === null ? "missing" : "orphaned", problems: [] };
  if (old.removed) {
    // an original install took away: it comes back when its host goes, unless a file took its place
    if (remaining.length) return (files[path] = { ...old, hosts: remaining }), { ...base, state: "ok" };
    if (current === null) return { ...base, after: old.original ?? null, state: "orphaned" };
    return { ...base, state: "modified", problems: [problemAt("W_NOT_OWNED", path, current, "was taken away by install (an original harness import read) and a new file stands there now; kept, and the original stays in the lock")] };
  }
  if (current === null) {
    if (remaining.length) files[path] = { ...old, hosts: remaining };
    return base;
  }
  const edits = handEdits(path, current, old, marks);
  if (old.mode === "block" && remaining.length === 0 && !findBlock(current, path, name)) return { ...base, state: "modified" }; // the block was already taken out
  if (old.mode !== "merge" && edits.length && !force) {
    files[path] = old;
    return { ...base, state: "modified", problems: edits.map((e) => ({ ...e, message: `${e.message}; kept (--force removes it)` })) };
  }
  if (remaining.length === 0) {
    const { text, kept } = strip(path, current, old, force, old.hosts, marks);
    if (kept.length) files[path] = { ...old, owned: kept, sha256: sha256(text ?? "") } as LockEntry;
    const why = (k: OwnedItem) =>
      k.kind === "take"
        ? problemAt("W_NOT_OWNED", path, current, `${formatPath(k.path)} was taken away by install (an agent harness import read) and a new value stands there now; kept, and the original stays in the lock`, k.path)
        : problemAt("W_HAND_EDIT", path, current, `${formatPath(k.path)} was edited by hand; kept (--force removes it)`, k.path);
    return { ...base, after: text, state: edits.length ? "modified" : base.state, problems: kept.map(why) };
  }
  // Another installed host still shares this file: drop only what the leaving hosts own.
  if (old.mode === "whole") {
    files[path] = { ...old, hosts: remaining };
    return { ...base, state: "ok" };
  }
  if (old.mode === "block") {
    const found = findBlock(current, path, name)!;
    let content = found.content;
    for (const h of drop) if (old.entries?.[h]) content = dropEntry(content, old.entries[h]);
    const text = current.slice(0, found.start) + renderBlock(content, name) + current.slice(found.end);
    const entries = Object.fromEntries(Object.entries(old.entries ?? {}).filter(([h]) => remaining.includes(h)));
    files[path] = { ...old, hosts: remaining, entries, block: sha256(content), sha256: sha256(text) };
    return { ...base, after: text, state: "ok" };
  }
  const { text, kept } = strip(path, current, old, force, drop, marks);
  const owned = old.owned.filter((o) => !o.hosts.every((h) => drop.includes(h)) || kept.includes(o)).map((o) => ({ ...o, hosts: o.hosts.filter((h) => !drop.includes(h) || kept.includes(o)) }));
  files[path] = { ...old, hosts: remaining, owned, sha256: sha256(text ?? "") };
  return { ...base, after: text, state: "ok", problems: kept.map((k) => problemAt("W_HAND_EDIT", path, current, `${formatPath(k.path)} was edited by hand; kept (--force removes it)`, k.path)) };
}

export function planUninstall(root: string, lock: Lock, hosts: readonly string[], force: boolean): Plan {
  const files: Record<string, LockEntry> = {};
  const marks = harnessFiles(lock, [], hosts);
  const disk = new Targets(root);
  const changes = disk
    .settle(
      Object.entries(lock.files)
        .map(([path, old]) => (old.hosts.some((h) => hosts.includes(h)) ? removal(disk, path, old, force, hosts, files, marks) : ((files[path] = old), null)))
        .filter((c): c is FileChange => c !== null),
    )
    .sort(byPath);
  return { ...finish(lock, Object.keys(files).length ? { ...lock, hosts: hostsOf(files), files } : null), changes };
}

/** The installed hosts are those owning something, including parts kept because they were edited by hand. */
const hostsOf = (files: Record<string, LockEntry>) => [...new Set(Object.values(files).flatMap((e) => e.hosts))].sort();

function finish(lock: Lock | null, next: Lock | null): Omit<Plan, "changes"> {
  return { lock: next, lockBefore: lock ? renderLock(lock) : null, lockAfter: next ? renderLock(next) : null };
}

export const pending = (plan: Plan) => plan.changes.filter(changed);
