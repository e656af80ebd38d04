// How each constraint is realised on GitHub Copilot CLI 1.0.102, per role. Data for MAPPING.md, build and diff.
//
// Native per agent: `tools:` (verified enforced; no `agent` alias = no task tool, so no spawning) and
// the agent's own context. Write scope, never-write, shell rules and git denies are `guard`: the
// agent-scoped preToolUse hook in each agent file (guard.ts), which Copilot runs for that agent's
// own calls wherever it runs (verified). The launchers' permission flags stay as a second layer
// (what the guard leaves to Copilot, agents whose hooks were not loaded) and are not claimed here: a
// hook's allow overrides them, so the guard is the limit that counts.
import type { FidelityRecord } from "../../src/adapter/fidelity.js";
import type { PipelineIR, RoleIR } from "../../src/ir/types.js";
import { list } from "../../src/emit/process.js";
import { GUARD_PATH } from "./guard.js";
import { COPILOT_TOOLS } from "./tools.js";
import { instructedProcessRecords } from "../../src/adapter/controller/fidelity.js";

export interface CopilotFidelityInput {
  pipeline: PipelineIR;
  orchestrator: string;
  launcherOf(id: string): string;
  modelFor(role: RoleIR): string | undefined;
}

export function copilotFidelity(input: CopilotFidelityInput): FidelityRecord[] {
  const { pipeline } = input;
  const out: FidelityRecord[] = [];
  const pl = input.launcherOf(pipeline.name);
  for (const role of pipeline.roles) {
    const rec = (r: Omit<FidelityRecord, "role">) => out.push({ role: role.id, ...r });
    const own = input.launcherOf(role.id);

    const missing = role.tools.filter((t) => COPILOT_TOOLS[t] === null);
    const aliases = [...new Set(role.tools.map((t) => COPILOT_TOOLS[t]).filter(Boolean))];
    rec({ constraint: "tools", level: "native", how: `tools: ${aliases.join(", ")}`, field: "tools" });
    if (missing.length) rec({ constraint: "tools", level: "native", how: `no agent alias for ${list(missing)}`, loss: "L_TOOL_MISSING", field: "tools" });

    const writes = role.tools.includes("edit") || role.tools.includes("write") || role.shell !== null;
    const hook = `${GUARD_PATH} (preToolUse hook in .github/agents/${role.id}.agent.md: its own calls, as a subagent or run alone via ${own})`;
    if (!writes) rec({ constraint: "write-scope", level: "native", how: "no edit or execute in tools:", field: "permissions.write" });
    else rec({ constraint: "write-scope", level: "guard", how: `${hook}: create, edit, apply_patch paths and shell redirections checked against write: ${role.write.join(", ") || "nothing"}`, field: "permissions.write" });
    rec(
      writes
        ? { constraint: "never-write", level: "guard", how: `${GUARD_PATH}: pipeline never_write at any depth${role.neverWrite.some((g) => !pipeline.policies.neverWrite.includes(g)) ? " and the role's own" : ""}, and the agent, hook and launcher files`, field: "permissions.never_write" }
        : { constraint: "never-write", level: "native", how: "no edit or execute in tools:", field: "permissions.never_write" },
    );
    if (role.shell) rec({ constraint: "shell", level: "guard", how: `${hook}: allow = runs without asking, exact argv; what allowed programs write is not seen`, loss: "L_SHELL_WRITE_GAP", field: "permissions.shell" });
    else rec({ constraint: "shell", level: "native", how: "no execute in tools:", field: "tools" });
    rec(role.shell ? { constraint: "git-deny", level: "guard", how: `${GUARD_PATH}: shell_deny on normalised argv, read-only git only` } : { constraint: "git-deny", level: "native", how: "no execute in tools:" });
    rec(role.canSpawn ? { constraint: "spawn", level: "native", how: "agent in tools:", field: "tools" } : { constraint: "spawn", level: "native", how: "no agent in tools: (the task tool is not offered)", field: "tools" });
    rec({
      constraint: "isolation",
      level: "native",
      how: role.isolation === "subagent" ? `.github/agents/${role.id}.agent.md, started with the task tool (own context)` : `run by the human as its own session: ${own} or copilot --agent ${role.id} (disable-model-invocation: true)`,
      field: "isolation",
    });
    if (role.worktree) rec({ constraint: "isolation", level: "lost", how: "agents share the session's checkout", loss: "L_WORKTREE_UNSUPPORTED", field: "worktree" });
    const model = input.modelFor(role);
    rec(
      !model
        ? { constraint: "model", level: "lost", how: "no model: (the session's model)", loss: "L_MODEL_UNMAPPED", field: "model" }
        : role.isolation === "subagent"
          ? { constraint: "model", level: "native", how: `model: ${model}`, field: "model" }
          : { constraint: "model", level: "instructed", how: `model: ${model} in the agent file; not verified for a session started with --agent`, field: "model" },
    );
    rec({ constraint: "temperature", level: "lost", how: `no temperature setting (${role.temperature?.class ?? "none named"})`, loss: "L_TEMPERATURE", field: "temperature" });
    if (role.maxTurns !== undefined) rec({ constraint: "max-turns", level: "lost", how: `no per-agent turn cap (max_turns ${role.maxTurns})`, loss: "L_TURNS_UNSUPPORTED", field: "max_turns" });
    if (role.reads.length) rec({ constraint: "handoffs", level: "instructed", how: "artifact paths in the brief and prompt", loss: "L_HANDOFF_INSTRUCTED", field: "reads" });
  }
  const agent = `the ${input.orchestrator} agent (/${pipeline.name})`;
  if (pipeline.stages.some((s) => s.gate)) out.push({ role: null, constraint: "gates", level: "instructed", how: `${agent} stops and asks`, loss: "L_GATE_INSTRUCTED" });
  if (pipeline.checks.length) out.push({ role: null, constraint: "checks", level: "instructed", how: `${agent} runs them`, loss: "L_CHECKS_INSTRUCTED" });
  if (pipeline.loop) out.push({ role: null, constraint: "loop-cap", level: "instructed", how: `${agent} caps at ${pipeline.loop.maxRounds} rounds`, loss: "L_CHECKS_INSTRUCTED" });
  out.push(...instructedProcessRecords(pipeline, `${agent}`));
  const orchHook = `${GUARD_PATH} (preToolUse hook in .github/agents/${input.orchestrator}.agent.md, started via ${pl} or copilot --agent ${input.orchestrator})`;
  out.push({ role: null, constraint: "git-deny", level: "guard", how: `${orchHook}: shell_deny on normalised argv, read-only git and policies.orchestrator_shell only` });
  const subs = pipeline.roles.filter((r) => r.isolation === "subagent").map((r) => r.id);
  out.push({ role: null, constraint: "spawn", level: "guard", how: `${orchHook}: the task tool may start ${subs.join(", ") || "no agent"} only${pipeline.policies.nestedAgents ? "" : " (nested agents off)"}; agents: for VS Code` });
  return out;
}
