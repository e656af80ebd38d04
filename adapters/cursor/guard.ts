// The Cursor guard: the shared pre-call guard (src/adapter/guard/) with Cursor's shim, wired as
// project hooks in .cursor/hooks.json. Format from Cursor's hooks documentation
// (https://cursor.com/docs/hooks, as published 2026-08-24, read 2026-11-30; earlier versions at
// https://cursor.com/docs/agent/hooks): `{"version": 1, "hooks": {"<event>": [{"command", "timeout"
// (seconds), "failClosed", "matcher"}]}}`; project hooks run from the project root in trusted
// workspaces; exit 2 blocks; other failures block only with `failClosed: true`. Nothing here is
// proven on the real host (no installable CLI): the guard is defence in depth, and MAPPING.md keeps
// every per-role limit `instructed`.
//
// Scope. Project hooks run for every chat in the workspace, and their input names neither the
// role (no agent field on tool hooks) nor the command that started the chat. A marker a pipeline run
// sets (a file, a transcript line) could be deleted or rewritten by code a role runs (its tests), so
// it could switch the guard off; nothing in the input tells a run from an ordinary chat without one.
// So the guard is emitted only under `policies.scope: repository` (bind every session, as the team
// asked), and there it holds every agent to the pipeline-wide limits: the union of the roles' write
// scopes, never-write, shell_deny, read-only git with the orchestrator's exceptions, pipeline roles
// only as subagents. Under `scope: pipeline` (the default) no hook is emitted; MAPPING.md says so.
import type { PipelineIR } from "../../src/ir/types.js";
import { compileGuardPolicy, type GuardPolicy } from "../../src/adapter/guard/policy.js";
import { guardSharedGaps } from "../../src/adapter/guard/gaps.js";
import { renderGuardScript } from "../../src/adapter/guard/render.js";
import { CURSOR_GUARD_CALL, CURSOR_GUARD_MAIN } from "./guard-runtime.js";
import { guardHookCommand as failClosedHook } from "../../src/adapter/guard/hook-command.js";

/** Where the guard script is written, relative to the project root (project hooks run from there). */
export const GUARD_PATH = ".cursor/hooks/harness-guard.cjs";
export const HOOKS_PATH = ".cursor/hooks.json";
/** The events wired, each with the same script (argument: the event). */
export const GUARD_EVENTS = ["preToolUse", "beforeShellExecution", "beforeMCPExecution", "subagentStart"] as const;
/**
 * Paths nobody may write while the guard is on: Cursor's hooks, agents, commands and CLI permissions,
 * and Claude Code's config, whose hooks Cursor also loads ("Third Party Hooks",
 * https://cursor.com/docs/reference/third-party-hooks).
 */
// .claude/: only what Claude Code (whose agents, skills and hooks Cursor also loads) uses for enforcement
const CLAUDE_ENFORCEMENT = [".claude/hooks/**", ".claude/settings.json", ".claude/settings.local.json", ".claude/agents/**", ".claude/commands/**", ".claude/skills/**"];
export const GUARD_PROTECTED_PATHS: readonly string[] = [".cursor/**", "**/.cursor/**", ...CLAUDE_ENFORCEMENT, ...CLAUDE_ENFORCEMENT.map((g) => `**/${g}`)];
/** Seconds Cursor waits for the hook (its `timeout` is in seconds). */
export const HOOK_TIMEOUT = 10;

