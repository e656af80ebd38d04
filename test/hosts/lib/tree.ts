// Reading what a generated tree *declares* (agents, commands, skills), independently of the host,
// so the loaders can compare it with what the host says it loaded.
// Parsing is deliberately tolerant: a file whose front matter is broken still declares its
// `name:` (found by a line match), so a host that silently drops it is caught.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { parse as parseToml } from "smol-toml";
import { parse as parseYaml } from "yaml";

export function walkFiles(dir: string, pred: (file: string) => boolean = () => true): string[] {
  const out: string[] = [];
  const rec = (d: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) rec(p);
      else if (pred(p)) out.push(p);
    }
  };
  rec(dir);
  return out;
}

export interface FrontMatter {
  /** parsed mapping, or null when absent / not parseable */
  data: Record<string, unknown> | null;
  /** raw front matter text (between the --- lines), or null when absent */
  raw: string | null;
  /** YAML error, when the block exists but does not parse to a mapping */
  error?: string;
}

export function readFrontMatter(text: string): FrontMatter {
  const m = text.match(/^---\r?\n([\s\S]*?)\r?\n---\s*(?:\r?\n|$)/);
  if (!m) return { data: null, raw: null };
  const raw = m[1] ?? "";
  try {
    const data: unknown = parseYaml(raw);
    if (data && typeof data === "object" && !Array.isArray(data)) return { data: data as Record<string, unknown>, raw };
    return { data: null, raw, error: "front matter is not a mapping" };
  } catch (e) {
    return { data: null, raw, error: (e as Error).message.split("\n")[0] };
  }
}

