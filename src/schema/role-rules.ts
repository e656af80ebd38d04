// Value rules of a role's `tools` and `model` entries, shared by the zod schema and the fast path.
import { closest } from "./diagnose.js";
import { ALL_TOOLS, CANONICAL_TOOLS, EXTRA_TOOLS, INHERIT, MCP_TOOL, MODEL_TIERS } from "./vocabulary.js";

const TOOL_NAMES: readonly string[] = [...CANONICAL_TOOLS, ...EXTRA_TOOLS, ALL_TOOLS];

/** Host spellings real agent files use, mapped to the harness name (Claude Code, OpenCode, Copilot). */
export const TOOL_ALIASES: Readonly<Record<string, string>> = {
  shell: "bash",
  sh: "bash",
  terminal: "bash",
  execute: "bash",
  exec: "bash",
  fetch: "web-fetch",
  webfetch: "web-fetch",
  websearch: "web-search",
  search: "grep",
  todowrite: "todo",
  task: "spawn-agent",
  agent: "spawn-agent",
  askuserquestion: "ask-human",
  question: "ask-human",
  multiedit: "edit",
  notebookedit: "edit",
  patch: "edit",
  ls: "glob",
  list: "glob",
  view: "read",
  taskcreate: "task-create",
  taskget: "task-get",
  tasklist: "task-list",
  taskupdate: "task-update",
  sendmessage: "send-message",
  teamcreate: "team-create",
  teamdelete: "team-delete",
  "*": "all",
};

/** `mcp__server__tool` (Claude Code's spelling) as the harness entry, when it reads as one exactly. */
export function mcpFromClaude(name: string): string | undefined {
  const m = /^mcp__([A-Za-z0-9][A-Za-z0-9_.-]*?)__([A-Za-z0-9][A-Za-z0-9_.-]*|\*)$/.exec(name);
  return m && !m[1]!.includes("__") ? `mcp:${m[1]}/${m[2]}` : undefined;
}

export function toolProblem(value: string): string | undefined {
  // another case is read case-insensitively (a W_TOOL_CASE warning says the spelling)
  if (TOOL_NAMES.includes(value) || TOOL_NAMES.includes(value.toLowerCase()) || MCP_TOOL.test(value)) return undefined;
  if (value.startsWith("mcp:")) return `"${value}" is not an MCP tool entry; write "mcp:<server>/<tool>" or "mcp:<server>/*" (e.g. "mcp:github/create_pull_request")`;
  const mcp = mcpFromClaude(value);
  if (mcp) return `"${value}" is Claude Code's spelling; write "${mcp}"`;
  const lower = value.toLowerCase();
  const alias = TOOL_ALIASES[lower];
  const near = TOOL_NAMES.includes(lower) ? lower : alias ?? closest(value, TOOL_NAMES);
  return `"${value}" is not a tool.${near ? ` Did you mean "${near}"?` : ""} Names here are lowercase and host-neutral: ${TOOL_NAMES.join(", ")}, or "mcp:<server>/<tool>"`;
}

/** A model entry: a tier, `inherit`, or a host model id on one line (a near-miss of a tier is a typo, not an id). */
export function modelProblem(value: string): string | undefined {
  const tiers: readonly string[] = [...MODEL_TIERS, INHERIT];
  if (tiers.includes(value)) return undefined;
  if (value.trim() !== value || value === "" || /[\n\r]/.test(value)) return "a model is a tier (deep, balanced, fast), inherit, or a host model id on one line";
  const near = value.length <= 10 ? closest(value, tiers) : undefined;
  if (near && value.toLowerCase() !== near && !/[0-9/:.]/.test(value)) return `"${value}" looks like a misspelling of "${near}". Use one of "deep", "balanced", "fast", "inherit", or a host model id such as "claude-opus-4-6"`;
  if (near && value.toLowerCase() === near) return `write "${near}" in lowercase`;
  return undefined;
}

/** Fields of real agent files (Claude Code, OpenCode, Codex, Gemini CLI, Copilot, Cursor) and their exact harness spelling. */
const HOST_FIELDS: Readonly<Record<string, string>> = {
  name: 'A role\'s name is its file name: remove "name" (rename the file if it differs).',
  maxTurns: 'Write "max_turns".',
  max_steps: 'Write "max_turns".',
  steps: 'Write "max_turns" (OpenCode\'s steps).',
  maxSteps: 'Write "max_turns".',
  mcpServers: 'Write "mcp_servers", and list the tools as "mcp:<server>/<tool>" in tools.',
  initialPrompt: 'Write "initial_prompt".',
  disallowedTools: "harness lists what a role may use: leave the tool out of tools instead.",
  disallowed_tools: "harness lists what a role may use: leave the tool out of tools instead.",
  model_reasoning_effort: 'Write "effort".',
  reasoningEffort: 'Write "effort".',
  developer_instructions: "The prompt is the role file's body, after the front matter.",
  prompt: "The prompt is the role file's body, after the front matter.",
  mode: 'Write isolation: subagent (OpenCode mode: subagent) or isolation: main (mode: primary).',
  is_background: 'Write "background".',
  readonly: "A read-only role has no edit, write or bash in tools.",
  permission: 'Write "permissions" (write, never_write, shell: allow/ask/deny).',
  sandbox_mode: 'harness derives the sandbox from the role\'s writes; set permissions.write instead.',
};
/** Host-native fields that stay host-native: `hosts: {<host>: {<field>: …}}`. */
const NATIVE_FIELDS: Readonly<Record<string, string>> = {
  color: "claude-code",
  permissionMode: "claude-code",
  hooks: "claude-code",
  omitClaudeMd: "claude-code",
  hidden: "opencode",
  timeout_mins: "gemini-cli",
};

/** The harness spelling of a role field copied from an agent file, or undefined. */
export function roleFieldHint(path: readonly PropertyKey[], key: string): string | undefined {
  if (path.length) return undefined;
  const host = NATIVE_FIELDS[key];
  if (host) return `"${key}" is a ${host} field: write it under hosts: {${host}: {${key}: …}} to emit it to ${host} only.`;
  return HOST_FIELDS[key];
}
