// Pi 0.73.1 against a generated tree, offline (../shared/reports/new-hosts.md §3).
//
// The scratch HOME holds ~/.pi/agent/models.json with one provider, "stub", on the OpenAI Chat
// Completions stub (a dummy key); every run is `pi --provider stub --model stub-model --mode json -p`.
// Pi makes no vendor request in -p mode; PI_OFFLINE=1 turns off its update check as well.
//
// There is no list command: the loader runs a headless prompt and reads what Pi sent the model: the
// extension's harness_subagent tool names every role (so the extension loaded), AGENTS.md is in the
// system prompt, and each prompt template expands with its argument. Extension load errors, template
// warnings and any "Error"/"Warning" line Pi prints are complaints.
import fs from "node:fs";
import path from "node:path";
import { createHostEnv, type HostEnv } from "./env.js";
import { describeRun, run, stripAnsi, type RunResult } from "./run.js";
import { startChatStub, type Conversation, type Stub } from "./stubs.js";
import { readFrontMatter, walkFiles } from "./tree.js";
import type { LoadOptions, LoadResult } from "./types.js";

const COMPLAINT = /Failed to load|Extension error|error loading|Invalid|Warning|Error|conflict|not found/i;
const NOISE = [/DeprecationWarning/, /punycode/, /ExperimentalWarning/];

export const PI_FLAGS = ["--provider", "stub", "--model", "stub-model", "--mode", "json", "-p"];

export function declaredPi(tree: string): { agents: string[]; commands: string[] } {
  const agents = walkFiles(path.join(tree, ".pi", "agents"), (f) => f.endsWith(".md")).map((f) => {
    const fm = readFrontMatter(fs.readFileSync(f, "utf8"));
    return typeof fm.data?.name === "string" ? fm.data.name : path.basename(f, ".md");
  });
  const commands = walkFiles(path.join(tree, ".pi", "prompts"), (f) => f.endsWith(".md")).map((f) => path.basename(f, ".md"));
  return { agents, commands };
}

