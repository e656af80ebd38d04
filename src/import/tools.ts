// Host tool names → harness tool entries, per host. Unknown names are reported, never dropped.
import { mcpFromClaude } from "../schema/role-rules.js";

const CLAUDE: Readonly<Record<string, string | null>> = {
  Read: "read", Grep: "grep", Glob: "glob", LS: "glob", Edit: "edit", MultiEdit: "edit", NotebookEdit: "edit", Write: "write", Bash: "bash",
  WebFetch: "web-fetch", WebSearch: "web-search", TodoWrite: "todo", TodoRead: "todo", AskUserQuestion: "ask-human", Agent: "spawn-agent", Task: "spawn-agent",
  TaskCreate: "task-create", TaskGet: "task-get", TaskList: "task-list", TaskUpdate: "task-update", SendMessage: "send-message",
  TeamCreate: "team-create", TeamDelete: "team-delete", LSP: "lsp", Skill: "skill", NotebookRead: "read", BashOutput: "bash", KillShell: "bash", KillBash: "bash",
};

/** A Claude Code tool name → harness entry; `Agent(a, b)`/`Task(…)` keep only spawn-agent (reported by the caller). */
export function claudeTool(name: string): string | undefined {
  const bare = name.replace(/\(.*\)$/, "");
  if (name.startsWith("mcp__")) {
    const server = /^mcp__([A-Za-z0-9][A-Za-z0-9_.-]*)$/.exec(name);
    if (server && !server[1]!.includes("__")) return `mcp:${server[1]}/*`;
    return mcpFromClaude(name);
  }
  return CLAUDE[bare] ?? undefined;
}

/** OpenCode/Kilo tool and permission keys (write, edit and patch are one permission, edit: hosts note §3.2). */
export const OPENCODE: Readonly<Record<string, readonly string[]>> = {
  read: ["read"], grep: ["grep"], glob: ["glob"], list: ["glob"], edit: ["edit", "write"], write: ["edit", "write"], patch: ["edit", "write"], bash: ["bash"],
  webfetch: ["web-fetch"], websearch: ["web-search"], todowrite: ["todo"], todoread: ["todo"], question: ["ask-human"], task: ["spawn-agent"], lsp: ["lsp"], skill: ["skill"],
};

/** Gemini CLI built-in tool names. */
export const GEMINI: Readonly<Record<string, string>> = {
  read_file: "read", read_many_files: "read", grep_search: "grep", search_file_content: "grep", glob: "glob", list_directory: "glob", replace: "edit", write_file: "write",
  run_shell_command: "bash", web_fetch: "web-fetch", google_web_search: "web-search", write_todos: "todo", save_memory: "todo", ask_user: "ask-human",
};

/** Copilot tool aliases (custom agents' `tools:`). */
export const COPILOT: Readonly<Record<string, readonly string[]>> = {
  read: ["read"], search: ["grep", "glob"], edit: ["edit", "write"], execute: ["bash"], shell: ["bash"], web: ["web-fetch"], agent: ["spawn-agent"], todo: ["todo"],
  codebase: ["read", "grep", "glob"], fetch: ["web-fetch"], findTestFiles: ["glob"], usages: ["grep"], editFiles: ["edit", "write"], runCommands: ["bash"], runInTerminal: ["bash"], search_codebase: ["grep"],
};
