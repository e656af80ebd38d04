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

/** Kill a process group: TERM, then KILL after a grace period if anything in it is still alive. */
export function killGroup(pid: number, graceMs = 2000): Promise<void> {
  const alive = () => {
    try {
      process.kill(-pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  try {
    process.kill(-pid, "SIGTERM");
  } catch {
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const started = Date.now();
    const tick = setInterval(() => {
      if (!alive()) {
        clearInterval(tick);
        resolve();
      } else if (Date.now() - started > graceMs) {
        try {
          process.kill(-pid, "SIGKILL");
        } catch {
          /* gone */
        }
        clearInterval(tick);
        resolve();
      }
    }, 50);
  });
}

export function runProcess(bin: string, args: readonly string[], o: ProcessOptions): Promise<ProcessResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    // detached: a new process group, so the terminal's Ctrl-C reaches the runner only and the
    // runner decides how the group ends (and records it)
    const out = o.stdoutFile === undefined ? null : fs.openSync(o.stdoutFile, "w");
    const child = spawn(bin, args, { cwd: o.cwd, env: o.env ?? process.env, detached: true, stdio: [o.input === undefined ? "ignore" : "pipe", out ?? "pipe", "pipe"] });
    if (out !== null) fs.closeSync(out);
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
