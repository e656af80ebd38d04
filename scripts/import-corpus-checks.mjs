// The checks scripts/import-corpus.mjs runs on each imported agent: the original as its host reads it
// (front matter, a config entry, OpenCode's merge of the two) against the agent harness emitted.
import fs from "node:fs";
import path from "node:path";
import { parse as parseYaml } from "yaml";

/** Front matter as the hosts read it (`tools: *`, not YAML, read as every tool, as harness import does). */
export function frontMatter(text) {
  const t = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  const m = /^---[ \t]*\n([\s\S]*?)\n---[ \t]*(?:\n|$)/.exec(t);
  if (!m) return { data: {}, body: t, ok: !/^---/.test(t) };
  const matter = m[1].replace(/^(tools:[ \t]*)\*[ \t]*$/m, '$1"*"');
  // `description: Use it when: …` unquoted is common; read such a value as the text it means
  const quoted = matter.replace(/^([A-Za-z_][\w-]*):[ \t]+(?![\s"'[{|>&*!%@`])(.*:\s.*)$/gm, (_, k, v) => `${k}: ${JSON.stringify(v.trimEnd())}`);
  for (const [text, ok, uniqueKeys] of [[matter, true, true], [quoted, false, true], [quoted, false, false]]) {
    try {
      const data = parseYaml(text, { uniqueKeys }) ?? {};
      return { data: typeof data === "object" && !Array.isArray(data) ? data : {}, body: t.slice(m[0].length), ok };
    } catch {
      // try the next reading
    }
  }
  return { data: {}, body: t.slice(m[0].length), ok: false };
}
const list = (v) => (Array.isArray(v) ? v.map(String) : typeof v === "string" ? v.split(",").map((s) => s.trim()).filter(Boolean) : []);
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const bodyKept = (orig, emitted) => !orig.trim() || emitted.includes(orig.trim());

/** Claude Code: the tools an agent may call, as a sorted set description ("*" = every tool). */
function claudeTools(fm) {
  // a scoped tool (Bash(git *), Agent(a, b)) is that tool here; the scope is checked by the report and the guard
  const alias = (t) => (t.replace(/\(.*\)$/, "") === "Task" ? "Agent" : t.replace(/\(.*\)$/, ""));
  const tools = fm.tools === undefined || fm.tools === "*" ? ["*"] : list(fm.tools).map(alias);
  const denied = new Set(list(fm.disallowedTools).map(alias));
  return { tools: tools.filter((t) => !denied.has(t)).sort(), denied: [...denied].sort() };
}

export function checkClaude(orig, emitted, lost) {
  const problems = [];
  const notes = [];
  const o = frontMatter(orig);
  const e = frontMatter(emitted);
  if (!o.ok) notes.push("original front matter is not YAML");
  if (!Object.keys(o.data).length && /^---/.test(orig) && !lost.has("front matter")) problems.push("the original's front matter was not compared (unreadable) and the report does not say so");
  if (o.data.description !== undefined && !lost.has("description") && String(o.data.description).trim() !== String(e.data.description ?? "").trim()) problems.push("description changed");
  if (!bodyKept(o.body, e.body)) problems.push("body not kept verbatim");
  const ot = claudeTools(o.data);
  const et = claudeTools(e.data);
  const drop = (xs) => xs.filter((t) => t !== "Agent");
  if (ot.tools[0] === "*") {
    if (et.tools[0] !== "*") {
      if (!lost.has("disallowedTools") && !lost.has("tools")) problems.push(`every tool became ${et.tools.join(",")}`);
    } else if (!same(drop(ot.denied), drop(et.denied))) {
      const extra = drop(et.denied).filter((t) => !ot.denied.includes(t) && !/^mcp__/.test(t));
      if (extra.length) problems.push(`denies ${extra.join(",")} the original allowed`);
    }
  } else if (et.tools[0] === "*") {
    // a whole MCP server (mcp__x__*) cannot be named in Claude Code's tools: harness lists the other
    // tools as disallowedTools instead, and its guard refuses MCP tools the role does not name
    const missing = drop(ot.tools).filter((t) => et.denied.includes(t) && !lost.has(`tools: ${t}`));
    if (missing.length) problems.push(`tools lost: ${missing.join(",")}`);
  } else {
    const missing = drop(ot.tools).filter((t) => !et.tools.includes(t) && !lost.has(`tools: ${t}`));
    const added = drop(et.tools).filter((t) => !ot.tools.includes(t));
    if (missing.length) problems.push(`tools lost: ${missing.join(",")}`);
    if (added.length) problems.push(`tools added: ${added.join(",")}`);
  }
  for (const [k, v] of Object.entries(o.data)) {
    if (["description", "tools", "disallowedTools"].includes(k)) continue;
    if (lost.has(k)) {
      notes.push(`${k}: not representable (reported)`);
      continue;
    }
    if (k === "name") {
      if (e.data.name !== v) notes.push(`name ${JSON.stringify(v)} → ${JSON.stringify(e.data.name)}`);
      continue;
    }
    const ev = e.data[k];
    if (same(v, ev)) continue;
    if (typeof v === "string" && Array.isArray(ev) && same(list(v), ev)) continue; // "a, b" and [a, b] read alike
    problems.push(`${k}: ${JSON.stringify(v)} → ${JSON.stringify(ev)}`);
  }
  return { problems, notes };
}

/** JSON with comments and trailing commas, as OpenCode and Kilo read their config (strings left alone). */
export function parseJsonc(text) {
  let out = "";
  for (let i = 0; i < text.length; ) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === "/" && text[i + 1] === "/") while (i < text.length && text[i] !== "\n") i++;
    else if (c === "/" && text[i + 1] === "*") i = text.includes("*/", i + 2) ? text.indexOf("*/", i + 2) + 2 : text.length;
    else (out += c), i++;
  }
  return JSON.parse(out.replace(/,(\s*[}\]])/g, "$1"));
}
/** remeda's mergeDeep, as OpenCode merges its config layers: objects key by key (later wins), anything else replaced. */
export function mergeDeep(a, b) {
  if (!a || typeof a !== "object" || Array.isArray(a) || !b || typeof b !== "object" || Array.isArray(b)) return b;
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = k in a ? mergeDeep(a[k], v) : v;
  return out;
}
/** A config entry as an agent file's front matter and body (`prompt`/`system`, or the file a `{file:…}` names). */
export function configAgent(root, configPath, value) {
  const { prompt, system, ...data } = value && typeof value === "object" ? value : {};
  let body = typeof (prompt ?? system) === "string" ? (prompt ?? system) : "";
  const ref = /^\{file:(.+)\}$/.exec(body.trim());
  if (ref) {
    const abs = path.join(root, path.dirname(configPath), ref[1].trim());
    body = fs.existsSync(abs) ? fs.readFileSync(abs, "utf8") : "";
  }
  return { data, body, ok: true };
}

