// How each constraint is realised on Cursor (docs of 2026-11-30), per role. Data for MAPPING.md,
// build and diff. Nothing here is proven on the real host: Cursor has no installable CLI.
import type { FidelityRecord } from "../../src/adapter/fidelity.js";
import type { PipelineIR, RoleIR } from "../../src/ir/types.js";
import { CANONICAL_TOOLS } from "../../src/schema/vocabulary.js";
import type { CursorPermissions } from "./permissions.js";
import { CURSOR_TOOLS } from "./tools.js";
import { instructedProcessRecords } from "../../src/adapter/controller/fidelity.js";

/** A role that changes nothing runs as a `readonly: true` subagent. */
export const isReadonly = (role: RoleIR) => !role.tools.some((t) => t === "edit" || t === "write" || t === "bash");

const CLI_ONLY = ".cursor/cli.json, read by the Cursor CLI only (the editor does not read it); binds every agent in the project";
/** The hook guard (policies.scope repository): named in each row it touches, never raised to `guard`. */
const HOOK = "the hook guard .cursor/hooks/harness-guard.cjs (defence in depth, not proven on the real host)";

export function cursorFidelity(pipeline: PipelineIR, perms: CursorPermissions, modelFor: (p: PipelineIR, r: RoleIR) => string): FidelityRecord[] {
  const out: FidelityRecord[] = [];
  const pipelineNever = new Set(pipeline.policies.neverWrite);
  const writeDenies = perms.deny.filter((d) => d.startsWith("Write("));
  // Cursor's hook input names no role, so the guard (scope repository only) binds every agent to the
  // pipeline-wide limits: each role's own limit stays instructed, whatever the hook adds.
  const guarded = pipeline.policies.scope === "repository";
  const also = (text: string) => (guarded ? `; ${HOOK} ${text}` : "");
  for (const role of pipeline.roles) {
    const rec = (r: Omit<FidelityRecord, "role">) => out.push({ role: role.id, ...r });
    const ro = role.isolation === "subagent" && isReadonly(role); // a command in the main chat cannot be readonly
    const entry = role.isolation === "subagent" ? `.cursor/agents/${role.id}.md` : `/${role.id}`;
    if (ro) rec({ constraint: "tools", level: "native", how: "readonly: true (no edits, no state-changing commands)", field: "tools" });
    const withheld = CANONICAL_TOOLS.filter((t) => !role.tools.includes(t) && CURSOR_TOOLS[t] !== null).map((t) => CURSOR_TOOLS[t]);
    if (withheld.length && !(ro && withheld.every((t) => t === "Write" || t === "StrReplace" || t === "Shell")))
      rec({ constraint: "tools", level: "lost", how: `Cursor agents have no tool list (only readonly); ${withheld.join(", ")} stay available`, loss: "L_TOOLS_SHARED", field: "tools" });

    if (ro) {
      rec({ constraint: "write-scope", level: "native", how: "readonly: true", field: "permissions.write" });
      rec({ constraint: "never-write", level: "native", how: "readonly: true", field: "permissions.never_write" });
    } else {
      rec({ constraint: "write-scope", level: "instructed", how: `prompt of ${entry}: Cursor has no per-agent write scope (.cursor/cli.json Write() rules bind every agent alike)${also("holds every agent only to the union of all roles' write scopes")}`, loss: "L_SCOPE_INSTRUCTED", field: "permissions.write" });
      if (writeDenies.length) rec({ constraint: "never-write", level: "native", how: `${writeDenies.length} pipeline never_write globs as permissions.deny Write(...) in ${CLI_ONLY}`, field: "permissions.never_write" });
      const own = role.neverWrite.filter((g) => !pipelineNever.has(g));
      const missing = [...own, ...perms.unwritableGlobs];
      if (missing.length || !writeDenies.length)
        rec({ constraint: "never-write", level: "instructed", how: `prompt of ${entry}: ${missing.length ? missing.map((g) => `"${g}"`).join(", ") : "the never_write globs"} (no per-agent Write() rule in Cursor)${also("refuses the pipeline's never_write globs to every agent, not a role's own")}`, loss: "L_SCOPE_INSTRUCTED", field: "permissions.never_write" });
    }

    // Every Cursor agent but a readonly one has the Shell tool, whatever the role lists.
    if (ro) rec({ constraint: "shell", level: "native", how: "readonly: true", field: "tools" });
    else
      rec({
        constraint: "shell",
        level: "instructed",
        how: `${role.shell ? `prompt of ${entry}: no per-agent command rules in Cursor` : `prompt of ${entry}: the role has no shell, but every non-readonly Cursor agent gets Shell`}${also("lets every agent run the union of the roles' allowed commands and read-only ones, and asks for the rest")}`,
        loss: "L_SHELL_INSTRUCTED",
        field: role.shell ? "permissions.shell" : "tools",
      });
    rec({
      constraint: "git-deny",
      level: "instructed",
      how: `prompt of ${entry}: Shell() rules match only a command's first token, so "git commit"/"git push" cannot be denied without refusing all of git${also("refuses git writes (commit, push, …) beyond the orchestrator's exceptions and the pipeline's shell_deny to every agent; a command behind a wrapper such as sudo or env is asked")}`,
      loss: "L_SHELL_INSTRUCTED",
    });
    rec({ constraint: "spawn", level: "instructed", how: `prompt of ${entry}: Cursor has no per-agent switch for starting subagents${also(pipeline.policies.nestedAgents ? "lets any agent start subagents (nested_agents: true)" : "lets only pipeline roles start (subagentStart), but cannot tell which agent starts them")}`, loss: "L_SPAWN_INSTRUCTED", field: "tools" });
    rec({
      constraint: "isolation",
      level: "native",
      how: role.isolation === "subagent" ? `.cursor/agents/${role.id}.md (own context window, is_background: false)` : `main chat via /${role.id} (.cursor/commands/${role.id}.md)`,
      field: "isolation",
    });
    if (role.worktree) rec({ constraint: "isolation", level: "lost", how: "Cursor subagents have no git worktree of their own; the role works in the shared checkout", loss: "L_WORKTREE_UNSUPPORTED", field: "worktree" });
    const model = modelFor(pipeline, role);
    if (role.isolation === "main") rec({ constraint: "model", level: "lost", how: "a command runs on the chat's model", loss: "L_MODEL_UNMAPPED", field: "model" });
    else rec(model === "inherit" ? { constraint: "model", level: "lost", how: "model: inherit", loss: "L_MODEL_UNMAPPED", field: "model" } : { constraint: "model", level: "native", how: `model: ${model}`, field: "model" });
    rec({ constraint: "temperature", level: "lost", how: `no temperature field (${role.temperature?.class ?? "none named"})`, loss: "L_TEMPERATURE", field: "temperature" });
    if (role.maxTurns !== undefined) rec({ constraint: "max-turns", level: "lost", how: `no turn cap in Cursor; the orchestrator watches ${role.maxTurns}`, loss: "L_TURNS_UNSUPPORTED", field: "max_turns" });
    if (role.reads.length) rec({ constraint: "handoffs", level: "instructed", how: "artifact paths in the brief and prompt", loss: "L_HANDOFF_INSTRUCTED", field: "reads" });
  }
  const cmd = `/${pipeline.name}`;
  if (pipeline.stages.some((s) => s.gate)) out.push({ role: null, constraint: "gates", level: "instructed", how: `${cmd} stops and asks`, loss: "L_GATE_INSTRUCTED" });
  if (pipeline.checks.length) out.push({ role: null, constraint: "checks", level: "instructed", how: `${cmd} runs them`, loss: "L_CHECKS_INSTRUCTED" });
  if (pipeline.loop) out.push({ role: null, constraint: "loop-cap", level: "instructed", how: `${cmd} caps at ${pipeline.loop.maxRounds} rounds`, loss: "L_CHECKS_INSTRUCTED" });
  out.push(...instructedProcessRecords(pipeline, `${cmd}`, "Cursor has no CLI here, so no process hook can be proven on the real host"));
  const shellDenies = perms.deny.filter((d) => d.startsWith("Shell("));
  if (shellDenies.length) out.push({ role: null, constraint: "git-deny", level: "native", how: `${shellDenies.join(", ")} in ${CLI_ONLY}` });
  if (perms.unwritableCommands.length)
    out.push({ role: null, constraint: "git-deny", level: "instructed", how: `${perms.unwritableCommands.length} shell_deny patterns are in every prompt only (Shell() matches a command's first token)`, loss: "L_SHELL_INSTRUCTED" });
  return out;
}
