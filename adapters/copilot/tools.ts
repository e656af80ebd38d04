// GitHub Copilot CLI 1.0.102 tool aliases for agent `tools:` lists (github/docs custom agents
// reference; others.md §3.1). Verified: jade with [read, edit, search, execute] is offered view,
// create, edit, grep, glob, bash (+ read_bash, stop_bash, list_bash); no `agent` = no task tool.
import type { CanonicalTool } from "../../src/schema/vocabulary.js";

export const COPILOT_TOOLS = {
  read: "read",
  grep: "search",
  glob: "search",
  edit: "edit",
  write: "edit", // create and edit share the edit alias
  bash: "execute",
  "web-fetch": "web",
  "web-search": "web",
  todo: "todo",
  "ask-human": null, // ask_user is the CLI's own tool for the main session; agents have no alias for it
  "spawn-agent": "agent",
} as const satisfies Readonly<Record<CanonicalTool, string | null>>;
