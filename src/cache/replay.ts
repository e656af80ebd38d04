// The cached no-op (bundled alone as dist/cli/replay.cjs; the loader calls it before it loads the
// compiler). When an entry recorded by a full build or check of this exact command line exists, and
// the roles folder, every probe, out/'s top level and every output file's bytes and mode are what
// that run saw, print what it printed and exit with its code. Anything else, including an unreadable
// file or a malformed entry, returns false and the full run happens.
import { spawnSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { cacheable, cacheDir, cacheKey, CACHE_FORMAT, diskLines, entryFile, outTop, rolesDigest, sha256, type NoopEntry, type Probe } from "./digest.js";

/** The harness code's digest, for main.cjs to record entries under (set when the command is cacheable). */
export const BUILD_ID = Symbol.for("harness.build-id");

function probeHolds(p: Probe): boolean {
  if (p.kind === "dir") {
    let isDir = false;
    try {
      isDir = statSync(p.path).isDirectory();
    } catch {
      isDir = false;
    }
    return isDir === p.isDir;
  }
  const r = spawnSync("git", p.args, { cwd: p.cwd, encoding: "utf8", timeout: 5000 });
  return r.status === p.status && (r.stdout ?? "") === p.stdout;
}

function holds(entry: NoopEntry, key: string): boolean {
  if (entry.format !== CACHE_FORMAT || entry.key !== key) return false;
  if (rolesDigest(entry.roles) !== entry.inputs) return false;
  const built = Object.keys(entry.hosts);
  const { top, others } = outTop(entry.out, built);
  if (JSON.stringify(top) !== JSON.stringify(entry.top) || JSON.stringify(others) !== JSON.stringify(entry.others)) return false;
  for (const host of built) if (diskLines(path.join(entry.out, host)) !== entry.hosts[host]) return false;
  return entry.probes.every(probeHolds);
}

/** The entry that answers for this command line here and now, or null (the full run must answer). */
export function cachedAnswer(argv: readonly string[], build: string, cwd = process.cwd()): NoopEntry | null {
  if (!cacheable(argv) || process.env.HARNESS_NO_CACHE) return null;
  const dir = cacheDir(cwd);
  if (!dir) return null;
  const key = cacheKey(build, cwd, argv);
  try {
    const entry = JSON.parse(readFileSync(entryFile(dir, key), "utf8")) as NoopEntry;
    return holds(entry, key) ? entry : null;
  } catch {
    return null;
  }
}

/** True when it answered (output written, exit code set). `main` is the bytes of main.cjs, `self` this file. */
export function replay(argv: readonly string[], main: Uint8Array, self: string): boolean {
  if (!cacheable(argv) || process.env.HARNESS_NO_CACHE) return false;
  const build = sha256(main) + sha256(readFileSync(self));
  (globalThis as Record<symbol, unknown>)[BUILD_ID] = build;
  const entry = cachedAnswer(argv, build);
  if (!entry) return false;
  for (const [fd, text] of entry.printed) (fd === 1 ? process.stdout : process.stderr).write(text);
  process.exitCode = entry.code;
  if (process.env.HARNESS_CODE_CACHE_REPORT) process.stderr.write("harness: answered by the cached no-op\n");
  return true;
}
