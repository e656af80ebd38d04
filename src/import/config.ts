// Agents defined inside a host's shared config: OpenCode's opencode.json(c) and Kilo's kilo.json(c),
// `agent: {<name>: {description, mode, model, prompt, tools, permission, temperature, …}}` (hosts note
// §3.2: the same ConfigAgentV1 fields as an agent file's front matter, `prompt` for the body, which
// may be `{file:./path}`; OpenCode 1.18.33 also reads the V2 spelling `agents` and `system` for
// `prompt`). Each entry becomes one imported agent. The file stays the team's: the import record names
// the entry's key and the SHA-256 of its value, and install takes away only that key.
import { createHash } from "node:crypto";
import { sortKeys } from "../emit/render.js";
import { InputError } from "../errors.js";
import { parseData } from "../install/formats.js";
import { isObject, setKey } from "../install/merge.js";
import { openCodeAgent } from "./opencode.js";
import { frontMatter, Reader } from "./read.js";
import type { ImportedAgent } from "./types.js";

/** Where each host keeps its shared config in a project (the adapter merges into the first, or its .jsonc alias). */
export const CONFIG_FILES: Readonly<Record<string, readonly string[]>> = {
  opencode: ["opencode.json", "opencode.jsonc", ".opencode/opencode.json", ".opencode/opencode.jsonc"],
  kilo: ["kilo.json", "kilo.jsonc", ".kilo/kilo.json", ".kilo/kilo.jsonc"],
};

/** The SHA-256 an import records for one config value, and install compares: of its JSON with keys sorted
 *  at every depth (the lock, which keeps the value for uninstall, sorts them too). */
export const configValueSha = (value: unknown): string => createHash("sha256").update(JSON.stringify(sortKeys(value))).digest("hex");

/** `readFile(rel)`: a file relative to the project root, or null (for `{file:…}` prompts). */
export function readConfigAgents(host: "opencode" | "kilo", path: string, text: string, readFile: (rel: string) => string | null): ImportedAgent[] {
  let data: Record<string, unknown>;
  try {
    data = parseData("jsonc", text, path);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    throw new InputError(error.diagnostics.map((d) => ({ ...d, code: "E_IMPORT_PARSE", message: d.message.replace(/Fix the file, then run harness install again\.$/, "Fix the file, or import only other hosts with --from, then run harness import again.") })));
  }
  const out: ImportedAgent[] = [];
  for (const container of ["agent", "agents"]) {
    const entries = data[container];
    if (!isObject(entries)) continue;
    for (const [name, value] of Object.entries(entries)) {
      const r = new Reader(host);
      if (!isObject(value)) {
        r.lost(`${container}.${name}`, "not a mapping of agent fields");
        out.push({ ...r.finish({ path, name, body: "" }), key: [container, name], valueSha: configValueSha(value) });
        continue;
      }
      if (container === "agents") r.note("agents", "the roles (OpenCode 1.18.33 reads the V2 spelling `agents` as `agent`)");
      const body = prompt(r, path, value, readFile);
      const agent = openCodeAgent(r, path, name, value, body, ["prompt", "system"]);
      out.push({ ...agent, key: [container, name], valueSha: configValueSha(value) });
    }
  }
  return out;
}

/** The body: `prompt` (or `system`), with a whole-value `{file:./path}` read from the file it names (relative to the config). */
function prompt(r: Reader, configPath: string, value: Record<string, unknown>, readFile: (rel: string) => string | null): string {
  const key = value.prompt !== undefined ? "prompt" : value.system !== undefined ? "system" : null;
  if (value.prompt !== undefined && value.system !== undefined) r.lost("system", "a second prompt beside prompt: OpenCode reads prompt; the role's body is prompt");
  if (key === null) return "";
  const text = value[key];
  if (typeof text !== "string") {
    r.lost(key, "not text");
    return "";
  }
  const file = /^\{file:(.+)\}$/.exec(text.trim());
  if (file) {
    const dir = configPath.includes("/") ? configPath.replace(/\/[^/]*$/, "/") : "";
    const ref = file[1]!.trim().replace(/^\.\//, "");
    const rel = ref.startsWith("/") || ref.startsWith("~") ? null : normalise(`${dir}${ref}`);
    const body = rel === null ? null : readFile(rel);
    if (body === null) {
      r.lost(key, `${text}: ${rel === null ? "a path outside the project" : `${rel} cannot be read`}; the role's body is empty`);
      return "";
    }
    r.note(key, `the role's body (read from ${rel})`);
    return body;
  }
  if (/\{(file|env):[^}]*\}/.test(text)) r.lost(key, "a {file:…} or {env:…} substitution inside the text: kept as written, harness does not expand it");
  else r.note(key, "the role's body");
  return text;
}

