// Read one host's agent files into ImportedAgent records: host-neutral fields where harness has
// them, host-native ones under hosts.<host>, and a report line for every field, so nothing is
// dropped silently. Claude Code fully (OpenCode and Kilo, also fully: opencode.ts); Codex, Gemini
// CLI, Copilot and Cursor by their documented agent fields.
import { parse as parseToml } from "smol-toml";
import { normalizeText, splitFrontMatter } from "../load/load.js";
import { yaml } from "../load/yaml-lazy.js";
import { EFFORTS, MEMORIES } from "../schema/vocabulary.js";
import { claudeTool, COPILOT, GEMINI } from "./tools.js";
import type { FieldReport, ImportedAgent } from "./types.js";

type Data = Record<string, unknown>;
const isObject = (v: unknown): v is Data => v !== null && typeof v === "object" && !Array.isArray(v);
const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : typeof v === "string" ? v.split(",").map((s) => s.trim()).filter(Boolean) : []);

/** Front matter and body; `tools: *` (not YAML, common in real files) is read as every tool. */
export function frontMatter(text: string): { data: Data; body: string; problem?: string; repaired?: string } {
  const t = normalizeText(text);
  if (!/^---[ \t]*\n/.test(t)) return { data: {}, body: t };
  const { matter, content } = splitFrontMatter(t);
  const fixed = matter.replace(/^(tools:[ \t]*)\*[ \t]*$/m, '$1"*"');
  const body = content.replace(/^\n+/, "");
  try {
    const data = yaml().parse(fixed) as unknown;
    return { data: isObject(data) ? data : {}, body };
  } catch (e) {
    // Real agents often hold `description: Use it when: …` unquoted. Read each such top-level value
    // as the text it is meant to be; if that still is not YAML, only the body comes in.
    // A key written twice (`color: cyan` … `color: green`) keeps its last value, as JSON does.
    const quoted = fixed.replace(/^([A-Za-z_][\w-]*):[ \t]+(?![\s"'[{|>&*!%@`])(.*:\s.*)$/gm, (_, k: string, v: string) => `${k}: ${JSON.stringify(v.trimEnd())}`);
    for (const uniqueKeys of [true, false]) {
      try {
        const data = yaml().parse(quoted, { uniqueKeys }) as unknown;
        if (isObject(data)) return { data, body, repaired: uniqueKeys ? "values holding \": \" read as text" : `${quoted === fixed ? "" : "values holding \": \" read as text; "}a key written twice keeps its last value` };
      } catch {
        // next reading; the original error is the one to report
      }
    }
    return { data: {}, body, problem: (e as Error).message.split("\n")[0] };
  }
}

export class Reader {
  readonly role: Data = {};
  readonly report: FieldReport[] = [];
  readonly tools = new Set<string>();
  constructor(readonly host: string) {}
  mapped(field: string, to: string, key: string, value: unknown): void {
    this.role[key] = value;
    this.report.push({ field, status: "mapped", to });
  }
  native(field: string, value: unknown): void {
    const hosts = (this.role.hosts ??= {}) as Record<string, Data>;
    (hosts[this.host] ??= {})[field] = value;
    this.report.push({ field, status: "host-native", to: `hosts.${this.host}.${field}` });
  }
  lost(field: string, why: string): void {
    this.report.push({ field, status: "not representable", to: why });
  }
  note(field: string, to: string): void {
    this.report.push({ field, status: "mapped", to });
  }
  /** The model as the host spells it: a pin for this host (`inherit` stays host-neutral). */
  model(field: string, value: unknown): void {
    if (typeof value !== "string" || !value.trim()) return this.lost(field, "not a model name");
    if (value === "inherit") return this.mapped(field, "model: inherit", "model", "inherit");
    this.native("model", value);
    this.report.pop();
    this.report.push({ field, status: "mapped", to: `hosts.${this.host}.model (a pin: this host only)` });
  }
  effort(field: string, value: unknown): void {
    if (typeof value === "string" && (EFFORTS as readonly string[]).includes(value)) this.mapped(field, "effort", "effort", value);
    else this.lost(field, `effort ${JSON.stringify(value)}: harness has ${EFFORTS.join(", ")}`);
  }
  turns(field: string, value: unknown): void {
    if (typeof value === "number" && Number.isSafeInteger(value) && value > 0) this.mapped(field, "max_turns", "max_turns", value);
    else this.lost(field, "not a positive whole number");
  }
  finish(agent: Omit<ImportedAgent, "role" | "report" | "host">): ImportedAgent {
    if (this.tools.size) this.role.tools = [...this.tools];
    return { ...agent, host: this.host, role: this.role, report: this.report };
  }
}

export function readClaudeAgent(path: string, text: string): ImportedAgent {
  const { data, body, problem, repaired } = frontMatter(text);
  const r = new Reader("claude-code");
  if (problem) r.lost("front matter", `not YAML (${problem}); only the body was imported`);
  if (repaired) r.note("front matter", `${repaired} (as written it is not YAML)`);
  const denied = new Set(list(data.disallowedTools).map((t) => claudeTool(t) ?? t));
  const tools = data.tools === undefined || data.tools === "*" ? ["*"] : list(data.tools);
  for (const [key, value] of Object.entries(data)) {
    switch (key) {
      case "name":
      case "description":
        break;
      case "tools":
        break;
      case "disallowedTools":
        r.note(key, "tools (an allow list: the denied tools are left out)");
        break;
      case "model":
        r.model(key, value);
        break;
      case "effort":
        r.effort(key, value);
        break;
      case "maxTurns":
        r.turns(key, value);
        break;
      case "isolation":
        if (value === "worktree") r.mapped(key, "worktree: true", "worktree", true);
        else r.lost(key, `isolation ${JSON.stringify(value)}: harness has worktree: true only`);
        break;
      case "skills":
        r.mapped(key, "skills", "skills", list(value));
        break;
      case "mcpServers": {
        const entries = Array.isArray(value) ? value : [];
        if (entries.every((e) => typeof e === "string")) r.mapped(key, "mcp_servers", "mcp_servers", entries);
        else if (entries.every((e) => isObject(e) && Object.keys(e).length === 1)) r.mapped(key, "mcp_servers", "mcp_servers", Object.assign({}, ...entries));
        else r.lost(key, "a mix of server names and definitions");
        break;
      }
      case "memory":
        if ((MEMORIES as readonly unknown[]).includes(value)) r.mapped(key, "memory", "memory", value);
        else r.lost(key, `memory ${JSON.stringify(value)}: harness has ${MEMORIES.join(", ")}`);
        break;
      case "background":
        if (typeof value === "boolean") r.mapped(key, "background", "background", value);
        else r.lost(key, "not true or false");
        break;
      case "initialPrompt":
        if (typeof value === "string" && value.trim()) r.mapped(key, "initial_prompt", "initial_prompt", value);
        else r.lost(key, "empty");
        break;
      case "color":
      case "permissionMode":
      case "hooks":
      case "omitClaudeMd":
      case "autoCompactWindow":
        r.native(key, value);
        break;
      default:
        r.lost(key, "Claude Code does not read it in an agent file (the loader warns about it)");
    }
  }
  const shellAllow: string[] = [];
  for (const t of tools) {
    if (t === "*") {
      r.tools.add("all");
      r.note("tools", "tools: [all] (no tools line: every tool)");
      continue;
    }
    const entry = claudeTool(t);
    if (!entry) r.lost(`tools: ${t}`, "no harness tool for it");
    else if (entry === "todo") r.lost(`tools: ${t}`, "kept as todo for other hosts; Claude Code 2.1.332 disables TodoWrite in every session, subagents too (MAPPING.md: L_TOOL_MISSING)");
    else if (!denied.has(entry)) r.tools.add(entry);
    const scope = /^(\w+)\((.+)\)$/.exec(t);
    if (!entry || !scope) continue;
    // Bash(git *) (or the older Bash(git:*)): the shell, for those commands only
    if (entry === "bash" && scope[2]!.trim() === "*") r.note(`tools: ${t}`, "tools: [bash] (every command)");
    else if (entry === "bash") {
      shellAllow.push(...scope[2]!.split(",").map((p) => p.trim().replace(/:\*$/, " *")).filter(Boolean));
      r.note(`tools: ${t}`, "tools: [bash] and permissions.shell.allow (every other command is refused)");
    } else if (entry === "spawn-agent") r.lost(`tools: ${t}`, "harness names which roles a lead starts in the pipeline, not in the tool");
    else r.lost(`tools: ${t}`, `a scope harness has no field for: the role gets the whole ${scope[1]} tool`);
  }
  if (shellAllow.length && !tools.some((t) => t === "Bash" || /^Bash\(\s*\*\s*\)$/.test(t))) r.role.permissions = { shell: { allow: [...new Set(shellAllow)], default: "deny" } };
  if (denied.size && r.tools.has("all")) {
    r.tools.delete("all");
    for (const t of ["read", "grep", "glob", "edit", "write", "bash", "web-fetch", "web-search", "ask-human", "spawn-agent"]) if (!denied.has(t)) r.tools.add(t);
    r.lost("disallowedTools", "every tool but these: harness lists the canonical tools instead, so MCP and team tools are no longer inherited");
  }
  if (data.tools !== undefined && data.tools !== "*") r.note("tools", "tools");
  if (data.description !== undefined && typeof data.description !== "string") r.lost("description", `not text (${JSON.stringify(data.description)})`);
  return r.finish({ path, name: String(data.name ?? path.replace(/^.*\//, "").replace(/\.md$/, "")), description: typeof data.description === "string" ? data.description : undefined, body });
}

export function readCodexAgent(path: string, text: string): ImportedAgent {
  const r = new Reader("codex");
  let data: Data = {};
  try {
    data = parseToml(normalizeText(text)) as Data;
  } catch (e) {
    r.lost("file", `not TOML (${(e as Error).message.split("\n")[0]})`);
  }
  let body = "";
  // An agent's own sandbox and approval policy scope it (codex-and-gemini-cli hosts note): read-only
  // still runs commands, in a sandbox that writes nothing; approval_policy says whether they ask first.
  let shellDefault: string | undefined;
  for (const [key, value] of Object.entries(data)) {
    if (key === "name" || key === "description") continue;
    if (key === "developer_instructions" && typeof value === "string") (body = value), r.note(key, "the role's body");
    else if (key === "model") r.model(key, value);
    else if (key === "model_reasoning_effort") r.effort(key, value);
    else if (key === "sandbox_mode" && value === "read-only") r.note(key, "tools without edit or write (the shell stays: Codex's read-only sandbox runs commands and writes nothing, as harness's Codex profile for a role with no write paths does)");
    else if (key === "sandbox_mode" && value === "workspace-write") r.note(key, "tools with edit, write and bash; permissions.write");
    else if (key === "approval_policy" && value === "never") (shellDefault = "allow"), r.note(key, "permissions.shell.default: allow (commands never ask)");
    else if (key === "approval_policy" && (value === "untrusted" || value === "on-request" || value === "on-failure")) (shellDefault = "ask"), r.note(key, "permissions.shell.default: ask");
    else r.lost(key, "harness derives Codex's config for a role (default_permissions, rules) from the role's limits");
  }
  // Codex gives every agent the same tools
  for (const t of data.sandbox_mode === "read-only" ? ["read", "grep", "glob", "bash"] : ["read", "grep", "glob", "edit", "write", "bash"]) r.tools.add(t);
  if (shellDefault) r.role.permissions = { shell: { default: shellDefault } };
  return r.finish({ path, name: String(data.name ?? path.replace(/^.*\//, "").replace(/\.toml$/, "")), description: typeof data.description === "string" ? data.description : undefined, body });
}

/** Gemini CLI, Copilot and Cursor agent Markdown: name, description, tools, model and a few host fields. */
export function readMarkdownAgent(host: "gemini-cli" | "copilot" | "cursor", path: string, text: string): ImportedAgent {
  const { data, body, problem, repaired } = frontMatter(text);
  const r = new Reader(host);
  if (problem) r.lost("front matter", `not YAML (${problem}); only the body was imported`);
  if (repaired) r.note("front matter", `${repaired} (as written it is not YAML)`);
  const stem = path.replace(/^.*\//, "").replace(/\.agent\.md$|\.md$/, "");
  let readonly = false;
  let toolsSeen = false;
  for (const [key, value] of Object.entries(data)) {
    if (key === "name" || key === "description") continue;
    if (key === "model") r.model(key, value);
    else if (key === "tools" && host === "cursor") r.lost(key, "Cursor reads no tool list in an agent file (only readonly): the agent has every tool, and so does the role");
    else if (key === "tools") {
      toolsSeen = true;
      for (const t of list(value)) {
        const names = t === "*" ? ["all"] : host === "gemini-cli" ? (GEMINI[t] ? [GEMINI[t]!] : []) : host === "copilot" ? [...(COPILOT[t] ?? (/\/\*$/.test(t) ? [`mcp:${t.replace(/\/\*$/, "")}/*`] : /^[\w.-]+\/[\w.-]+$/.test(t) ? [`mcp:${t}`] : []))] : [];
        if (!names.length) r.lost(`tools: ${t}`, "no harness tool for it");
        for (const n of names) r.tools.add(n);
      }
      r.note(key, "tools");
    } else if (key === "temperature" && host === "gemini-cli") r.lost(key, "Gemini CLI 0.61.0 sends the model 1 whatever the agent says (MAPPING.md)");
    else if ((key === "max_turns" && host === "gemini-cli")) r.turns(key, value);
    else if (key === "timeout_mins" && host === "gemini-cli") r.lost(key, "harness has no run timeout per role");
    else if (key === "kind" && host === "gemini-cli") r.note(key, "isolation: subagent");
    else if (key === "readonly" && host === "cursor") (readonly = value === true), r.note(key, "tools without edit, write or bash");
    else if (key === "is_background" && host === "cursor" && typeof value === "boolean") r.mapped(key, "background", "background", value);
    else r.lost(key, "no harness field for it");
  }
  // no tools line: every tool on each of these hosts
  if (!toolsSeen) for (const t of readonly ? ["read", "grep", "glob"] : ["all"]) r.tools.add(t);
  if (readonly) for (const t of ["edit", "write", "bash"]) r.tools.delete(t);
  return r.finish({ path, name: String(data.name ?? stem), description: typeof data.description === "string" ? data.description : undefined, body });
}
