// Load a generated Kilo tree with the real `kilo` binary (7.7.7), offline, always --pure.
//
//   1. kilo config check          schema errors (exit 1, "Config file at … is invalid: …"); clean = "No config warnings."
//   2. kilo debug config --pure   the resolved config: commands
//   3. kilo agent list --pure     agents actually loaded ("name (mode)" lines, each with its rule list)
//   + lint: Kilo loads an agent whose front matter does not parse as a mode "all" agent with default
//     permissions and says nothing (others.md §5.2), so every emitted front matter is parsed here and
//     every file agent's listed mode is compared with the mode its front matter declares.
//   + WARN/ERROR lines of Kilo's own log
// `kilo debug agent` is not run per agent: each call is a full start (10–40 s on a loaded machine).
import fs from "node:fs";
import path from "node:path";
import { createHostEnv } from "./env.js";
import { describeRun, run, stripAnsi, type RunResult } from "./run.js";
import { declaredOpenCode, frontMatterLine, KILO_LAYOUT, readFrontMatter, walkFiles } from "./tree.js";
import type { LoadOptions, LoadResult } from "./types.js";

const LOG_NOISE = [/models\.dev/i, /ENOTFOUND|ECONNREFUSED|fetch failed|Unable to connect/i, /autoupdate/i, /telemetry/i];

/** `kilo agent list` output → agent name → mode */
export function parseKiloAgentList(stdout: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of stripAnsi(stdout).split("\n")) {
    const m = line.match(/^(\S.*) \((primary|subagent|all)\)$/);
    if (m?.[1]) out.set(m[1], m[2]!);
  }
  return out;
}

export async function loadKilo(tree: string, opts: LoadOptions): Promise<LoadResult> {
  const t0 = Date.now();
  const timeoutMs = opts.timeoutMs ?? 90_000;
  const lint = opts.lint ?? true;
  const henv = createHostEnv({ tree, label: "kilo", ...(opts.keep !== undefined ? { keep: opts.keep } : {}) });
  const { project, env } = henv;
  const complaints: string[] = [];
  const runs: RunResult[] = [];
  const relPath = (s: string) => s.split(`${project}/`).join("").split(project).join(".");
  let seq = 0;
  const exec = async (args: string[]) => {
    const r = await run(opts.bin, args, { cwd: project, env, timeoutMs, stdoutFile: path.join(henv.logs, `stdout-${++seq}.txt`) });
    runs.push(r);
    if (r.error || r.timedOut) complaints.push(`[kilo] ${describeRun(r)}`);
    return r;
  };
  const lines = (s: string) => stripAnsi(s).split("\n").map((l) => relPath(l.trim())).filter(Boolean);
  const declared = declaredOpenCode(tree, KILO_LAYOUT);
  const result = (agents: string[], commands: string[], version: string): LoadResult => ({
    host: "kilo",
    agents,
    commands,
    complaints,
    declared: { agents: declared.agents, commands: declared.commands },
    version,
    durationMs: Date.now() - t0,
    runs,
    scratch: henv.root,
  });
  try {
    const ver = await exec(["--version"]);
    const version = ver.stdout.trim().split("\n").pop() ?? "";
    if (ver.code !== 0) complaints.push(`[kilo --version] ${describeRun(ver)}`);

    // 1. schema check
    const check = await exec(["config", "check"]);
    const checkOut = lines(check.stdout + check.stderr);
    if (check.code !== 0 || !checkOut.includes("No config warnings.")) for (const l of checkOut.slice(0, 20)) complaints.push(`[kilo config check] ${l}`);

    // 2. resolved config
    const cfgRun = await exec(["debug", "config", "--pure"]);
    let cfg: { command?: Record<string, unknown> } = {};
    if (cfgRun.code !== 0) for (const l of lines(cfgRun.stderr + cfgRun.stdout).slice(0, 20)) complaints.push(`[kilo debug config] ${l}`);
    else
      try {
        cfg = JSON.parse(cfgRun.stdout) as typeof cfg;
      } catch (e) {
        complaints.push(`[kilo debug config] unparsable output: ${(e as Error).message}`);
      }
    const commands = Object.keys(cfg.command ?? {});
    for (const c of declared.commands) if (!commands.includes(c)) complaints.push(`[kilo load] command '${c}' did not load`);

    // 3. loaded agents and their modes
    const list = await exec(["agent", "list", "--pure"]);
    if (list.code !== 0) for (const l of lines(list.stderr).slice(0, 20)) complaints.push(`[kilo agent list] ${l}`);
    const listed = parseKiloAgentList(list.stdout);
    const agents = [...listed.keys()];
    for (const a of declared.agents) if (!listed.has(a)) complaints.push(`[kilo load] agent '${a}' is not among the loaded agents`);
    for (const [name, file] of Object.entries(declared.fileAgents)) {
      const fm = readFrontMatter(fs.readFileSync(path.join(tree, file), "utf8"));
      // a broken block still declares its mode line (tolerant match), which is what Kilo then ignores
      const mode = typeof fm.data?.mode === "string" ? fm.data.mode : (frontMatterLine(fm.raw, "mode") ?? "all");
      if (listed.has(name) && listed.get(name) !== mode)
        complaints.push(`[kilo agent ${name}] listed as (${listed.get(name)}) but ${file} says mode ${mode}: Kilo dropped its front matter and runs it with default permissions`);
    }

    if (lint) {
      for (const f of walkFiles(path.join(tree, KILO_LAYOUT.dir), (p) => p.endsWith(".md"))) {
        const fm = readFrontMatter(fs.readFileSync(f, "utf8"));
        if (fm.raw === null) complaints.push(`[kilo lint] ${path.relative(tree, f)}: no front matter`);
        else if (fm.error || !fm.data) complaints.push(`[kilo lint] ${path.relative(tree, f)}: front matter is not valid YAML (${fm.error ?? "not a mapping"}); Kilo would load it silently with default permissions`);
      }
      for (const [cmd, agent] of Object.entries(declared.commandAgents))
        if (!listed.has(agent)) complaints.push(`[kilo lint] command '${cmd}' routes to agent '${agent}', which does not exist`);
    }

    const logDir = path.join(henv.home, ".local", "share", "kilo", "log");
    for (const f of fs.existsSync(logDir) ? fs.readdirSync(logDir) : []) {
      const seen = new Set<string>();
      for (const line of fs.readFileSync(path.join(logDir, f), "utf8").split("\n")) {
        if (!/level=(WARN|ERROR)/.test(line) || LOG_NOISE.some((re) => re.test(line))) continue;
        const msg = relPath(line.replace(/^timestamp=\S+ /, "").replace(/ run=\S+/, ""));
        if (seen.has(msg)) continue;
        seen.add(msg);
        complaints.push(`[kilo log] ${msg}`);
      }
    }
    return result(agents, commands, version);
  } finally {
    henv.dispose();
  }
}
