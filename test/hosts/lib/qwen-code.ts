// Qwen Code 0.24.4 against a generated tree, offline (../shared/reports/new-hosts.md §1).
//
// There is no list command: the loader runs a headless `qwen` prompt against the OpenAI Chat
// Completions stub (OPENAI_BASE_URL, a dummy key, --auth-type openai) and reads what the host sent
// the model: every project agent is offered (the agent tool's description names it), QWEN.md is in
// the context, and each custom command expands when invoked. Loader messages (a subagent file that
// does not parse, a command file that is skipped, invalid hooks) are complaints.
//
// The scratch HOME (what a user sets once): ~/.qwen/settings.json with OpenAI auth, no usage
// statistics or telemetry (otherwise it looks up a vendor host), and the managed-memory agent off
// (it would make extra model requests with write tools after each run).
import fs from "node:fs";
import path from "node:path";
import { createHostEnv, type HostEnv } from "./env.js";
import { describeRun, run, stripAnsi, type RunResult } from "./run.js";
import { startChatStub, type Conversation, type Stub } from "./stubs.js";
import { readFrontMatter, walkFiles } from "./tree.js";
import type { LoadOptions, LoadResult } from "./types.js";

/** Lines of qwen's output that are complaints about the tree. */
const COMPLAINT = /Failed to parse|Invalid format|Validation failed|Skipping invalid|invalid hooks|invalid (color|background|maxTurns|mcpServers|permissionMode)|Missing "(name|description)"|FileCommandLoader|Unknown hook|Matcher missing|\[ERROR\]|\[WARN\]|Warning:|Error:/i;
// [DEBUG] lines are --debug chatter; a project with no commit yet has no `git log` for the system prompt
const NOISE = [/EBADENGINE/, /ripgrep/i, /\[DEBUG\]/, /\[GIT\] Failed to get recent git status/, /DeprecationWarning/, /punycode/];

export interface QwenDeclared {
  agents: string[];
  commands: string[];
}

export function declaredQwen(tree: string): QwenDeclared {
  const agents = walkFiles(path.join(tree, ".qwen", "agents"), (f) => f.endsWith(".md")).map((f) => {
    const fm = readFrontMatter(fs.readFileSync(f, "utf8"));
    return typeof fm.data?.name === "string" ? fm.data.name : path.basename(f, ".md");
  });
  const root = path.join(tree, ".qwen", "commands");
  const commands = walkFiles(root, (f) => f.endsWith(".md") || f.endsWith(".toml")).map((f) => path.relative(root, f).replace(/\.(md|toml)$/, "").split(path.sep).join(":"));
  return { agents, commands };
}

/** Scratch HOME and env for qwen against `baseUrl` (OpenAI-compatible, with /v1). */
export function prepareQwenHome(env: HostEnv, baseUrl: string): void {
  const q = path.join(env.home, ".qwen");
  fs.mkdirSync(q, { recursive: true });
  const settings = {
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    memory: { enableManagedAutoMemory: false, enableManagedAutoDream: false },
    security: { auth: { selectedType: "openai" } },
    model: { name: "stub-model" },
  };
  fs.writeFileSync(path.join(q, "settings.json"), JSON.stringify(settings, null, 2));
  // the yolo notice is printed on every headless yolo run (the tests' sandbox is the scratch folder)
  Object.assign(env.env, { OPENAI_API_KEY: "harness-stub", OPENAI_BASE_URL: baseUrl, OPENAI_MODEL: "stub-model", QWEN_CODE_SUPPRESS_YOLO_WARNING: "1" });
}

/** Flags of every scripted run: OpenAI auth, write and shell tools on (yolo), JSON output. */
export const QWEN_FLAGS = ["--auth-type", "openai", "--approval-mode", "yolo", "-o", "json"];

export function qwenComplaints(out: string, project: string): string[] {
  const seen = new Set<string>();
  const res: string[] = [];
  for (const raw of stripAnsi(out).split("\n")) {
    const l = raw.trim().split(`${project}/`).join("").split(project).join(".");
    if (!l || l.startsWith("{") || l.startsWith("[{") || NOISE.some((re) => re.test(l)) || !COMPLAINT.test(l) || seen.has(l)) continue;
    seen.add(l);
    res.push(l);
  }
  return res;
}

/** The last request with tools: the tool names, the agent tool's text and the whole conversation. */
function offered(stub: Stub): { tools: string[]; agentText: string; contents: string } {
  const main = stub.log.filter((l) => l.request && l.request.tools.length).pop()?.request;
  const body = (main?.body ?? {}) as { tools?: { function?: { name?: string } }[]; messages?: unknown };
  const agentTool = (body.tools ?? []).find((t) => t.function?.name === "agent");
  return { tools: main?.tools ?? [], agentText: JSON.stringify(agentTool ?? {}), contents: JSON.stringify(body.messages ?? "") };
}

