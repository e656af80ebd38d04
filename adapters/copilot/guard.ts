// The Copilot CLI guard: the shared pre-call guard (src/adapter/guard/) with Copilot's shim
// (guard-runtime.ts), wired as agent-scoped hooks.
//
// Copilot CLI 1.0.102 runs a `hooks.preToolUse` entry of a custom agent's front matter for that
// agent's own tool calls only, whether it runs as a task subagent or as the session's agent
// (`copilot --agent <role>`, the launchers), and never for an ordinary session (real-host tests). So
// every role carries its own guard (argument: the role) and the orchestrator agent carries the
// orchestrator's (argument @orchestrator): the pipeline's agents are bound wherever they run, and
// nothing else is, which is policies.scope `pipeline`. Copilot names no agent started with --agent in
// its hook input, so a repository-wide hook could not tell a role run alone from an ordinary session:
// under scope `repository` harness binds the same agents and says so (a gap).
//
// Main-session roles run as their own sessions on Copilot (the human starts them; never in the
// orchestrator's thread), each under its own hook: the orchestrator gets no main-role write scope.
//
// A hook's `allow` also overrides the session's --deny-tool flags (measured), so the guard is the
// authority for what it allows; the launchers' flags bind what it leaves to Copilot (no output) and
// every agent whose hooks Copilot did not load (an untrusted folder: agent hooks need persistent trust).
import { guardSharedGaps } from "../../src/adapter/guard/gaps.js";
import type { PipelineIR } from "../../src/ir/types.js";
import { GUARD_OFF_ENV, compileGuardPolicy, type GuardPolicy } from "../../src/adapter/guard/policy.js";
import { renderGuardScript } from "../../src/adapter/guard/render.js";
import { shellQuote } from "../../src/adapter/shell.js";
import { COPILOT_GUARD_CALL, COPILOT_GUARD_MAIN } from "./guard-runtime.js";
import { guardHookCommand as failClosedHook } from "../../src/adapter/guard/hook-command.js";

/** Where the guard script is written, relative to the project root (Copilot reads only *.json in .github/hooks/). */
export const GUARD_PATH = ".github/hooks/harness-guard.cjs";
export { GUARD_OFF_ENV };
/** The `as` argument of the orchestrator agent's hook. */
export const ORCHESTRATOR = "@orchestrator";
/** Paths nobody may write while the guard is on: the guard, the agents that wire it, the launchers, the CLI's repository settings. */
export const GUARD_PROTECTED_PATHS: readonly string[] = [".github/hooks/**", ".github/agents/**", ".github/skills/**", ".github/prompts/**", ".github/copilot/**"];
/** Seconds Copilot waits for the hook. A timeout lets the call through (others.md §3.1): generous, the guard takes milliseconds. */
export const GUARD_TIMEOUT_SEC = 30;

/** What the guard cannot see. Listed as limits of the `guard` level (MAPPING.md). */
export const GUARD_GAPS: readonly string[] = [
  "a command a role may run (its test runner, its build) runs code that can write any file: the guard checks the command line, not what the program does. For subagent roles the stage-end audit restores such writes (its real-host test in MAPPING.md above); main-session roles have no audit",
  "Copilot CLI 1.0.102 loads agent-scoped hooks only in a folder the user trusted persistently (trustedFolders in $COPILOT_HOME/config.json, by default ~/.copilot/config.json; the one-run --trust-folder flag defers them): elsewhere it runs the agents without the guard. The launchers refuse to start there; copilot started by hand (or VS Code) in such a folder runs the agents unguarded",
  "a hook that times out lets the call through (Copilot's rule); the guard answers in milliseconds and is given 30 s",
  "a hook's allow overrides the session's --deny-tool flags: what the guard allows runs whatever the launcher says, so the guard's rules, not the flags, are the limit for a guarded agent",
  "the orchestrator is bound when it runs as its agent (the launcher, copilot --agent, the agent picker); /<pipeline> as a skill in an ordinary session runs its steps unguarded (each role it starts is still bound)",
  "VS Code and the cloud agent were not checked: they may ignore hooks in agent front matter",
  "Copilot CLI 1.0.102's create tool refuses a file whose folder does not exist: the orchestrator makes the folders the roles' write scopes name (mkdir -p, allowed exactly); a role that needs a new folder deeper in its scope needs mkdir in its shell rules, and a role without a shell tool cannot make one",
  ...guardSharedGaps({ audit: true, patch: true, off: "settings" }),
];

