// Read one host's agent files into ImportedAgent records: host-neutral fields where harness has
// them, host-native ones under hosts.<host>, and a report line for every field, so nothing is
// dropped silently. Claude Code and OpenCode (and Kilo) fully; Codex, Gemini CLI, Copilot and
// Cursor by their documented agent fields.
import { parse as parseToml } from "smol-toml";
import { normalizeText, splitFrontMatter } from "../load/load.js";
import { yaml } from "../load/yaml-lazy.js";
import { EFFORTS, MEMORIES } from "../schema/vocabulary.js";
import { claudeTool, COPILOT, GEMINI, OPENCODE } from "./tools.js";
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

export function readOpenCodeAgent(host: "opencode" | "kilo", path: string, text: string): ImportedAgent {
  const { data, body, problem, repaired } = frontMatter(text);
  const r = new Reader(host);
  if (problem) r.lost("front matter", `not YAML (${problem}); only the body was imported`);
  if (repaired) r.note("front matter", `${repaired} (as written it is not YAML)`);
  // an agent file's `name` names its agent (OpenCode 1.18.33 and Kilo 7.7.7, measured: a file
  // rev.md with `name: Code Critic` is the agent "Code Critic"); without one, the file name does
  const named = typeof data.name === "string" && data.name.trim() !== "";
  // in a subfolder, the path below the agents folder is the name (team/x.md is team/x)
  const stem = path.replace(/^\.(opencode|kilo)\/agents?\//, "").replace(/\.md$/, "");
  return openCodeAgent(r, path, named ? (data.name as string) : stem, data, body, named ? ["name"] : []);
}

/** An agent's ConfigAgentV1 fields (Markdown front matter, or an `agent` entry of opencode.json / kilo.json) read by `r`. */
export function openCodeAgent(r: Reader, path: string, name: string, data: Data, body: string, skip: readonly string[] = []): ImportedAgent {
  const host = r.host as "opencode" | "kilo";
  // OpenCode gives an agent every tool unless its tools map or permission turns one off
  // (todowrite is denied to subagents: hosts note §3.4)
  const granted = new Set(["read", "grep", "glob", "edit", "write", "bash", "web-fetch"]);
  const write: string[] = [];
  const never: string[] = [];
  const shell: { allow: string[]; ask: string[]; deny: string[]; default?: string } = { allow: [], ask: [], deny: [] };
  let temperature: number | undefined;
  const permission = (key: string, value: unknown) => {
    if (typeof value === "string" && ["allow", "deny", "ask"].includes(value)) value = { "*": value };
    if (!isObject(value)) return r.lost(key, "not a mapping");
    // "*" is every tool's rule unless a key below names the tool (OpenCode's last match wins, and
    // the wildcard comes first in real files)
    const every = value["*"];
    if (every === "deny") for (const t of [...granted]) granted.delete(t);
    else if (every === "ask") r.lost(`${key}.*`, "ask for every tool: harness asks the human before shell commands only");
    else if (every !== undefined && every !== "allow") r.lost(`${key}.*`, "not allow, ask or deny");
    for (const [tool, rule] of Object.entries(value)) {
      if (tool === "*") continue;
      const names = OPENCODE[tool];
      if (tool === "write" || tool === "patch") {
        // OpenCode 1.18.33 checks every file write (write, edit, apply_patch) against edit: a write or
        // patch key matches no permission (measured with debug agent: write: deny leaves the write
        // tool on), so the role has what the agent had
        r.lost(`${key}.${tool}`, "OpenCode checks file writes against edit, so this key never applied (the agent kept its write tools; so does the role): write it under edit");
        continue;
      }
      if (tool === "doom_loop" || tool === "external_directory") {
        // harness writes OpenCode's own default for both into every agent: ask
        if (rule === "ask") r.note(`${key}.${tool}`, "nothing: harness's agents ask here too (OpenCode's default)");
        else r.lost(`${key}.${tool}`, `${typeof rule === "string" ? rule : "a pattern map"}: harness's agents always ask here (OpenCode's default, ${tool}: ask)`);
        continue;
      }
      if (tool === "edit" && isObject(rule)) {
        const allows = Object.entries(rule).some(([g, a]) => g !== "*" && a === "allow");
        for (const [glob, action] of Object.entries(rule)) {
          if (glob === "*") {
            if (action === "deny" && !allows) (granted.delete("edit"), granted.delete("write"));
          } else if (action === "allow") write.push(glob);
          else if (action === "deny") never.push(glob);
          else r.lost(`${key}.edit.${glob}`, `${String(action)}: harness has no per-path ask`);
        }
      } else if (tool === "bash" && isObject(rule)) {
        for (const [pattern, action] of Object.entries(rule)) {
          if (pattern === "*") shell.default = String(action);
          else if (action === "allow" || action === "ask" || action === "deny") shell[action].push(pattern);
        }
      } else if (names && (rule === "deny" || rule === "allow" || rule === "ask")) {
        for (const n of names) if (rule === "deny") granted.delete(n);
        else granted.add(n);
        if (rule === "ask" && tool === "bash") shell.default = "ask";
        else if (rule === "ask") r.lost(`${key}.${tool}`, "ask: harness asks the human before shell commands only; the role gets the tool without asking");
        if (rule === "allow" && names.includes("bash")) shell.default = "allow";
      } else if (!names && /\s/.test(tool)) r.lost(`${key}.${tool}`, "a command pattern outside bash: OpenCode matches these keys against tool names, so it never applied");
      else if (!names && rule === "deny") r.note(`${key}.${tool}`, "nothing: harness offers a role no MCP or custom tool it does not list");
      else r.lost(`${key}.${tool}`, names ? "a pattern map harness has no equivalent for" : "no harness tool for it (an MCP or custom tool)");
    }
    r.note(key, "tools and permissions (write, never_write, shell)");
  };
  for (const [key, value] of Object.entries(data)) {
    if (skip.includes(key)) continue;
    switch (key) {
      case "description":
        break;
      case "mode":
        if (value === "subagent") r.note(key, "isolation: subagent");
        else if (value === "primary") r.mapped(key, "isolation: main", "isolation", "main");
        else r.lost(key, `mode ${JSON.stringify(value)}: harness writes subagent (isolation: subagent) or primary (main)`);
        break;
      case "model":
        r.model(key, value);
        break;
      case "temperature":
        if (typeof value === "number") {
          temperature = value;
          r.note(key, "temperature (a class of the pipeline's temperatures)");
        } else r.lost(key, "not a number");
        break;
      case "steps":
      case "maxSteps":
        r.turns(key, value);
        break;
      case "tools":
        if (!isObject(value)) {
          r.lost(key, "not a tool map");
          break;
        }
        for (const [tool, on] of Object.entries(value)) {
          const names = OPENCODE[tool];
          if (!names && on === false) r.note(`tools.${tool}`, "nothing: harness offers a role no MCP or custom tool it does not list");
          else if (!names) r.lost(`tools.${tool}`, "no harness tool for it (an MCP or custom tool)");
          else for (const n of names) on === false ? granted.delete(n) : granted.add(n);
        }
        r.note(key, "tools");
        break;
      case "permission":
      case "permissions":
        permission(key, value);
        break;
      case "hidden":
      case "color":
      case "top_p":
      case "variant":
        r.native(key, value);
        break;
      case "options":
        r.lost(key, "provider options the host passes to the model as they are: harness has no field for them");
        break;
      case "disable":
        if (value === false) r.note(key, "nothing (false is the default)");
        else r.lost(key, "the agent is switched off; harness has no off switch for a role: remove the role and its stage to keep it off");
        break;
      default:
        r.lost(key, `${host === "kilo" ? "Kilo" : "OpenCode"} moves it into options and ignores it`);
    }
  }
  const tools = ["read", "grep", "glob", "edit", "write", "bash", "web-fetch", "web-search", "todo", "ask-human", "spawn-agent"].filter((t) => granted.has(t));
  for (const t of tools) r.tools.add(t);
  const perms: Data = {};
  if (write.length) perms.write = write;
  if (never.length) perms.never_write = never;
  if (granted.has("bash") && (shell.allow.length || shell.ask.length || shell.deny.length || shell.default))
    perms.shell = { ...(shell.allow.length ? { allow: shell.allow } : {}), ...(shell.ask.length ? { ask: shell.ask } : {}), ...(shell.deny.length ? { deny: shell.deny } : {}), default: shell.default ?? "ask" };
  if (Object.keys(perms).length) r.role.permissions = perms;
  return { ...r.finish({ path, name, description: typeof data.description === "string" ? data.description : undefined, body }), ...(temperature !== undefined ? { temperature } : {}) };
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
