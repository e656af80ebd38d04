// The Claude Code guard: the shared pre-call guard (src/adapter/guard/) with Claude Code's shim, and
// where its hooks go.
//
// Claude Code has no per-agent path scope or command rules (settings.json permissions are
// session-wide), but a PreToolUse hook can answer allow / ask / deny for one call, and hooks can live
// in three places (real-host tests, 2.1.332):
// - an agent's front matter: runs for that agent only, as a subagent and as `claude --agent <role>`;
// - a command's front matter: runs on the main thread of a session once it invoked the command, for
//   the rest of that session, and never inside the subagents it starts;
// - settings.json: every session in the project.
// policies.scope `pipeline` (default) uses the first two: each role carries its own hook, the
// pipeline's command carries the orchestrator's, and an ordinary session is not bound. settings.json
// adds a second layer for role subagents only (no argument: a role by its agent_type, nothing else),
// so a role stays guarded where front-matter hooks do not fire (anthropics/claude-code#95650).
// `repository` uses one settings.json hook: roles by agent_type, every main thread is the
// orchestrator, any other agent is refused.
//
// A hook `allow` lets the call run without a prompt, but settings.json deny and ask rules still win
// over it (real-host test). So nothing in settings.json may deny what a role or the orchestrator is
// allowed: session-wide denies are emitted (scope repository only) only where no allow rule could
// meet them; the guard holds the rest.
import { guardSharedGaps } from "../../src/adapter/guard/gaps.js";
import type { PipelineIR } from "../../src/ir/types.js";
import { GUARD_OFF_ENV, compileGuardPolicy, type GuardPolicy } from "../../src/adapter/guard/policy.js";
import { renderGuardScript } from "../../src/adapter/guard/render.js";
import { CLAUDE_GUARD_CALL, CLAUDE_GUARD_MAIN } from "./guard-runtime.js";
import { claudeGuardTools } from "./tools.js";
import { claudeAsksBeforeWriting } from "./protected-folders.js";
import { guardHookCommand as failClosedHook } from "../../src/adapter/guard/hook-command.js";

/** Where the guard script is written, relative to the project root. */
export const GUARD_PATH = ".claude/hooks/harness-guard.cjs";
export { GUARD_OFF_ENV };
/**
 * Paths nobody may write while the guard is on: what Claude Code and harness use for enforcement (the
 * guard and audit scripts and every hook, the settings that wire them, the agent, command and skill
 * files whose front matter carries hooks), at the root and in nested .claude/ folders. The rest of
 * .claude/ (state, agent memory) is the project's: a role whose artifact lies there may write it.
 */
const ENFORCEMENT = [".claude/hooks/**", ".claude/settings.json", ".claude/settings.local.json", ".claude/agents/**", ".claude/commands/**", ".claude/skills/**"];
export const GUARD_PROTECTED_PATHS: readonly string[] = [...ENFORCEMENT, ...ENFORCEMENT.map((g) => `**/${g}`)];
/** Every tool: the guard passes the read-only ones and refuses (for roles) those it does not know, MCP tools included. */
export const GUARDED_TOOLS_MATCHER = "*";
/** The `as` argument of the pipeline command's hook. */
export const ORCHESTRATOR = "@orchestrator";

/** What the guard cannot see. Adapters list them as limits of the `guard` level (MAPPING.md). */
export const GUARD_GAPS: readonly string[] = [
  "a command a role may run (its test runner, its build) runs code that can write any file: the guard checks the command line, not what the program does. For subagent roles the stage-end audit restores such writes and fails the stage (its real-host test in MAPPING.md above); main-session roles have no audit",
  "aliases and functions from the user's shell profile (Claude Code's shell snapshot loads them), and the options it sets (zsh's EXTENDED_GLOB, bash's extglob), are invisible to a hook; the guard matches the words as written (file effects: the stage-end audit). Claude Code 2.1.332 runs Bash in bash or zsh (CLAUDE_CODE_SHELL, else SHELL where it names one, else zsh before bash) and turns off extglob, and zsh's EQUALS, EXTENDED_GLOB and bare glob qualifiers, itself (measured)",
  "Claude Code's hook input does not say which main-session role is active: inside a pipeline run the orchestrator may write what any main-session role may",
  "scope pipeline: the orchestrator's limits bind the session from /<pipeline> on (command front-matter hooks stay active for the rest of the session); stages run without that command are bound only by their roles' own limits",
  ...guardSharedGaps({ audit: true, patch: false, off: "settings" }),
];

