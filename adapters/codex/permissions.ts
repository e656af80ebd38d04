// Per-role Codex permission profiles ([permissions.<role>] in .codex/config.toml), Codex 0.171.0.
//
// Path syntax (codex-rs config permissions, verified against the real program): entries under
// `":workspace_roots"` are relative subpaths; `read`/`write` take an exact path or `dir/**` (a
// subtree), and a glob anywhere else is an error unless the access is `deny`. A `deny` glob also
// blocks reading, and on Linux it is expanded when the sandbox starts (only files that exist then,
// down to glob_scan_max_depth). Observed on Linux (0.171.0, bundled bubblewrap):
// - a `write` entry naming an existing file makes every command fail ("bwrap: Can't mkdir parents
//   for <file>/.git: Not a directory": Codex mounts its protected .git/.codex/.agents inside each
//   write root), and one naming a missing path grants nothing; so only folders can be granted;
// - a write folder that does not exist when the session starts cannot be created;
// - a read-only path inside a write folder stays read-only even when it does not exist yet.
//
// Translation rules (harness globs are picomatch with dotfiles matchable, isGlobMatch's default):
// - write list: `a/**` → folder `a`, `**` → `.`. A single file `d/f` is granted through its folder
//   `d` (the only way a launcher can write it), with every other artifact path in `d` kept
//   read-only so no other role's document becomes writable (L_FILE_VIA_FOLDER: new files in `d`
//   that no artifact names are writable too). A file at the root, or any other glob, is left out
//   (L_GLOB_NARROWED). The launcher creates missing write folders before Codex starts.
// - never_write: no less. Outside every write folder nothing is needed ("." is read-only). Inside
//   one, an exact path or subtree becomes a read-only carve-out, and a glob becomes `deny` globs
//   scoped to that folder (wider: they also block reading there); a glob is left out only when
//   the role reads those files (denying them would stop its work) or it has no Codex form; both
//   are reported as narrowed.
import picomatch from "picomatch";
import { isGlobMatch } from "../../src/glob.js";
import type { RoleIR } from "../../src/ir/types.js";
import { byCodeUnit } from "../../src/compare.js";

/** A path Codex can grant: an exact path, or a directory with everything under it. */
export interface CodexPath {
  path: string; // relative to the workspace root, no "./", no trailing "/"
  tree: boolean;
  from: string; // the harness glob it came from
}

export interface RoleProfile {
  name: string;
  /** write folders (trees) */
  writes: CodexPath[];
  /** single files granted through their folder (file glob → folder) */
  fileFolders: { file: string; folder: string }[];
  /** write entries left out (the profile is narrower), with the reason */
  narrowedWrites: { glob: string; why: string }[];
  /** write entries dropped because a never_write entry covers them (never_write wins) */
  coveredWrites: string[];
  readOnly: CodexPath[];
  denyGlobs: { glob: string; from: string }[];
  /** never_write globs inside a write root that the profile does not deny, with the reason */
  unenforcedNever: { glob: string; why: string }[];
  network: boolean;
  tmp: boolean;
  data: Record<string, unknown>;
}

export const GLOB_SCAN_MAX_DEPTH = 8;
export const NOT_A_FILE = "single paths: Codex grants writes to folders only; on Linux a file write root fails the sandbox";
const NO_FORM = "globs with no exact Codex form: only folder/** is";
const CODEX_GLOB_CHARS = /[*?[\]]/;

const segments = (p: string) => (p === "." ? [] : p.split("/"));

function cleanLiteral(p: string): string | null {
  const s = p.replace(/\/+$/, "");
  if (!s || CODEX_GLOB_CHARS.test(s)) return null;
  if (s.split("/").some((seg) => seg === "" || seg === "." || seg === "..")) return null;
  return s;
}

/** The exact Codex form of a harness glob (exact path or `dir/**` subtree), or null. */
export function exactPath(glob: string): CodexPath | null {
  const scan = picomatch.scan(glob, { unescape: true });
  if (!scan.isGlob) {
    const path = cleanLiteral(scan.base);
    return path ? { path, tree: false, from: glob } : null;
  }
  if (scan.glob !== "**") return null;
  if (scan.base === "") return { path: ".", tree: true, from: glob };
  const path = cleanLiteral(scan.base);
  return path ? { path, tree: true, from: glob } : null;
}

