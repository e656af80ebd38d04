// The host-native agent fields a role may set under `hosts: {claude-code: {...}}`: exactly the ones
// Claude Code 2.1.332 reads from .claude/agents/*.md that harness does not write from a host-neutral
// field (hosts note §2.2: the loader in the binary and AgentDefinition in sdk.d.ts).
import type { RoleFeatures } from "../../src/adapter/types.js";
import { CLAUDE_EXTRA_TOOLS, claudeMcpTool } from "./tools.js";

export const CLAUDE_ROLE_FEATURES: RoleFeatures = {
  extraTools: CLAUDE_EXTRA_TOOLS,
  mcpTool: claudeMcpTool,
  allTools: true,
  leads: true,
  fields: {
    color: { type: "enum", values: ["red", "blue", "green", "yellow", "purple", "orange", "pink", "cyan"] },
    permissionMode: { type: "enum", values: ["default", "manual", "acceptEdits", "auto", "bypassPermissions", "dontAsk", "plan"] },
    omitClaudeMd: { type: "boolean" },
    autoCompactWindow: { type: "integer" },
    // the role's own hooks, kept beside the harness guard (its PreToolUse entry runs first)
    hooks: { type: "object" },
  },
  owned: {
    name: "the role's file name",
    description: "description",
    prompt: "the role's body",
    tools: "tools",
    disallowedTools: "tools (an allow list: leave a tool out)",
    maxTurns: "max_turns",
    effort: "effort",
    skills: "skills",
    mcpServers: "mcp_servers",
    memory: "memory",
    isolation: "worktree: true",
    background: "background",
    initialPrompt: "initial_prompt",
  },
};
