// Bounded child-process runner for the real host CLIs.
// Every run has a hard timeout; on timeout the whole process group the run started is killed
// (the hosts spawn helpers), by its id. stdin is closed (like `</dev/null`) unless `input` is given.
import { spawn } from "node:child_process";
import fs from "node:fs";

export interface RunOptions {
  cwd: string;
  env: Record<string, string>;
  /** hard limit; default 60 s */
  timeoutMs?: number;
  /** written to stdin, then stdin is closed */
  input?: string;
  /** cap per captured stream (bytes); default 16 MiB */
  maxBuffer?: number;
  /**
   * send stdout to this file instead of a pipe, and read it back as `stdout` when the run ends. For
   * programs that exit before a large piped output is flushed (OpenCode 1.18.33's `agent list`
   * loses the tail of ~270 kB when stdout is a pipe, at random).
   */
  stdoutFile?: string;
}

export interface RunResult {
  command: string;
  args: string[];
  /** exit code, or null when killed by a signal */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  durationMs: number;
  /** spawn error (binary missing, not executable, ...) */
  error?: string;
}

export function run(command: string, args: string[], opts: RunOptions): Promise<RunResult> {
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const maxBuffer = opts.maxBuffer ?? 16 * 1024 * 1024;
  const t0 = Date.now();
  return new Promise((resolve) => {
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    let settled = false;
    let spawnError: string | undefined;
    const outFd = opts.stdoutFile === undefined ? undefined : fs.openSync(opts.stdoutFile, "w");
    const child = spawn(command, args, {
      cwd: opts.cwd,
      env: opts.env,
      stdio: [opts.input === undefined ? "ignore" : "pipe", outFd ?? "pipe", "pipe"],
      detached: true, // own process group, so a timeout can kill the helpers too
    });
    if (outFd !== undefined) fs.closeSync(outFd); // the child holds its own copy
    const killGroup = () => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        try {
          child.kill("SIGKILL");
        } catch {
          /* already gone */
        }
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);
    child.stdout?.setEncoding("utf8");
    child.stderr?.setEncoding("utf8");
    child.stdout?.on("data", (d: string) => {
      if (stdout.length < maxBuffer) stdout += d;
    });
    child.stderr?.on("data", (d: string) => {
      if (stderr.length < maxBuffer) stderr += d;
    });
    if (opts.input !== undefined && child.stdin) {
      child.stdin.on("error", () => {});
      child.stdin.end(opts.input);
    }
    const finish = (code: number | null, signal: NodeJS.Signals | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // leftovers of the run's own process group (background helpers) die with it
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {
          /* group already empty */
        }
      }
      if (opts.stdoutFile !== undefined) {
        try {
          stdout = fs.readFileSync(opts.stdoutFile, "utf8").slice(0, maxBuffer);
        } catch {
          /* not written */
        }
      }
      resolve({
        command,
        args,
        code,
        signal,
        stdout,
        stderr,
        timedOut,
        durationMs: Date.now() - t0,
        ...(spawnError ? { error: spawnError } : {}),
      });
    };
    child.on("error", (e) => {
      spawnError = e.message;
      finish(null, null);
    });
    child.on("close", (code, signal) => finish(code, signal));
  });
}

/** Remove ANSI escape sequences (OpenCode colours its errors even with NO_COLOR). */
export function stripAnsi(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "").replace(/\x1b\][^\x07]*\x07/g, "");
}

/** One-line description of a run for failure messages. */
export function describeRun(r: RunResult): string {
  const what = [r.command.split("/").pop(), ...r.args].join(" ");
  const how = r.error
    ? `failed to start: ${r.error}`
    : r.timedOut
      ? `timed out after ${r.durationMs} ms`
      : `exit ${r.code ?? r.signal}`;
  return `${what} (${how})`;
}
