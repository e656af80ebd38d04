// Recording a cached no-op: a full build or check that ends with out/ exactly as the roles produce
// it stores what a run of the same command line in the same state prints (see digest.ts). The key
// and the roles digest are taken before the run reads anything, so an edit during the run leaves an
// entry that no later state matches.
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { cacheable, cacheDir, cacheKey, CACHE_FORMAT, entryFile, outTop, rolesDigest, type NoopEntry, type PrintedLine } from "./digest.js";
import { probes, resetProbes } from "./probes.js";
import { BUILD_ID } from "./replay.js";

export interface NoopRecorder {
  save(result: { out: string; hosts: Record<string, string>; printed: PrintedLine[]; code: number }): void;
}

/** A recorder for this process's command line, or null (not cacheable, no cache folder, development run). */
export function startRecording(rolesDir: string, argv: readonly string[] = process.argv.slice(2), cwd = process.cwd()): NoopRecorder | null {
  const build = (globalThis as Record<symbol, unknown>)[BUILD_ID];
  if (typeof build !== "string" || !cacheable(argv) || process.env.HARNESS_NO_CACHE) return null;
  const dir = cacheDir(cwd);
  const inputs = rolesDigest(rolesDir);
  if (!dir || inputs === null) return null;
  const key = cacheKey(build, cwd, argv);
  resetProbes();
  return {
    save({ out, hosts, printed, code }) {
      const entry: NoopEntry = { format: CACHE_FORMAT, key, roles: rolesDir, out, inputs, probes: probes(), ...outTop(out, Object.keys(hosts)), hosts, printed, code };
      const file = entryFile(dir, key);
      const tmp = `${file}.${process.pid}.tmp`;
      try {
        mkdirSync(dir, { recursive: true });
        writeFileSync(tmp, JSON.stringify(entry));
        renameSync(tmp, file);
        prune(dir);
      } catch {
        // a read-only node_modules: no cache, the next run does the full work
      }
    },
  };
}

/** One entry per command line and folder: keep the most recent ones, so the folder stays small. */
const KEEP = 64;
function prune(dir: string): void {
  const names = readdirSync(dir).filter((n) => n.startsWith("noop-") && n.endsWith(".json"));
  if (names.length <= KEEP) return;
  const aged = names.map((n) => ({ n, t: statSync(path.join(dir, n)).mtimeMs })).sort((a, b) => b.t - a.t);
  for (const { n } of aged.slice(KEEP)) rmSync(path.join(dir, n), { force: true });
}
