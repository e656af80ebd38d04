// Codex CLI 0.171.0 tool names (hosts note §1.8; observed in `codex debug prompt-input` and in the
// request a scripted model received). Codex has no per-agent tool list: every agent gets the same
// tools, so this table only names the host equivalent of each canonical tool.
import type { CanonicalTool } from "../../src/schema/vocabulary.js";

export const CODEX_TOOLS: Readonly<Record<CanonicalTool, string | null>> = {
  read: "exec_command", // no read tool: files are read with shell commands (cat, sed, rg)
  grep: "exec_command", // rg through the shell
  glob: "exec_command", // rg --files / find through the shell
  edit: "apply_patch",
  write: "apply_patch",
  bash: "exec_command",
  "web-fetch": null, // no fetch tool; only curl through the (network-less) sandbox
  "web-search": "web_search",
  todo: null, // 0.171 offers goals (create_goal/update_goal), not a task list; update_plan is gone
  "ask-human": "request_user_input",
  "spawn-agent": "spawn_agent",
};

/** The tools every Codex agent has whatever its role asks for (shell and patching cannot be withdrawn). */
export const ALWAYS_OFFERED = ["exec_command", "apply_patch", "view_image", "web_search", "request_user_input"] as const;
