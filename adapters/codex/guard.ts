// The Codex guard: the shared pre-call guard (src/adapter/guard/) with Codex's shim
// (guard-runtime.ts), wired as a PreToolUse hook in .codex/hooks.json beside the stage-end audit.
//
// Codex 0.171.0 names the agent role in the hook input of every tool call inside a spawned agent
// (agent_type, set by Codex from the role the thread runs) and names none for the session's own
// calls (measured, test/hosts/enforce-out.test.ts, "codex: guard …"; raw inputs dumped by a probe hook). So the guard binds the spawned agents of the
// pipeline's roles, per call, with their own write scope, never-write, shell rules and spawn limits,
// wherever they are spawned; the orchestrator's session, an ordinary session and agents of any other
// role are left to Codex (policies.scope pipeline). Nothing in the input an agent controls switches it
// off: the only way out is a hook Codex does not run (not trusted).
import { guardSharedGaps } from "../../src/adapter/guard/gaps.js";
import type { FidelityRecord } from "../../src/adapter/fidelity.js";
import type { HostFile, Lowered } from "../../src/adapter/types.js";
import type { PipelineIR, RoleIR } from "../../src/ir/types.js";
import { compileGuardPolicy, type GuardPolicy } from "../../src/adapter/guard/policy.js";
import { renderGuardScript } from "../../src/adapter/guard/render.js";
import { CODEX_GUARD_CALL, CODEX_GUARD_MAIN } from "./guard-runtime.js";
import { hookProjectPath, guardHookCommand as failClosedHook } from "../../src/adapter/guard/hook-command.js";

export const GUARD_PATH = ".codex/hooks/harness-guard.cjs";
/** Paths no guarded role may write: the guard, the hooks and config that wire it, the agent roles, the skills, AGENTS.md (and AGENTS.override.md, which Codex reads instead of it). */
export const GUARD_PROTECTED_PATHS: readonly string[] = [".codex/**", ".agents/**", "AGENTS.md", "AGENTS.override.md"];
/** Seconds Codex waits for the hook. A timeout lets the call through (measured): generous, the guard takes milliseconds. */
export const GUARD_TIMEOUT_SEC = 30;
/** Every tool call: the shim classifies by tool name (the matcher is a regex over the full name). */
export const GUARD_MATCHER = ".*";

export const GUARD_GAPS: readonly string[] = [
  "a command a role may run (its test runner, its build) runs code that can write any file: the guard checks the command line, not what the program does. The stage-end audit restores such writes and fails the stage",
  "Codex runs the hook only once it is trusted (/hooks, or codex exec --dangerously-bypass-hook-trust); an untrusted hook does not run and nothing says so",
  "a hook that times out or crashes lets the call through (Codex 0.171.0, measured): the hook command turns a crash of the script into a refusal, and the guard, which answers in milliseconds, is given 30 s",
  "write_stdin (input to a command still running) fires no PreToolUse hook in Codex 0.171.0 (measured): what a role types into a program it was allowed to start is not checked (file effects: the stage-end audit). MCP tools, if hooked, are refused for guarded roles: the hook input does not show what they do",
  // measured on Codex 0.171.0: "sh" ran dash, "zsh" zsh, a shell that is not installed (fish, pwsh) or not a shell fell back to sh
  "exec_command runs in the shell the model names (its shell field, which the hook input does not carry) or else the user's: the guard allows only what bash, zsh and sh (dash) read alike, so the choice changes nothing it allows; PowerShell is Codex's shell on Windows, and a pwsh the model names may run where one is installed (see below)",
  "a role with no shell tool may still run read-only commands (cat, rg, ls, read-only git): Codex has no other way to read a file",
  "the orchestrator's session, main-session roles (skills in it) and agents of no pipeline role are not guarded: Codex names no role for the session's own calls, so nothing tells a pipeline run from an ordinary session. An agent the orchestrator starts with a built-in type (default, worker, explorer) is bound by neither the guard nor the audit",
  "the hook runs (node, a few tens of milliseconds) before every tool call of every Codex session in the project, and answers nothing for calls it does not bind",
  ...guardSharedGaps({ audit: true, patch: true, off: false }),
];

/**
 * The guard policy for Codex: spawned pipeline roles only, whatever policies.scope says (see GUARD_GAPS).
 * Codex has no read tool: every agent reads files through exec_command (cat, sed, rg), so a role with no
 * shell tool gets read-only commands only (no allow list, default deny; its writes still go through
 * the write-scope check, redirections included).
 */
export function compileCodexPolicy(pipeline: PipelineIR): GuardPolicy {
  const policy = compileGuardPolicy(pipeline, { protect: GUARD_PROTECTED_PATHS });
  return { ...policy, scope: "pipeline", kinds: policy.kinds.map((k) => (k.sh ? k : { ...k, sh: { a: [], k: [], d: [], def: "deny" as const } })) };
}

function header(pipeline: PipelineIR): string[] {
  return [
    `harness guard for Codex CLI, pipeline ${pipeline.name}: per-role write scopes, shell rules and spawn limits of spawned agents.`,
    "Generated by harness from the pipeline definition. Do not edit; rebuild instead.",
    "",
    `Wired as a PreToolUse hook (matcher "${GUARD_MATCHER}") in .codex/hooks.json. It binds a tool call when Codex names`,
    "a pipeline role as its agent_type (a spawned agent of that role); every other call gets no opinion.",
    "Output: exit 0 and nothing = Codex's own sandbox and rules decide; exit 2 and a reason on stderr = refused.",
    "Shell commands are read exactly or not at all: anything with $, backticks, globs, braces, ~, subshells,",
    "&, here-documents (but exec_command's exact apply_patch form) or environment assignments is refused.",
    "",
    "No off switch: untrust or remove the hook.",
    "Not covered:",
    ...GUARD_GAPS.map((g) => `  - ${g}`),
  ];
}

