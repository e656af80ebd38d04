// Load a generated Codex tree with the real `codex` binary, offline.
//
//   1. codex exec --json --strict-config ... against a dead loopback provider (retries off):
//      loads every config layer, agent role files, rules, hooks and skills, prints a warning /
//      error for each bad one, then fails to connect (expected). Once per profile found in
//      the user-scope tree ($CODEX_HOME/<name>.config.toml).
//   2. codex debug prompt-input: the model-visible input. Bad role / skill files are silently
//      missing here, so every declared role must be offered by spawn_agent.agent_type and every
//      declared skill must be listed; AGENTS.md must be in the prompt.
//   3. codex execpolicy check --rules F true: parses each .rules file and runs its match/not_match examples.
//
// The scratch folders live under .cache/hosts-scratch (never /tmp: Codex's sandbox refuses helper
// binaries there) and the project is recorded as trusted in the scratch $CODEX_HOME/config.toml.
import fs from "node:fs";
import path from "node:path";
import { DEAD_URL, createHostEnv } from "./env.js";
import { describeRun, run, stripAnsi, type RunResult } from "./run.js";
import { declaredCodex, walkFiles } from "./tree.js";
import type { LoadOptions, LoadResult } from "./types.js";

export const CODEX_BUILTIN_ROLES = ["default", "explorer", "worker"];

/** `codex exec` flags that keep it offline: dead loopback provider, no retries, no websockets. */
export function codexOfflineArgs(baseUrl = `${DEAD_URL}/v1`): string[] {
  return [
    "--disable",
    "unbounded_connection_retries",
    "--skip-git-repo-check",
    "-c",
    'model_provider="harness_offline"',
    "-c",
    `model_providers.harness_offline={name="harness-offline",base_url=${JSON.stringify(baseUrl)},wire_api="responses",request_max_retries=0,stream_max_retries=0,supports_websockets=false}`,
  ];
}

const STDERR_NOISE = [
  /^Reading additional input from stdin/,
  /could not create PATH aliases/,
  /^warning: Codex could not find bubblewrap on PATH\. /,
  /Connection failed: error sending request/,
];
const EVENT_NOISE = /Connection failed|error sending request|stream disconnected|Reconnecting/;