/** Scratch HOME for pi against `baseUrl` (OpenAI-compatible, with /v1). */
export function preparePiHome(env: HostEnv, baseUrl: string): void {
  const dir = path.join(env.home, ".pi", "agent");
  fs.mkdirSync(dir, { recursive: true });
  const models = {
    providers: {
      stub: { baseUrl, api: "openai-completions", apiKey: "harness-stub", compat: { supportsDeveloperRole: false, supportsReasoningEffort: false }, models: [{ id: "stub-model" }] },
    },
  };
  fs.writeFileSync(path.join(dir, "models.json"), JSON.stringify(models, null, 2));
  Object.assign(env.env, { PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1" });
}

export function piComplaints(out: string, project: string): string[] {
  const seen = new Set<string>();
  const res: string[] = [];
  for (const raw of stripAnsi(out).split("\n")) {
    const l = raw.trim().split(`${project}/`).join("").split(project).join(".");
    if (!l || l.startsWith("{") || NOISE.some((re) => re.test(l)) || !COMPLAINT.test(l) || seen.has(l)) continue;
    seen.add(l);
    res.push(l);
  }
  return res;
}

/** The last request with tools: tool names, the harness_subagent tool's text, the system prompt and messages. */
function offered(stub: Stub): { tools: string[]; agentText: string; system: string; contents: string } {
  const main = stub.log.filter((l) => l.request && l.request.tools.length).pop()?.request;
  const body = (main?.body ?? {}) as { tools?: { function?: { name?: string } }[]; messages?: unknown };
  const tool = (body.tools ?? []).find((t) => t.function?.name === "harness_subagent");
  return { tools: main?.tools ?? [], agentText: JSON.stringify(tool ?? {}), system: main?.system ?? "", contents: JSON.stringify(body.messages ?? "") };
}

export async function loadPi(tree: string, opts: LoadOptions): Promise<LoadResult> {
  const t0 = Date.now();
  const timeoutMs = opts.timeoutMs ?? 90_000;
  const henv = createHostEnv({ tree, label: "pi", ...(opts.keep !== undefined ? { keep: opts.keep } : {}) });
  const declared = declaredPi(tree);
  const complaints: string[] = [];
  const runs: RunResult[] = [];
  const stub = await startChatStub([{ name: "any", steps: [], final: "HARNESS-LOAD-OK" }]);
  preparePiHome(henv, stub.baseUrl);
  const px = async (prompt: string) => {
    stub.log.length = 0;
    const r = await run(opts.bin, [...PI_FLAGS, prompt], { cwd: henv.project, env: henv.env, timeoutMs });
    runs.push(r);
    return r;
  };
  let version = "";
  const agents: string[] = [];
  const commands: string[] = [];
  try {
    const ver = await run(opts.bin, ["--version"], { cwd: henv.project, env: henv.env, timeoutMs });
    runs.push(ver);
    version = (ver.stdout + ver.stderr).trim().split("\n").pop() ?? "";
    // 1. startup: the extension, AGENTS.md, the templates; the model request shows what loaded
    const r = await px("harness load probe");
    if (r.code !== 0 || r.timedOut || r.error) complaints.push(`[pi] ${describeRun(r)}: ${stripAnsi(r.stdout + r.stderr).trim().slice(0, 400)}`);
    for (const c of piComplaints(r.stderr, henv.project)) complaints.push(`[pi] ${c}`);
    const o = offered(stub);
    if (!o.tools.length) complaints.push("[pi] no model request with tools was made (startup did not finish)");
    for (const a of declared.agents) {
      if (o.agentText.includes(`"${a}"`)) agents.push(a);
      else complaints.push(`[pi] role '${a}' is not offered to the model (harness_subagent)`);
    }
    const md = path.join(henv.project, "AGENTS.md");
    if (fs.existsSync(md)) {
      const first = fs.readFileSync(md, "utf8").split("\n").map((l) => l.trim()).find((l) => l.length > 12) ?? "";
      if (first && !o.system.includes(first)) complaints.push("[pi] AGENTS.md is not in the system prompt");
    }
    // 2. each prompt template expands with its argument
    const root = path.join(henv.project, ".pi", "prompts");
    for (const c of declared.commands) {
      const body = fs.readFileSync(path.join(root, `${c}.md`), "utf8").replace(/^---\n[\s\S]*?\n---\n/, "");
      const cr = await px(`/${c} HARNESS-ARG-7`);
      for (const x of piComplaints(cr.stderr, henv.project)) complaints.push(`[pi /${c}] ${x}`);
      const sent = offered(stub).contents;
      const probe = body.split("\n").map((l) => l.trim()).find((l) => l.length > 12 && !l.includes("$")) ?? "";
      if (cr.code !== 0 || !sent.includes("HARNESS-ARG-7") || (probe && !sent.includes(JSON.stringify(probe.slice(0, 60)).slice(1, -1))))
        complaints.push(`[pi /${c}] the template did not expand (exit ${cr.code})`);
      else commands.push(c);
    }
  } finally {
    await stub.close();
    henv.dispose();
  }
  return { host: "pi", agents, commands, complaints, declared, version, durationMs: Date.now() - t0, runs, scratch: henv.root };
}

export interface PiScriptedOptions {
  bin: string;
  tree: string;
  script: Conversation[] | ((project: string) => Conversation[]);
  args?: string[];
  prompt?: string;
  timeoutMs?: number;
  files?: Record<string, string>;
  setup?: (project: string, env: HostEnv) => void;
  /** run the pipeline's launcher (.pi/bin/<name>.sh) with PI_BIN=bin instead of pi itself */
  launcher?: string;
  env?: Record<string, string>;
}

export interface PiScriptedRun {
  env: HostEnv;
  stub: Stub;
  result: RunResult;
  exists(rel: string): boolean;
  dispose(): void;
}

/** `pi --provider stub --model stub-model --mode json -p [args] <prompt>` against the scripted stub. */
export async function runPiScripted(o: PiScriptedOptions): Promise<PiScriptedRun> {
  const env = createHostEnv({ tree: o.tree, label: "pie" });
  for (const [rel, content] of Object.entries(o.files ?? {})) {
    fs.mkdirSync(path.dirname(path.join(env.project, rel)), { recursive: true });
    fs.writeFileSync(path.join(env.project, rel), content);
  }
  Object.assign(env.env, o.env ?? {});
  o.setup?.(env.project, env);
  const stub = await startChatStub(typeof o.script === "function" ? o.script(env.project) : o.script);
  preparePiHome(env, stub.baseUrl);
  try {
    const args = [...PI_FLAGS, ...(o.args ?? []), o.prompt ?? "go"];
    const result = o.launcher
      ? await run(path.join(env.project, o.launcher), args, { cwd: env.project, env: { ...env.env, PI_BIN: o.bin }, timeoutMs: o.timeoutMs ?? 150_000 })
      : await run(o.bin, args, { cwd: env.project, env: env.env, timeoutMs: o.timeoutMs ?? 150_000 });
    return { env, stub, result, exists: (rel) => fs.existsSync(path.join(env.project, rel)), dispose: () => env.dispose() };
  } finally {
    await stub.close();
  }
}
