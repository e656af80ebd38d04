// OpenCode and Kilo agents: an agent file's front matter, or an `agent` entry of opencode.json /
// kilo.json (the same ConfigAgentV1 fields, hosts note §3.2), read into an ImportedAgent.
import { frontMatter, Reader } from "./read.js";
import { OPENCODE } from "./tools.js";
import type { ImportedAgent } from "./types.js";

type Data = Record<string, unknown>;
const isObject = (v: unknown): v is Data => v !== null && typeof v === "object" && !Array.isArray(v);

/** The host's own agents (an empty project's `agent list --pure`: OpenCode 1.18.33, Kilo 7.7.7). A config
 *  entry of one of these names tunes that built-in agent; it is no agent of the team's. */
export const BUILTIN_AGENTS: Readonly<Record<string, readonly string[]>> = {
  opencode: ["build", "compaction", "explore", "general", "plan", "summary", "title"],
  kilo: ["ask", "code", "compaction", "debug", "explore", "general", "orchestrator", "plan", "summary", "title"],
};
/** Of those, the ones that are subagents (the others are primary). */
const BUILTIN_SUBAGENTS = ["explore", "general"];

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
  // no mode: OpenCode's default, all (primary and subagent), or a built-in agent's own mode
  if (data.mode === undefined) {
    const builtin = BUILTIN_AGENTS[host]!.includes(name);
    if (builtin && BUILTIN_SUBAGENTS.includes(name)) r.note("mode", "absent: the host's own subagent of that name; isolation: subagent");
    else r.lost("mode", `absent: ${builtin ? `the host's own ${name} agent is primary` : `${host === "kilo" ? "Kilo" : "OpenCode"}'s default is "all" (primary and subagent)`}; harness writes subagent (isolation: subagent) or primary (main)`);
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
