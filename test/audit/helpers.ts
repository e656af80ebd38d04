// A scratch git project with the generated audit script installed, and runners for its modes.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { renderAuditScript, type AuditOptions } from "../../src/adapter/audit/index.js";
import type { PipelineIR, RoleIR } from "../../src/ir/types.js";
import { SCRATCH } from "../helpers/scratch.js";
import { HOOKS_VIA_NODE, runHook } from "../helpers/hook-vm.js";

export const SCRIPT = ".claude/hooks/harness-audit.mjs";
const TEST_GLOBS = ["test/**", "tests/**", "**/__tests__/**", "**/*.test.*", "**/*.spec.*"];

const role = (id: string, write: string[], neverWrite: string[], isolation = "subagent"): RoleIR => ({ id, write, neverWrite, isolation }) as unknown as RoleIR;
/** the pipeline-wide never-write (every role's never-write holds it at the root; the audit also at any depth) */
export const NEVER = [".git/**", ".claude/**", "CLAUDE.md"];
export const ROLES = [
  role("jade", ["src/**", "lib/**"], [...TEST_GLOBS, ...NEVER]),
  role("mica", TEST_GLOBS, NEVER),
  role("chalk", ["docs/**", "README.md"], NEVER),
];
/** a main-session role: what the orchestrator may write between stages */
export const MAIN = role("flint", [".pebble/spec.md"], NEVER, "main");
const pipeline = { name: "pebble", policies: { neverWrite: NEVER }, roles: [...ROLES, MAIN] } as unknown as PipelineIR;

/** where the tests' audit scripts keep their key and witnesses (the account's home in real use) */
export const AUDIT_KEY_HOME = path.join(SCRATCH, "audit-key-home");

export function script(over: Partial<AuditOptions> = {}): string {
  return renderAuditScript(pipeline, {
    host: "test",
    scriptPath: SCRIPT,
    projectEnv: "CLAUDE_PROJECT_DIR",
    stopBlocks: false,
    protect: [".claude/hooks/**", ".claude/settings.json"],
    roles: ROLES,
    betweenEverySession: true,
    // the audit's key and witnesses (issue 22) in one scratch home shared by the tests, not the account's
    auditHome: AUDIT_KEY_HOME,
    ...over,
  });
}

export const gitEnv = { PATH: process.env.PATH ?? "/usr/bin:/bin", GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" };

export interface Repo {
  dir: string;
  home: string;
  git(...args: string[]): string;
  put(rel: string, content: string | Buffer): void;
  read(rel: string): string;
  exists(rel: string): boolean;
  run(mode: string, input: unknown, extraArgs?: string[], extraEnv?: Record<string, string>): { code: number; stderr: string; stdout: string; ms: number };
  start(id: string, role: string, session?: string): void;
  stop(id: string, role: string, session?: string): { code: number; stderr: string; ms: number };
  /** the orchestrator's own command (PostToolUse on its Bash: no agent_id) */
  between(session: string, command?: string): { code: number; stderr: string };
  report(id: string, subagentType?: string): { code: number; stderr: string; ms: number };
  cleanup(): void;
}

/**
 * \`viaProcess\`: run the audit through \`node\`, not in this process (test/helpers/hook-vm.ts, the
 * default: the same script bytes, input, environment and folder, and real git processes). A test
 * about the process itself (a time limit, a FIFO that could block a read) sets it; a sample in
 * audit.test.ts runs both ways and compares.
 */
export function makeRepo(files: Record<string, string | Buffer>, opts: { git?: boolean; scriptText?: string; viaProcess?: boolean } = {}): Repo {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(SCRATCH, "harness-audit-")));
  const dir = path.join(root, "project");
  const home = path.join(root, "home");
  fs.mkdirSync(dir);
  fs.mkdirSync(home);
  const env = { ...gitEnv, HOME: home };
  const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, env, encoding: "utf8" }).trim();
  const put = (rel: string, content: string | Buffer) => {
    const p = path.join(dir, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, content);
  };
  for (const [rel, c] of Object.entries(files)) put(rel, c);
  put(SCRIPT, opts.scriptText ?? script());
  // one fork of this (large) test process for the three: a fork costs it more than git's own work
  if (opts.git !== false) execFileSync("/bin/sh", ["-c", "git init -q && git add -A && git commit -q -m initial"], { cwd: dir, env });
  const run = (mode: string, input: unknown, extraArgs: string[] = [], extraEnv: Record<string, string> = {}) => {
    const t = performance.now();
    const file = path.join(dir, SCRIPT);
    const text = typeof input === "string" ? input : JSON.stringify(input);
    const hookEnv = { ...env, CLAUDE_PROJECT_DIR: dir, ...extraEnv };
    if (!opts.viaProcess && !HOOKS_VIA_NODE) {
      const r = runHook(file, [mode, ...extraArgs], text, hookEnv, dir);
      return { ...r, ms: performance.now() - t };
    }
    const r = spawnSync("node", [file, mode, ...extraArgs], {
      cwd: dir,
      env: hookEnv,
      input: text,
      encoding: "utf8",
      // a hook that hangs fails its test instead of holding the run (SIGKILL: code -1)
      timeout: 60000,
      killSignal: "SIGKILL",
    });
    return { code: r.status ?? -1, stderr: r.stderr, stdout: r.stdout, ms: performance.now() - t };
  };
  return {
    dir,
    home,
    git,
    put,
    read: (rel) => fs.readFileSync(path.join(dir, rel), "utf8"),
    exists: (rel) => {
      try {
        fs.lstatSync(path.join(dir, rel));
        return true;
      } catch {
        return false;
      }
    },
    run,
    start(id, role, session) {
      const r = run("start", { hook_event_name: "SubagentStart", agent_id: id, agent_type: role, ...(session ? { session_id: session } : {}) });
      if (r.code !== 0) throw new Error(`start failed (${r.code}): ${r.stderr}`);
    },
    stop: (id, role, session) => run("stop", { hook_event_name: "SubagentStop", agent_id: id, agent_type: role, stop_hook_active: false, ...(session ? { session_id: session } : {}) }),
    between: (session, command = "npm test") => run("between", { hook_event_name: "PostToolUse", session_id: session, tool_name: "Bash", tool_input: { command } }),
    report: (id, subagentType = "jade") =>
      run("report", { hook_event_name: "PostToolUse", tool_name: "Agent", tool_input: { subagent_type: subagentType }, tool_response: { status: "completed", agentId: id, agentType: subagentType } }),
    cleanup: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

/** A scratch repository for one test body, cleaned up whatever the body does. */
export function withRepo(files: Record<string, string | Buffer>, body: (r: Repo) => void, opts: Parameters<typeof makeRepo>[1] = {}): void {
  const r = makeRepo(files, opts);
  try {
    body(r);
  } finally {
    r.cleanup();
  }
}
