// How each constraint is realised on Qwen Code 0.24.4, per role. Data for MAPPING.md, build and diff.
import type { FidelityRecord } from "../../src/adapter/fidelity.js";
import type { PipelineIR, RoleIR } from "../../src/ir/types.js";
import { QWEN_TOOLS, SPAWN_TOOL } from "./tools.js";
import { GUARD_PATH } from "./guard.js";

export function qwenFidelity(pipeline: PipelineIR, modelFor: (p: PipelineIR, r: RoleIR) => string | undefined): FidelityRecord[] {
  const out: FidelityRecord[] = [];
  const launcher = `.qwen/bin/${pipeline.name}.sh`;
  for (const role of pipeline.roles) {
    const rec = (r: Omit<FidelityRecord, "role">) => out.push({ role: role.id, ...r });
    const sub = role.isolation === "subagent";
    const tools = role.tools.map((t) => QWEN_TOOLS[t]).filter(Boolean);
    const writes = role.tools.includes("edit") || role.tools.includes("write") || role.shell !== null;
    const where = sub ? `${GUARD_PATH} in .qwen/agents/${role.id}.md front matter` : `${GUARD_PATH} in .qwen/settings.json (the orchestrator's thread, in a session ${launcher} started)`;
    if (sub) {
      rec({ constraint: "tools", level: "native", how: `tools: ${tools.join(", ")}`, field: "tools" });
      const missing = role.tools.filter((t) => QWEN_TOOLS[t] === null);
      if (missing.length) rec({ constraint: "tools", level: "lost", how: `no Qwen Code tool for ${missing.join(", ")}; dropped (narrower)`, loss: "L_TOOL_MISSING", field: "tools" });
    } else rec({ constraint: "tools", level: "instructed", how: `main session: the orchestrator's tools; the role's (${tools.join(", ")}) are in /${role.id}`, loss: "L_TOOLS_SHARED", field: "tools" });
    if (!sub) rec({ constraint: "write-scope", level: "guard", how: `${where}: union of main-session roles`, loss: "L_MAIN_ROLE_SCOPE", field: "permissions.write" });
    else if (!writes) rec({ constraint: "write-scope", level: "native", how: "no file-writing tool", field: "permissions.write" });
    else rec({ constraint: "write-scope", level: "guard", how: where, field: "permissions.write" });
    rec({ constraint: "never-write", level: writes || !sub ? "guard" : "native", how: writes || !sub ? `${where} (pipeline never-write at any depth)` : "no file-writing tool", field: "permissions.never_write" });
    if (role.shell) rec({ constraint: "shell", level: "guard", how: `${where}: allow = runs, exact argv; anything else refused${sub ? "" : " (the orchestrator's rules: every role's allow list)"}; what allowed programs write is not seen`, loss: "L_SHELL_WRITE_GAP", field: "permissions.shell" });
    else if (sub) rec({ constraint: "shell", level: "native", how: "no run_shell_command tool", field: "tools" });
    else rec({ constraint: "shell", level: "guard", how: `${where}: the orchestrator's rules`, loss: "L_SHELL_WRITE_GAP", field: "permissions.shell" });
    rec({ constraint: "git-deny", level: role.shell || !sub ? "guard" : "native", how: role.shell || !sub ? `${where}: shell_deny on normalised argv, read-only git only` : "no run_shell_command tool" });
    if (sub) rec({ constraint: "spawn", level: "native", how: role.canSpawn ? "agent tool granted" : `disallowedTools: ${SPAWN_TOOL}`, field: "tools" });
    else rec({ constraint: "spawn", level: "instructed", how: "main session: the orchestrator's thread must start agents (the guard lets it start pipeline roles only)", loss: "L_SPAWN_INSTRUCTED", field: "tools" });
    rec({ constraint: "isolation", level: "native", how: sub ? `.qwen/agents/${role.id}.md (own context)` : `main session via /${role.id}`, field: "isolation" });
    // the agent tool takes an isolation argument per call, but an agent file cannot ask for a worktree
    if (role.worktree) rec({ constraint: "isolation", level: "lost", how: "no worktree field in an agent file: the subagent shares the session's checkout", loss: "L_WORKTREE_UNSUPPORTED", field: "worktree" });
    const model = sub ? modelFor(pipeline, role) : undefined;
    rec(model ? { constraint: "model", level: "native", how: `model: ${model}`, field: "model" } : { constraint: "model", level: "lost", how: sub ? "no model: the session's model" : "main session: the session's model", loss: "L_MODEL_UNMAPPED", field: "model" });
    rec({ constraint: "temperature", level: "lost", how: `no temperature field (${role.temperature?.class ?? "none named"})`, loss: "L_TEMPERATURE", field: "temperature" });
    if (role.maxTurns !== undefined)
      rec(sub ? { constraint: "max-turns", level: "native", how: `maxTurns: ${role.maxTurns}`, field: "max_turns" } : { constraint: "max-turns", level: "lost", how: `main session: no per-role cap for /${role.id}`, loss: "L_TURNS_MAIN_SESSION", field: "max_turns" });
    if (role.reads.length) rec({ constraint: "handoffs", level: "instructed", how: "artifact paths in the brief and prompt", loss: "L_HANDOFF_INSTRUCTED", field: "reads" });
  }
  if (pipeline.stages.some((s) => s.gate)) out.push({ role: null, constraint: "gates", level: "instructed", how: `/${pipeline.name} stops and asks`, loss: "L_GATE_INSTRUCTED" });
  if (pipeline.checks.length) out.push({ role: null, constraint: "checks", level: "instructed", how: `/${pipeline.name} runs them`, loss: "L_CHECKS_INSTRUCTED" });
  if (pipeline.loop) out.push({ role: null, constraint: "loop-cap", level: "instructed", how: `/${pipeline.name} caps at ${pipeline.loop.maxRounds} rounds`, loss: "L_CHECKS_INSTRUCTED" });
  out.push({ role: null, constraint: "git-deny", level: "guard", how: `${GUARD_PATH} in .qwen/settings.json (the main thread of a session ${launcher} started) and in each role's agent file` });
  return out;
}
