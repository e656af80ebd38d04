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

interface Proc {
  ppid: number;
  pgid: number;
  sid: number;
  /** start time in clock ticks since boot: a pid reused by another process has another */
  start: string;
}

/** Add what `leader` heads now to `known` (a running child's tree, sampled while its parents live). */
export function trackMembers(leader: number, known: Map<number, string>): void {
  for (const [m, start] of members(leader, processTable(), known)) known.set(m, start);
}

/** Every process this user can see (Linux: from /proc; elsewhere none). */
function processTable(): Map<number, Proc> {
  const table = new Map<number, Proc>();
  let pids: string[];
  try {
    pids = fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d));
  } catch {
    return table;
  }
  for (const d of pids) {
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, "utf8");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // a zombie has ended: only its parent's wait is left, and it holds nothing open
      if (f[0] !== "Z") table.set(Number(d), { ppid: Number(f[1]), pgid: Number(f[2]), sid: Number(f[3]), start: f[19] ?? "" });
    } catch {
      /* gone */
    }
  }
  return table;
}

/**
 * The processes `leader` heads: its process group, its session, and every descendant of the
 * leader or of `known`. A host may start helpers in a group of their own inside the session, or
 * in a new session (Codex 0.171's sandbox runs its fs helper under `bwrap --new-session`), which
 * neither a signal to the group nor a session scan reaches; the parent tree does, while the
 * parents live, so a caller that kills keeps what it found in `known` across its rounds.
 */
function members(leader: number, table: Map<number, Proc>, known: ReadonlyMap<number, string> = new Map()): Map<number, string> {
  const found = new Map<number, string>();
  const children = new Map<number, number[]>();
  for (const [pid, p] of table) {
    if (p.pgid === leader || p.sid === leader) found.set(pid, p.start);
    children.set(p.ppid, [...(children.get(p.ppid) ?? []), pid]);
  }
  const roots = [leader, ...[...known].filter(([pid, start]) => table.get(pid)?.start === start).map(([pid]) => pid)];
  const queue = [...roots, ...found.keys()];
  for (let i = 0; i < queue.length; i++) {
    for (const c of children.get(queue[i]!) ?? []) {
      if (found.has(c)) continue;
      found.set(c, table.get(c)!.start);
      queue.push(c);
    }
  }
  return found;
}

/** The processes of the session, process group or process tree `leader` heads (Linux; elsewhere none). */
export function sessionMembers(leader: number): number[] {
  return [...members(leader, processTable()).keys()];
}

const signal = (pid: number, sig: NodeJS.Signals | 0) => {
  try {
    process.kill(pid, sig);
    return true;
  } catch {
    return false;
  }
};

/**
 * Kill a process group, its session and its process tree: TERM, then KILL after a grace period
 * if anything of it is still alive. What was found once stays targeted (by pid and start time),
 * so a helper whose parent exits first is still reached after it is re-parented.
 */
export function killGroup(pid: number, graceMs = 2000, known = new Map<number, string>()): Promise<void> {
  const all = (sig: NodeJS.Signals | 0) => {
    const table = processTable();
    for (const [m, start] of members(pid, table, known)) known.set(m, start);
    let any = signal(-pid, sig);
    for (const [m, start] of known) {
      const now = table.get(m);
      if (now === undefined || now.start !== start) known.delete(m);
      else any = signal(m, sig) || any;
    }
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
    // the tree is sampled while the child runs: a helper in a new session whose parent exits is
    // re-parented away from it, and would otherwise outlive the stage unseen
    const known = new Map<number, string>();
    const track = group === undefined ? null : setInterval(() => trackMembers(group, known), 500);
    track?.unref();
    child.stdout?.setEncoding("utf8").on("data", (c: string) => (stdout += c));
    child.stderr!.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    if (o.input !== undefined) child.stdin!.end(o.input);
    const onAbort = () => {
      interrupted = true;
      if (child.pid !== undefined) killing = killGroup(child.pid, 2000, known);
    };
    if (o.signal?.aborted) onAbort();
    else o.signal?.addEventListener("abort", onAbort, { once: true });
    const done = (exit: number | null, signal: NodeJS.Signals | null) => {
      o.signal?.removeEventListener("abort", onAbort);
      if (track !== null) clearInterval(track);
      if (group !== undefined && live.delete(group)) changed();
      // the leader may exit before its children, interrupted or not: nothing of its group, session
      // or tree outlives the step (a detached child left running could write after the audit)
      const settle = child.pid === undefined ? Promise.resolve() : (killing ?? sweep ?? killGroup(child.pid, 2000, known));
      if (o.stdoutFile !== undefined) stdout = fs.existsSync(o.stdoutFile) ? fs.readFileSync(o.stdoutFile, "utf8") : "";
      void settle.then(() => resolve({ exit, signal, stdout, stderr, interrupted, durationMs: Date.now() - started }));
    };
    child.on("error", (e) => {
      stderr += `${e.message}\n`;
      done(127, null);
    });
    // the step ends when its leader exits: what it left holds the output pipes open (so "close"
    // would wait for it) and could write after the audit, so it is stopped now
    let sweep: Promise<void> | null = null;
    child.on("exit", () => {
      if (track !== null) clearInterval(track);
      if (child.pid !== undefined && killing === null) sweep = killGroup(child.pid, 2000, known);
    });
    child.on("close", done);
  });
}
