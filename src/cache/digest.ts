// The cached no-op's digests, shared by the replay (dist/cli/replay.cjs, loaded before the compiler)
// and by build and check, which record an entry after a full run. Node builtins only: this module is
// on the path of every cached run, so it must load in a millisecond.
//
// An entry answers for one exact command line in one folder: its key is a digest of the harness code
// (the bytes of main.cjs), Node's version, the working directory, argv and the facts that decide
// colour. It holds the digest of the roles folder, the answers to every question the full run asked
// the file system or git (probes), out/'s top level, every output file's hash and mode, and the bytes
// the full run printed with its exit code. A replay re-reads and re-hashes all of it; one difference
// and the full run happens instead.
import * as crypto from "node:crypto";
import { readdirSync, readFileSync, statSync, type Dirent } from "node:fs";
import path from "node:path";
import { isTerminal } from "../colors.js";

export const CACHE_FORMAT = 1;

/** A question the full run asked outside the roles folder and out/: replayed, and compared. */
export type Probe = { kind: "dir"; path: string; isDir: boolean } | { kind: "git"; cwd: string; args: string[]; status: number | null; stdout: string };

/** What the run printed, in order: [1, text] is stdout, [2, text] stderr. */
export type PrintedLine = [1 | 2, string];

export interface NoopEntry {
  format: number;
  key: string;
  /** Absolute roles folder and out folder, as the full run resolved them from argv. */
  roles: string;
  out: string;
  inputs: string;
  probes: Probe[];
  /** out/'s entries: "d:name" (folder) or "f:name" (anything else), sorted. */
  top: string[];
  /** Folders in out/ the run did not build: the hash of their manifest (orphan detection reads it), or null. */
  others: Record<string, string | null>;
  /** Per built host folder: "path sha256 mode" lines, as outputLines gives them. */
  hosts: Record<string, string>;
  printed: PrintedLine[];
  code: number;
}

// crypto.hash (Node 20.12+) is the one-shot form: no Hash object (a stream) per file, ~20% less per
// hash; read from the namespace, so an older Node falls back instead of failing to import.
const oneShot = (crypto as { hash?: (algorithm: string, data: string | Uint8Array, encoding: "hex") => string }).hash;
export const sha256 = oneShot ? (data: string | Uint8Array): string => oneShot("sha256", data, "hex") : (data: string | Uint8Array): string => crypto.createHash("sha256").update(data).digest("hex");

const byName = (a: Dirent, b: Dirent) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** The commands whose no-op is cached: build and check of out/ (not --installed, --watch, help). */
export function cacheable(argv: readonly string[]): boolean {
  if (argv[0] !== "build" && argv[0] !== "check") return false;
  return !argv.some((a) => a === "-h" || a === "--help" || a === "-V" || a === "--version" || a.startsWith("--installed") || a.startsWith("--watch") || a.startsWith("--into"));
}

/** Where entries live: node_modules/.cache/harness/ of the working directory, or nowhere (no cache). */
export function cacheDir(cwd: string): string | null {
  try {
    return statSync(path.join(cwd, "node_modules")).isDirectory() ? path.join(cwd, "node_modules", ".cache", "harness") : null;
  } catch {
    return null;
  }
}

export function cacheKey(build: string, cwd: string, argv: readonly string[], env: NodeJS.ProcessEnv = process.env): string {
  // src/ui.ts decides colour from exactly these (picocolors' rule); --color/--no-color are in argv.
  const colour = [!!env.NO_COLOR, !!env.FORCE_COLOR, !!env.CI, env.TERM === "dumb", isTerminal(1), process.platform];
  return sha256(JSON.stringify([CACHE_FORMAT, build, process.version, cwd, argv, colour]));
}

export const entryFile = (dir: string, key: string) => path.join(dir, `noop-${key.slice(0, 32)}.json`);

/** The roles folder as load.ts reads it: its entries' names and kinds, and every file's bytes. Null when unreadable. */
export function rolesDigest(dir: string): string | null {
  try {
    const hash = crypto.createHash("sha256");
    for (const e of readdirSync(dir, { withFileTypes: true }).sort(byName)) {
      if (e.isDirectory()) hash.update(`d ${e.name}\n`);
      else hash.update(`f ${e.name} ${sha256(readFileSync(path.join(dir, e.name)))}\n`);
    }
    return hash.digest("hex");
  } catch {
    return null;
  }
}

const executable = (mode: number) => (process.platform !== "win32" && (mode & 0o111) !== 0 ? "x" : "-");

/** One line per expected output file, sorted by path: what a replay finds on disk when nothing changed. */
export function outputLines(files: readonly { path: string; sha256: string; executable: boolean }[]): string {
  return files
    .map((f) => `${f.path} ${f.sha256} ${f.executable ? "x" : "-"}\n`)
    .sort()
    .join("");
}

/** A host folder as it is on disk, in outputLines' form (listFiles' walk: anything not a folder is a file). Null when unreadable. */
export function diskLines(dir: string): string | null {
  const lines: string[] = [];
  const walk = (rel: string) => {
    for (const e of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(child);
      else {
        const file = path.join(dir, child);
        lines.push(`${child} ${sha256(readFileSync(file))} ${executable(statSync(file).mode)}\n`);
      }
    }
  };
  try {
    walk("");
  } catch {
    return null;
  }
  return lines.sort().join("");
}

/** out/'s top level and the manifests of the folders this run did not build. */
export function outTop(outDir: string, built: readonly string[]): { top: string[]; others: Record<string, string | null> } {
  const top: string[] = [];
  const others: Record<string, string | null> = {};
  let entries: Dirent[] = [];
  try {
    entries = readdirSync(outDir, { withFileTypes: true }).sort(byName);
  } catch {
    /* no out/ yet: an empty top level */
  }
  for (const e of entries) {
    top.push(`${e.isDirectory() ? "d" : "f"}:${e.name}`);
    if (!e.isDirectory() || built.includes(e.name)) continue;
    try {
      others[e.name] = sha256(readFileSync(path.join(outDir, e.name, ".harness-manifest.json")));
    } catch {
      others[e.name] = null;
    }
  }
  return { top, others };
}