/** A deny glob in Codex syntax that matches at least what the harness glob matches, or null. */
export function denyGlob(glob: string): string | null {
  if (/\{[^}]*\/[^}]*\}/.test(glob)) return null; // a brace alternative spanning folders
  const out = glob.split("/").map((seg) => (seg === "**" || !/[[\]{}()!\\]/.test(seg) ? seg : "*"));
  if (out.some((seg) => seg === "" || seg === "." || seg === "..")) return null;
  return out.join("/");
}

/** Can the harness glob match `root` itself or anything under it? (conservative: true when unsure) */
export function mayMatchUnder(glob: string, root: string): boolean {
  // every role asks it again for the pipeline-wide never_write globs and the artifact paths
  let byGlob = underMemo.get(root);
  if (!byGlob) underMemo.set(root, (byGlob = new Map()));
  let r = byGlob.get(glob);
  if (r === undefined) byGlob.set(glob, (r = computeMayMatchUnder(glob, root)));
  return r;
}
const underMemo = new Map<string, Map<string, boolean>>();

function computeMayMatchUnder(glob: string, root: string): boolean {
  if (/\{[^}]*\/[^}]*\}/.test(glob)) return true; // braces across folders: cannot split, so assume yes
  const pat = glob.split("/");
  const path = segments(root);
  const memo = new Map<string, boolean>();
  const go = (i: number, j: number): boolean => {
    const key = `${i},${j}`;
    const hit = memo.get(key);
    if (hit !== undefined) return hit;
    let r: boolean;
    if (j === path.length) r = true;
    else if (i === pat.length) r = false;
    else if (pat[i] === "**") r = go(i + 1, j) || go(i, j + 1);
    else r = isGlobMatch(path[j]!, pat[i]!) && go(i + 1, j + 1);
    memo.set(key, r);
    return r;
  };
  return go(0, 0);
}

/**
 * Deny globs that match, inside the write folder `root`, at least what `glob` matches there, and
 * nothing outside it (so reads elsewhere stay open). null: no such form, deny `glob` everywhere.
 * Shapes handled: no `**` at all, and `**` + segments without `**` (+ an optional trailing `/**`).
 */
export function scopedDenies(glob: string, root: string): string[] | null {
  const n = glob.split("/");
  const w = segments(root);
  if (w.length === 0) return [glob];
  const seg = (name: string, pat: string) => isGlobMatch(name, pat);
  if (!n.includes("**")) {
    if (n.length <= w.length || !w.every((x, i) => seg(x, n[i]!))) return [];
    return [[...w, ...n.slice(w.length)].join("/")];
  }
  if (n[0] !== "**") return null;
  const tail = n[n.length - 1] === "**" && n.length > 1;
  const body = n.slice(1, tail ? -1 : undefined);
  if (body.length === 0 || body.includes("**")) return null;
  const end = tail ? ["**"] : [];
  const out = [[...w, "**", ...body, ...end].join("/")];
  for (let k = 1; k <= Math.min(body.length, w.length); k++) {
    if (!body.slice(0, k).every((b, i) => seg(w[w.length - k + i]!, b))) continue;
    if (k < body.length) out.push([...w, ...body.slice(k), ...end].join("/"));
    else if (tail) out.push([...w, "**"].join("/"));
  }
  return out;
}

// roleProfile asks about the same pipeline-wide globs for every role: each answer is worked out
// once (frozen, since roles share them).
const exactMemo = new Map<string, Readonly<CodexPath> | null>();
const denyMemo = new Map<string, string | null>();
const scopedMemo = new Map<string, Map<string, readonly string[] | null>>();
function exactOf(glob: string): Readonly<CodexPath> | null {
  let r = exactMemo.get(glob);
  if (r === undefined) exactMemo.set(glob, (r = Object.freeze(exactPath(glob))));
  return r;
}
function denyOf(glob: string): string | null {
  let r = denyMemo.get(glob);
  if (r === undefined) denyMemo.set(glob, (r = denyGlob(glob)));
  return r;
}
function scopedOf(glob: string, root: string): readonly string[] | null {
  let byGlob = scopedMemo.get(root);
  if (!byGlob) scopedMemo.set(root, (byGlob = new Map()));
  let r = byGlob.get(glob);
  if (r === undefined) byGlob.set(glob, (r = Object.freeze(scopedDenies(glob, root))));
  return r;
}

const isUnder = (p: string, root: string) => root === "." || p === root || p.startsWith(`${root}/`);

/** Globs of the artifacts a role reads: never_write entries it must still be able to read. */
export function readGlobs(role: RoleIR, artifacts: readonly { name: string; paths: readonly string[] }[]): Set<string> {
  return new Set(role.reads.flatMap((a) => artifacts.find((x) => x.name === a)?.paths ?? []));
}

