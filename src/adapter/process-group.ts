// One child process in its own process group: a stage's host session or a check's command. The
// runner stops the whole group (the host and everything it started) when the run is interrupted.
import { spawn } from "node:child_process";
import fs from "node:fs";

export interface ProcessResult {
  exit: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  interrupted: boolean;
  durationMs: number;
}

export interface ProcessOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  /** bytes to write on stdin, then close it; default: no stdin */
  input?: string;
  /**
   * stdout to this file instead of a pipe, read back as `stdout` at the end: for programs that
   * exit before a large piped output is flushed (OpenCode 1.18.33 loses the tail at random)
   */
  stdoutFile?: string;
}

/**
 * The processes of the session or process group `leader` heads (Linux: from /proc; elsewhere
 * none). A host may start helpers in a process group of their own inside the session (Codex's
 * sandbox helper does), which a signal to the group alone does not reach.
 */
export function sessionMembers(leader: number): number[] {
  const out: number[] = [];
  let pids: string[];
  try {
    pids = fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d));
  } catch {
    return out;
  }
  for (const d of pids) {
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, "utf8");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(f[2]) === leader || Number(f[3]) === leader) out.push(Number(d));
    } catch {
      /* gone */
    }
  }
  return out;
}

const signal = (pid: number, sig: NodeJS.Signals | 0) => {
  try {
    process.kill(pid, sig);
    return true;
  } catch {
    return false;
  }
};

/** Kill a process group and its session: TERM, then KILL after a grace period if anything in it is still alive. */
export function killGroup(pid: number, graceMs = 2000): Promise<void> {
  const all = (sig: NodeJS.Signals | 0) => {
    let any = signal(-pid, sig);
    for (const m of sessionMembers(pid)) any = signal(m, sig) || any;
    return any;
  };
  if (!all("SIGTERM")) return Promise.resolve();
  return new Promise((resolve) => {
    const started = Date.now();
    const tick = setInterval(() => {
      if (!all(0)) {
        clearInterval(tick);
        resolve();
      } else if (Date.now() - started > graceMs) {
        all("SIGKILL");
        clearInterval(tick);
        resolve();
      }
    }, 50);
  });
}

/** The process groups this process started and that have not ended, and who wants to know. */
const live = new Set<number>();
const watchers = new Set<(groups: readonly number[]) => void>();
const changed = () => {
  for (const w of watchers) w([...live]);
};
/** Be told the live groups whenever one starts or ends (the runner's lock records them for a crash). */
export function watchGroups(fn: (groups: readonly number[]) => void): () => void {
  watchers.add(fn);
  return () => watchers.delete(fn);
}

export function runProcess(bin: string, args: readonly string[], o: ProcessOptions): Promise<ProcessResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    // detached: a new process group, so the terminal's Ctrl-C reaches the runner only and the
    // runner decides how the group ends (and records it)
    const out = o.stdoutFile === undefined ? null : fs.openSync(o.stdoutFile, "w");
    const child = spawn(bin, args, { cwd: o.cwd, env: o.env ?? process.env, detached: true, stdio: [o.input === undefined ? "ignore" : "pipe", out ?? "pipe", "pipe"] });
    if (out !== null) fs.closeSync(out);
    const group = child.pid;
    if (group !== undefined) (live.add(group), changed());
    let stdout = "";
    let stderr = "";
    let interrupted = false;
    let killing: Promise<void> | null = null;
    child.stdout?.setEncoding("utf8").on("data", (c: string) => (stdout += c));
    child.stderr!.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    if (o.input !== undefined) child.stdin!.end(o.input);
    const onAbort = () => {
      interrupted = true;
      if (child.pid !== undefined) killing = killGroup(child.pid);
    };
    if (o.signal?.aborted) onAbort();
    else o.signal?.addEventListener("abort", onAbort, { once: true });
    const done = (exit: number | null, signal: NodeJS.Signals | null) => {
      o.signal?.removeEventListener("abort", onAbort);
      if (group !== undefined && live.delete(group)) changed();
      // the leader may exit before its children: make sure nothing of the group outlives the stage
      const settle = interrupted && child.pid !== undefined ? (killing ?? killGroup(child.pid)) : Promise.resolve();
      if (o.stdoutFile !== undefined) stdout = fs.existsSync(o.stdoutFile) ? fs.readFileSync(o.stdoutFile, "utf8") : "";
      void settle.then(() => resolve({ exit, signal, stdout, stderr, interrupted, durationMs: Date.now() - started }));
    };
    child.on("error", (e) => {
      stderr += `${e.message}\n`;
      done(127, null);
    });
    child.on("close", done);
  });
}
