// Tool ids of OpenCode 1.18.33's "V1" agents (hosts note §3.6; `opencode debug agent <name>` →
// "tools"), which are also its permission keys. Kilo 7.7.7, an OpenCode fork, has the same ids
// (`kilo agent list`), plus Kilo-only tools that an agent's leading "*": deny withholds.
import type { CanonicalTool } from "../../schema/vocabulary.js";

export const V1_TOOLS = {
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