/**
 * The folders a write scope names literally: `.pebble/spec.md` -> `.pebble`, `docs/**` -> `docs`,
 * `.github/workflows/**` -> `.github/workflows`, `packages/*` + `/src/**` -> `packages`; a glob that
 * starts with a wildcard, and a file at the root, give none.
 */
export function scopeFolders(globs: readonly string[]): string[] {
  const out = new Set<string>();
  for (const g of globs) {
    const wild = g.search(/[*?[{]/);
    const head = wild < 0 ? g.slice(0, Math.max(0, g.lastIndexOf("/"))) : g.slice(0, Math.max(0, g.slice(0, wild).lastIndexOf("/")));
    // only plain names: the allowance is the exact text `mkdir -p <folder>`, so a folder the shell
    // would split or expand (a space, a quote, $) or that mkdir would read as an option gets none
    if (head && /^[A-Za-z0-9._/][A-Za-z0-9._/-]*$/.test(head) && !head.split("/").some((c) => c === "" || c === "." || c === ".." || c.startsWith("-"))) out.add(head);
  }
  return [...out].sort();
}

/** What the orchestrator runs to make a role's artifact folders: Copilot's create tool does not make folders. */
export const mkdirCommand = (folder: string) => `mkdir -p ${folder}`;

/**
 * The guard policy for Copilot: main-session roles are their own sessions, so the orchestrator gets
 * none of their write scope; and the orchestrator may make the roles' artifact folders, exactly
 * `mkdir -p <folder>` for each folder a role's write scope names (Copilot 1.0.102's create tool
 * refuses a file whose folder does not exist, and a role without a shell tool cannot make one).
 */
export function compileCopilotPolicy(pipeline: PipelineIR): GuardPolicy {
  const policy = compileGuardPolicy(pipeline, { protect: GUARD_PROTECTED_PATHS });
  const pats = [...policy.pats];
  const add = [] as number[];
  for (const f of scopeFolders(pipeline.roles.flatMap((r) => r.write))) {
    const c = mkdirCommand(f);
    let i = pats.indexOf(c);
    if (i < 0) i = pats.push(c) - 1;
    if (!policy.orch.a.includes(i)) add.push(i);
  }
  return { ...policy, pats, orch: { ...policy.orch, a: [...policy.orch.a, ...add] }, kinds: policy.kinds.map(({ main: _main, ...k }) => k) };
}

function header(pipeline: PipelineIR): string[] {
  return [
    `harness guard for GitHub Copilot CLI, pipeline ${pipeline.name}: per-role write scopes, shell rules and spawn limits.`,
    "Generated by harness from the pipeline definition. Do not edit; rebuild instead.",
    "",
    "Wired as a preToolUse hook in the front matter of .github/agents/<role>.agent.md (argument: the role)",
    `and of the orchestrator agent (argument: ${ORCHESTRATOR}); Copilot runs it for that agent's own calls only.`,
    "Ordinary sessions run no guard.",
    'Output: {"permissionDecision":"allow"|"ask"|"deny",…} on stdout; nothing = no opinion (Copilot\'s own flow).',
    "Shell commands are read exactly or not at all: anything with $, backticks, globs, braces, ~, subshells,",
    "&, here-documents or environment assignments is asked (refused for default-deny roles), never allowed.",
    "",
    `Off switch: ${GUARD_OFF_ENV}=1 in the environment Copilot is started with. Nothing an agent can write turns it off.`,
    "Not covered:",
    ...GUARD_GAPS.map((g) => `  - ${g}`),
  ];
}

/** The full text of `.github/hooks/harness-guard.cjs` for this pipeline. */
export function renderGuard(pipeline: PipelineIR): string {
  return renderGuardScript({ header: header(pipeline), policy: compileCopilotPolicy(pipeline), shim: `${COPILOT_GUARD_CALL.trim()}\n${COPILOT_GUARD_MAIN.trim()}` });
}

/**
 * The hook's `bash` command. POSIX sh: denies (exit 2) when node is missing, and turns any exit of the
 * script other than 0 (a crash, a missing file) into exit 2 as well (Copilot denies on any non-zero exit).
 */
export function guardHookCommand(as: string): string {
  return failClosedHook(`node "\${COPILOT_PROJECT_DIR:-.}/${GUARD_PATH}" ${shellQuote(as)}`, "0");
}

/** The `hooks:` front-matter value running the guard for `as`. */
export function guardHooks(as: string): Record<string, unknown> {
  return { preToolUse: [{ type: "command", bash: guardHookCommand(as), timeoutSec: GUARD_TIMEOUT_SEC }] };
}