export function compileClaudePolicy(pipeline: PipelineIR): GuardPolicy {
  return compileGuardPolicy(pipeline, { protect: GUARD_PROTECTED_PATHS, hostTools: claudeGuardTools });
}

function header(pipeline: PipelineIR): string[] {
  return [
    `harness guard for Claude Code, pipeline ${pipeline.name}: per-role write scopes, shell rules and spawn limits.`,
    "Generated by harness from the pipeline definition. Do not edit; rebuild instead.",
    "",
    pipeline.policies.scope === "pipeline"
      ? "Wired in the front matter of .claude/agents/<role>.md (argument: the role) and of the pipeline's commands"
      : "Wired in .claude/settings.json (PreToolUse, every tool); the roles are told apart by agent_type,",
    pipeline.policies.scope === "pipeline"
      ? `(argument: ${ORCHESTRATOR} or a main-session role), and in .claude/settings.json for role subagents by agent_type. Ordinary sessions are not bound.`
      : "every main thread is the orchestrator, and any other agent may only read.",
    "Output: exit 2 + one stderr line = deny; permissionDecision allow / ask on stdout; nothing = no opinion.",
    "Shell commands are read exactly or not at all: anything with $, backticks, globs, braces, ~, subshells,",
    "&, here-documents or environment assignments is asked (refused for default-deny roles), never allowed.",
    "",
    `Off switch: ${GUARD_OFF_ENV}=1 in the environment Claude Code is started with. Nothing an agent can write turns it off.`,
    "Not covered:",
    ...GUARD_GAPS.map((g) => `  - ${g}`),
  ];
}

/** The full text of `.claude/hooks/harness-guard.cjs` for this pipeline. */
export function renderGuard(pipeline: PipelineIR): string {
  return renderGuardScript({ header: header(pipeline), policy: compileClaudePolicy(pipeline), shim: `${CLAUDE_GUARD_CALL.trim()}\n${CLAUDE_GUARD_MAIN.trim()}` });
}

/**
 * The hook `command`. POSIX sh: blocks (exit 2, one line) when node is missing, and turns any exit of
 * the script other than 0 and 2 (a crash, a missing file) into a block as well.
 */
export function guardHookCommand(as?: string): string {
  return failClosedHook(`node "$CLAUDE_PROJECT_DIR/${GUARD_PATH}"${as ? ` ${as}` : ""}`);
}

/** The file-writing tools whose permission prompt the guard may answer (PermissionRequest). */
export const PROMPTED_WRITE_MATCHER = "Write|Edit|MultiEdit|NotebookEdit";

/**
 * Does some role write into a folder Claude Code asks about whatever a PreToolUse hook says. Only then
 * does the guard also answer PermissionRequest, so other pipelines pay no extra hook.
 */
export function answersWritePrompts(pipeline: PipelineIR): boolean {
  let answers = promptAnswers.get(pipeline);
  if (answers === undefined) promptAnswers.set(pipeline, (answers = pipeline.roles.some((r) => r.write.some(claudeAsksBeforeWriting))));
  return answers;
}
// Asked once per agent file: without the memo a pipeline of n roles scans every role's globs n times.
const promptAnswers = new WeakMap<PipelineIR, boolean>();

/** A `hooks:` value (front matter or settings.json) running the guard for `as`. */
export function guardHooks(as: string | undefined, pipeline: PipelineIR): Record<string, unknown> {
  const pre = { PreToolUse: [{ matcher: GUARDED_TOOLS_MATCHER, hooks: [{ type: "command", command: guardHookCommand(as), onFailure: "block", timeout: 10 }] }] };
  if (!answersWritePrompts(pipeline)) return pre;
  // no onFailure: a hook that fails gives no answer, and Claude Code asks as it would without it
  return { ...pre, PermissionRequest: [{ matcher: PROMPTED_WRITE_MATCHER, hooks: [{ type: "command", command: guardHookCommand(as), timeout: 10 }] }] };
}
