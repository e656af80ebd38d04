// Where each host keeps a project's agent files (the hosts notes; the files the adapters emit).
import fs from "node:fs";
import path from "node:path";
import { readOpenCodeAgent } from "./opencode.js";
import { readClaudeAgent, readCodexAgent, readMarkdownAgent } from "./read.js";
import type { ImportedAgent } from "./types.js";
import { CONFIG_FILES } from "./config.js";

interface Source {
  dirs: readonly string[];
  match: (name: string) => boolean;
  read: (rel: string, text: string) => ImportedAgent;
  // the host loads subfolders too (OpenCode 1.18.33 and Kilo 7.7.7 read every .md below the folder;
  // agents/team/x.md is the agent team/x)
  nested?: true;
}

const md = (n: string) => n.endsWith(".md") && n.toLowerCase() !== "readme.md";

export const IMPORT_SOURCES: Readonly<Record<string, Source>> = {
  "claude-code": { dirs: [".claude/agents"], match: md, read: readClaudeAgent },
  opencode: { dirs: [".opencode/agent", ".opencode/agents"], match: md, read: (p, t) => readOpenCodeAgent("opencode", p, t), nested: true },
  kilo: { dirs: [".kilo/agent", ".kilo/agents"], match: md, read: (p, t) => readOpenCodeAgent("kilo", p, t), nested: true },
  codex: { dirs: [".codex/agents"], match: (n) => n.endsWith(".toml"), read: readCodexAgent },
  "gemini-cli": { dirs: [".gemini/agents"], match: md, read: (p, t) => readMarkdownAgent("gemini-cli", p, t) },
  copilot: { dirs: [".github/agents", ".github/chatmodes"], match: (n) => n.endsWith(".agent.md") || n.endsWith(".chatmode.md") || md(n), read: (p, t) => readMarkdownAgent("copilot", p, t) },
  cursor: { dirs: [".cursor/agents"], match: md, read: (p, t) => readMarkdownAgent("cursor", p, t) },
};

export interface FoundFile {
  host: string;
  path: string; // relative to the project root, POSIX
  bytes: Buffer;
  /** a shared config file (opencode.json …) whose `agent` entries are agents: the file itself is never adopted */
  config?: true;
}

/** Every agent file of the given hosts under `root`, in host then path order (symbolic links are not followed). */
export function findAgentFiles(root: string, hosts: readonly string[]): FoundFile[] {
  const out: FoundFile[] = [];
  for (const host of hosts) {
    const source = IMPORT_SOURCES[host]!;
    const walk = (dir: string) => {
      const abs = path.join(root, dir);
      let entries: fs.Dirent[];
      try {
        if (!fs.lstatSync(abs).isDirectory()) return;
        entries = fs.readdirSync(abs, { withFileTypes: true });
      } catch {
        return;
      }
      for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)))
        if (e.isFile() && source.match(e.name)) out.push({ host, path: `${dir}/${e.name}`, bytes: fs.readFileSync(path.join(abs, e.name)) });
        else if (e.isDirectory() && source.nested) walk(`${dir}/${e.name}`);
    };
    for (const dir of source.dirs) walk(dir);
    for (const rel of CONFIG_FILES[host] ?? []) {
      const abs = path.join(root, rel);
      try {
        if (fs.lstatSync(abs).isFile()) out.push({ host, path: rel, bytes: fs.readFileSync(abs), config: true });
      } catch {
        // no such file
      }
    }
  }
  return out;
}