/** The full text of `.codex/hooks/harness-guard.cjs` for this pipeline. */
export function renderGuard(pipeline: PipelineIR): string {
  return renderGuardScript({ header: header(pipeline), policy: compileCodexPolicy(pipeline), shim: `${CODEX_GUARD_CALL.trim()}\n${CODEX_GUARD_MAIN.trim()}` });
}

// hooks run in the session's folder: find the script from the repository's top level (as the audit does)
const script = hookProjectPath(GUARD_PATH);

/**
 * The hook `command`. POSIX sh: blocks (exit 2) when node is missing, and turns any exit of the script
 * other than 0 and 2 (a crash, a missing file) into 2: Codex lets the call through on exit 1 (measured).
 */
export function guardHookCommand(): string {
  return failClosedHook(`node ${script}`);
}

export const guardHookEntry = () => ({ matcher: GUARD_MATCHER, hooks: [{ type: "command", command: guardHookCommand(), timeout: GUARD_TIMEOUT_SEC }] });

export const HOOKS_FILE = ".codex/hooks.json";

/** The real-host test proving the guard's refusals and the work it allows (test/hosts/enforce-out.test.ts). */
export const GUARD_PROOF = "codex: guard refuses a spawned jade writing tests/ and running git commit and git push, allows its src/ write and npm test";
export const CODEX_GUARD_PROOFS = { "write-scope": GUARD_PROOF, "never-write": GUARD_PROOF, shell: GUARD_PROOF, "git-deny": GUARD_PROOF } as const;

export function guardedRoles(pipeline: PipelineIR): RoleIR[] {
  return pipeline.roles.filter((r) => r.isolation === "subagent");
}

/**
 * Adds the guard to a lowered Codex tree: the script, its PreToolUse entry in .codex/hooks.json (beside
 * the audit's entries, or a new file), and `guard` records for the spawned roles' write scope,
 * never-write, shell rules and git denies; a spawned role's `instructed` shell record gives way to it.
 */
export function withCodexGuard(pipeline: PipelineIR, lowered: Lowered): Lowered {
  const roles = guardedRoles(pipeline);
  if (!roles.length) return lowered;
  const existing = lowered.files.find((f) => f.path === HOOKS_FILE);
  const data = (existing?.kind === "json" ? existing.data : { hooks: {} }) as { hooks: Record<string, unknown[]> };
  const hooks = (data.hooks ??= {});
  hooks.PreToolUse = [...(hooks.PreToolUse ?? []), guardHookEntry()];
  const files: HostFile[] = [
    ...lowered.files.filter((f) => f !== existing),
    { path: HOOKS_FILE, kind: "json", data, install: { mode: "merge" } },
    { path: GUARD_PATH, kind: "text", executable: true, text: renderGuard(pipeline) },
  ];
  const guarded = new Map(roles.map((r) => [r.id, r] as const));
  const hook = (r: RoleIR) => `${GUARD_PATH} (PreToolUse in ${HOOKS_FILE}, once trusted: every call of a spawned agent whose agent_type is "${r.id}")`;
  const fidelity: FidelityRecord[] = [];
  const added = new Set<string>();
  const addOnce = (r: RoleIR, c: string, rec: FidelityRecord) => {
    const key = `${r.id}/${c}`;
    if (added.has(key)) return;
    added.add(key);
    fidelity.push(rec);
  };
  for (const rec of lowered.fidelity) {
    const role = rec.role === null ? undefined : guarded.get(rec.role);
    if (!role) {
      fidelity.push(rec);
      continue;
    }
    if (rec.constraint === "write-scope")
      addOnce(role, rec.constraint, { role: role.id, constraint: "write-scope", level: "guard", how: `${hook(role)}: apply_patch paths (exec_command's apply_patch form, the apply_patch tool) and shell redirections checked against write: ${role.write.join(", ") || "nothing"}`, field: "permissions.write" });
    if (rec.constraint === "never-write")
      addOnce(role, rec.constraint, { role: role.id, constraint: "never-write", level: "guard", how: `${GUARD_PATH}: pipeline never_write at any depth${role.neverWrite.some((g) => !pipeline.policies.neverWrite.includes(g)) ? " and the role's own" : ""}, and ${GUARD_PROTECTED_PATHS.join(", ")}`, field: "permissions.never_write" });
    if (rec.constraint === "shell" && rec.level === "instructed") {
      fidelity.push(
        role.shell
          ? { role: role.id, constraint: "shell", level: "guard", how: `${hook(role)}: the role's allow/ask/deny lists on exact argv (ask is refused: nobody can answer inside a spawned agent); what allowed programs write is not seen (the stage-end audit restores it)`, loss: "L_SHELL_WRITE_GAP", field: "permissions.shell" }
          : { role: role.id, constraint: "shell", level: "guard", how: `${hook(role)}: read-only commands only (cat, rg, ls, read-only git: Codex has no read tool, every agent reads through exec_command)`, field: "tools" },
      );
      continue;
    }
    fidelity.push(rec);
    if (rec.constraint === "git-deny") addOnce(role, "git-deny", { role: role.id, constraint: "git-deny", level: "guard", how: `${GUARD_PATH}: shell_deny on normalised argv, read-only git only` });
  }
  return { ...lowered, files, fidelity, gaps: [...(lowered.gaps ?? []), ...GUARD_GAPS.map((g) => `guard: ${g}`)] };
}