/** What the guard cannot see or do; MAPPING.md lists them under its known gaps. */
export const GUARD_GAPS: readonly string[] = [
  "generated as defence in depth and not proven on the real host: Cursor has no CLI the tests can install, so every row above stays instructed",
  "Cursor's hook input does not say which role is calling: every agent is held to the union of all roles' write scopes and allowed commands, never to one role's own (those are instructed)",
  "a command an agent may run (its test runner, its build) runs code that can write any file, .cursor/hooks.json and the guard script included, and Cursor reloads hooks.json when it changes: the guard checks the command line, not what the program does, and Cursor has no stage-end audit",
  "project hooks run only in a trusted workspace; the Cursor CLI has been reported to run only some hook events (forum, January 2026); the hook command is POSIX sh, so where Cursor runs hooks in another shell (Windows) it fails and failClosed blocks every guarded call",
  "Cursor also loads Claude Code's hooks and agents (third-party hooks): with both hosts installed, how the two guards' answers combine is not documented",
  "subagentStart names the agent by subagent_type; the docs do not say which value a custom agent from .cursor/agents carries: if it is not the role's name, every delegation is refused (fail closed)",
  "the guard cannot tell a role's subagent from the orchestrator: a role may start another role",
  "write tools are read by their one path field (file_path, path or target_file; the docs do not name it); an input with none, two different ones, any other path-, patch- or move-like key, or a folder to delete is refused, and tools the guard does not know are refused",
  "MCP tools are refused: the guard cannot model them and preToolUse cannot ask (beforeMCPExecution, which asks, does not run in cloud agents)",
  "a multi-root workspace is guarded from the root holding .cursor/hooks.json: writes into the other roots are refused",
  "no off switch: Cursor hands sessionStart hook output to later hooks as environment, so a variable could come from a hook an agent wrote; to stop the guard a human removes its entries from .cursor/hooks.json (or runs harness uninstall --host cursor)",
  ...guardSharedGaps({ audit: false, patch: false, off: false }),
];

/**
 * The guard policy for Cursor: the shared policy with every role counted as a main-session role, so
 * the guard's orchestrator path (the only caller Cursor's input allows) checks writes against the
 * union of all roles' write scopes.
 */
export function compileCursorPolicy(pipeline: PipelineIR): GuardPolicy {
  const p = compileGuardPolicy(pipeline, { protect: GUARD_PROTECTED_PATHS });
  return { ...p, kinds: p.kinds.map((k) => ({ ...k, main: 1 as const })) };
}

function header(pipeline: PipelineIR): string[] {
  return [
    `harness guard for Cursor, pipeline ${pipeline.name}: pipeline-wide write scope, never-write, shell and spawn limits for every agent.`,
    "Generated by harness from the pipeline definition. Do not edit; rebuild instead.",
    "",
    `Wired in ${HOOKS_PATH} (policies.scope: repository) for ${GUARD_EVENTS.join(", ")}; the argument is the event.`,
    "Cursor's hook input names no role, so every agent in this repository is held to the union of the roles' limits.",
    "Output: one JSON line on stdout ({\"permission\": ...} or {} for no opinion); a refusal also exits 2 with the reason on stderr.",
    "Shell commands are read exactly or not at all: anything with $, backticks, globs, braces, ~, subshells,",
    "&, here-documents or environment assignments is asked, never allowed.",
    "",
    "Based on Cursor's hooks documentation (https://cursor.com/docs/hooks, 2026-08-24); not proven on the real host.",
    "Not covered:",
    ...GUARD_GAPS.map((g) => `  - ${g}`),
  ];
}

/** The full text of `.cursor/hooks/harness-guard.cjs` for this pipeline. */
export function renderCursorGuard(pipeline: PipelineIR): string {
  return renderGuardScript({ header: header(pipeline), policy: compileCursorPolicy(pipeline), shim: `${CURSOR_GUARD_CALL.trim()}\n${CURSOR_GUARD_MAIN.trim()}` });
}

/**
 * The hook `command` for one event. POSIX sh, run from the project root: blocks (exit 2, one line)
 * when node is missing, and turns any exit of the script other than 0 and 2 into a block as well
 * (`failClosed` says the same to Cursor; a shell that cannot run this line fails, which blocks too).
 */
export function guardHookCommand(event: string): string {
  return failClosedHook(`node ${GUARD_PATH} ${event}`);
}

/** `.cursor/hooks.json` data: one entry per event, every tool (no matcher), failing closed. */
export function hooksJson(): { version: 1; hooks: Record<string, { command: string; timeout: number; failClosed: true }[]> } {
  return { version: 1, hooks: Object.fromEntries(GUARD_EVENTS.map((e) => [e, [{ command: guardHookCommand(e), timeout: HOOK_TIMEOUT, failClosed: true as const }]])) };
}
