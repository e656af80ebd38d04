// How each constraint is realised on Antigravity 2.0 / its CLI (docs of 2026-11-30), per role. Data
// for MAPPING.md, build and diff. Nothing here is proven on the real host: no installable CLI.
import type { FidelityRecord } from "../../src/adapter/fidelity.js";
import type { PipelineIR, RoleIR } from "../../src/ir/types.js";
import { ANTIGRAVITY_TOOL_IDS } from "./tools.js";
import { instructedProcessRecords } from "../../src/adapter/controller/fidelity.js";

/** Why paths and command rules cannot be in the tree: the CLI keeps permissions out of the repository. */
const NO_REPO_PERMISSIONS = "Antigravity keeps permission rules in user settings, never in the repository (antigravity-cli #559), and has no per-agent path scope";

export function antigravityFidelity(pipeline: PipelineIR, modelFor: (p: PipelineIR, r: RoleIR) => string, agentPath: (r: RoleIR) => string): FidelityRecord[] {
  const out: FidelityRecord[] = [];
  for (const role of pipeline.roles) {
    const rec = (r: Omit<FidelityRecord, "role">) => out.push({ role: role.id, ...r });
    const file = agentPath(role);
    const ids = role.tools.flatMap((t) => ANTIGRAVITY_TOOL_IDS[t]);
    rec({ constraint: "tools", level: "native", how: `tools: ${ids.join(", ") || "none"} (an allow-list; nothing else is offered)`, field: "tools" });
    const missing = role.tools.filter((t) => ANTIGRAVITY_TOOL_IDS[t].length === 0);
    if (missing.length) rec({ constraint: "tools", level: "lost", how: `no Antigravity tool for ${missing.join(", ")}; dropped (narrower)`, loss: "L_TOOL_MISSING", field: "tools" });
    const writes = role.tools.includes("edit") || role.tools.includes("write") || role.shell !== null;
    if (!writes) {
      rec({ constraint: "write-scope", level: "native", how: "no file-writing tool and commandExecutionPolicy: off", field: "permissions.write" });
      rec({ constraint: "never-write", level: "native", how: "no file-writing tool and commandExecutionPolicy: off", field: "permissions.never_write" });
    } else {
      rec({ constraint: "write-scope", level: "instructed", how: `prompt of ${file}: ${NO_REPO_PERMISSIONS}`, loss: "L_SCOPE_INSTRUCTED", field: "permissions.write" });
      rec({ constraint: "never-write", level: "instructed", how: `prompt of ${file}: ${NO_REPO_PERMISSIONS}`, loss: "L_SCOPE_INSTRUCTED", field: "permissions.never_write" });
    }
    if (role.shell) {
      rec({ constraint: "shell", level: "instructed", how: `prompt of ${file}; commandExecutionPolicy: sandbox (the documented default, never auto or eager); command rules live only in user settings`, loss: "L_SHELL_INSTRUCTED", field: "permissions.shell" });
      rec({ constraint: "git-deny", level: "instructed", how: `prompt of ${file}: ${NO_REPO_PERMISSIONS}`, loss: "L_SHELL_INSTRUCTED" });
    } else {
      rec({ constraint: "shell", level: "native", how: "no run_command; commandExecutionPolicy: off", field: "tools" });
      rec({ constraint: "git-deny", level: "native", how: "no run_command; commandExecutionPolicy: off" });
    }
    rec({ constraint: "spawn", level: "native", how: role.canSpawn ? "invoke_subagent in tools" : "no invoke_subagent in tools", field: "tools" });
    rec({
      constraint: "isolation",
      level: "native",
      how: role.isolation === "subagent" ? `${file}: subagent: true, mainAgent: false (own conversation)` : `${file}: mainAgent: true, subagent: false (the human switches to it, or agy --agent ${role.id})`,
      field: "isolation",
    });
    if (role.worktree) rec({ constraint: "isolation", level: "lost", how: "Antigravity agents have no git worktree of their own; the role works in the shared checkout", loss: "L_WORKTREE_UNSUPPORTED", field: "worktree" });
    const model = modelFor(pipeline, role);
    rec(model === "inherit" ? { constraint: "model", level: "lost", how: "model: inherit", loss: "L_MODEL_UNMAPPED", field: "model" } : { constraint: "model", level: "native", how: `model: ${model}`, field: "model" });
    rec({ constraint: "temperature", level: "lost", how: `no temperature field (${role.temperature?.class ?? "none named"})`, loss: "L_TEMPERATURE", field: "temperature" });
    if (role.maxTurns !== undefined) rec({ constraint: "max-turns", level: "lost", how: `no turn cap in Antigravity; the orchestrator watches ${role.maxTurns}`, loss: "L_TURNS_UNSUPPORTED", field: "max_turns" });
    if (role.reads.length) rec({ constraint: "handoffs", level: "instructed", how: "artifact paths in the brief and prompt", loss: "L_HANDOFF_INSTRUCTED", field: "reads" });
  }
  const cmd = `/${pipeline.name}`;
  if (pipeline.stages.some((s) => s.gate)) out.push({ role: null, constraint: "gates", level: "instructed", how: `the ${cmd} skill stops and asks`, loss: "L_GATE_INSTRUCTED" });
  if (pipeline.checks.length) out.push({ role: null, constraint: "checks", level: "instructed", how: `the ${cmd} skill runs them`, loss: "L_CHECKS_INSTRUCTED" });
  if (pipeline.loop) out.push({ role: null, constraint: "loop-cap", level: "instructed", how: `the ${cmd} skill caps at ${pipeline.loop.maxRounds} rounds`, loss: "L_CHECKS_INSTRUCTED" });
  out.push(...instructedProcessRecords(pipeline, `the ${cmd} skill`, "Antigravity has no CLI here, so no process hook can be proven on the real host"));
  if (pipeline.policies.shellDeny.length)
    out.push({ role: null, constraint: "git-deny", level: "instructed", how: `the ${cmd} skill, .agents/rules and AGENTS.md; the orchestrating main agent has no command rules in the repository`, loss: "L_SHELL_INSTRUCTED" });
  return out;
}
