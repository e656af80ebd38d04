// Load a generated OpenCode tree with the real `opencode` binary, offline (always --pure: without
// it a .opencode/plugins folder makes OpenCode npm-install @opencode-ai/plugin first).
//
//   1. opencode debug config --pure        schema / JSON errors (exit 1) + the resolved config
//   2. opencode agent list --pure          agents actually loaded ("name (mode)" lines)
//   3. opencode debug agent <name> --pure  per declared agent: resolved definition. Flags what
//                                          OpenCode accepts silently: unparsed front matter (the
//                                          prompt starts with ---) and unknown keys that spilled
//                                          into `options` (not enforced)
//   + WARN/ERROR lines of OpenCode's own log file
import fs from "node:fs";
import path from "node:path";
import { createHostEnv } from "./env.js";
import { describeRun, run, stripAnsi, type RunResult } from "./run.js";
import { declaredOpenCode, nodeCheckAll } from "./tree.js";
import type { LoadOptions, LoadResult } from "./types.js";

/** parallel `debug agent` runs per load */
const AGENT_CONCURRENCY = 3;
const LOG_NOISE = [/models\.dev/i, /ENOTFOUND|ECONNREFUSED|fetch failed|Unable to connect/i, /autoupdate/i];

export async function loadOpenCode(tree: string, opts: LoadOptions): Promise<LoadResult> {
  const t0 = Date.now();
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const lint = opts.lint ?? true;
  const henv = createHostEnv({ tree, label: "oc", ...(opts.keep !== undefined ? { keep: opts.keep } : {}) });
  const { project, env } = henv;
  const complaints: string[] = [];
  const runs: RunResult[] = [];
  const relPath = (s: string) => s.split(`${project}/`).join("").split(project).join(".");
  let seq = 0;
  const exec = async (args: string[]) => {
    // stdout to a file: OpenCode can exit before a large piped output is flushed (see run.ts)
    const r = await run(opts.bin, args, { cwd: project, env, timeoutMs, stdoutFile: path.join(henv.logs, `stdout-${++seq}.txt`) });
    runs.push(r);
    if (r.error || r.timedOut) complaints.push(`[opencode] ${describeRun(r)}`);
    return r;
  };
  const errLines = (r: RunResult) =>
    stripAnsi(r.stderr + (r.code !== 0 ? r.stdout : ""))
      .split("\n")
      .map((l) => relPath(l.trim()))
      .filter(Boolean);
  const result = (agents: string[], commands: string[], version: string): LoadResult => ({
    host: "opencode",
    agents,
    commands,
    complaints,
    declared: { agents: declared.agents, commands: declared.commands },
    version,
    durationMs: Date.now() - t0,
    runs,
    scratch: henv.root,
  });
  const declared = declaredOpenCode(tree);
  try {
    const ver = await exec(["--version"]);
    const version = ver.stdout.trim().split("\n").pop() ?? "";
    if (ver.code !== 0) complaints.push(`[opencode --version] ${describeRun(ver)}`);

    // 1. resolved config
    const cfgRun = await exec(["debug", "config", "--pure"]);
    if (cfgRun.code !== 0) {
      for (const l of errLines(cfgRun).slice(0, 20)) complaints.push(`[opencode debug config] ${l}`);
      if (errLines(cfgRun).length === 0) complaints.push(`[opencode debug config] ${describeRun(cfgRun)}`);
      return result([], [], version); // nothing else loads when the config is rejected
    }
    let cfg: { agent?: Record<string, unknown>; command?: Record<string, unknown> } = {};
    try {
      cfg = JSON.parse(cfgRun.stdout) as typeof cfg;
    } catch (e) {
      complaints.push(`[opencode debug config] unparsable output: ${(e as Error).message}`);
    }
    for (const l of errLines({ ...cfgRun, code: 0 })) complaints.push(`[opencode debug config stderr] ${l}`);
    const commands = Object.keys(cfg.command ?? {});
    for (const c of declared.commands) if (!commands.includes(c)) complaints.push(`[opencode load] command '${c}' did not load`);

    // 2. loaded agents
    const list = await exec(["agent", "list", "--pure"]);
    if (list.code !== 0) for (const l of errLines(list).slice(0, 20)) complaints.push(`[opencode agent list] ${l}`);
    const agents: string[] = [];
    for (const line of stripAnsi(list.stdout).split("\n")) {
      const m = line.match(/^(\S.*) \((primary|subagent|all)\)$/);
      if (m?.[1]) agents.push(m[1]);
    }
    for (const a of declared.agents) if (!agents.includes(a)) complaints.push(`[opencode load] agent '${a}' is not among the loaded agents`);
    if (lint)
      for (const [cmd, agent] of Object.entries(declared.commandAgents))
        if (!agents.includes(agent)) complaints.push(`[opencode lint] command '${cmd}' routes to agent '${agent}', which does not exist (OpenCode does not check this at load)`);

    // 3. each declared agent, resolved (a few at a time: each call is a full OpenCode start)
    const checkAgent = async (name: string) => {
      const r = await exec(["debug", "agent", name, "--pure"]);
      if (r.code !== 0) {
        complaints.push(`[opencode debug agent ${name}] ${describeRun(r)}: ${errLines(r).slice(0, 3).join(" ")}`);
        return;
      }
      let d: { prompt?: unknown; options?: Record<string, unknown>; description?: unknown; mode?: unknown };
      try {
        d = JSON.parse(r.stdout) as typeof d;
      } catch (e) {
        complaints.push(`[opencode debug agent ${name}] unparsable output: ${(e as Error).message}`);
        return;
      }
      const isFile = name in declared.fileAgents;
      if (isFile && typeof d.prompt === "string" && /^---\s*\r?\n/.test(d.prompt))
        complaints.push(`[opencode agent ${name}] front matter of ${declared.fileAgents[name]} did not parse: OpenCode loaded the whole file as the prompt (mode '${String(d.mode)}')`);
      const spilled = Object.keys(d.options ?? {});
      if (spilled.length)
        complaints.push(`[opencode agent ${name}] unrecognized field(s) ${spilled.join(", ")} were moved into 'options' and are NOT enforced`);
      if (lint && isFile && !d.description) complaints.push(`[opencode lint] agent '${name}' has no description (the task tool cannot choose it well)`);
    };
    const queue = declared.agents.filter((a) => agents.includes(a) && (opts.agents === undefined || opts.agents.includes(a)));
    const workers = Array.from({ length: Math.min(AGENT_CONCURRENCY, queue.length) }, async () => {
      for (let name = queue.shift(); name !== undefined; name = queue.shift()) await checkAgent(name);
    });
    await Promise.all(workers);

    // plugins are not loaded by these commands (--pure): at least make sure JS ones parse
    if (lint)
      for (const sub of ["plugin", "plugins"])
        for (const m of nodeCheckAll(project, path.join(project, ".opencode", sub))) complaints.push(`[opencode lint] ${m}`);

    // OpenCode's own log
    const logDir = path.join(henv.home, ".local", "share", "opencode", "log");
    for (const f of fs.existsSync(logDir) ? fs.readdirSync(logDir) : []) {
      const seen = new Set<string>();
      for (const line of fs.readFileSync(path.join(logDir, f), "utf8").split("\n")) {
        if (!/level=(WARN|ERROR)/.test(line) || LOG_NOISE.some((re) => re.test(line))) continue;
        const msg = relPath(line.replace(/^timestamp=\S+ /, "").replace(/ run=\S+/, ""));
        if (seen.has(msg)) continue;
        seen.add(msg);
        complaints.push(`[opencode log] ${msg}`);
      }
    }
    return result(agents, commands, version);
  } finally {
    henv.dispose();
  }
}