export function roleProfile(role: RoleIR, artifacts: readonly { name: string; paths: readonly string[] }[]): RoleProfile {
  const narrowedWrites: { glob: string; why: string }[] = [];
  const coveredWrites: string[] = [];
  const fileFolders: { file: string; folder: string }[] = [];
  let writes: CodexPath[] = [];
  for (const g of role.write) {
    const p = exactOf(g);
    if (p?.tree) writes.push(p);
    else if (p && p.path.includes("/")) {
      const folder = p.path.slice(0, p.path.lastIndexOf("/"));
      writes.push({ path: folder, tree: true, from: g });
      fileFolders.push({ file: g, folder });
    } else narrowedWrites.push({ glob: g, why: p ? NOT_A_FILE : NO_FORM });
  }
  // Inside a folder granted for a single file, every other artifact path stays as closed as never_write.
  const own = new Set(role.write);
  // (none without such a folder: most roles skip the scan of every artifact path against never_write)
  const others = fileFolders.length
    ? artifacts.flatMap((a) => a.paths).filter((g) => !own.has(g) && !role.neverWrite.includes(g) && fileFolders.some((f) => mayMatchUnder(g, f.folder)))
    : [];
  // never_write wins: drop write entries an exact never_write path covers whole.
  const nevers = [...role.neverWrite, ...new Set(others)].map((g) => ({ glob: g, exact: exactOf(g) }));
  writes = writes.filter((w) => {
    const covered = nevers.some(({ exact: n }) => n && (n.path === w.path || (n.tree && isUnder(w.path, n.path))));
    if (covered) coveredWrites.push(w.from);
    return !covered;
  });
  // one entry per folder; folders inside another are redundant
  const byPath = new Map<string, CodexPath>();
  for (const w of writes) if (!byPath.has(w.path)) byPath.set(w.path, w);
  writes = [...byPath.values()]
    .filter((w) => ![...byPath.values()].some((o) => o !== w && isUnder(w.path, o.path)))
    .sort((a, b) => byCodeUnit(a.path, b.path));

  const reads = readGlobs(role, artifacts);
  const readOnly: CodexPath[] = [];
  const denyGlobs: { glob: string; from: string }[] = [];
  const unenforcedNever: { glob: string; why: string }[] = [];
  for (const { glob, exact } of nevers) {
    if (exact) {
      if (exact.path !== "." && writes.some((w) => w.path !== exact.path && isUnder(exact.path, w.path)) && !readOnly.some((r) => r.path === exact.path))
        readOnly.push(exact);
      continue;
    }
    if (!writes.some((w) => mayMatchUnder(glob, w.path))) continue;
    if (reads.has(glob)) {
      unenforcedNever.push({ glob, why: "the role reads these files, and a Codex deny also blocks reading" });
      continue;
    }
    const scoped = writes.filter((w) => mayMatchUnder(glob, w.path)).map((w) => scopedOf(glob, w.path));
    const wanted = scoped.some((x) => x === null) ? [glob] : scoped.flatMap((x) => x!);
    const ds = wanted.map(denyOf);
    if (ds.some((d) => d === null)) unenforcedNever.push({ glob, why: "no Codex glob form" });
    else for (const d of ds as string[]) if (!denyGlobs.some((x) => x.glob === d)) denyGlobs.push({ glob: d, from: glob });
  }

  const tmp = role.shell !== null;
  const network = role.tools.includes("web-fetch");
  const roots: Record<string, string> = { ".": "read" };
  for (const w of writes) roots[w.path] = "write";
  for (const r of readOnly) roots[r.path] = "read";
  for (const d of denyGlobs) roots[d.glob] = "deny";
  const data = {
    filesystem: {
      // Reads are not limited by harness; Codex must also read its own install to run commands.
      ":root": "read",
      ...(tmp ? { ":tmpdir": "write", ":slash_tmp": "write" } : {}),
      ...(denyGlobs.some((d) => d.glob.includes("**")) ? { glob_scan_max_depth: GLOB_SCAN_MAX_DEPTH } : {}),
      ":workspace_roots": roots,
    },
    network: { enabled: network },
  };
  const kept = fileFolders.filter((f) => writes.some((w) => isUnder(f.folder, w.path)));
  return { name: role.id, writes, fileFolders: kept, narrowedWrites, coveredWrites, readOnly, denyGlobs, unenforcedNever, network, tmp, data };
}
