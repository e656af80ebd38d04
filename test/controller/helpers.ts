// Drive a generated Claude Code run controller with hook payloads, in a scratch project with its own
// HOME, the way Claude Code 2.1.332 calls it (argv[2] = the event, the payload on stdin).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { readPipeline } from "../../src/ir/normalize.js";
import { HOST_IDS } from "../../adapters/index.js";
import { renderClaudeController } from "../../adapters/claude-code/controller.js";
import { renderClaudeAudit } from "../../adapters/claude-code/audit.js";
import type { PipelineIR } from "../../src/ir/types.js";
import { SCRATCH } from "../helpers/scratch.js";
import { HOOKS_VIA_NODE, runHook } from "../helpers/hook-vm.js";

export const PEBBLE: PipelineIR = readPipeline(path.join(__dirname, "..", "..", "roles"), { knownHosts: HOST_IDS }).pipeline;

/**
 * What the pipeline's checks call, `npm run <script> [--if-present]`, first on the scene's PATH: it runs
 * the package.json script with sh as npm does, and exits with its status (a missing script: 0 with
 * --if-present, else 1). The controller's part (which checks run when, their exits, logs and
 * verdicts) is the same; npm's own ~200 ms start per check (seven at each implement stage) is not
 * what these tests are about. The real npm runs under the controller in the real-host tests.
 * A shell script written from the scene's package.json (Scene.put writes it again when that
 * changes), not a Node start per check.
 */
function npmStandIn(packageJson: string): string {
  const q = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;
  const scripts = ((JSON.parse(packageJson) as { scripts?: Record<string, string> }).scripts ?? {}) as Record<string, string>;
  const cases = Object.entries(scripts).map(([name, run]) => `  ${q(name)}) printf '\\n> %s\\n> %s\\n\\n' ${q(name)} ${q(run)}; exec sh -c ${q(run)};;\n`);
  return `#!/bin/sh
case $1 in
  run) shift; name=$1; shift;;
  test) shift; name=test;;
  *) echo "npm stand-in (test/controller/helpers.ts): only npm run <script>" >&2; exit 1;;
esac
case $name in
${cases.join("")}  *) for a in "$@"; do [ "$a" = --if-present ] && exit 0; done; echo "npm error Missing script: $name" >&2; exit 1;;
esac
`;
}

