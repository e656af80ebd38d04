// How each (host, role, constraint) is realised. Nothing is dropped silently: every adapter reports
// a record per constraint, and anything below `native` carries a loss code from one table.

// `audit`: a generated hook at stage end compares what changed with the role's scope, restores and
// fails what is out of scope (complete for file scope whatever wrote it; cannot undo a push).
export const FIDELITY_LEVELS = ["native", "guard", "audit", "instructed", "lost"] as const;
export type FidelityLevel = (typeof FIDELITY_LEVELS)[number];

export { CONSTRAINTS, type Constraint } from "../schema/vocabulary.js";
import type { Constraint } from "../schema/vocabulary.js";

export type Severity = "info" | "warning" | "error";

/** Stable loss codes with their default severity. Error-level losses fail build/check unless accepted. */
export const LOSS_CODES = {
  L_TEMPERATURE: { severity: "info", text: "the host has no per-agent temperature; the host's default applies", limit: true, fix: "nothing to change; the host default applies" },
  L_MAIN_ROLE_SCOPE: { severity: "warning", text: "on the main thread the host cannot tell one main-session role from another; the guard applies their union", fix: "make the role `isolation: subagent`, or accept the union" },
  L_SHELL_WRITE_GAP: { severity: "warning", text: "shell commands can write files in ways no parser sees (interpreters, scripts); best-effort detection only", limit: true, fix: "accept it, or take `bash` away from the role" },
  L_PATCH_MOVE_UNCHECKED: { severity: "warning", text: "the host's apply_patch asks the edit permission for each file's source path only: a \"*** Move to:\" target is written unchecked, onto any path in the project", limit: true, fix: "accept it, or give the role a model the host lets use edit and write instead of apply_patch (OpenCode and Kilo offer apply_patch to a model id holding \"gpt-\")" },
  L_GATE_INSTRUCTED: { severity: "info", text: "human gates are steps in the orchestrator's instructions, not host-enforced", limit: true, fix: "nothing to change; the orchestrator asks the human at each gate" },
  L_CHECKS_INSTRUCTED: { severity: "info", text: "acceptance checks and the loop cap are run by the orchestrator as instructed", limit: true, fix: "nothing to change; the orchestrator runs the checks" },
  L_ORDER_INSTRUCTED: { severity: "info", text: "stage order, the hop cap and the work kind are followed by the orchestrator as instructed; no hook holds them on this host", limit: true, fix: "nothing to change; the orchestrator follows the order" },
  L_HANDOFF_INSTRUCTED: { severity: "info", text: "handoff reads are instructed; the host does not limit reading", limit: true, fix: "nothing to change" },
  L_ISOLATION_INSTRUCTED: { severity: "warning", text: "the host cannot run this role in its own context; isolation is instructed", limit: true, fix: "accept it; the host has no separate context for the role" },
  L_SCOPE_INSTRUCTED: { severity: "error", text: "the host cannot enforce this role's write scope; only the prompt states it", limit: true, fix: "accept it with a reason" },
  L_SHELL_INSTRUCTED: { severity: "error", text: "the host cannot enforce this role's shell rules; only the prompt states them", limit: true, fix: "accept it with a reason, or take `bash` away from the role" },
  L_SPAWN_INSTRUCTED: { severity: "error", text: "the host cannot stop this role from starting agents", limit: true, fix: "accept it with a reason" },
  L_TOOL_MISSING: { severity: "warning", text: "a canonical tool has no equivalent on this host and was dropped (narrower)", fix: "drop the tool from the role's `tools`, or accept the loss" },
  L_GLOB_NARROWED: { severity: "warning", text: "a glob could not be written exactly in the host's dialect and was narrowed", fix: "write the path in a form the host can express exactly (e.g. `folder/**`), or accept the narrowing" },
  L_FILE_VIA_FOLDER: { severity: "warning", text: "the host grants writes to folders only: a single file is granted through its folder, where every other artifact path stays read-only but new files no artifact names are writable too (wider)", limit: true, fix: "put the artifact in a folder of its own, or accept the wider grant with a reason" },
  L_MODEL_UNMAPPED: { severity: "warning", text: "no model mapping for this tier; the host default is used", fix: "map the tier under `hosts.<host>.models` in pipeline.yaml" },
  L_TOOLS_SHARED: { severity: "warning", text: "the host gives every agent the same tools; tools the role does not list are withheld only by its prompt", limit: true, fix: "accept it with a reason" },
  L_WORKTREE_UNSUPPORTED: { severity: "warning", text: "the host cannot give this role its own worktree; it shares the checkout", limit: true, fix: "accept it, or set `worktree: false`" },
  L_SHELL_PATTERN_LITERAL: { severity: "warning", text: "command rules match the literal command text; a denied command written differently (spacing, quotes, env/sh -c wrappers, a full path) gets the role's default action", limit: true, fix: "accept it, or set the role's shell `default: deny` and allow only what it needs" },
  L_TURNS_INSTRUCTED: { severity: "warning", text: "at the turn cap the host only tells the agent to stop; a model that keeps calling tools is not stopped", limit: true, fix: "accept it, or drop `max_turns`" },
  L_TURNS_MAIN_SESSION: { severity: "warning", text: "the host ignores the turn cap when the role runs in the main session", fix: "make the role `isolation: subagent`, drop `max_turns`, or accept it" },
  L_POLICY_OPT_IN: { severity: "warning", text: "the host ignores project policy files; the rules bind only a session started with the flag or launcher that loads them", limit: true, fix: "start the host with the flag or launcher MAPPING.md names, and accept it with a reason" },
  L_EFFORT_UNSUPPORTED: { severity: "info", text: "the host has no per-agent reasoning effort; the host's default applies", limit: true, fix: "nothing to change; the host default applies" },
  L_MCP_UNSUPPORTED: { severity: "warning", text: "the host cannot give this role its MCP servers or tools per agent; the role may lack tools its prompt relies on, or share the session's", limit: true, fix: "configure the servers for the host's session yourself, or accept it with a reason" },
  L_SKILLS_UNSUPPORTED: { severity: "warning", text: "the host cannot preload skills for one agent; the skills are not loaded for the role", limit: true, fix: "accept it, or name the skill in the role's prompt" },
  L_MEMORY_UNSUPPORTED: { severity: "warning", text: "the host keeps no persistent memory per agent", limit: true, fix: "accept it, or have the role write its notes to an artifact" },
  L_INITIAL_PROMPT_UNSUPPORTED: { severity: "warning", text: "the host has no initial prompt per agent; the role starts from the request alone", limit: true, fix: "accept it, or put the text in the role's prompt" },
  L_BACKGROUND_UNSUPPORTED: { severity: "info", text: "the host cannot mark an agent as a background agent; the orchestrator waits for it", limit: true, fix: "nothing to change" },
  L_TURNS_UNSUPPORTED: { severity: "info", text: "the host has no per-agent turn cap; the orchestrator enforces it", limit: true, fix: "nothing to change; the orchestrator enforces it" },
} as const satisfies Record<string, LossInfo>;
export type LossCode = keyof typeof LOSS_CODES;

/**
 * `limit`: no change to the role can remove it on this host (a host limit); the fix is to accept it.
 * `fix`: what the user can do, printed by build, `harness explain` and MAPPING.md.
 */
export interface LossInfo {
  severity: Severity;
  text: string;
  fix?: string;
  limit?: boolean;
}
export const lossInfo = (code: LossCode): LossInfo => LOSS_CODES[code];

export interface FidelityRecord {
  role: string | null; // null = pipeline-wide
  constraint: Constraint;
  level: FidelityLevel;
  /** The native form, briefly: "tools: Read, Grep", "guard: .claude/hooks/harness-guard.cjs". */
  how: string;
  loss?: LossCode;
  /** The role-file field the constraint comes from, for messages. */
  field?: string;
}
