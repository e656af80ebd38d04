// Questions a build or check asks outside the roles folder and out/ (is this path a folder? does git
// ignore out/?). Each answer is recorded so a cached no-op can ask again and compare: a file-system
// or git read the compiler makes without recording it here would let the cache answer for a state
// it never saw. Record every new one.
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { statSync } from "node:fs";
import type { Probe } from "./digest.js";

const asked: Probe[] = [];
const seen = new Set<string>();

function note(p: Probe): void {
  const id = JSON.stringify(p);
  if (seen.has(id)) return;
  seen.add(id);
  asked.push(p);
}

/** Every probe since the process started (or the last reset). */
export const probes = (): Probe[] => [...asked];

/** A fresh list (watch mode: one list per rebuild). */
export function resetProbes(): void {
  asked.length = 0;
  seen.clear();
}

export function isDirectory(file: string): boolean {
  let isDir = false;
  try {
    isDir = statSync(file).isDirectory();
  } catch {
    isDir = false;
  }
  note({ kind: "dir", path: file, isDir });
  return isDir;
}

/** `git args` in cwd, its status and stdout recorded (a replay runs it again). */
export function git(args: string[], cwd: string): SpawnSyncReturns<string> {
  const r = spawnSync("git", args, { cwd, encoding: "utf8", timeout: 5000 });
  note({ kind: "git", cwd, args, status: r.status, stdout: r.stdout ?? "" });
  return r;
}
