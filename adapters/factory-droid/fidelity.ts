// How each constraint is realised on Factory Droid 0.225.2, per role. Data for MAPPING.md, build and diff.
import type { FidelityRecord } from "../../src/adapter/fidelity.js";
import type { PipelineIR, RoleIR } from "../../src/ir/types.js";
import { DROID_TOOLS } from "./tools.js";
import { GUARD_PATH } from "./guard.js";

export function droidFidelity(pipeline: PipelineIR, modelFor: (p: PipelineIR, r: RoleIR) => string | undefined): FidelityRecord[] {
  const out: FidelityRecord[] = [];
  const orchestrator = `.factory/bin/${pipeline.name}.sh`;
  for (const role of pipeline.roles) {
    const rec = (r: Omit<FidelityRecord, "role">) => out.push({ role: role.id, ...r });
    const sub = role.isolation === "subagent";
    const launcher = `.factory/bin/${role.id}.sh`;
    const tools = role.tools.map((t) => DROID_TOOLS[t]).filter(Boolean);
    const writes = role.tools.includes("edit") || role.tools.includes("write") || role.shell !== null;
    const where = sub ? `${GUARD_PATH} in .factory/settings.json, bound to ${role.id} in a session ${launcher} started` : `${GUARD_PATH} in .factory/settings.json (the orchestrator's session, which ${orchestrator} started)`;
    if (sub) {
      rec({ constraint: "tools", level: "native", how: `${launcher}: droid exec --only-tools ${tools.join(",")}`, field: "tools" });
      const missing = role.tools.filter((t) => DROID_TOOLS[t] === null);
      if (missing.length) rec({ constraint: "tools", level: "lost", how: `no Droid tool for ${missing.join(", ")}; dropped (narrower)`, loss: "L_TOOL_MISSING", field: "tools" });
    } else rec({ constraint: "tools", level: "instructed", how: `main session: the orchestrator's tools; the role's (${tools.join(", ")}) are in /${role.id}`, loss: "L_TOOLS_SHARED", field: "tools" });
    if (!sub) rec({ constraint: "write-scope", level: "guard", how: `${where}: union of main-session roles`, loss: "L_MAIN_ROLE_SCOPE", field: "permissions.write" });
    else if (!writes) rec({ constraint: "write-scope", level: "native", how: "no file-writing tool", field: "permissions.write" });
    else rec({ constraint: "write-scope", level: "guard", how: where, field: "permissions.write" });
    rec({ constraint: "never-write", level: writes || !sub ? "guard" : "native", how: writes || !sub ? `${where} (pipeline never-write)` : "no file-writing tool", field: "permissions.never_write" });
    if (role.shell) rec({ constraint: "shell", level: "guard", how: `${where}: allow = runs, exact argv; anything else refused${sub ? "" : " (the orchestrator's rules: every role's allow list)"}; what allowed programs write is not seen`, loss: "L_SHELL_WRITE_GAP", field: "permissions.shell" });
    else if (sub) rec({ constraint: "shell", level: "native", how: "no Execute tool", field: "tools" });
    else rec({ constraint: "shell", level: "guard", how: `${where}: the orchestrator's rules`, loss: "L_SHELL_WRITE_GAP", field: "permissions.shell" });
    rec({ constraint: "git-deny", level: role.shell || !sub ? "guard" : "native", how: role.shell || !sub ? `${where}: shell_deny on normalised argv, read-only git only` : "no Execute tool" });
    if (sub) rec({ constraint: "spawn", level: "guard", how: role.canSpawn ? `${where}: pipeline roles through their launchers only; Task refused` : `${where}: Task and every launcher refused`, field: "tools" });
    else rec({ constraint: "spawn", level: "instructed", how: "main session: the orchestrator's session must start roles (the guard lets it start pipeline roles only, through their launchers; Task is refused)", loss: "L_SPAWN_INSTRUCTED", field: "tools" });
    rec({ constraint: "isolation", level: "native", how: sub ? `${launcher}: its own droid exec process and session` : `main session via /${role.id}`, field: "isolation" });
    if (role.worktree) rec({ constraint: "isolation", level: "lost", how: "the launcher runs in the project's checkout (droid exec -w is not used)", loss: "L_WORKTREE_UNSUPPORTED", field: "worktree" });
    const model = sub ? modelFor(pipeline, role) : undefined;
    rec(model ? { constraint: "model", level: "native", how: `${launcher}: -m ${model}`, field: "model" } : { constraint: "model", level: "lost", how: sub ? "no model mapped: HARNESS_DROID_MODEL or Droid's default" : "main session: the session's model", loss: "L_MODEL_UNMAPPED", field: "model" });
    rec({ constraint: "temperature", level: "lost", how: `no temperature setting (${role.temperature?.class ?? "none named"})`, loss: "L_TEMPERATURE", field: "temperature" });
    if (role.maxTurns !== undefined) rec(sub ? { constraint: "max-turns", level: "lost", how: "droid exec has no turn cap", loss: "L_TURNS_UNSUPPORTED", field: "max_turns" } : { constraint: "max-turns", level: "lost", how: `main session: no per-role cap for /${role.id}`, loss: "L_TURNS_MAIN_SESSION", field: "max_turns" });
    if (role.reads.length) rec({ constraint: "handoffs", level: "instructed", how: "artifact paths in the brief and prompt", loss: "L_HANDOFF_INSTRUCTED", field: "reads" });
  }
  if (pipeline.stages.some((s) => s.gate)) out.push({ role: null, constraint: "gates", level: "instructed", how: `/${pipeline.name} stops and asks`, loss: "L_GATE_INSTRUCTED" });
  if (pipeline.checks.length) out.push({ role: null, constraint: "checks", level: "instructed", how: `/${pipeline.name} runs them`, loss: "L_CHECKS_INSTRUCTED" });
  if (pipeline.loop) out.push({ role: null, constraint: "loop-cap", level: "instructed", how: `/${pipeline.name} caps at ${pipeline.loop.maxRounds} rounds`, loss: "L_CHECKS_INSTRUCTED" });
  out.push({ role: null, constraint: "git-deny", level: "guard", how: `${GUARD_PATH} in .factory/settings.json, in every session a launcher in .factory/bin/ started` });
  return out;
}
