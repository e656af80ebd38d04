// Claude Code 2.1.332 tool names (hosts note §2.4; sdk-tools.d.ts of @anthropic-ai/claude-agent-sdk 0.3.332).
import type { CanonicalTool } from "../../src/schema/vocabulary.js";

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
