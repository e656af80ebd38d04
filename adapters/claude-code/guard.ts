// The per-role enforcement guard for Claude Code: a generated, dependency-free, fail-closed
// PreToolUse hook script (`.claude/hooks/harness-guard.mjs`).
//
// Claude Code has no per-agent path scope or per-agent command rules (settings.json permissions are
// session-wide). Its hooks, however, receive the calling agent's name (`agent_type`, plus `agent_id`
// inside a subagent), so one settings-level PreToolUse hook can apply each role's limits. This file
// compiles the Pipeline IR into that script: globs become RegExp sources (picomatch, `dot: true`),
// command patterns become anchored RegExp sources, and the policy is embedded with JSON.stringify
// (no user string is ever spliced into code). The runtime logic lives in guard-runtime.ts as plain
// JavaScript text so the output is byte-identical however harness itself was compiled.
//
// Exit codes (Claude Code 2.1.x): 2 blocks the tool call and shows stderr to the model; 0 is "no
// decision" (stdout JSON is parsed: we only ever emit permissionDecision "ask"); anything else is a
// non-blocking error. Every failure path of the script therefore ends in exit 2, the hook command
// maps any other exit code to 2 (see guardHookCommand), and the settings entry should also set
// `onFailure: "block"`.
//
// Decisions (the adapter records the losses they imply):
// - Main thread (no agent_type): the orchestrator. Writes: the union of the write scopes of the
//   roles with isolation "main" (each with its own never-write) minus the pipeline never-write.
//   Shell: shell_deny applies except orchestrator_shell commands; everything else is left to
//   settings.json. The hook input does not say which main-thread role is active, so keeping one
//   main role out of another's document is instruction-only.
// - agent_type that is not a pipeline role (built-ins Explore, Plan, general-purpose, other
//   plugins' agents): not ours, so no writes, no Bash (on Linux builds Glob/Grep run through Bash,
//   so such agents lose search too), no spawning. Fail closed, with a reason naming the agent.
// - Spawning: a role with canSpawn false never spawns; a subagent spawns only when nested agents
//   are on; the orchestrator may start any pipeline role, and other agent types only when nested
//   agents are on.
// - Shell rules per role: deny (pipeline shell_deny, then the role's), then ask, then allow, then
//   the role's default, as Claude Code orders its own rules; "allow" means "no decision", never a
//   grant. Every part of a compound command is checked; the first block wins, else the first ask.
// - Paths: resolved against the input cwd, measured from the project root (CLAUDE_PROJECT_DIR, else
//   the folder the script is installed in, else the input cwd), symbolic links resolved; inside a
//   verified linked git worktree of the project they are measured from the worktree root.
// - GUARD_PROTECTED_PATHS are never writable while the guard is on, whatever the scopes say.
import picomatch from "picomatch";
import type { PipelineIR, RoleIR } from "../../src/ir/types.js";
import { sortKeys } from "../../src/emit/render.js";
import { GUARD_MAIN_SOURCE, GUARD_RUNTIME_SOURCE } from "./guard-runtime.js";

/** Where the guard script is written, relative to the project root. */
export const GUARD_PATH = ".claude/hooks/harness-guard.mjs";
/** Setting this variable to 1/true/yes/on in Claude Code's environment turns the guard off. */
export const GUARD_KILL_SWITCH_ENV = "HARNESS_GUARD_OFF";
/** This file, relative to the project root, turns the guard off while it exists. */
export const GUARD_KILL_SWITCH_FILE = ".claude/hooks/harness-guard.off";
/**
 * Paths no caller may write while the guard is on, whatever the role's scope: the guard itself,
 * its kill-switch file and the settings that install it. Only the human changes these.
 */
export const GUARD_PROTECTED_PATHS: readonly string[] = [".claude/hooks/**", ".claude/settings.json", ".claude/settings.local.json"];
/** The PreToolUse matcher for the settings.json hook entry (tool names as Claude Code spells them). */
export const GUARDED_TOOLS_MATCHER = "Write|Edit|MultiEdit|NotebookEdit|Bash|Agent|Task";

