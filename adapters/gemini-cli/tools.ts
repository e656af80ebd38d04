// Gemini CLI 0.61.0 tool names (ALL_BUILTIN_TOOL_NAMES in the bundle; notes §2.8). A subagent's
// `tools:` list is validated against them ("tools.N: Invalid tool name" otherwise).
import type { CanonicalTool } from "../../src/schema/vocabulary.js";

export const GEMINI_TOOLS = {
  read: "read_file",
  grep: "grep_search",
  glob: "glob",
  edit: "replace",
  write: "write_file",
  bash: "run_shell_command",
  "web-fetch": "web_fetch",
  "web-search": "google_web_search",
  todo: "write_todos",
  "ask-human": "ask_user",
  "spawn-agent": "invoke_agent", // main session only: subagents cannot start subagents
} as const satisfies Readonly<Record<CanonicalTool, string | null>>;

/** Read-only helpers every role that reads also gets (directory listing sits beside glob). */
export const READ_COMPANIONS: Partial<Record<CanonicalTool, readonly string[]>> = { glob: ["list_directory"] };
