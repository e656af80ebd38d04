// OpenCode 1.18.33 tool ids (hosts note §3.6; `opencode debug agent <name>` → "tools").
import type { CanonicalTool } from "../../src/schema/vocabulary.js";

export const OPENCODE_TOOLS = {
  read: "read",
  grep: "grep",
  glob: "glob",
  edit: "edit", // write, edit and apply_patch are all governed by permission.edit
  write: "write",
  bash: "bash",
  "web-fetch": "webfetch",
  "web-search": "websearch",
  todo: "todowrite",
  "ask-human": "question",
  "spawn-agent": "task",
} as const satisfies Readonly<Record<CanonicalTool, string | null>>;