/**
 * What the guard's shell analysis cannot see. The Bash check is a documented best effort: it splits
 * compound commands, applies the command rules to every part and checks the files that common
 * writing commands name. Adapters record these as limits of the `guard` fidelity level.
 */
export const GUARD_SHELL_GAPS: readonly string[] = [
  "interpreters and inline programs (python -c, node -e, perl -e without -i, ruby -e, awk with print > file, php -r) can write any file; only their command line is checked",
  "scripts and build tools (./script.sh, bash script.sh, source, make, npm run, npx, task runners) and command runners that take a command as text (parallel, ssh, docker exec, npm exec) run commands the guard never sees",
  "git subcommands that rewrite working-tree files (checkout, restore, reset, stash pop/apply, apply, am, clean, mv, rm, pull, merge) are not checked as writes; only the command rules apply to them",
  "archive, patch and sync tools (tar -x, unzip, patch, rsync, git apply) and tools that write as a side effect (formatters with --write/--fix, code generators, package managers, compilers' output options) are not checked as writes; curl -o and wget -O are",
  "aliases and shell functions (from the user's shell profile, which Claude Code's shell snapshot loads, or defined earlier in the same command) and git aliases (git config alias.*) are not resolved; a computed or wildcard command name, write target, or argument that could turn a command into a denied one is blocked instead",
  "directory changes other than cd/pushd (make -C, git -C, tar -C, npm --prefix, env -C) are not followed: paths are checked against the last directory cd reached",
  "a symbolic link created and used in the same command is checked against the file system as it was before the command ran (ln targets themselves are checked)",
  "find, xargs and shell loops: the commands they run are checked, but writing commands whose file names arrive at run time are blocked rather than checked",
];

/** Limits of the path check that apply to the file tools as well as to the shell. */
export const GUARD_PATH_GAPS: readonly string[] = [
  "hard links: a file inside the write scope that is a hard link to a file outside it is not detected",
  "case-insensitive file systems (macOS, Windows): a path that does not exist yet is matched as spelled, so another spelling of a never-write path may pass",
  "time of check to time of use: a symbolic link swapped in after the check and before the write is not detected",
];

// ---------------------------------------------------------------- compiled policy (embedded as JSON)

export interface GuardGlob {
  glob: string;
  /** Why the glob is in the list, for block messages: "artifact tests", ".git/** (pipeline policy)". */
  label: string;
  re: string;
  flags: string;
}
export interface GuardCommand {
  pattern: string;
  re: string;
}
export interface GuardShell {
  allow: GuardCommand[];
  ask: GuardCommand[];
  deny: GuardCommand[];
  default: "allow" | "ask" | "deny";
}
export interface GuardRole {
  id: string;
  isolation: "main" | "subagent";
  canSpawn: boolean;
  write: GuardGlob[];
  neverWrite: GuardGlob[];
  shell: GuardShell | null;
}
export interface GuardPolicy {
  format: 1;
  pipeline: string;
  killSwitch: { env: string; file: string };
  /** Roles with isolation "main": their union (each with its own never-write) is the main thread's write scope. */
  mainRoles: string[];
  nestedAgents: boolean;
  /** The pipeline-wide never-write globs (already inside every role's neverWrite). */
  neverWrite: GuardGlob[];
  /** Commands the orchestrator may run although a shell_deny pattern names them. */
  orchestratorShell: GuardCommand[];
  /** GUARD_PROTECTED_PATHS, checked before anything else for every caller. */
  protect: GuardGlob[];
  roles: GuardRole[];
  /** GUARD_PATH: the script finds its project root from its own location with it. */
  scriptPath: string;
  shellDeny: GuardCommand[];
}

