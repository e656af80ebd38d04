// Qwen Code 0.24.4 tool names (ToolNames in the bundled core; the names the model is offered).
import type { CanonicalTool } from "../../src/schema/vocabulary.js";

export const QWEN_TOOLS: Readonly<Record<CanonicalTool, string | null>> = {
  read: "read_file",
  grep: "grep_search",
  glob: "glob",
  edit: "edit",
  write: "write_file",
  bash: "run_shell_command",
  "web-fetch": "web_fetch",
  "web-search": "web_search",
  todo: "todo_write",
  "ask-human": "ask_user_question",
  "spawn-agent": "agent",
};

/** The tool that starts a subagent; listed in disallowedTools of every role that may not spawn. */
export const SPAWN_TOOL = "agent";
