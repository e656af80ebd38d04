// Shared machinery for the guard tests: a scratch project on disk, real PreToolUse payloads, the
// rendered script run with `node`, and the same runtime evaluated in-process.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CLAUDE_GUARD_CALL } from "../../adapters/claude-code/guard-runtime.js";
import { GUARD_PATH, ORCHESTRATOR, compileClaudePolicy, renderGuard } from "../../adapters/claude-code/guard.js";
import { afterAll } from "vitest";
import { GUARD_RUNTIME } from "../../src/adapter/guard/render.js";
import type { PipelineIR } from "../../src/ir/types.js";

export interface Decision {
  kind: "allow" | "ask" | "deny" | "none";
  reason?: string;
}
/** raw hook input, env, the hook's argument (role id, "@orchestrator" or none), the script's project */
export type Decide = (raw: string, env?: Record<string, string | undefined>, as?: string | null, scriptProject?: string) => Decision;

type Call = Record<string, unknown> | string;
/** The runtime evaluated in this process against the compiled policy of `pipeline`. */
export function inProcess(pipeline: PipelineIR): Decide {
  const policy = compileClaudePolicy(pipeline);
  // The same text the script embeds; `fs` and `path` are its only free variables.
  const factory = new Function("fs", "path", `${GUARD_RUNTIME}\n${CLAUDE_GUARD_CALL}\nreturn { guardDecide, ccCall };`) as (
    f: typeof fs,
    p: typeof path,
  ) => { guardDecide: (policy: unknown, call: Call) => Decision; ccCall: (raw: string, env: Record<string, string | undefined>, as: string | null, sp: string | null) => Call };
  const rt = factory(fs, path);
  return (raw, env = {}, as = null, scriptProject) => {
    const call = rt.ccCall(raw, env, as ?? null, scriptProject ?? null);
    if (typeof call === "string") return { kind: "deny", reason: `harness guard: ${call}; refusing (fail closed).` };
    try {
      return rt.guardDecide(policy, call);
    } catch (e) {
      return { kind: "deny", reason: `harness guard: internal error (${(e as Error).message}); refusing (fail closed).` };
    }
  };
}

export interface Project {
  root: string; // scratch root (deleted at the end)
  dir: string; // the project
  /** A second project whose scope folders are symbolic links to `outside`. */
  linked: string;
  outside: string;
  script: string; // the guard inside `dir`
  linkedScript: string;
  cleanup(): void;
}

function put(file: string, text = "x\n"): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

export function makeProject(pipeline: PipelineIR): Project {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "harness-guard-")));
  const dir = path.join(root, "proj");
  const linked = path.join(root, "linked");
  const outside = path.join(root, "outside");
  const script = renderGuard(pipeline);
  for (const d of [dir, linked]) put(path.join(d, GUARD_PATH), script);
  for (const f of ["src/a.ts", "src/util.test.ts", "lib/b.ts", "tests/a.test.ts", "docs/guide.md", "infra/main.tf", ".git/config", ".pebble/spec.md", "README.md"])
    put(path.join(dir, f));
  put(path.join(dir, "src/deep/__tests__/x.ts"));
  put(path.join(dir, "solo/only.ts")); // a folder jade may not touch
  fs.mkdirSync(path.join(outside, "pebble"), { recursive: true });
  for (const d of ["src", "tests", "docs", "infra"]) fs.mkdirSync(path.join(outside, d), { recursive: true });
  put(path.join(outside, "secret.txt"));
  fs.symlinkSync(outside, path.join(dir, "src/out")); // a link from a writable folder to outside
  fs.symlinkSync("/nonexistent-harness-guard/target", path.join(dir, "src/dangling"));
  fs.symlinkSync("../tests", path.join(dir, "lib/t")); // an in-project link into a never-write folder
  // `linked`: every folder a role writes is a link out of the project
  fs.symlinkSync(path.join(outside, "pebble"), path.join(linked, ".pebble"));
  for (const d of ["src", "tests", "docs", "infra"]) fs.symlinkSync(path.join(outside, d), path.join(linked, d));
  return {
    root,
    dir,
    linked,
    outside,
    script: path.join(dir, GUARD_PATH),
    linkedScript: path.join(linked, GUARD_PATH),
    cleanup: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

export interface PayloadOptions {
  tool: string;
  input: Record<string, unknown>;
  role?: string; // agent_type
  subagent?: boolean; // adds agent_id (default: true when role is given)
  cwd: string;
}

/** A PreToolUse payload shaped like Claude Code 2.1.332's (see the scripted-model notes). */
export function payload(o: PayloadOptions): Record<string, unknown> {
  const p: Record<string, unknown> = {
    session_id: "5f1c2b9e-0d1a-4c3e-9d55-4b8f0e2a7c11",
    transcript_path: "/root/.claude/projects/x/5f1c2b9e.jsonl",
    cwd: o.cwd,
    permission_mode: "acceptEdits",
    hook_event_name: "PreToolUse",
    tool_name: o.tool,
    tool_input: o.input,
    tool_use_id: "toolu_01HarnessGuardTest",
  };
  if (o.role !== undefined) {
    p.agent_type = o.role;
    if (o.subagent ?? true) p.agent_id = "a3c9e1f2b4d6";
  }
  return p;
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run a command with stdin, collect its output (async so runs can overlap). */
export function runProcess(cmd: string, args: string[], stdin: string, env: NodeJS.ProcessEnv, cwd?: string): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, cwd, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.on("error", () => undefined); // the script may exit before reading everything
    child.stdin.end(stdin);
  });
}

