// How each constraint is realised on Claude Code 2.1.332, per role. Data for MAPPING.md, build and diff.
import type { FidelityRecord } from "../../src/adapter/fidelity.js";
import type { PipelineIR, RoleIR } from "../../src/ir/types.js";
import { CLAUDE_TOOLS, SPAWN_TOOL, claudeTools } from "./tools.js";
import { GUARD_PATH } from "./guard.js";
import { CLAUDE_PROTECTED_FOLDERS, claudeAsksBeforeWriting } from "./protected-folders.js";


export function claudeFidelity(pipeline: PipelineIR, modelFor: (p: PipelineIR, r: RoleIR) => string): FidelityRecord[] {
  const out: FidelityRecord[] = [];
  const scoped = pipeline.policies.scope === "pipeline";
  const where = (role: RoleIR) =>
    scoped
      ? `${GUARD_PATH} in .claude/agents/${role.id}.md${role.isolation === "main" ? ` and /${role.id}` : ""} front matter${role.isolation === "subagent" ? `, and in settings.json on agent_type "${role.id}"` : ""}`
      : `${GUARD_PATH} on agent_type "${role.id}"`;
  for (const role of pipeline.roles) {
    const rec = (r: Omit<FidelityRecord, "role">) => out.push({ role: role.id, ...r });
    const tools = claudeTools(role);
    // Linux builds serve Grep/Glob through Bash (embedded ugrep/bfs) when Bash is granted (real run).
    const search = role.tools.includes("bash") && (role.tools.includes("grep") || role.tools.includes("glob")) ? " (search served through Bash on Linux builds)" : "";
    rec({ constraint: "tools", level: "native", how: tools ? `tools: ${tools.join(", ")}${search}` : role.allTools ? `no tools line: every Claude Code tool, MCP included (write and shell limits still through ${GUARD_PATH}; tools it does not model are left to Claude Code's permission flow)` : `no tools line (an agent's tools cannot name a whole MCP server): disallowedTools lists every other Claude Code tool, and ${GUARD_PATH} refuses what the role does not name, other servers' tools included`, field: "tools" });
    const missing = role.allTools ? [] : role.tools.filter((t) => CLAUDE_TOOLS[t] === null);
    if (missing.length) rec({ constraint: "tools", level: "lost", how: `no Claude Code tool for ${missing.join(", ")}; dropped (narrower)`, loss: "L_TOOL_MISSING", field: "tools" });
    const writes = role.tools.includes("edit") || role.tools.includes("write") || role.shell !== null;
    if (!writes) rec({ constraint: "write-scope", level: "native", how: "no file-writing tool", field: "permissions.write" });
    else if (role.isolation === "main")
      rec({ constraint: "write-scope", level: "guard", how: `${GUARD_PATH} (main thread: union of main-session roles)`, loss: "L_MAIN_ROLE_SCOPE", field: "permissions.write" });
    else rec({ constraint: "write-scope", level: "guard", how: where(role), field: "permissions.write" });
    const asks = role.write.filter(claudeAsksBeforeWriting);
    // Claude Code asks before these writes whatever PreToolUse said; the guard's PermissionRequest hook
    // answers allow for the ones it allows (real-host test)
    if (asks.length) rec({ constraint: "write-scope", level: "guard", how: `Claude Code asks before every write to ${asks.join(", ")} (its protected folders ${CLAUDE_PROTECTED_FOLDERS.join(", ")}) even after a hook's allow; ${GUARD_PATH} also runs on PermissionRequest and answers allow for a write it allows there (a team's own ask rule on such a path included); anything else there is still asked`, field: role.writes.length ? "writes" : "permissions.write" });
    rec({ constraint: "never-write", level: writes ? "guard" : "native", how: writes ? `${GUARD_PATH} (pipeline never-write at any depth)` : "no file-writing tool", field: "permissions.never_write" });
    if (role.shell) {
      rec({ constraint: "shell", level: "guard", how: `${where(role)}: allow = runs without asking, exact argv; what allowed programs write is not seen`, loss: "L_SHELL_WRITE_GAP", field: "permissions.shell" });
    } else rec({ constraint: "shell", level: "native", how: "no Bash tool", field: "tools" });
    rec({ constraint: "git-deny", level: role.shell ? "guard" : "native", how: role.shell ? `${GUARD_PATH}: shell_deny on normalised argv, read-only git only` : "no Bash tool" });
    rec({ constraint: "spawn", level: "native", how: role.starts?.length ? `tools: Agent(${role.starts.join(", ")}); ${GUARD_PATH} refuses any other agent` : role.canSpawn ? "Agent tool granted" : `disallowedTools: ${SPAWN_TOOL}`, field: "tools" });
    rec({ constraint: "isolation", level: "native", how: role.isolation === "subagent" ? `.claude/agents/${role.id}.md (own context)` : `main session via /${role.id}; also claude --agent ${role.id}` , field: "isolation" });
    const model = modelFor(pipeline, role);
    rec(model === "inherit" ? { constraint: "model", level: "lost", how: "model: inherit", loss: "L_MODEL_UNMAPPED", field: "model" } : { constraint: "model", level: "native", how: `model: ${model}`, field: "model" });
    rec({ constraint: "temperature", level: "lost", how: `no temperature field (${role.temperature?.class ?? "none named"})`, loss: "L_TEMPERATURE", field: "temperature" });
    // Enforced for subagents; `claude --agent <role>` ignores it (real-host tests, 2.1.332).
    if (role.maxTurns !== undefined)
      rec(
        role.isolation === "subagent"
          ? { constraint: "max-turns", level: "native", how: `maxTurns: ${role.maxTurns}`, field: "max_turns" }
          : { constraint: "max-turns", level: "lost", how: `maxTurns: ${role.maxTurns} is ignored in the main session (/${role.id} or claude --agent ${role.id})`, loss: "L_TURNS_MAIN_SESSION", field: "max_turns" },
      );
    if (role.effort) rec({ constraint: "effort", level: "native", how: `effort: ${role.effort}`, field: "effort" });
    if (role.mcpTools?.length || role.mcpServers) {
      const names = (role.mcpTools ?? []).map((t) => (t.tool === "*" ? `mcp__${t.server}__* (the server's tools)` : `mcp__${t.server}__${t.tool}`));
      const wide = role.mcpTools?.some((t) => t.tool === "*");
      rec({ constraint: "mcp", level: wide ? "guard" : "native", how: [names.length ? `${wide ? "" : "tools: "}${names.join(", ")}; ${GUARD_PATH} lets exactly these through (what they do is not seen) and refuses other MCP tools` : "", role.mcpServers ? "mcpServers in the agent file" : ""].filter(Boolean).join("; "), field: "tools" });
    }
    if (role.skills?.length) rec({ constraint: "skills", level: "native", how: `skills: ${role.skills.join(", ")} (preloaded; not proven by a real-host test)`, field: "skills" });
    if (role.memory) rec({ constraint: "memory", level: "native", how: `memory: ${role.memory} (not proven by a real-host test)`, field: "memory" });
    if (role.initialPrompt) rec({ constraint: "initial-prompt", level: "native", how: `initialPrompt (submitted when the role runs as claude --agent ${role.id}; not proven by a real-host test)`, field: "initial_prompt" });
    if (role.background !== undefined) rec({ constraint: "background", level: "native", how: `background: ${role.background} (not proven by a real-host test)`, field: "background" });
    const own = role.hostFields?.["claude-code"];
    if (own) rec({ constraint: "host-fields", level: "native", how: `${Object.keys(own).join(", ")} in .claude/agents/${role.id}.md as written${own.hooks ? " (its hooks beside the harness guard, which runs first)" : ""}`, field: `hosts.claude-code` });
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