/** picomatch's RegExp for one glob (POSIX separators, dotfiles matchable). */
export function globToRegExp(glob: string): { source: string; flags: string } {
  const re = picomatch.makeRe(glob, { dot: true, windows: false });
  return { source: re.source, flags: re.flags };
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/**
 * A command pattern as an anchored RegExp source: every character literal except `*` (any run of
 * characters); a trailing " *" also matches the bare command, as Claude Code's `Bash(git push *)`.
 * Runs of whitespace count as one space (the guard normalizes commands the same way).
 */
export function commandPatternToRegExp(pattern: string): string {
  const norm = pattern.trim().replace(/\s+/g, " ");
  let body = norm;
  let tail = "";
  if (norm.endsWith(" *")) {
    body = norm.slice(0, -2);
    tail = "(?: [\\s\\S]*)?";
  }
  return "^" + body.split("*").map(escapeRegExp).join("[\\s\\S]*") + tail + "$";
}

function compileGlobs(globs: readonly string[], label: (glob: string) => string): GuardGlob[] {
  return globs.map((glob) => {
    const { source, flags } = globToRegExp(glob);
    return { glob, label: label(glob), re: source, flags };
  });
}

function compileCommands(patterns: readonly string[]): GuardCommand[] {
  return patterns.map((pattern) => ({ pattern, re: commandPatternToRegExp(pattern) }));
}

function neverWriteLabeler(pipeline: PipelineIR): (glob: string) => string {
  return (glob) => {
    const artifacts = pipeline.artifacts.filter((a) => a.paths.includes(glob)).map((a) => a.name);
    if (artifacts.length) return `artifact ${[...artifacts].sort().join(", ")}`;
    if (pipeline.policies.neverWrite.includes(glob)) return `${glob} (pipeline policy)`;
    return glob;
  };
}

function compileRole(role: RoleIR, label: (glob: string) => string): GuardRole {
  return {
    id: role.id,
    isolation: role.isolation,
    canSpawn: role.canSpawn,
    write: compileGlobs(role.write, (g) => g),
    neverWrite: compileGlobs(role.neverWrite, label),
    shell: role.shell
      ? {
          allow: compileCommands(role.shell.allow),
          ask: compileCommands(role.shell.ask),
          deny: compileCommands(role.shell.deny),
          default: role.shell.default,
        }
      : null,
  };
}

/** The data the script embeds. Exported for tests and for adapters that want to inspect it. */
export function compileGuardPolicy(pipeline: PipelineIR): GuardPolicy {
  const label = neverWriteLabeler(pipeline);
  const roles = [...pipeline.roles].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).map((r) => compileRole(r, label));
  const policy: GuardPolicy = {
    format: 1,
    pipeline: pipeline.name,
    killSwitch: { env: GUARD_KILL_SWITCH_ENV, file: GUARD_KILL_SWITCH_FILE },
    mainRoles: roles.filter((r) => r.isolation === "main").map((r) => r.id),
    nestedAgents: pipeline.policies.nestedAgents,
    neverWrite: compileGlobs(pipeline.policies.neverWrite, label),
    orchestratorShell: compileCommands(pipeline.policies.orchestratorShell),
    protect: compileGlobs(GUARD_PROTECTED_PATHS, (g) => `${g} (protects the harness guard)`),
    roles,
    scriptPath: GUARD_PATH,
    shellDeny: compileCommands(pipeline.policies.shellDeny),
  };
  // Fail the build, not the hook, if any compiled expression is invalid.
  const all: { re: string; flags?: string }[] = [
    ...policy.neverWrite,
    ...policy.protect,
    ...policy.orchestratorShell,
    ...policy.shellDeny,
    ...roles.flatMap((r) => [...r.write, ...r.neverWrite, ...(r.shell ? [...r.shell.allow, ...r.shell.ask, ...r.shell.deny] : [])]),
  ];
  for (const x of all) new RegExp(x.re, x.flags ?? "");
  return policy;
}

