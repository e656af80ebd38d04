// Pi 0.73.1 tool names (dist/core/tools: read, write, edit, bash, grep, find, ls) and the subagent tool
// the generated extension registers. Pi has no web, todo or question tool of its own.
import type { CanonicalTool } from "../../src/schema/vocabulary.js";

/** The tool the generated extension adds: runs one role in a child `pi` process. */
export const SPAWN_TOOL = "harness_subagent";

export const PI_TOOLS: Readonly<Record<CanonicalTool, string | null>> = {
  read: "read",
  grep: "grep",
  glob: "find",
  edit: "edit",
  write: "write",
  bash: "bash",
  "web-fetch": null,
  "web-search": null,
  todo: null,
  "ask-human": null,
  "spawn-agent": SPAWN_TOOL,
};
