// Which runner process owns a run, kept beside the record's digest (outside the project): its pid,
// the pid's start time (so a reused pid is not taken for the runner) and the process groups of the
// stage or check it is running. `--resume` refuses a run whose runner is alive, and resumes a
// `running` record whose runner is gone (it crashed or was killed) after stopping the groups it left.
import fs from "node:fs";
import path from "node:path";
import { killGroup, sessionMembers } from "../adapter/process-group.js";
import { digestDir } from "./trust.js";

export interface RunLock {
  pid: number;
  /** field 22 of /proc/<pid>/stat; null where there is no /proc */
  start: string | null;
  groups: number[];
}

const lockFile = (root: string, id: string, env?: NodeJS.ProcessEnv) => path.join(digestDir(root, env), `${id}.lock.json`);

/** A process's start time (clock ticks since boot) from /proc, or null. */
export function processStart(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}

export function writeLock(root: string, id: string, lock: RunLock, env?: NodeJS.ProcessEnv): void {
  const file = lockFile(root, id, env);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(lock)}\n`, { mode: 0o600 });
  fs.renameSync(tmp, file);
}

export function readLock(root: string, id: string, env?: NodeJS.ProcessEnv): RunLock | null {
  try {
    const v = JSON.parse(fs.readFileSync(lockFile(root, id, env), "utf8")) as RunLock;
    return typeof v.pid === "number" && Array.isArray(v.groups) ? v : null;
  } catch {
    return null;
  }
}

export function removeLock(root: string, id: string, env?: NodeJS.ProcessEnv): void {
  fs.rmSync(lockFile(root, id, env), { force: true });
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
};

/** The lock's runner is still running (the same process, not a reused pid). */
export function lockHeld(lock: RunLock): boolean {
  if (!alive(lock.pid)) return false;
  const now = processStart(lock.pid);
  return lock.start === null || now === null || now === lock.start;
}

/** Stop what a crashed runner left running: each recorded group with a member still working in `root`. */
export async function stopLeftovers(root: string, lock: RunLock): Promise<number[]> {
  const stopped: number[] = [];
  for (const g of lock.groups) {
    const inRoot = sessionMembers(g).some((pid) => {
      try {
        const cwd = fs.readlinkSync(`/proc/${pid}/cwd`);
        return cwd === root || cwd.startsWith(`${root}${path.sep}`);
      } catch {
        return false;
      }
    });
    if (!inRoot) continue; // gone, or a reused group id that is not ours: leave it
    await killGroup(g);
    stopped.push(g);
  }
  return stopped;
}