/** OpenCode/Kilo: what the agent may do, per tool key: allow/deny/ask or a pattern map. */
export function checkOpenCode(orig, emitted, lost, roleId) {
  const problems = [];
  const notes = [];
  const o = typeof orig === "string" ? frontMatter(orig) : orig;
  const e = frontMatter(emitted);
  if (typeof orig === "string" && !Object.keys(o.data).length && /^---/.test(orig) && !lost.has("front matter")) problems.push("the original's front matter was not compared (unreadable) and the report does not say so");
  if (o.data.description !== undefined && String(o.data.description).trim() !== String(e.data.description ?? "").trim()) problems.push("description changed");
  if (!bodyKept(o.body, e.body)) problems.push("body not kept verbatim");
  const perm = e.data.permission ?? {};
  const eff = (raw) => {
    const tool = raw === "todoread" ? "todowrite" : raw; // OpenCode 1.18 has no todoread: todowrite holds the list
    const keys = tool === "write" || tool === "patch" ? ["edit", tool] : [tool];
    for (const k of keys) if (perm[k] !== undefined) return perm[k];
    if (e.data.tools && e.data.tools[tool] === false) return "deny";
    return perm["*"] ?? "allow";
  };
  const top = (v) => (typeof v === "object" && v ? v["*"] ?? "mixed" : v);
  for (const [k, v] of Object.entries(o.data)) {
    if (k === "description") continue;
    if (lost.has(k)) {
      notes.push(`${k}: not representable (reported)`);
      continue;
    }
    if (k === "tools" && v && typeof v === "object") {
      for (const [t, on] of Object.entries(v)) {
        if (lost.has(`tools.${t}`)) continue;
        const got = top(eff(t));
        if (on === false && got !== "deny") problems.push(`tools.${t}: false → ${JSON.stringify(eff(t))}`);
        if (on === true && got === "deny") problems.push(`tools.${t}: true → deny`);
      }
      continue;
    }
    if ((k === "permission" || k === "permissions") && v && typeof v === "object") {
      for (const [t, rule] of Object.entries(v)) {
        if (lost.has(`${k}.${t}`)) continue;
        const got = eff(t);
        if (typeof rule === "string") {
          if (top(got) !== rule) problems.push(`${k}.${t}: ${rule} → ${JSON.stringify(got)}`);
        } else if (rule && typeof rule === "object") {
          for (const [p, a] of Object.entries(rule)) {
            if (lost.has(`${k}.${t}.${p}`)) continue;
            // OpenCode's wildcard reads * as any text, / included, so ** is * (harness writes x/** as x and x/*)
            const ga = typeof got === "object" ? got[p] ?? got[p.replace(/\*\*+/g, "*")] : got;
            if (ga !== a) problems.push(`${k}.${t}.${p}: ${a} → ${JSON.stringify(ga ?? got)}`);
          }
        }
      }
      continue;
    }
    if (k === "disable" && v === false) continue; // the default
    if (k === "name") {
      if (v !== roleId) notes.push(`name ${JSON.stringify(v)} → ${JSON.stringify(roleId)}`);
      continue;
    }
    const key = k === "maxSteps" ? "steps" : k;
    if (!same(v, e.data[key])) problems.push(`${k}: ${JSON.stringify(v)} → ${JSON.stringify(e.data[key])}`);
  }
  // no mode is OpenCode's default "all", or a built-in agent's own mode (explore and general are subagents)
  if (o.data.mode === undefined && !lost.has("mode")) {
    const want = ["explore", "general"].includes(roleId) ? "subagent" : "all";
    if (e.data.mode !== want) problems.push(`mode: absent (${want}) → ${JSON.stringify(e.data.mode)}`);
  }
  return { problems, notes };
}
