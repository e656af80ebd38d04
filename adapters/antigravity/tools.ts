// Antigravity (2.0 and its CLI `agy`) tool ids for an agent's `tools:` list. The list is an
// allow-list that defaults to EMPTY: an agent without one can do nothing (antigravity-cli #725).
// Ids as probed by others on agy 1.1–1.2 (hosts note "antigravity-and-copilot-hooks.md" §1.3); no
// client could be installed here to check them.
import type { CanonicalTool } from "../../src/schema/vocabulary.js";

/** Every id a canonical tool grants (edit needs both replace tools). */
export const ANTIGRAVITY_TOOL_IDS: Readonly<Record<CanonicalTool, readonly string[]>> = {
  read: ["view_file", "list_dir"],
  grep: ["grep_search"],
  glob: ["find_by_name"],
  edit: ["replace_file_content", "multi_replace_file_content"],
  write: ["write_to_file"],
  bash: ["run_command"],
  "web-fetch": ["read_url_content"],
  "web-search": ["search_web"],
  todo: [], // no documented task-list tool
  "ask-human": [], // no documented question tool; the agent asks in the conversation
  "spawn-agent": ["invoke_subagent"],
};

export const ANTIGRAVITY_TOOLS: Readonly<Record<CanonicalTool, string | null>> = Object.fromEntries(
  Object.entries(ANTIGRAVITY_TOOL_IDS).map(([k, v]) => [k, v[0] ?? null]),
) as Record<CanonicalTool, string | null>;
