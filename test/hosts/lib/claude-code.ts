// Load a generated Claude Code tree with the real `claude` binary, offline, and collect every
// complaint it makes. No model call happens: there is no credential, so `claude -p` stops at
// "Not logged in" after loading settings, agents, commands and skills.
//
//   1. claude plugin validate <project> --json   front matter YAML / field types (agents, commands, skills)
//   2. claude doctor                             "Invalid settings" section (settings.json schema)
//   3. claude -p ping --debug-file LOG           stderr (settings that did not load, rule warnings)
//                                                + LOG [WARN]/[ERROR]/"has invalid"/"not loaded" lines
//   4. claude -p ping --output-format stream-json --verbose
//                                                init message: agents / slash_commands actually loaded
import fs from "node:fs";
import path from "node:path";
import { createHostEnv } from "./env.js";
import { describeRun, run, stripAnsi, type RunResult } from "./run.js";
import { declaredClaude, nodeCheckAll, readFrontMatter, walkFiles } from "./tree.js";
import type { LoadOptions, LoadResult } from "./types.js";

/** Debug-log lines that are about the offline setup, not about the tree. */
const DEBUG_LOG_NOISE = [
  /API error|Error in API request|invalid_api_key|Could not resolve authentication/i,
  /ENOTFOUND|ECONNREFUSED|ECONNRESET|socket hang up|fetch failed/i,
  /telemetry|event logging|metrics|statsig|growthbook|feature flag/i,
  /MCP registry|Remote Control|OAuth|keychain|Not logged in/i,
  /Invalid setting skipped without dialog/, // the same problem is reported by doctor and on stderr
  /Failed to stat directory|Broken symlink/,
];
const DEBUG_LOG_INTERESTING = /\[(WARN|ERROR)\]|has invalid|Failed to parse agent|Error parsing agent|not loaded|frontmatter key|failed to parse|was ignored/;

const STDERR_NOISE = [/^Not logged in/, /^Invalid API key/, /Please run \/login/, /^Fix each problem listed/];

/** Tool names Claude Code 2.1.332 knows (beyond the init message's default list). */
const KNOWN_TOOLS = [
  "Agent", "Task", "Bash", "Edit", "Write", "Read", "Glob", "Grep", "NotebookEdit", "WebFetch", "WebSearch", "TodoWrite",
  "Skill", "AskUserQuestion", "EnterPlanMode", "ExitPlanMode", "TaskCreate", "TaskGet", "TaskUpdate", "TaskList",
  "TaskStop", "TaskOutput", "SendMessage", "ListMcpResourcesTool", "ReadMcpResourceTool", "Workflow", "Monitor",
  "CronCreate", "CronDelete", "CronList", "ScheduleWakeup", "EnterWorktree", "ExitWorktree", "ToolSearch", "LSP",
  "PowerShell", "ListAgents", "ReportFindings", "MultiEdit",
];

interface InitMessage {
  type: "system";
  subtype: "init";
  agents?: string[];
  slash_commands?: string[];
  skills?: string[];
  tools?: string[];
  claude_code_version?: string;
}