export async function loadQwenCode(tree: string, opts: LoadOptions): Promise<LoadResult> {
  const t0 = Date.now();
  const timeoutMs = opts.timeoutMs ?? 90_000;
  const henv = createHostEnv({ tree, label: "qw", ...(opts.keep !== undefined ? { keep: opts.keep } : {}) });
  const declared = declaredQwen(tree);
  const complaints: string[] = [];
  const runs: RunResult[] = [];
  const stub = await startChatStub([{ name: "any", steps: [], final: "HARNESS-LOAD-OK" }]);
  prepareQwenHome(henv, stub.baseUrl);
  const qx = async (prompt: string) => {
    stub.log.length = 0;
    const r = await run(opts.bin, [...QWEN_FLAGS, "--debug", prompt], { cwd: henv.project, env: henv.env, timeoutMs });
    runs.push(r);
    return r;
  };
  let version = "";
  const agents: string[] = [];
  const commands: string[] = [];
  try {
    const ver = await run(opts.bin, ["--version"], { cwd: henv.project, env: henv.env, timeoutMs });
    runs.push(ver);
    version = ver.stdout.trim().split("\n").pop() ?? "";
    // 1. startup: settings, QWEN.md, agents, hooks; the model request shows what loaded
    const r = await qx("harness load probe");
    if (r.code !== 0 || r.timedOut || r.error) complaints.push(`[qwen] ${describeRun(r)}: ${stripAnsi(r.stdout + r.stderr).trim().slice(0, 400)}`);
    for (const c of qwenComplaints(r.stderr + "\n" + debugLog(henv), henv.project)) complaints.push(`[qwen] ${c}`);
    const o = offered(stub);
    if (!o.tools.length) complaints.push("[qwen] no model request with tools was made (startup did not finish)");
    for (const a of declared.agents) {
      if (o.agentText.includes(`"${a}"`) || o.agentText.includes(`**${a}**`) || o.agentText.includes(`- ${a}:`) || new RegExp(`\\b${a}\\b`).test(o.agentText)) agents.push(a);
      else complaints.push(`[qwen] agent '${a}' is not offered to the model (agent tool)`);
    }
    const md = path.join(henv.project, "QWEN.md");
    if (fs.existsSync(md)) {
      const first = fs.readFileSync(md, "utf8").split("\n").map((l) => l.trim()).find(Boolean) ?? "";
      if (first && !o.contents.includes(JSON.stringify(first).slice(1, -1))) complaints.push("[qwen] QWEN.md is not in the model context");
    }
    // 2. each command expands with its argument
    const root = path.join(henv.project, ".qwen", "commands");
    for (const c of declared.commands) {
      const file = path.join(root, ...c.split(":")) + ".md";
      const body = fs.existsSync(file) ? fs.readFileSync(file, "utf8").replace(/^---\n[\s\S]*?\n---\n/, "") : "";
      const cr = await qx(`/${c} HARNESS-ARG-7`);
      for (const x of qwenComplaints(cr.stderr, henv.project)) complaints.push(`[qwen /${c}] ${x}`);
      const sent = offered(stub).contents;
      const probe = body.split("\n").map((l) => l.trim()).find((l) => l.length > 12) ?? "";
      if (cr.code !== 0 || !sent.includes("HARNESS-ARG-7") || (probe && !sent.includes(JSON.stringify(probe.slice(0, 60)).slice(1, -1))))
        complaints.push(`[qwen /${c}] the command did not expand (exit ${cr.code})`);
      else commands.push(c);
    }
  } finally {
    await stub.close();
    henv.dispose();
  }
  return { host: "qwen-code", agents, commands, complaints, declared, version, durationMs: Date.now() - t0, runs, scratch: henv.root };
}

/** qwen's debug log files in the scratch HOME (written with --debug), as one text. */
function debugLog(env: HostEnv): string {
  const dir = path.join(env.home, ".qwen", "debug");
  return walkFiles(dir, (f) => f.endsWith(".txt") || f.endsWith(".log")).map((f) => fs.readFileSync(f, "utf8")).join("\n");
}

export interface QwenScriptedOptions {
  bin: string;
  tree: string;
  script: Conversation[] | ((project: string) => Conversation[]);
  args?: string[];
  prompt?: string;
  timeoutMs?: number;
  files?: Record<string, string>;
  setup?: (project: string, env: HostEnv) => void;
  /** run the pipeline's launcher (.qwen/bin/<name>.sh) with QWEN_BIN=bin instead of qwen itself */
  launcher?: string;
  env?: Record<string, string>;
}

export interface QwenScriptedRun {
  env: HostEnv;
  stub: Stub;
  result: RunResult;
  exists(rel: string): boolean;
  dispose(): void;
}

/** `qwen --auth-type openai --approval-mode yolo -o json [args] <prompt>` against the scripted stub. */
export async function runQwenScripted(o: QwenScriptedOptions): Promise<QwenScriptedRun> {
  const env = createHostEnv({ tree: o.tree, label: "qwe" });
  for (const [rel, content] of Object.entries(o.files ?? {})) {
    fs.mkdirSync(path.dirname(path.join(env.project, rel)), { recursive: true });
    fs.writeFileSync(path.join(env.project, rel), content);
  }
  Object.assign(env.env, o.env ?? {});
  o.setup?.(env.project, env);
  const stub = await startChatStub(typeof o.script === "function" ? o.script(env.project) : o.script);
  prepareQwenHome(env, stub.baseUrl);
  try {
    const args = [...QWEN_FLAGS, ...(o.args ?? []), o.prompt ?? "go"];
    const result = o.launcher
      ? await run(path.join(env.project, o.launcher), args, { cwd: env.project, env: { ...env.env, QWEN_BIN: o.bin }, timeoutMs: o.timeoutMs ?? 150_000 })
      : await run(o.bin, args, { cwd: env.project, env: env.env, timeoutMs: o.timeoutMs ?? 150_000 });
    return { env, stub, result, exists: (rel) => fs.existsSync(path.join(env.project, rel)), dispose: () => env.dispose() };
  } finally {
    await stub.close();
  }
}
