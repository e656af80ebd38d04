// `harness run` on a real host: a scratch git project with the Pebble roles installed by the built
// CLI, a tiny npm project whose `npm test` really runs, and the scripted loopback model playing each
// role (a conversation per role, picked by a line of the role's own prompt).
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { readPipeline } from "../../../src/ir/normalize.js";
import { createHostEnv, REPO_ROOT, type HostEnv } from "./env.js";
import { run, type RunResult } from "./run.js";
import type { Conversation, ModelRequest, Step, Stub } from "./stubs.js";

export const CLI = path.join(REPO_ROOT, "dist", "cli", "cli.js");
export const PEBBLE = readPipeline(path.join(REPO_ROOT, "roles")).pipeline;

/** A line only that role's prompt holds (the role body's first long line). */
export const marker = (role: string) => PEBBLE.roles.find((r) => r.id === role)!.body.split("\n").map((l) => l.trim()).find((l) => l.length > 8)!;

const RUN_TESTS = `// runs every test/*.test.mjs; exit 1 when one throws
import fs from "node:fs";
let failed = 0;
for (const f of fs.existsSync("test") ? fs.readdirSync("test").filter((x) => x.endsWith(".test.mjs")).sort() : []) {
  try { await import("./test/" + f); console.log("ok", f); } catch (e) { failed++; console.log("FAIL", f, e.message); }
}
process.exit(failed ? 1 : 0);
`;

export interface RunProject {
  env: HostEnv;
  project: string;
  /** the record of a run, parsed */
  record(id: string): Record<string, any>;
  dispose(): void;
}

/** A committed project with Pebble installed for one host; `.harness/` is the runner's, ignored by git. */
export function runProject(host: string, label: string): RunProject {
  const env = createHostEnv({ label });
  const p = env.project;
  fs.cpSync(path.join(REPO_ROOT, "roles"), path.join(p, "roles"), { recursive: true });
  fs.writeFileSync(path.join(p, "package.json"), `${JSON.stringify({ name: "run-scene", version: "1.0.0", private: true, type: "module", scripts: { test: "node run-tests.mjs" } }, null, 2)}\n`);
  fs.writeFileSync(path.join(p, "run-tests.mjs"), RUN_TESTS);
  fs.writeFileSync(path.join(p, "README.md"), "# run scene\n");
  fs.writeFileSync(path.join(p, ".gitignore"), ".harness/\nnode_modules/\n");
  execFileSync(process.execPath, [CLI, "install", "--host", host, "-q"], { cwd: p, stdio: "pipe" });
  const git = (...a: string[]) => execFileSync("git", a, { cwd: p, stdio: "ignore", env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: env.home, GIT_CONFIG_NOSYSTEM: "1" } });
  git("add", "-A");
  git("commit", "-q", "-m", "scene: initial");
  env.env.HARNESS_STATE_HOME = path.join(env.root, "state");
  return {
    env,
    project: p,
    record: (id) => JSON.parse(fs.readFileSync(path.join(p, ".harness", "runs", `${id}.json`), "utf8")),
    dispose: () => env.dispose(),
  };
}

/** The conversation of one role: its steps, then its report. `report` may change per session. */
export function role(id: string, steps: (Step | ((req: ModelRequest) => Step))[], report: string | ((req: ModelRequest) => string)): Conversation {
  const final = typeof report === "string" ? () => report : report;
  // after the scripted steps the reply is the report; a resumed session (more tool results) reports again
  const padded = [...steps, ...Array.from({ length: 12 }, () => (req: ModelRequest) => ({ text: final(req) }))];
  return { name: id, when: marker(id), steps: padded, final: "Status: done" };
}

/** The classifying session: no role prompt, the runner's classify brief. */
export const classifier = (kind: string): Conversation => ({ name: "classify", when: (req) => JSON.stringify(req.body.messages ?? "").includes("Classify this request for the"), steps: [{ text: kind }] });

/** `harness run …` without a terminal; stdout holds --json events when asked for. */
export function harnessRun(rp: RunProject, args: string[], timeoutMs = 240_000): Promise<RunResult> {
  return run(process.execPath, [CLI, "run", ...args], { cwd: rp.project, env: rp.env.env, timeoutMs });
}

export const events = (stdout: string): Record<string, any>[] => stdout.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l));

/** Conversations the stub served, in order, one entry per session (consecutive requests of one role merged). */
export function sessionsServed(stub: Stub): string[] {
  const out: string[] = [];
  let last: string | null = null;
  for (const l of stub.log) {
    if (!l.conversation) continue;
    // a new session starts when a conversation's request carries no tool result yet, or another role speaks
    if (l.conversation !== last || l.request?.toolResults === 0) out.push(l.conversation);
    last = l.conversation;
  }
  return out;
}

/** Processes whose working folder is inside `dir`, or whose command line names it (a sandbox helper
 * working in `/`): what an interrupted run must not leave behind. */
export function processesIn(dir: string): string[] {
  const out: string[] = [];
  for (const pid of fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const cwd = fs.readlinkSync(`/proc/${pid}/cwd`);
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ").trim();
      if (cwd === dir || cwd.startsWith(`${dir}/`) || cmd.includes(dir)) out.push(`${pid} ${cmd}`);
    } catch {
      /* gone, or not ours */
    }
  }
  return out;
}

export interface PtyRun {
  /** type on the terminal ("\r" is Enter, "\x03" is Ctrl-C) */
  send(s: string): void;
  /** everything the terminal showed so far */
  screen(): string;
  /** resolves once `screen()` matches, after `from` characters (default: the whole screen) */
  waitFor(re: RegExp, from?: number): Promise<string>;
  done: Promise<{ code: number | null; screen: string }>;
}

/** `harness run …` on a pseudo-terminal (util-linux `script`): stdin, stdout and stderr are a TTY. */
export function harnessRunOnPty(rp: RunProject, args: string[], timeoutMs = 240_000): PtyRun {
  const quoted = [process.execPath, CLI, "run", ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
  const child = spawn("script", ["-qefc", quoted, "/dev/null"], { cwd: rp.project, env: { ...rp.env.env, TERM: "xterm" }, stdio: ["pipe", "pipe", "pipe"], detached: true });
  let screen = "";
  const waiters: { re: RegExp; from: number; resolve: (s: string) => void }[] = [];
  const onData = (c: Buffer) => {
    screen += c.toString("utf8");
    for (const w of [...waiters]) if (w.re.test(screen.slice(w.from))) (waiters.splice(waiters.indexOf(w), 1), w.resolve(screen));
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      /* gone */
    }
  }, timeoutMs);
  const done = new Promise<{ code: number | null; screen: string }>((resolve) =>
    child.on("close", (code) => {
      clearTimeout(timer);
      for (const w of waiters.splice(0)) w.resolve(screen);
      resolve({ code, screen });
    }),
  );
  return {
    send: (s) => child.stdin.write(s),
    screen: () => screen,
    waitFor: (re, from = 0) => new Promise((resolve) => (re.test(screen.slice(from)) ? resolve(screen) : waiters.push({ re, from, resolve }))),
    done,
  };
}