export async function loadCodex(tree: string, opts: LoadOptions): Promise<LoadResult> {
  const t0 = Date.now();
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const henv = createHostEnv({
    tree,
    label: "cx",
    ...(opts.codexHomeTree ? { codexHomeTree: opts.codexHomeTree } : {}),
    ...(opts.keep !== undefined ? { keep: opts.keep } : {}),
  });
  const { project, env, codexHome } = henv;
  const complaints: string[] = [];
  const runs: RunResult[] = [];
  const relPath = (s: string) => s.split(`${project}/`).join("").split(project).join(".");
  const exec = async (args: string[]) => {
    const r = await run(opts.bin, args, { cwd: project, env, timeoutMs });
    runs.push(r);
    if (r.error || r.timedOut) complaints.push(`[codex] ${describeRun(r)}`);
    return r;
  };
  const declared = declaredCodex(tree, opts.codexHomeTree);
  try {
    const ver = await exec(["--version"]);
    const version = stripAnsi(ver.stdout).trim().split("\n").filter((l) => !STDERR_NOISE.some((re) => re.test(l))).pop() ?? "";
    if (ver.code !== 0) complaints.push(`[codex --version] ${describeRun(ver)}`);

    // 1. exec startup, once per profile
    const profiles = [
      undefined,
      ...fs
        .readdirSync(codexHome)
        .filter((f) => f.endsWith(".config.toml"))
        .map((f) => f.replace(/\.config\.toml$/, "")),
    ];
    for (const profile of profiles) {
      const label = profile ? `exec --profile ${profile}` : "exec";
      const r = await exec(["exec", "--json", "--strict-config", ...(profile ? ["--profile", profile] : []), ...codexOfflineArgs(), "harness load probe"]);
      const seen = new Set<string>();
      const add = (msg: string) => {
        const m = relPath(msg.trim());
        if (!m || seen.has(m)) return;
        seen.add(m);
        complaints.push(`[codex ${label}] ${m}`);
      };
      let reachedModel = false;
      for (const line of r.stdout.split("\n")) {
        if (!line.trim()) continue;
        let ev: { type?: string; message?: string; item?: { type?: string; message?: string }; error?: { message?: string } };
        try {
          ev = JSON.parse(line) as typeof ev;
        } catch {
          add(line);
          continue;
        }
        if (ev.type === "turn.started") reachedModel = true;
        if (ev.item?.type === "error" && ev.item.message) add(ev.item.message);
        if (ev.type === "error" && ev.message && !EVENT_NOISE.test(ev.message)) add(ev.message);
        if (ev.type === "turn.failed" && ev.error?.message && !EVENT_NOISE.test(ev.error.message)) add(ev.error.message);
      }
      for (const block of stderrBlocks(stripAnsi(r.stderr))) if (!STDERR_NOISE.some((re) => re.test(block))) add(block);
      if (!reachedModel && !r.timedOut && !r.error && seen.size === 0)
        add(`did not reach the (offline) model request: ${describeRun(r)} ${r.stderr.slice(0, 300)}`);
    }

    // 2. model-visible prompt
    const pi = await exec(["debug", "prompt-input", "harness load probe"]);
    let agents: string[] = [];
    let commands: string[] = [];
    if (pi.code !== 0) {
      for (const block of stderrBlocks(stripAnsi(pi.stderr)).filter((b) => !STDERR_NOISE.some((re) => re.test(b))).slice(0, 5))
        complaints.push(`[codex debug prompt-input] ${relPath(block.split("\nStack backtrace")[0] ?? block)}`);
      if (!pi.timedOut && !pi.error) complaints.push(`[codex debug prompt-input] ${describeRun(pi)}`);
    } else {
      try {
        const parsed = parsePromptInput(pi.stdout);
        agents = parsed.roles;
        commands = parsed.skills;
        for (const a of declared.agents)
          if (!agents.includes(a)) complaints.push(`[codex load] agent role '${a}' is not offered by spawn_agent (the host dropped it)`);
        for (const s of declared.commands) if (!commands.includes(s)) complaints.push(`[codex load] skill '${s}' is not listed in the prompt`);
        if (declared.agentsMd) {
          const first = fs.readFileSync(path.join(project, declared.agentsMd), "utf8").split("\n").map((l) => l.trim()).find(Boolean) ?? "";
          if (!parsed.text.includes("AGENTS.md instructions for") || (first && !parsed.text.includes(first)))
            complaints.push(`[codex load] ${declared.agentsMd} content is not in the prompt`);
        }
      } catch (e) {
        complaints.push(`[codex debug prompt-input] unparsable output: ${(e as Error).message}`);
      }
    }

    // 3. rules files
    const rules = [...walkFiles(path.join(project, ".codex", "rules"), (f) => f.endsWith(".rules")), ...walkFiles(path.join(codexHome, "rules"), (f) => f.endsWith(".rules"))];
    for (const f of rules) {
      const r = await exec(["execpolicy", "check", "--rules", f, "true"]);
      if (r.code !== 0) {
        const text = stripAnsi(r.stderr + r.stdout).split("Stack backtrace")[0] ?? "";
        complaints.push(`[codex execpolicy check ${relPath(f)}] ${relPath(text.trim()).slice(0, 800)}`);
      }
    }

    return {
      host: "codex",
      agents,
      commands,
      complaints,
      declared: { agents: declared.agents, commands: declared.commands },
      version,
      durationMs: Date.now() - t0,
      runs,
      scratch: henv.root,
    };
  } finally {
    henv.dispose();
  }
}

interface PromptItem {
  type?: string;
  tools?: PromptTool[];
  content?: { text?: string }[];
}
interface PromptTool {
  type?: string;
  name?: string;
  tools?: PromptTool[];
  parameters?: { properties?: Record<string, { description?: string }> };
}

/** Roles offered by spawn_agent, skills listed, and all prompt text, from `codex debug prompt-input`. */
export function parsePromptInput(stdout: string): { roles: string[]; skills: string[]; text: string } {
  const items = JSON.parse(stdout) as PromptItem[];
  const flat = (ts: PromptTool[]): PromptTool[] => ts.flatMap((t) => (t.type === "namespace" ? flat(t.tools ?? []) : [t]));
  let roleDesc = "";
  const texts: string[] = [];
  for (const it of items) {
    if (it.type === "additional_tools")
      for (const t of flat(it.tools ?? [])) if (t.name === "spawn_agent") roleDesc = t.parameters?.properties?.agent_type?.description ?? "";
    for (const c of it.content ?? []) if (c.text) texts.push(c.text);
  }
  const text = texts.join("\n");
  const roles = [...roleDesc.matchAll(/^([A-Za-z0-9_.-]+): \{$/gm)].map((m) => m[1]!);
  const block = text.match(/<skills_instructions>[\s\S]*?<\/skills_instructions>/)?.[0] ?? "";
  const skills = [...block.matchAll(/^- ([^:\n]+): /gm)].map((m) => m[1]!.trim());
  return { roles, skills, text };
}

/** Group stderr into messages: continuation lines (indented, `|`, `^`, "N |") belong to the line before. */
function stderrBlocks(s: string): string[] {
  const out: string[] = [];
  for (const line of s.split("\n")) {
    if (!line.trim()) continue;
    const cont = /^\s/.test(line) || /^\d+\s*\|/.test(line) || /^[|^]/.test(line);
    if (cont && out.length) out[out.length - 1] += `\n${line}`;
    else out.push(line);
  }
  return out;
}