/** a/./b/../c → a/c; null when it climbs out of the project */
function normalise(rel: string): string | null {
  const parts: string[] = [];
  for (const p of rel.split("/")) {
    if (p === "" || p === ".") continue;
    if (p === "..") {
      if (!parts.length) return null;
      parts.pop();
    } else parts.push(p);
  }
  return parts.join("/");
}

/** remeda's mergeDeep, as OpenCode and Kilo layer an agent's sources: mappings key by key (a key the
 *  first lacks goes last, so a permission map's rule order is the host's), anything else replaced. */
function mergeDeep(a: unknown, b: unknown): unknown {
  if (!isObject(a) || !isObject(b)) return b;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(a)) setKey(out, k, v);
  for (const [k, v] of Object.entries(b)) setKey(out, k, Object.hasOwn(a, k) ? mergeDeep(a[k], v) : v);
  return out;
}

/**
 * OpenCode 1.18.33 and Kilo 7.7.7 resolve one agent per name (measured with `debug config`): a config
 * entry named as an agent file's agent is deep-merged under the file's own fields (the file wins; its
 * permission rules follow the entry's). Such an entry is that agent, not another: its fields join the
 * file's role (`merged` names each entry, so install takes its key away), and it becomes no role itself.
 */
export function mergeIntoFiles(host: "opencode" | "kilo", fileAgents: readonly { text: string; agent: ImportedAgent }[], configs: readonly { path: string; text: string; agents: ImportedAgent[] }[], readFile: (rel: string) => string | null): void {
  for (const f of fileAgents) {
    const same = configs.flatMap((c) => c.agents.filter((a) => a.key && a.name === f.agent.name).map((a) => ({ c, a })));
    if (!same.length) continue;
    const { data, body } = frontMatter(f.text);
    const r = new Reader(host);
    let layered: unknown = {};
    let inherited = "";
    for (const { c, a } of same) {
      const value = parseData("jsonc", c.text, c.path)[a.key![0]] as Record<string, unknown>;
      const entry = value[a.key![1]!] as Record<string, unknown>;
      const { prompt: p, system, ...rest } = entry;
      if ((p !== undefined || system !== undefined) && body.trim()) r.note(`${c.path} ${a.key!.join(".")}.${p !== undefined ? "prompt" : "system"}`, `nothing: ${host === "kilo" ? "Kilo" : "OpenCode"} reads the file's body over it, and so does the role`);
      else if (p !== undefined || system !== undefined) inherited = prompt(r, c.path, entry, readFile);
      layered = mergeDeep(layered, rest);
      r.note(`${c.path} ${a.key!.join(".")}`, `merged under ${f.agent.path}'s own fields, as ${host === "kilo" ? "Kilo" : "OpenCode"} resolves one agent of that name (the file's values win)`);
      c.agents.splice(c.agents.indexOf(a), 1);
    }
    const merged = openCodeAgent(r, f.agent.path, f.agent.name, mergeDeep(layered, data) as Record<string, unknown>, body.trim() ? body : inherited, ["name"]);
    // the file's own reading problems (front matter repaired or unreadable) stay reported
    const own = f.agent.report.filter((x) => x.field === "front matter" || (x.field === "body" && x.status === "not representable"));
    Object.assign(f.agent, merged, { report: [...own, ...merged.report], merged: same.map(({ c, a }) => ({ path: c.path, key: a.key!, valueSha: a.valueSha! })) });
  }
}
