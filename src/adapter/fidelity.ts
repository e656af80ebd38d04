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
  L_TEMPERATURE: { severity: "info", text: "the host has no per-agent temperature; the host's default applies" },
  L_MAIN_ROLE_SCOPE: { severity: "warning", text: "on the main thread the host cannot tell one main-session role from another; the guard applies their union" },
  L_SHELL_WRITE_GAP: { severity: "warning", text: "shell commands can write files in ways no parser sees (interpreters, scripts); best-effort detection only" },
  L_GATE_INSTRUCTED: { severity: "info", text: "human gates are steps in the orchestrator's instructions, not host-enforced" },
  L_CHECKS_INSTRUCTED: { severity: "info", text: "acceptance checks and the loop cap are run by the orchestrator as instructed" },
  L_HANDOFF_INSTRUCTED: { severity: "info", text: "handoff reads are instructed; the host does not limit reading" },
  L_ISOLATION_INSTRUCTED: { severity: "warning", text: "the host cannot run this role in its own context; isolation is instructed" },
  L_SCOPE_INSTRUCTED: { severity: "error", text: "the host cannot enforce this role's write scope; only the prompt states it" },
  L_SHELL_INSTRUCTED: { severity: "error", text: "the host cannot enforce this role's shell rules; only the prompt states them" },
  L_SPAWN_INSTRUCTED: { severity: "error", text: "the host cannot stop this role from starting agents" },
  L_TOOL_MISSING: { severity: "warning", text: "a canonical tool has no equivalent on this host and was dropped (narrower)" },
  L_GLOB_NARROWED: { severity: "warning", text: "a glob could not be written exactly in the host's dialect and was narrowed" },
  L_FILE_VIA_FOLDER: { severity: "warning", text: "the host grants writes to folders only: a single file is granted through its folder, where every other artifact path stays read-only but new files no artifact names are writable too (wider)" },
  L_MODEL_UNMAPPED: { severity: "info", text: "no model mapping for this tier; the host default is used" },
  L_TOOLS_SHARED: { severity: "warning", text: "the host gives every agent the same tools; tools the role does not list are withheld only by its prompt" },
  L_WORKTREE_UNSUPPORTED: { severity: "warning", text: "the host cannot give this role its own worktree; it shares the checkout" },
  L_SHELL_PATTERN_LITERAL: { severity: "warning", text: "command rules match the literal command text; a denied command written differently (spacing, quotes, env/sh -c wrappers, a full path) gets the role's default action" },
  L_TURNS_INSTRUCTED: { severity: "warning", text: "at the turn cap the host only tells the agent to stop; a model that keeps calling tools is not stopped" },
  L_TURNS_MAIN_SESSION: { severity: "warning", text: "the host ignores the turn cap when the role runs in the main session" },
  L_POLICY_OPT_IN: { severity: "warning", text: "the host ignores project policy files; the rules bind only a session started with the flag or launcher that loads them" },
  L_TURNS_UNSUPPORTED: { severity: "info", text: "the host has no per-agent turn cap; the orchestrator enforces it" },
} as const satisfies Record<string, { severity: Severity; text: string }>;
export type LossCode = keyof typeof LOSS_CODES;

export interface FidelityRecord {
  role: string | null; // null = pipeline-wide
  constraint: Constraint;
  level: FidelityLevel;
  /** The native form, briefly: "tools: Read, Grep", "guard: .claude/hooks/harness-guard.mjs". */
  how: string;
  loss?: LossCode;
  /** The role-file field the constraint comes from, for messages. */
  field?: string;
}
