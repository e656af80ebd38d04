// How each constraint is realised on Claude Code 2.1.332, per role. Data for MAPPING.md, build and diff.
import type { FidelityRecord } from "../../src/adapter/fidelity.js";
import type { PipelineIR, RoleIR } from "../../src/ir/types.js";
import { CLAUDE_TOOLS, SPAWN_TOOL } from "./tools.js";
import { GUARD_PATH } from "./guard.js";

export function claudeFidelity(pipeline: PipelineIR, modelFor: (p: PipelineIR, r: RoleIR) => string): FidelityRecord[] {
  const out: FidelityRecord[] = [];
  const scoped = pipeline.policies.scope === "pipeline";
  const where = (role: RoleIR) =>
    scoped
      ? `${GUARD_PATH} in .claude/agents/${role.id}.md${role.isolation === "main" ? ` and /${role.id}` : ""} front matter${role.isolation === "subagent" ? `, and in settings.json on agent_type "${role.id}"` : ""}`
      : `${GUARD_PATH} on agent_type "${role.id}"`;
  for (const role of pipeline.roles) {
    const rec = (r: Omit<FidelityRecord, "role">) => out.push({ role: role.id, ...r });
    const tools = role.tools.map((t) => CLAUDE_TOOLS[t]).filter(Boolean);
    // Linux builds serve Grep/Glob through Bash (embedded ugrep/bfs) when Bash is granted (real run).
    const search = role.tools.includes("bash") && (role.tools.includes("grep") || role.tools.includes("glob")) ? " (search served through Bash on Linux builds)" : "";
    rec({ constraint: "tools", level: "native", how: `tools: ${tools.join(", ")}${search}`, field: "tools" });
    const missing = role.tools.filter((t) => CLAUDE_TOOLS[t] === null);
    if (missing.length) rec({ constraint: "tools", level: "lost", how: `no Claude Code tool for ${missing.join(", ")}; dropped (narrower)`, loss: "L_TOOL_MISSING", field: "tools" });
    const writes = role.tools.includes("edit") || role.tools.includes("write") || role.shell !== null;
    if (!writes) rec({ constraint: "write-scope", level: "native", how: "no file-writing tool", field: "permissions.write" });
    else if (role.isolation === "main")
      rec({ constraint: "write-scope", level: "guard", how: `${GUARD_PATH} (main thread: union of main-session roles)`, loss: "L_MAIN_ROLE_SCOPE", field: "permissions.write" });
    else rec({ constraint: "write-scope", level: "guard", how: where(role), field: "permissions.write" });
    rec({ constraint: "never-write", level: writes ? "guard" : "native", how: writes ? `${GUARD_PATH} (pipeline never-write at any depth)` : "no file-writing tool", field: "permissions.never_write" });
    if (role.shell) {
      rec({ constraint: "shell", level: "guard", how: `${where(role)}: allow = runs without asking, exact argv; what allowed programs write is not seen`, loss: "L_SHELL_WRITE_GAP", field: "permissions.shell" });
    } else rec({ constraint: "shell", level: "native", how: "no Bash tool", field: "tools" });
    rec({ constraint: "git-deny", level: role.shell ? "guard" : "native", how: role.shell ? `${GUARD_PATH}: shell_deny on normalised argv, read-only git only` : "no Bash tool" });
    rec({ constraint: "spawn", level: "native", how: role.canSpawn ? "Agent tool granted" : `disallowedTools: ${SPAWN_TOOL}`, field: "tools" });
    rec({ constraint: "isolation", level: "native", how: role.isolation === "subagent" ? `.claude/agents/${role.id}.md (own context)` : `main session via /${role.id}; also claude --agent ${role.id}` , field: "isolation" });
    const model = modelFor(pipeline, role);
    rec(model === "inherit" ? { constraint: "model", level: "lost", how: "model: inherit", loss: "L_MODEL_UNMAPPED", field: "model" } : { constraint: "model", level: "native", how: `model: ${model}`, field: "model" });
    rec({ constraint: "temperature", level: "lost", how: `no temperature field (${role.temperature.class})`, loss: "L_TEMPERATURE", field: "temperature" });
    // Enforced for subagents; `claude --agent <role>` ignores it (real-host tests, 2.1.332).
    if (role.maxTurns !== undefined)
      rec(
        role.isolation === "subagent"
          ? { constraint: "max-turns", level: "native", how: `maxTurns: ${role.maxTurns}`, field: "max_turns" }
          : { constraint: "max-turns", level: "lost", how: `maxTurns: ${role.maxTurns} is ignored in the main session (/${role.id} or claude --agent ${role.id})`, loss: "L_TURNS_MAIN_SESSION", field: "max_turns" },
      );
    if (role.reads.length) rec({ constraint: "handoffs", level: "instructed", how: "artifact paths in the brief and prompt", loss: "L_HANDOFF_INSTRUCTED", field: "reads" });
  }
  if (pipeline.stages.some((s) => s.gate)) out.push({ role: null, constraint: "gates", level: "instructed", how: `/${pipeline.name} stops and asks`, loss: "L_GATE_INSTRUCTED" });
  if (pipeline.checks.length) out.push({ role: null, constraint: "checks", level: "instructed", how: `/${pipeline.name} runs them`, loss: "L_CHECKS_INSTRUCTED" });
  if (pipeline.loop) out.push({ role: null, constraint: "loop-cap", level: "instructed", how: `/${pipeline.name} caps at ${pipeline.loop.maxRounds} rounds`, loss: "L_CHECKS_INSTRUCTED" });
  out.push({
    role: null,
    constraint: "git-deny",
    level: "guard",
    how: scoped ? `${GUARD_PATH} in /${pipeline.name} front matter (orchestrator) and each role's` : `${GUARD_PATH} in settings.json, plus permissions.deny where no allowed command meets it`,
  });
  return out;
}
