// Cursor agent tool names, as Cursor's hook matchers and CLI permission tokens spell them (docs of
// 2026-11-30; hosts note "claude-code-and-opencode.md" §7: the shell tool is `Shell`, not `Bash`).
// Cursor has no per-agent tool list (only `readonly`), so this table only names each equivalent.
import type { CanonicalTool } from "../../src/schema/vocabulary.js";

export const CURSOR_TOOLS: Readonly<Record<CanonicalTool, string | null>> = {
  read: "Read",
  grep: "Grep",
  glob: "Glob",
  edit: "StrReplace",
  write: "Write",
  bash: "Shell",
  "web-fetch": "WebFetch",
  "web-search": "WebSearch",
  todo: "TodoWrite",
  "ask-human": null, // no documented question tool; the agent asks in the chat
  "spawn-agent": "Task",
};
