// Factory Droid 0.225.2 against a generated tree, offline (../shared/reports/new-hosts.md §2).
//
// BYOK: the scratch HOME's ~/.factory/config.json names the loopback OpenAI Chat Completions stub as
// custom model "Stub" (`-m custom:Stub-0`), FACTORY_AIRGAP_ENABLED=1 keeps it off the vendor's hosts,
// and `droid exec --auto high` offers the write and shell tools. There is no list command: the loader
// runs headless prompts and reads what Droid sent the model: AGENTS.md in the context, each command
// expanded with its argument, and each role launcher (.factory/bin/<role>.sh) starting its own
// `droid exec` with exactly its tools and its prompt. Error and warning lines are complaints.
import fs from "node:fs";
import path from "node:path";
import { createHostEnv, type HostEnv } from "./env.js";
import { describeRun, run, stripAnsi, type RunResult } from "./run.js";
import { startChatStub, type Conversation, type Stub } from "./stubs.js";
import { walkFiles } from "./tree.js";
import type { LoadOptions, LoadResult } from "./types.js";

/** The custom model id the scratch config defines (custom:<display name>-<index>). */
export const DROID_MODEL = "custom:Stub-0";
/** Flags of every scripted run: the stub model, write and shell tools on, one JSON result. */
export const DROID_FLAGS = ["exec", "-m", DROID_MODEL, "--auto", "high", "-o", "json"];
const COMPLAINT = /error|warn|invalid|failed|could not|cannot|not found|unknown|skipped/i;

export function declaredDroid(tree: string): { agents: string[]; commands: string[] } {
  const agents = walkFiles(path.join(tree, ".factory", "roles"), (f) => f.endsWith(".md")).map((f) => path.basename(f, ".md"));
  const root = path.join(tree, ".factory", "commands");
  const commands = walkFiles(root, (f) => f.endsWith(".md")).map((f) => path.relative(root, f).replace(/\.md$/, ""));
  return { agents, commands };
}

/** Scratch HOME and env for droid against `baseUrl` (OpenAI-compatible, with /v1). */
export function prepareDroidHome(env: HostEnv, baseUrl: string): void {
  const f = path.join(env.home, ".factory");
  fs.mkdirSync(f, { recursive: true });
  const config = { custom_models: [{ model_display_name: "Stub", model: "stub-model", base_url: baseUrl, api_key: "harness-stub", provider: "generic-chat-completion-api", max_tokens: 4096 }] };
  fs.writeFileSync(path.join(f, "config.json"), JSON.stringify(config, null, 2));
  Object.assign(env.env, { FACTORY_AIRGAP_ENABLED: "1", HARNESS_DROID_MODEL: DROID_MODEL });
}

export function droidComplaints(out: string, project: string): string[] {
  const seen = new Set<string>();
  const res: string[] = [];
  for (const raw of stripAnsi(out).split("\n")) {
    const l = raw.trim().split(`${project}/`).join("").split(project).join(".");
    if (!l || l.startsWith("{") || !COMPLAINT.test(l) || seen.has(l)) continue;
    seen.add(l);
    res.push(l);
  }
  return res;
}

const bodyText = (stub: Stub): string => stub.log.filter((l) => l.request).map((l) => JSON.stringify(l.request!.body.messages ?? "")).join("\n");