/** JSON with object keys sorted at every level (arrays keep their order). */
function stableJson(value: unknown): string {
  return JSON.stringify(sortKeys(value), null, 2);
}

function headerComment(): string {
  const lines = [
    "harness guard for Claude Code: per-role write scopes, shell rules and spawn limits.",
    "Generated by harness from the pipeline definition. Do not edit; rebuild instead.",
    "",
    "Wiring: a PreToolUse hook in .claude/settings.json, matcher " + JSON.stringify(GUARDED_TOOLS_MATCHER) + ",",
    'with onFailure: "block". It reads the hook input on stdin and:',
    '  exit 2 + one line on stderr  = block (the model sees the reason);',
    '  exit 0 + JSON on stdout      = permissionDecision "ask" (the human decides);',
    "  exit 0 and no output         = no decision (settings.json rules apply as usual).",
    "It never grants a permission; it only narrows. Bad input or any internal error blocks.",
    "",
    "Who is calling:",
    "  agent_type names a pipeline role -> that role's limits.",
    "  no agent_type (main thread)      -> the orchestrator: the union of the write scopes of the",
    "      roles with isolation main, the pipeline never-write list, shell_deny (except",
    "      orchestrator_shell commands); other commands follow settings.json. Which main-thread",
    "      role is active cannot be told from the hook input, so that split is instruction-only.",
    "  any other agent_type (built-in Explore, Plan, general-purpose, other plugins' agents)",
    "      -> may not write, run shell commands or start agents.",
    "Nobody may write " + GUARD_PROTECTED_PATHS.join(", ") + " while the guard is on.",
    "",
    "Kill switch (checked before the input is read):",
    "  " + GUARD_KILL_SWITCH_ENV + "=1 (or true/yes/on) in the environment Claude Code starts with, or",
    "  the file <project>/" + GUARD_KILL_SWITCH_FILE + " (touch it to disable, delete it to re-enable).",
    "  The file counts only in the project root ($CLAUDE_PROJECT_DIR or the folder this script is",
    "  installed in), never in the tool call's working directory.",
    "",
    "Shell commands are checked on a best-effort basis. Not covered:",
    ...GUARD_SHELL_GAPS.map((g) => "  - " + g),
    "Path checks do not cover:",
    ...GUARD_PATH_GAPS.map((g) => "  - " + g),
  ];
  return lines.map((l) => (l ? "// " + l : "//")).join("\n");
}

/** The full text of `.claude/hooks/harness-guard.mjs` for this pipeline. */
export function renderGuard(pipeline: PipelineIR): string {
  const policy = compileGuardPolicy(pipeline);
  const parts = [
    headerComment(),
    'import fs from "node:fs";',
    'import path from "node:path";',
    'import { fileURLToPath } from "node:url";',
    "",
    "const POLICY = " + stableJson(policy) + ";",
    GUARD_RUNTIME_SOURCE.trim(),
    "",
    GUARD_MAIN_SOURCE.trim(),
  ];
  return parts.join("\n") + "\n";
}

/**
 * The `command` of the settings.json hook entry. POSIX sh. It blocks (exit 2, one line) when node is
 * missing, and turns any exit code of the script other than 0 and 2 (a crash, a missing file, a
 * syntax error) into a block as well, so the hook fails closed even without `onFailure: "block"`.
 */
export function guardHookCommand(): string {
  const script = `"$CLAUDE_PROJECT_DIR/${GUARD_PATH}"`;
  return [
    `command -v node >/dev/null 2>&1 || { echo "harness guard: node is not on PATH, so the pipeline guard cannot run; blocking (fail closed). Install Node.js 20+, or remove the harness hook from .claude/settings.json." >&2; exit 2; }`,
    `node ${script}`,
    `rc=$?`,
    `[ "$rc" -eq 0 ] || [ "$rc" -eq 2 ] || { echo "harness guard: the guard script failed (exit $rc); blocking (fail closed)." >&2; exit 2; }`,
    `exit "$rc"`,
  ].join("; ");
}
