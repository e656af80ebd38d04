// Watch mode keeps, per output file, what a rebuild last found on disk exactly as harness renders it:
// the text, its SHA-256 and the file's status (device, inode, size, mode, modification and change
// times). A later rebuild that renders the same text for a file whose status is unchanged knows the
// bytes on disk without reading or hashing them again (that was about a quarter of a rebuild).
// Any write, chmod, rename or replacement changes the change time, so a hand edit is still found.
// A file modified in the last few milliseconds is not remembered: file times come from a coarse
// clock, and an edit in the same tick could leave the same times (git calls such entries racy).
import { statSync, type Stats } from "node:fs";

type Seen = { text: string; sha256: string; executable: boolean; status: string };
let memo: Map<string, Seen> | null = null;

export function useStageMemo(on: boolean): void {
  memo = on ? new Map() : null;
}

/** Longer than the file system clock's tick (a jiffy: 1 to 10 ms). */
const SETTLED_MS = 20;

const statusOf = (s: Stats) => `${s.dev}:${s.ino}:${s.size}:${s.mode}:${s.mtimeMs}:${s.ctimeMs}`;

/** The hash of `text` and the file's executable bit when `file` still holds exactly it as last seen, else undefined. */
export function knownOnDisk(file: string, text: string): { sha256: string; executable: boolean } | undefined {
  const seen = memo?.get(file);
  if (!seen || seen.text !== text) return undefined;
  let now: Stats;
  try {
    now = statSync(file);
  } catch {
    return undefined;
  }
  return statusOf(now) === seen.status ? seen : undefined;
}

/** Before reading `file`: its status now, to remember if the read then finds the rendered text. */
export function statusBeforeRead(file: string): { stats: Stats; settled: boolean } | undefined {
  if (!memo) return undefined;
  const started = Date.now();
  const stats = statSync(file);
  return { stats, settled: Math.max(stats.mtimeMs, stats.ctimeMs) < started - SETTLED_MS };
}

/** After the read found the rendered text (`executable`: the file's bit, as the build read it). */
export function remember(file: string, text: string, sha256: string, executable: boolean, before: { stats: Stats; settled: boolean } | undefined): void {
  if (!memo) return;
  if (before?.settled) memo.set(file, { text, sha256, executable, status: statusOf(before.stats) });
  else memo.delete(file);
}