export async function loadFactoryDroid(tree: string, opts: LoadOptions): Promise<LoadResult> {
  const t0 = Date.now();
  const timeoutMs = opts.timeoutMs ?? 90_000;
  const henv = createHostEnv({ tree, label: "fd", ...(opts.keep !== undefined ? { keep: opts.keep } : {}) });
  const declared = declaredDroid(tree);
  const complaints: string[] = [];
  const runs: RunResult[] = [];
  const stub = await startChatStub([{ name: "any", steps: [], final: "HARNESS-LOAD-OK" }]);
  prepareDroidHome(henv, stub.baseUrl);
  const go = async (cmd: string, args: string[]) => {
    stub.log.length = 0;
    const r = await run(cmd, args, { cwd: henv.project, env: { ...henv.env, DROID_BIN: opts.bin }, timeoutMs });
    runs.push(r);
    if (r.code !== 0 || r.timedOut || r.error) complaints.push(`[droid] ${path.basename(cmd)} ${args.at(-1)}: ${describeRun(r)}: ${stripAnsi(r.stdout + r.stderr).trim().slice(0, 400)}`);
    for (const c of droidComplaints(r.stderr, henv.project)) if (!/is running$/.test(c)) complaints.push(`[droid ${args.at(-1)}] ${c}`);
    return r;
  };
  let version = "";
  const agents: string[] = [];
  const commands: string[] = [];
  try {
    const ver = await run(opts.bin, ["--version"], { cwd: henv.project, env: henv.env, timeoutMs });
    runs.push(ver);
    version = ver.stdout.trim().split("\n").pop() ?? "";
    // 1. startup: settings (hooks), AGENTS.md
    await go(opts.bin, [...DROID_FLAGS, "harness load probe"]);
    if (!stub.log.some((l) => l.request?.tools.length)) complaints.push("[droid] no model request with tools was made (startup did not finish)");
    const md = path.join(henv.project, "AGENTS.md");
    if (fs.existsSync(md)) {
      const first = fs.readFileSync(md, "utf8").split("\n").map((l) => l.trim()).find((l) => l && !l.startsWith("<!--")) ?? "";
      if (first && !bodyText(stub).includes(JSON.stringify(first).slice(1, -1))) complaints.push("[droid] AGENTS.md is not in the model context");
    }
    // 2. each command expands with its argument
    for (const c of declared.commands) {
      const body = fs.readFileSync(path.join(henv.project, ".factory", "commands", `${c}.md`), "utf8").replace(/^---\n[\s\S]*?\n---\n/, "");
      const r = await go(opts.bin, [...DROID_FLAGS, `/${c} HARNESS-ARG-7`]);
      const sent = bodyText(stub);
      const probe = body.split("\n").map((l) => l.trim()).find((l) => l.length > 12) ?? "";
      if (r.code !== 0 || !sent.includes("HARNESS-ARG-7") || (probe && !sent.includes(JSON.stringify(probe.slice(0, 60)).slice(1, -1)))) complaints.push(`[droid /${c}] the command did not expand (exit ${r.code})`);
      else commands.push(c);
    }
    // 3. each role launcher: its own droid exec, its tools, its prompt, the brief
    for (const a of opts.agents ?? declared.agents) {
      const launcher = path.join(henv.project, ".factory", "bin", `${a}.sh`);
      if (!fs.existsSync(launcher)) { complaints.push(`[droid] role ${a} has no launcher .factory/bin/${a}.sh`); continue; }
      const r = await go(launcher, [`HARNESS-BRIEF-${a}`]);
      const q = stub.log.find((l) => l.request?.tools.length)?.request;
      const prompt = fs.readFileSync(path.join(henv.project, ".factory", "roles", `${a}.md`), "utf8").split("\n").find((l) => l.trim()) ?? "";
      const tools = (/--only-tools '([^']*)'/.exec(fs.readFileSync(launcher, "utf8"))?.[1] ?? "").split(",").filter(Boolean).sort();
      if (r.code !== 0 || !q) complaints.push(`[droid ${a}] the launcher made no model request (exit ${r.code})`);
      else if (!q.system.includes(prompt.trim()) && !JSON.stringify(q.body.messages).includes(JSON.stringify(prompt.trim()).slice(1, -1))) complaints.push(`[droid ${a}] the role prompt is not in the model context`);
      else if (!JSON.stringify(q.body.messages).includes(`HARNESS-BRIEF-${a}`)) complaints.push(`[droid ${a}] the brief did not reach the model`);
      else if (JSON.stringify([...q.tools].sort()) !== JSON.stringify(tools)) complaints.push(`[droid ${a}] offered tools ${[...q.tools].sort().join(",")}, the launcher names ${tools.join(",")}`);
      else agents.push(a);
    }
  } finally {
    await stub.close();
    henv.dispose();
  }
  return { host: "factory-droid", agents, commands, complaints, declared, version, durationMs: Date.now() - t0, runs, scratch: henv.root };
}

export interface DroidScriptedOptions {
  bin: string;
  tree: string;
  script: Conversation[] | ((project: string) => Conversation[]);
  prompt?: string;
  timeoutMs?: number;
  files?: Record<string, string>;
  setup?: (project: string, env: HostEnv) => void;
  /** run a launcher (.factory/bin/<name>.sh) with DROID_BIN=bin instead of droid itself */
  launcher?: string;
  env?: Record<string, string>;
}

export interface DroidScriptedRun {
  env: HostEnv;
  stub: Stub;
  result: RunResult;
  exists(rel: string): boolean;
  dispose(): void;
}

/** `droid exec -m custom:Stub-0 --auto high -o json <prompt>` (or through a launcher) against the scripted stub. */
export async function runDroidScripted(o: DroidScriptedOptions): Promise<DroidScriptedRun> {
  const env = createHostEnv({ tree: o.tree, label: "fde" });
  for (const [rel, content] of Object.entries(o.files ?? {})) {
    fs.mkdirSync(path.dirname(path.join(env.project, rel)), { recursive: true });
    fs.writeFileSync(path.join(env.project, rel), content);
  }
  o.setup?.(env.project, env);
  const stub = await startChatStub(typeof o.script === "function" ? o.script(env.project) : o.script);
  prepareDroidHome(env, stub.baseUrl);
  Object.assign(env.env, o.env ?? {});
  try {
    const args = [...DROID_FLAGS, o.prompt ?? "go"];
    const result = o.launcher
      ? await run(path.join(env.project, o.launcher), args, { cwd: env.project, env: { ...env.env, DROID_BIN: o.bin }, timeoutMs: o.timeoutMs ?? 150_000 })
      : await run(o.bin, args, { cwd: env.project, env: { ...env.env, DROID_BIN: o.bin }, timeoutMs: o.timeoutMs ?? 150_000 });
    return { env, stub, result, exists: (rel) => fs.existsSync(path.join(env.project, rel)), dispose: () => env.dispose() };
  } finally {
    await stub.close();
  }
}