export async function loadClaudeCode(tree: string, opts: LoadOptions): Promise<LoadResult> {
  const t0 = Date.now();
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const lint = opts.lint ?? true;
  const henv = createHostEnv({ tree, label: "cc", ...(opts.keep !== undefined ? { keep: opts.keep } : {}) });
  const { project, env, logs } = henv;
  const complaints: string[] = [];
  const runs: RunResult[] = [];
  const relPath = (s: string) => s.split(`${project}/`).join("").split(project).join(".");
  const exec = async (args: string[]) => {
    const r = await run(opts.bin, args, { cwd: project, env, timeoutMs });
    runs.push(r);
    if (r.error || r.timedOut) complaints.push(`[claude] ${describeRun(r)}`);
    return r;
  };
  try {
    const ver = await exec(["--version"]);
    const version = ver.stdout.trim().split("\n")[0] ?? "";
    if (ver.code !== 0) complaints.push(`[claude --version] ${describeRun(ver)}: ${ver.stderr.trim().slice(0, 300)}`);

    // 1. plugin validate
    const pv = await exec(["plugin", "validate", project, "--json"]);
    let pvMessages = 0;
    try {
      const report = JSON.parse(pv.stdout) as {
        manifest?: { file?: string; errors?: Issue[]; warnings?: Issue[] } | null;
        contents?: { file?: string; filePath?: string; errors?: Issue[]; warnings?: Issue[] }[];
      };
      for (const entry of [report.manifest, ...(report.contents ?? [])]) {
        if (!entry) continue;
        const file = relPath(String((entry as { file?: string; filePath?: string }).file ?? (entry as { filePath?: string }).filePath ?? "?"));
        for (const e of entry.errors ?? []) {
          // a tree with no agents/commands/skills (e.g. only settings.json) has nothing to validate
          if (e.path === "directory" && /No manifest found/.test(e.message)) {
            pvMessages++;
            continue;
          }
          complaints.push(`[plugin validate] ${file}: ${e.path}: ${e.message}`);
          pvMessages++;
        }
        for (const e of entry.warnings ?? []) {
          complaints.push(`[plugin validate] ${file}: (warning) ${e.path}: ${e.message}`);
          pvMessages++;
        }
      }
    } catch (e) {
      if (!pv.timedOut && !pv.error) complaints.push(`[plugin validate] unparsable --json output (${(e as Error).message}): ${pv.stdout.slice(0, 300)}${pv.stderr.slice(0, 300)}`);
    }
    if (pv.code !== 0 && pvMessages === 0 && !pv.timedOut && !pv.error)
      complaints.push(`[plugin validate] ${describeRun(pv)}: ${stripAnsi(pv.stderr).trim().slice(0, 400)}`);

    // 2. doctor: "Invalid settings" section (exit code is 0 even with problems)
    const doc = await exec(["doctor"]);
    {
      const lines = stripAnsi(doc.stdout + "\n" + doc.stderr).split("\n");
      let inSection = false;
      for (const line of lines) {
        if (/^Invalid settings/.test(line)) {
          inSection = true;
          continue;
        }
        if (inSection && /^\S/.test(line) && !line.startsWith("- ")) inSection = false;
        if (inSection && line.trim() === "") {
          inSection = false;
          continue;
        }
        if (inSection && line.startsWith("- ")) complaints.push(`[doctor] ${relPath(line.slice(2).trim())}`);
      }
    }

    // 3. -p with a debug log: loader messages
    const debugLog = path.join(logs, "claude-debug.log");
    const p = await exec(["-p", "ping", "--debug-file", debugLog]);
    for (const line of stripAnsi(p.stderr).split("\n")) {
      const l = line.trimEnd();
      if (!l.trim() || STDERR_NOISE.some((re) => re.test(l.trim()))) continue;
      complaints.push(`[claude -p stderr] ${relPath(l.trim())}`);
    }
    if (!/Not logged in/.test(p.stdout + p.stderr) && !p.timedOut && !p.error)
      complaints.push(`[claude -p] expected to stop at "Not logged in" (offline), got ${describeRun(p)}: ${(p.stdout + p.stderr).slice(0, 300)}`);
    const log = fs.existsSync(debugLog) ? fs.readFileSync(debugLog, "utf8") : "";
    if (!log) complaints.push(`[claude -p] no debug log written at ${debugLog}`);
    const seen = new Set<string>();
    for (const line of log.split("\n")) {
      if (!DEBUG_LOG_INTERESTING.test(line) || DEBUG_LOG_NOISE.some((re) => re.test(line))) continue;
      const msg = relPath(line.replace(/^\S+Z \[/, "["));
      if (seen.has(msg)) continue;
      seen.add(msg);
      complaints.push(`[claude debug log] ${msg}`);
    }

    // 4. stream-json init message: what actually loaded
    const sj = await exec(["-p", "ping", "--output-format", "stream-json", "--verbose"]);
    let init: InitMessage | undefined;
    for (const line of sj.stdout.split("\n")) {
      try {
        const m = JSON.parse(line) as { type?: string; subtype?: string };
        if (m.type === "system" && m.subtype === "init") {
          init = m as InitMessage;
          break;
        }
      } catch {
        /* not JSON */
      }
    }
    const declared = declaredClaude(project);
    for (const prob of declared.problems) complaints.push(`[claude load] ${prob}`);
    const agents = init?.agents ?? [];
    const commands = init?.slash_commands ?? [];
    if (!init) complaints.push(`[claude -p stream-json] no init message: ${describeRun(sj)} ${sj.stderr.slice(0, 300)}`);
    else {
      for (const a of declared.agents) if (!agents.includes(a)) complaints.push(`[claude load] agent '${a}' is not among the loaded agents`);
      for (const c of declared.commands) if (!commands.includes(c)) complaints.push(`[claude load] command/skill '${c}' is not among the loaded slash commands`);
    }

    // lint: tool names the host accepts silently; hook scripts that would not even parse
    if (lint) {
      for (const m of nodeCheckAll(project, path.join(project, ".claude", "hooks"))) complaints.push(`[claude lint] ${m}`);
      const known = new Set([...KNOWN_TOOLS, ...(init?.tools ?? [])]);
      // front matter that is not valid YAML: Claude Code often loads it anyway through a lenient
      // fallback parse (e.g. an unclosed `tools: [Read, …` passes plugin validate), with values nobody wrote
      for (const sub of ["agents", "commands", "skills"])
        for (const f of walkFiles(path.join(project, ".claude", sub), (x) => x.endsWith(".md"))) {
          const fm = readFrontMatter(fs.readFileSync(f, "utf8"));
          if (fm.error) complaints.push(`[claude lint] ${relPath(f)}: front matter is not valid YAML (${fm.error}); Claude Code may still load it through a lenient fallback parse`);
        }
      for (const f of walkFiles(path.join(project, ".claude", "agents"), (x) => x.endsWith(".md"))) {
        const fm = readFrontMatter(fs.readFileSync(f, "utf8"));
        if (!fm.data) continue;
        for (const key of ["tools", "disallowedTools"]) {
          for (const t of toolList(fm.data[key])) {
            const base = t.replace(/\(.*$/s, "").trim();
            if (base === "*" || base.startsWith("mcp__") || known.has(base)) continue;
            complaints.push(`[claude lint] ${relPath(f)}: ${key} names unknown tool '${t}' (Claude Code loads the agent and silently ignores it)`);
          }
        }
      }
    }

    return {
      host: "claude-code",
      agents,
      commands,
      complaints,
      declared: { agents: declared.agents, commands: declared.commands },
      version: init?.claude_code_version ?? version,
      durationMs: Date.now() - t0,
      runs,
      scratch: henv.root,
    };
  } finally {
    henv.dispose();
  }
}

interface Issue {
  path: string;
  message: string;
}

/** `tools:` as a comma string (parentheses may hold commas) or a YAML list. */
function toolList(v: unknown): string[] {
  if (Array.isArray(v)) return v.map(String).map((s) => s.trim()).filter(Boolean);
  if (typeof v !== "string") return [];
  const out: string[] = [];
  let depth = 0;
  let cur = "";
  for (const ch of v) {
    if (ch === "(") depth++;
    if (ch === ")") depth = Math.max(0, depth - 1);
    if (ch === "," && depth === 0) {
      out.push(cur);
      cur = "";
    } else cur += ch;
  }
  out.push(cur);
  return out.map((s) => s.trim()).filter(Boolean);
}
