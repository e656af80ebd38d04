// How each constraint is realised on Pi 0.73.1, per role. Data for MAPPING.md, build and diff.
// Pi has no permissions and no subagents: a subagent role is a child `pi` that harness_subagent starts
// with --tools (Pi offers only those) and HARNESS_PI_ROLE (the extension binds it as the role).
import type { FidelityRecord } from "../../src/adapter/fidelity.js";
import type { PipelineIR, RoleIR } from "../../src/ir/types.js";
import { PI_TOOLS, SPAWN_TOOL } from "./tools.js";
import { EXTENSION_PATH, piRoleTools } from "./extension.js";

export function piFidelity(pipeline: PipelineIR, modelFor: (r: RoleIR) => string | undefined): FidelityRecord[] {
  const out: FidelityRecord[] = [];
  const launcher = `.pi/bin/${pipeline.name}.sh`;
  for (const role of pipeline.roles) {
    const rec = (r: Omit<FidelityRecord, "role">) => out.push({ role: role.id, ...r });
    const sub = role.isolation === "subagent";
    const tools = piRoleTools(role);
    const writes = role.tools.includes("edit") || role.tools.includes("write") || role.shell !== null;
    const where = sub ? `${EXTENSION_PATH} in the role's own pi process (${SPAWN_TOOL} starts it with HARNESS_PI_ROLE=${role.id})` : `${EXTENSION_PATH} on the main session (the orchestrator's, in a session ${launcher} started)`;
    if (sub) {
      rec({ constraint: "tools", level: "native", how: `--tools ${tools.join(",") || "(none: --no-tools)"}`, field: "tools" });
      const missing = role.tools.filter((t) => PI_TOOLS[t] === null);
      if (missing.length) rec({ constraint: "tools", level: "lost", how: `no Pi tool for ${missing.join(", ")}; dropped (narrower)`, loss: "L_TOOL_MISSING", field: "tools" });
    } else rec({ constraint: "tools", level: "instructed", how: `main session: the orchestrator's tools; the role's (${tools.join(", ")}) are in /${role.id}`, loss: "L_TOOLS_SHARED", field: "tools" });
    if (!sub) rec({ constraint: "write-scope", level: "guard", how: `${where}: union of main-session roles`, loss: "L_MAIN_ROLE_SCOPE", field: "permissions.write" });
    else if (!writes) rec({ constraint: "write-scope", level: "native", how: "no file-writing tool", field: "permissions.write" });
    else rec({ constraint: "write-scope", level: "guard", how: where, field: "permissions.write" });
    rec({ constraint: "never-write", level: writes || !sub ? "guard" : "native", how: writes || !sub ? `${where} (pipeline never-write at any depth)` : "no file-writing tool", field: "permissions.never_write" });
    if (role.shell) rec({ constraint: "shell", level: "guard", how: `${where}: allow = runs, exact argv; anything else refused${sub ? "" : " (the orchestrator's rules: every role's allow list)"}; what allowed programs write is not seen`, loss: "L_SHELL_WRITE_GAP", field: "permissions.shell" });
    else if (sub) rec({ constraint: "shell", level: "native", how: "no bash tool", field: "tools" });
    else rec({ constraint: "shell", level: "guard", how: `${where}: the orchestrator's rules`, loss: "L_SHELL_WRITE_GAP", field: "permissions.shell" });
    rec({ constraint: "git-deny", level: role.shell || !sub ? "guard" : "native", how: role.shell || !sub ? `${where}: shell_deny on normalised argv, read-only git only` : "no bash tool" });
    if (sub) rec({ constraint: "spawn", level: "native", how: role.canSpawn ? `${SPAWN_TOOL} in --tools` : `${SPAWN_TOOL} not in --tools (and the guard refuses it)`, field: "tools" });
    else rec({ constraint: "spawn", level: "instructed", how: `main session: the orchestrator's thread must start roles (the guard lets it start pipeline roles only)`, loss: "L_SPAWN_INSTRUCTED", field: "tools" });
    rec({ constraint: "isolation", level: "native", how: sub ? `its own pi process (--no-session), prompt .pi/agents/${role.id}.md` : `main session via /${role.id}`, field: "isolation" });
    if (role.worktree) rec({ constraint: "isolation", level: "lost", how: `no worktree: ${SPAWN_TOOL} runs the role in the session's checkout`, loss: "L_WORKTREE_UNSUPPORTED", field: "worktree" });
    const model = sub ? modelFor(role) : undefined;
    rec(model ? { constraint: "model", level: "native", how: `--model ${model}`, field: "model" } : { constraint: "model", level: "lost", how: sub ? "no model: the session's model" : "main session: the session's model", loss: "L_MODEL_UNMAPPED", field: "model" });
    rec({ constraint: "temperature", level: "lost", how: `no temperature option (${role.temperature?.class ?? "none named"})`, loss: "L_TEMPERATURE", field: "temperature" });
    if (role.maxTurns !== undefined)
      rec(sub ? { constraint: "max-turns", level: "guard", how: `${EXTENSION_PATH}: past turn ${role.maxTurns} the role's run is aborted and its tool calls refused`, field: "max_turns" } : { constraint: "max-turns", level: "lost", how: `main session: no per-role cap for /${role.id}`, loss: "L_TURNS_MAIN_SESSION", field: "max_turns" });
    if (role.reads.length) rec({ constraint: "handoffs", level: "instructed", how: "artifact paths in the brief and prompt", loss: "L_HANDOFF_INSTRUCTED", field: "reads" });
  }
  if (pipeline.stages.some((s) => s.gate)) out.push({ role: null, constraint: "gates", level: "instructed", how: `/${pipeline.name} stops and asks`, loss: "L_GATE_INSTRUCTED" });
  if (pipeline.checks.length) out.push({ role: null, constraint: "checks", level: "instructed", how: `/${pipeline.name} runs them`, loss: "L_CHECKS_INSTRUCTED" });
  if (pipeline.loop) out.push({ role: null, constraint: "loop-cap", level: "instructed", how: `/${pipeline.name} caps at ${pipeline.loop.maxRounds} rounds`, loss: "L_CHECKS_INSTRUCTED" });
  out.push({ role: null, constraint: "git-deny", level: "guard", how: `${EXTENSION_PATH} on the main session of a session ${launcher} started, and in each role's own pi process` });
  return out;
}