/** `key:` value from front matter text by line match (works when YAML does not parse). */
export function frontMatterLine(raw: string | null, key: string): string | undefined {
  if (!raw) return undefined;
  const m = raw.match(new RegExp(`^${key}:[ \\t]*(.*?)[ \\t]*$`, "m"));
  if (!m || !m[1]) return undefined;
  return m[1].replace(/^(["'])(.*)\1$/, "$2");
}

export interface Declared {
  agents: string[];
  commands: string[];
  /** files that declare nothing usable (e.g. no name), as complaints */
  problems: string[];
}

const rel = (root: string, p: string) => path.relative(root, p).split(path.sep).join("/");
const uniq = (xs: string[]) => [...new Set(xs)];

/** Claude Code: .claude/agents/**\/*.md (identity = front matter `name`), .claude/commands/**\/*.md, .claude/skills/<n>/SKILL.md */
export function declaredClaude(tree: string): Declared {
  const problems: string[] = [];
  const agents: string[] = [];
  for (const f of walkFiles(path.join(tree, ".claude", "agents"), (p) => p.endsWith(".md"))) {
    const fm = readFrontMatter(fs.readFileSync(f, "utf8"));
    const name = typeof fm.data?.name === "string" ? fm.data.name : frontMatterLine(fm.raw, "name");
    if (!name) problems.push(`${rel(tree, f)}: declares no front matter name, Claude Code skips it`);
    else agents.push(name);
  }
  const cmdDir = path.join(tree, ".claude", "commands");
  const commands = walkFiles(cmdDir, (p) => p.endsWith(".md")).map((f) =>
    path.relative(cmdDir, f).replace(/\.md$/, "").split(path.sep).join(":"),
  );
  const skillDir = path.join(tree, ".claude", "skills");
  for (const f of walkFiles(skillDir, (p) => path.basename(p) === "SKILL.md")) {
    if (path.dirname(path.dirname(f)) !== skillDir) continue; // only <skills>/<name>/SKILL.md
    const fm = readFrontMatter(fs.readFileSync(f, "utf8"));
    const name = typeof fm.data?.name === "string" ? fm.data.name : frontMatterLine(fm.raw, "name");
    commands.push(name ?? path.basename(path.dirname(f)));
  }
  return { agents: uniq(agents), commands: uniq(commands), problems };
}

export interface DeclaredOpenCode extends Declared {
  /** agents defined by Markdown files (name -> file) */
  fileAgents: Record<string, string>;
  /** command -> agent it routes to */
  commandAgents: Record<string, string>;
}

/** Where a host of the OpenCode family keeps its files. */
export interface V1Layout {
  dir: string;
  configs: readonly string[];
}
export const OPENCODE_LAYOUT: V1Layout = { dir: ".opencode", configs: ["opencode.json", "opencode.jsonc", ".opencode/opencode.json", ".opencode/opencode.jsonc"] };
/** Kilo 7.7.7: .kilo/{agent,agents,command,commands}, kilo.json(c) at the root or in .kilo/ */
export const KILO_LAYOUT: V1Layout = { dir: ".kilo", configs: ["kilo.json", "kilo.jsonc", ".kilo/kilo.json", ".kilo/kilo.jsonc"] };

/** OpenCode: .opencode/{agent,agents}/**\/*.md (identity = path), {command,commands}/**\/*.md, opencode.json(c) agent/command maps */
export function declaredOpenCode(tree: string, layout: V1Layout = OPENCODE_LAYOUT): DeclaredOpenCode {
  const problems: string[] = [];
  const fileAgents: Record<string, string> = {};
  const agents = new Set<string>();
  const commands = new Set<string>();
  const commandAgents: Record<string, string> = {};
  for (const sub of ["agent", "agents"]) {
    const dir = path.join(tree, layout.dir, sub);
    for (const f of walkFiles(dir, (p) => p.endsWith(".md"))) {
      const name = path.relative(dir, f).replace(/\.md$/, "").split(path.sep).join("/");
      fileAgents[name] = rel(tree, f);
      agents.add(name);
    }
  }
  for (const sub of ["command", "commands"]) {
    const dir = path.join(tree, layout.dir, sub);
    for (const f of walkFiles(dir, (p) => p.endsWith(".md"))) {
      const name = path.relative(dir, f).replace(/\.md$/, "").split(path.sep).join("/");
      commands.add(name);
      const fm = readFrontMatter(fs.readFileSync(f, "utf8"));
      const agent = typeof fm.data?.agent === "string" ? fm.data.agent : undefined;
      if (agent) commandAgents[name] = agent;
    }
  }
  for (const file of layout.configs) {
    const p = path.join(tree, file);
    if (!fs.existsSync(p)) continue;
    let cfg: Record<string, unknown>;
    try {
      cfg = JSON.parse(stripJsonc(fs.readFileSync(p, "utf8"))) as Record<string, unknown>;
    } catch {
      continue; // the host reports unparsable config itself
    }
    for (const key of ["agent", "agents"]) {
      const m = cfg[key];
      if (m && typeof m === "object")
        for (const [k, v] of Object.entries(m as Record<string, { disable?: boolean }>)) {
          if (v && v.disable) agents.delete(k);
          else agents.add(k);
        }
    }
    for (const key of ["command", "commands"]) {
      const m = cfg[key];
      if (m && typeof m === "object")
        for (const [k, v] of Object.entries(m as Record<string, { agent?: unknown }>)) {
          commands.add(k);
          if (v && typeof v.agent === "string") commandAgents[k] = v.agent;
        }
    }
  }
  return { agents: [...agents], commands: [...commands], problems, fileAgents, commandAgents };
}

/** Codex: .codex/agents/**\/*.toml (identity = `name`), skills in .agents/skills and .codex/skills. */
export function declaredCodex(tree: string, codexHomeTree?: string): Declared & { agentsMd: string | null } {
  const problems: string[] = [];
  const agents: string[] = [];
  const commands: string[] = [];
  const agentDirs = [path.join(tree, ".codex", "agents"), ...(codexHomeTree ? [path.join(codexHomeTree, "agents")] : [])];
  for (const dir of agentDirs)
    for (const f of walkFiles(dir, (p) => p.endsWith(".toml"))) {
      const text = fs.readFileSync(f, "utf8");
      let name: string | undefined;
      try {
        const t = parseToml(text) as Record<string, unknown>;
        if (typeof t.name === "string") name = t.name;
      } catch {
        name = text.match(/^\s*name\s*=\s*["']([^"'\n]+)["']/m)?.[1];
      }
      agents.push(name ?? path.basename(f, ".toml"));
    }
  const skillDirs = [path.join(tree, ".agents", "skills"), path.join(tree, ".codex", "skills"), ...(codexHomeTree ? [path.join(codexHomeTree, "skills")] : [])];
  for (const dir of skillDirs)
    for (const f of walkFiles(dir, (p) => path.basename(p) === "SKILL.md")) {
      if (f.includes(`${path.sep}.system${path.sep}`)) continue;
      const fm = readFrontMatter(fs.readFileSync(f, "utf8"));
      const name = typeof fm.data?.name === "string" ? fm.data.name : frontMatterLine(fm.raw, "name");
      commands.push(name ?? path.basename(path.dirname(f)));
    }
  const agentsMd = ["AGENTS.override.md", "AGENTS.md"].find((n) => fs.existsSync(path.join(tree, n))) ?? null;
  return { agents: uniq(agents), commands: uniq(commands), problems, agentsMd };
}

/** `node --check` every JavaScript file under dir (hook scripts, plugins): the hosts only find a
 *  syntax error when the script runs. Returns one message per broken file. */
export function nodeCheckAll(root: string, dir: string): string[] {
  const out: string[] = [];
  for (const f of walkFiles(dir, (p) => /\.(m|c)?js$/.test(p))) {
    const r = spawnSync(process.execPath, ["--check", f], { encoding: "utf8", timeout: 30_000 });
    if (r.status !== 0) out.push(`${rel(root, f)}: node --check failed: ${(r.stderr || r.error?.message || "").trim().split("\n").slice(0, 5).join(" | ")}`);
  }
  return out;
}

/** Remove // and /* *\/ comments and trailing commas (good enough for declared-name discovery). */
function stripJsonc(s: string): string {
  let out = "";
  let inStr = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (inStr) {
      out += c;
      if (c === "\\") out += s[++i] ?? "";
      else if (c === '"') inStr = false;
    } else if (c === '"') {
      inStr = true;
      out += c;
    } else if (c === "/" && s[i + 1] === "/") {
      while (i < s.length && s[i] !== "\n") i++;
      out += "\n";
    } else if (c === "/" && s[i + 1] === "*") {
      i = s.indexOf("*/", i + 2);
      if (i < 0) break;
      i++;
    } else out += c;
  }
  return out.replace(/,(\s*[}\]])/g, "$1");
}