/** A clean environment for the guard: only what Claude Code would pass. */
export function guardEnv(project: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: os.homedir(), CLAUDE_PROJECT_DIR: project, ...extra };
}

export function runGuard(script: string, input: unknown, env: NodeJS.ProcessEnv, as?: string | null): Promise<RunResult> {
  const text = typeof input === "string" ? input : JSON.stringify(input);
  const dir = env.CLAUDE_PROJECT_DIR;
  return runProcess(process.execPath, as ? [script, as] : [script], text, env, dir && fs.existsSync(dir) ? dir : undefined);
}

/**
 * Run the guard the way a host does: a host process started with `hostEnv` runs the hook through
 * `/bin/sh -c` with `env` (the host's environment plus what its settings' `env` adds).
 */
export function runUnderHost(script: string, input: unknown, env: NodeJS.ProcessEnv, as: string | null | undefined, hostEnv: NodeJS.ProcessEnv): Promise<RunResult> {
  const text = typeof input === "string" ? input : JSON.stringify(input);
  const host = `const r = require("child_process").spawnSync("/bin/sh", ["-c", process.argv[1]], { input: require("fs").readFileSync(0), env: JSON.parse(process.argv[2]), stdio: ["pipe", "inherit", "inherit"] }); process.exit(r.status === null ? 1 : r.status);`;
  const hook = `${JSON.stringify(process.execPath)} ${JSON.stringify(script)}${as ? ` ${as}` : ""}; exit $?`;
  const dir = env.CLAUDE_PROJECT_DIR ?? env.COPILOT_PROJECT_DIR;
  return runProcess(process.execPath, ["-e", host, hook, JSON.stringify(env)], text, hostEnv, dir && fs.existsSync(dir) ? dir : undefined);
}

/**
 * The Pebble guard and a scratch project (`P`, with src/ and a package.json) for shell commands:
 * `kind(role, argv)` is the guard's answer to that role's Bash call (argv words quoted for sh).
 * Made at once (so its paths are plain constants); removed after the file's tests.
 */
export function bashScene(pipeline: PipelineIR): { root: string; P: string; decide: Decide; kind: (as: string, argv: string[] | string) => string } {
  const decide = inProcess(pipeline);
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "harness-options-")));
  const P = path.join(root, "proj");
  fs.mkdirSync(path.join(P, "src"), { recursive: true });
  fs.writeFileSync(path.join(P, "package.json"), "{}\n");
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
  const quote = (w: string) => (/^[A-Za-z0-9_./=:@+%,-]+$/.test(w) ? w : `'${w.replaceAll("'", "'\\''")}'`);
  const kind = (as: string, argv: string[] | string): string => {
    const command = typeof argv === "string" ? argv : argv.map(quote).join(" ");
    const role = as === ORCHESTRATOR ? {} : { role: as };
    return decide(JSON.stringify(payload({ tool: "Bash", input: { command }, ...role, cwd: P })), { CLAUDE_PROJECT_DIR: P }, as).kind;
  };
  return { root, P, decide, kind };
}
