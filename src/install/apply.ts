// Apply a plan as one transaction: stage every new file beside its target, then swap them in by
// rename, keeping the old files as backups. Any error rolls every step back, so a failure halfway
// leaves the project exactly as it was.
import { chmodSync, existsSync, mkdirSync, readdirSync, renameSync, rmdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { assertSafe } from "./safe-path.js";

export interface Write {
  path: string; // POSIX, relative to the root
  content: string | null; // null = remove
  /** Make it executable. Otherwise an existing file keeps its own mode. */
  executable: boolean;
}

export interface ApplyHooks {
  /** Called before each step swaps a file in; tests throw here to prove the rollback. */
  beforeStep?: (index: number, path: string) => void;
}

export function applyWrites(root: string, writes: readonly Write[], hooks: ApplyHooks = {}): void {
  for (const w of writes) assertSafe(root, w.path);
  const tag = `${process.pid}-${Date.now().toString(36)}`;
  const createdDirs: string[] = [];
  const staged: string[] = [];
  const done: { target: string; backup: string | null; placed: boolean }[] = [];
  try {
    for (const w of writes) {
      if (w.content === null) continue;
      const target = path.join(root, w.path);
      makeDirs(path.dirname(target), createdDirs);
      const tmp = `${target}.harness-tmp-${tag}`;
      writeFileSync(tmp, w.content);
      staged.push(tmp);
      if (existsSync(target)) chmodSync(tmp, (statSync(target).mode & 0o7777) | (w.executable ? 0o111 : 0));
      else if (w.executable) chmodSync(tmp, 0o755);
    }
    writes.forEach((w, i) => {
      hooks.beforeStep?.(i, w.path);
      const target = path.join(root, w.path);
      const step = { target, backup: null as string | null, placed: false };
      done.push(step);
      if (existsSync(target)) {
        step.backup = `${target}.harness-bak-${tag}`;
        renameSync(target, step.backup);
      }
      if (w.content !== null) {
        renameSync(`${target}.harness-tmp-${tag}`, target);
        step.placed = true;
      }
    });
  } catch (error) {
    for (const step of [...done].reverse()) {
      if (step.placed) rmSync(step.target, { force: true });
      if (step.backup) renameSync(step.backup, step.target);
    }
    for (const tmp of staged) rmSync(tmp, { force: true });
    for (const dir of [...createdDirs].reverse()) if (existsSync(dir) && readdirSync(dir).length === 0) rmdirSync(dir);
    throw error;
  }
  for (const step of done) if (step.backup) rmSync(step.backup, { force: true });
  for (const w of writes) if (w.content === null) pruneEmptyDirs(root, path.posix.dirname(w.path));
}

function makeDirs(dir: string, created: string[]): void {
  if (existsSync(dir)) return;
  makeDirs(path.dirname(dir), created);
  mkdirSync(dir);
  created.push(dir);
}

/** Folders emptied by a removal go too, up to (never including) the root. */
function pruneEmptyDirs(root: string, rel: string): void {
  let current = rel;
  while (current && current !== ".") {
    const dir = path.join(root, current);
    if (!existsSync(dir) || readdirSync(dir).length > 0) return;
    rmdirSync(dir);
    current = path.posix.dirname(current);
  }
}