/** \`node script event\` with \`input\` on stdin and exactly \`env\`: through a process, or in this one (test/helpers/hook-vm.ts) */
export function runController(script: string, event: string, input: string, env: Record<string, string>, viaProcess = false): { code: number; stdout: string; stderr: string } {
  if (!viaProcess && !HOOKS_VIA_NODE) return runHook(script, [event], input, env, process.cwd());
  // a hook that hangs fails its test instead of holding the run
  const r = spawnSync(process.execPath, [script, event], { input, encoding: "utf8", env, timeout: 30_000, killSignal: "SIGKILL" });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

export interface Answer {
  code: number;
  out: Record<string, unknown> | null;
  stderr: string;
  ms: number;
}

export class Scene {
  readonly dir: string;
  readonly project: string;
  readonly home: string;
  readonly script: string;
  readonly audit: string;
  /**
   * Hooks through \`node\` (true) or in this process (test/helpers/hook-vm.ts, the default): the same
   * script bytes, input, environment and folder; a test about the process itself (a hang, its time)
   * sets it, and \`sameAsProcess\` tests compare the two.
   */
  viaProcess = false;
  /** every hook's event and answer, in order (for comparing a run in this process with one through node) */
  readonly answers: { event: string; code: number; out: unknown; stderr: string }[] = [];
  /** `accountHome`: the controller keeps its key and records in the account's home (passwd), not in this scene's */
  constructor(
    readonly sid = "11111111-2222-3333-4444-555555555555",
    files: Record<string, string> = {},
    pipeline: PipelineIR = PEBBLE,
    accountHome = false,
  ) {
    this.dir = fs.mkdtempSync(path.join(SCRATCH, "harness-ctl-"));
    this.project = path.join(this.dir, "project");
    this.home = path.join(this.dir, "home");
    fs.mkdirSync(this.home, { recursive: true });
    this.script = path.join(this.project, ".claude", "hooks", "harness-controller.cjs");
    fs.mkdirSync(path.dirname(this.script), { recursive: true });
    fs.writeFileSync(this.script, renderClaudeController(pipeline, accountHome ? undefined : this.home));
    this.audit = path.join(this.project, ".claude", "hooks", "harness-audit.mjs");
    fs.writeFileSync(this.audit, renderClaudeAudit(pipeline, accountHome ? undefined : this.home));
    const base: Record<string, string> = {
      "package.json": JSON.stringify({ name: "s", private: true, scripts: { test: "node t.js", typecheck: "true", lint: "true", "format:check": "true", build: "true", smoke: "true" } }),
      "t.js": "const fs=require('fs');process.exit(fs.existsSync('src/impl.js')?0:1);\n",
      ...files,
    };
    for (const [k, v] of Object.entries(base)) this.put(k, v);
    spawnSync("git", ["init", "-q"], { cwd: this.project });
    fs.mkdirSync(path.join(this.dir, "bin"));
    fs.writeFileSync(path.join(this.dir, "bin", "npm"), npmStandIn(fs.readFileSync(path.join(this.project, "package.json"), "utf8")), { mode: 0o755 });
  }
  put(rel: string, text: string): void {
    const p = path.join(this.project, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, text);
    if (rel === "package.json" && fs.existsSync(path.join(this.dir, "bin"))) fs.writeFileSync(path.join(this.dir, "bin", "npm"), npmStandIn(text), { mode: 0o755 });
  }
  exists(rel: string): boolean {
    return fs.existsSync(path.join(this.project, rel));
  }
  hook(event: string, payload: Record<string, unknown>, env: Record<string, string> = {}): Answer {
    const t0 = Date.now();
    const r = this.node(this.script, [event], { session_id: this.sid, cwd: this.project, hook_event_name: event, ...payload }, { PATH: `${path.join(this.dir, "bin")}:${process.env.PATH ?? "/usr/bin:/bin"}`, HOME: this.home, CLAUDE_PROJECT_DIR: this.project, CLAUDE_CODE_SESSION_ID: this.sid, CLAUDE_CODE_SESSION_ATTENDED: "0", ...env });
    const text = r.stdout.trim();
    this.answers.push({ event, code: r.code, out: text ? JSON.parse(text) : null, stderr: r.stderr });
    return { code: r.code, out: text ? (JSON.parse(text) as Record<string, unknown>) : null, stderr: r.stderr, ms: Date.now() - t0 };
  }
  private node(script: string, args: string[], input: Record<string, unknown>, env: Record<string, string>): { code: number; stdout: string; stderr: string } {
    return runController(script, args[0]!, JSON.stringify(input), env, this.viaProcess);
  }
  /** the Claude Code stage-end audit in one mode (start, stop, report, between) */
  auditHook(mode: string, payload: Record<string, unknown>): { code: number; stderr: string } {
    const r = this.node(this.audit, [mode], { session_id: this.sid, cwd: this.project, ...payload }, { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: this.home, CLAUDE_PROJECT_DIR: this.project, GIT_CONFIG_NOSYSTEM: "1" });
    return { code: r.code, stderr: r.stderr };
  }
  prompt(prompt: string, extra: Record<string, unknown> = {}): Answer {
    return this.hook("UserPromptSubmit", { prompt, prompt_id: `p-${prompt.length}-${Date.now()}`, ...extra });
  }
  pre(tool: string, input: Record<string, unknown>, extra: Record<string, unknown> = {}): Answer {
    return this.hook("PreToolUse", { tool_name: tool, tool_input: input, ...extra });
  }
  spawn(role: string, extra: Record<string, unknown> = {}): Answer {
    return this.pre("Agent", { subagent_type: role, prompt: "go", description: role, run_in_background: false }, extra);
  }
  /** a whole subagent stage: spawn, start, the role's writes, stop (report), post */
  stage(role: string, writes: Record<string, string> = {}, report = "Status: done"): { spawn: Answer; stop: Answer; post: Answer | null } {
    const spawn = this.spawn(role);
    if (denied(spawn)) return { spawn, stop: spawn, post: null };
    const agent = `agent-${role}-${Date.now()}`;
    this.hook("SubagentStart", { agent_id: agent, agent_type: role });
    for (const [k, v] of Object.entries(writes)) this.put(k, v);
    let stop = this.hook("SubagentStop", { agent_id: agent, agent_type: role, last_assistant_message: report, stop_hook_active: false });
    for (let i = 0; i < 3 && stop.out?.decision === "block"; i++) stop = this.hook("SubagentStop", { agent_id: agent, agent_type: role, last_assistant_message: report, stop_hook_active: true });
    const post = this.hook("PostToolUse", { tool_name: "Agent", tool_input: { subagent_type: role }, tool_response: { agentId: agent, status: "completed" } });
    return { spawn, stop, post };
  }
  record(): Record<string, unknown> {
    const dir = path.join(this.project, ".harness", "runs");
    const f = fs.readdirSync(dir).filter((x) => x.endsWith(".json")).sort().pop()!;
    return JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")) as Record<string, unknown>;
  }
  cleanup(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

export const reason = (a: Answer): string => String(((a.out?.hookSpecificOutput ?? {}) as Record<string, unknown>).permissionDecisionReason ?? ((a.out?.hookSpecificOutput ?? {}) as Record<string, unknown>).additionalContext ?? a.out?.reason ?? "");
export const denied = (a: Answer): boolean => ((a.out?.hookSpecificOutput ?? {}) as Record<string, unknown>).permissionDecision === "deny";
