// Claude Code 2.1.332 tool names (hosts note §2.4; sdk-tools.d.ts of @anthropic-ai/claude-agent-sdk 0.3.332).
import type { CanonicalTool, ExtraTool } from "../../src/schema/vocabulary.js";
import type { RoleIR } from "../../src/ir/types.js";

export const CLAUDE_TOOLS: Readonly<Record<CanonicalTool, string | null>> = {
  read: "Read",
  grep: "Grep",
  glob: "Glob",
  edit: "Edit", // MultiEdit is gone; Edit rules cover it (§2.4)
  write: "Write",
  bash: "Bash",
  "web-fetch": "WebFetch",
  "web-search": "WebSearch",
  // 2.1.332 refuses it: "TodoWrite is disabled for this session, in subagents as well as here" (real run).
  todo: null,
  "ask-human": "AskUserQuestion",
  "spawn-agent": "Agent", // `Task` is the older alias
};

/** Host tools no pipeline role gets unless asked for; listed in disallowedTools so a role never inherits them. */
export const SPAWN_TOOL = "Agent";

/** Claude Code's names for the extra tools (agent teams, LSP, Skill); hosts note §2.4. */
export const CLAUDE_EXTRA_TOOLS: Readonly<Record<ExtraTool, string>> = {
  "task-create": "TaskCreate",
  "task-get": "TaskGet",
  "task-list": "TaskList",
  "task-update": "TaskUpdate",
  "send-message": "SendMessage",
  "team-create": "TeamCreate",
  "team-delete": "TeamDelete",
  lsp: "LSP",
  skill: "Skill",
};

/** Claude Code names a server's tools mcp__<server>__<tool>, the server's name with anything but [A-Za-z0-9_-] as "_". */
export const claudeMcpServer = (server: string): string => server.replace(/[^A-Za-z0-9_-]/g, "_");
export const claudeMcpTool = (server: string, tool: string): string => (tool === "*" ? `mcp__${claudeMcpServer(server)}` : `mcp__${claudeMcpServer(server)}__${tool}`);

/**
 * Every tool Claude Code 2.1.332 offers a subagent (the init event of a real run, plus the
 * agent-team tools): what a role that lists a whole MCP server is denied by name, since an agent's
 * `tools:` takes only exact MCP tool names (`mcp__server` and `mcp__server__*` there offer nothing:
 * real-host test). A tool a newer version adds is still refused by the guard unless the role names it.
 */
export const CLAUDE_ALL_TOOLS: readonly string[] = [
  "AskUserQuestion", "Bash", "CronCreate", "CronDelete", "CronList", "Edit", "EnterPlanMode", "EnterWorktree", "ExitPlanMode", "ExitWorktree", "Glob", "Grep",
  "LSP", "ListAgents", "Monitor", "NotebookEdit", "Read", "ReportFindings", "ScheduleWakeup", "SendMessage", "Skill", "TaskCreate", "TaskGet", "TaskList",
  "TaskOutput", "TaskStop", "TaskUpdate", "TeamCreate", "TeamDelete", "TodoWrite", "ToolSearch", "WebFetch", "WebSearch", "Workflow", "Write",
];

/** The role's tools in Claude Code's names: canonical, extra and MCP; undefined = no tools line (every tool, less disallowedTools). */
export function claudeTools(role: RoleIR): string[] | undefined {
  if (role.allTools || role.mcpTools?.some((t) => t.tool === "*")) return undefined;
  return claudeNamedTools(role);
}

function claudeNamedTools(role: RoleIR): string[] {
  return [
    // a lead: Agent(a, b) lets it start only those subagents (hosts note §2.2)
    ...role.tools.map((t) => (t === "spawn-agent" && role.starts?.length ? `Agent(${role.starts.join(", ")})` : CLAUDE_TOOLS[t])).filter((t): t is string => t !== null),
    ...(role.extraTools ?? []).map((t) => CLAUDE_EXTRA_TOOLS[t]),
    ...(role.mcpTools ?? []).filter((t) => t.tool !== "*").map((t) => claudeMcpTool(t.server, t.tool)),
  ];
}

/** disallowedTools: the spawn tool unless the role may spawn; with no tools line, every tool the role does not name as well. */
export function claudeDisallowed(role: RoleIR, canSpawn: boolean): string[] {
  const spawn = canSpawn ? [] : ["Agent"];
  if (role.allTools || claudeTools(role)) return spawn;
  const named = new Set(claudeNamedTools(role));
  if (role.tools.includes("edit")) named.add("NotebookEdit");
  return [...spawn, ...CLAUDE_ALL_TOOLS.filter((t) => !named.has(t))];
}

/** The guard's exact names and server prefixes for the host tools it does not model that the role names. */
export function claudeGuardTools(role: RoleIR): { names: string[]; prefixes: string[] } {
  return {
    names: [...(role.extraTools ?? []).map((t) => CLAUDE_EXTRA_TOOLS[t]), ...(role.mcpTools ?? []).filter((t) => t.tool !== "*").map((t) => claudeMcpTool(t.server, t.tool))],
    prefixes: (role.mcpTools ?? []).filter((t) => t.tool === "*").map((t) => `${claudeMcpTool(t.server, "*")}__`),
  };
}

