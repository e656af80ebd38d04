// Factory Droid 0.225.2 tool ids (what `droid exec --auto high` offers the model, and what
// --only-tools takes). Measured on the real CLI: Read, LS, Execute, Edit, Grep, Glob, Create,
// TaskOutput, TaskStop, ToolSearch, Skill, Task (WebSearch and FetchUrl where the model supports
// them). There is no to-do or ask-the-user tool in exec mode.
import type { CanonicalTool } from "../../src/schema/vocabulary.js";

export const DROID_TOOLS: Readonly<Record<CanonicalTool, string | null>> = {
  read: "Read",
  grep: "Grep",
  glob: "Glob",
  edit: "Edit",
  write: "Create",
  bash: "Execute",
  "web-fetch": "FetchUrl",
  "web-search": "WebSearch",
  todo: null,
  "ask-human": null,
  "spawn-agent": "Task",
};

/** The tool that starts a droid: refused in every pipeline session (roles start through their launcher). */
export const SPAWN_TOOL = "Task";
