// Gemini CLI 0.61.0 against a generated tree, offline (notes: codex-and-gemini-cli.md §2, §5).
//
// There is no list command: the loader runs `gemini -p` against a loopback stand-in of the Gemini
// API (GOOGLE_GEMINI_BASE_URL, a dummy key) and reads what the host sent the model: each agent is
// offered (invoke_agent's description names it), GEMINI.md is in the context, and every custom
// command expands when invoked. Loader messages ("Agent loading error", "Policy file error",
// "[FileCommandLoader]", "Invalid configuration") are complaints; the exit code stays 0 for most.
//
// Setup of the scratch HOME (what a user does once, interactively): API-key auth in
// ~/.gemini/settings.json, the project in ~/.gemini/trustedFolders.json, and every project agent
// acknowledged in ~/.gemini/acknowledgments/agents.json (sha256 of its file: unacknowledged project
// agents are silently absent in -p mode). Project policies are switched off in 0.61, so the tree's
// .gemini/policies/ is passed with --policy, as the emitted GEMINI.md tells the human to.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { parse as parseToml } from "smol-toml";
import { createHostEnv, type HostEnv } from "./env.js";
import { describeRun, run, stripAnsi, type RunResult } from "./run.js";
import { startGeminiStub, type Conversation, type Stub } from "./stubs.js";
import { readFrontMatter, walkFiles } from "./tree.js";
import type { LoadOptions, LoadResult } from "./types.js";

/** Lines of gemini's output that are complaints about the tree. */
const COMPLAINT = /Invalid configuration|^Error in|Agent loading error|Error registering|Skipping project agents|Policy file (error|warning)|FileCommandLoader|cannot be run|not running in a trusted|critical error|Please fix|Failed to|\[ERROR\]|\[WARN\]|Unrecognized key|Warning:/;
const NOISE = [/Basic terminal detected/, /256-color support/, /Ripgrep is not available/, /YOLO mode is enabled/, /^Loaded cached credentials/, /Failed to fetch .*(update|release)/i];

export interface GeminiDeclared {
  /** subagents: `name` of each .gemini/agents/*.md */
  agents: string[];
  /** commands: `/ns:cmd` names of .gemini/commands/**.toml */
  commands: string[];
  agentFiles: string[];
  policyDir: string | null;
}

export function declaredGemini(tree: string): GeminiDeclared {
  const agentFiles = walkFiles(path.join(tree, ".gemini", "agents"), (f) => f.endsWith(".md") && !path.basename(f).startsWith("_"));
  const agents = agentFiles.map((f) => {
    const fm = readFrontMatter(fs.readFileSync(f, "utf8"));
    return typeof fm.data?.name === "string" ? fm.data.name : path.basename(f, ".md");
  });
  const cmdRoot = path.join(tree, ".gemini", "commands");
  const commands = walkFiles(cmdRoot, (f) => f.endsWith(".toml")).map((f) => path.relative(cmdRoot, f).replace(/\.toml$/, "").split(path.sep).join(":"));
  const pol = path.join(tree, ".gemini", "policies");
  return { agents, commands, agentFiles: agentFiles.map((f) => path.relative(tree, f)), policyDir: fs.existsSync(pol) ? ".gemini/policies" : null };
}

/** Scratch HOME for gemini: API-key auth, the project trusted, its agents acknowledged. */
export function prepareGeminiHome(env: HostEnv, baseUrl: string): void {
  const g = path.join(env.home, ".gemini");
  fs.mkdirSync(path.join(g, "acknowledgments"), { recursive: true });
  fs.writeFileSync(path.join(g, "settings.json"), JSON.stringify({ security: { auth: { selectedType: "gemini-api-key" } }, general: { disableAutoUpdate: true, disableUpdateNag: true } }, null, 2));
  fs.writeFileSync(path.join(g, "trustedFolders.json"), JSON.stringify({ [env.project]: "TRUST_FOLDER" }));
  const acks: Record<string, string> = {};
  for (const f of walkFiles(path.join(env.project, ".gemini", "agents"), (x) => x.endsWith(".md") && !path.basename(x).startsWith("_"))) {
    const text = fs.readFileSync(f, "utf8");
    const fm = readFrontMatter(text);
    const name = typeof fm.data?.name === "string" ? fm.data.name : (text.match(/^name:\s*["']?([^"'\n]+?)["']?\s*$/m)?.[1] ?? null);
    if (name) acks[name] = crypto.createHash("sha256").update(text).digest("hex");
  }
  fs.writeFileSync(path.join(g, "acknowledgments", "agents.json"), JSON.stringify({ [env.project]: acks }, null, 2));
  Object.assign(env.env, { GEMINI_API_KEY: "harness-stub-key", GOOGLE_GEMINI_BASE_URL: baseUrl, GEMINI_CLI_NO_RELAUNCH: "true" });
}

/** `--policy <project>/.gemini/policies` when the tree has policies (0.61 ignores them otherwise). */
export function policyArgs(project: string): string[] {
  const dir = path.join(project, ".gemini", "policies");
  return fs.existsSync(dir) ? ["--policy", dir] : [];
}

export function geminiComplaints(out: string, project: string): string[] {
  const seen = new Set<string>();
  const res: string[] = [];
  for (const raw of stripAnsi(out).split("\n")) {
    const l = raw.trim().split(`${project}/`).join("").split(project).join(".");
    if (!l || NOISE.some((re) => re.test(l)) || !COMPLAINT.test(l) || seen.has(l)) continue;
    seen.add(l);
    res.push(l);
  }
  return res;
}

/** What the main request offered: invoke_agent's agent list (from its description) and the tools. */
function offered(stub: Stub): { tools: string[]; agentText: string; contents: string } {
  const main = stub.log.filter((l) => l.request && l.request.tools.length).pop()?.request;
  const body = (main?.body ?? {}) as { tools?: { functionDeclarations?: { name?: string; description?: string; parameters?: unknown; parametersJsonSchema?: unknown }[] }[]; contents?: unknown };
  const decls = (body.tools ?? []).flatMap((t) => t.functionDeclarations ?? []);
  const agentTool = decls.find((d) => d.name === "invoke_agent");
  return { tools: decls.map((d) => d.name ?? ""), agentText: JSON.stringify(agentTool ?? {}) + (main?.system ?? ""), contents: JSON.stringify(body.contents ?? "") };
}

export async function loadGeminiCli(tree: string, opts: LoadOptions): Promise<LoadResult> {
  const t0 = Date.now();
  const timeoutMs = opts.timeoutMs ?? 90_000;
  const henv = createHostEnv({ tree, label: "gm", ...(opts.keep !== undefined ? { keep: opts.keep } : {}) });
  const declared = declaredGemini(tree);
  const complaints: string[] = [];
  const runs: RunResult[] = [];
  const stub = await startGeminiStub([{ name: "any", steps: [], final: "HARNESS-LOAD-OK" }]);
  prepareGeminiHome(henv, stub.baseUrl);
  const gx = async (prompt: string) => {
    stub.log.length = 0;
    const r = await run(opts.bin, [...policyArgs(henv.project), "-p", prompt], { cwd: henv.project, env: henv.env, timeoutMs });
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

    // 1. startup: settings, GEMINI.md, agents, policies; the model request shows what loaded
    const r = await gx("harness load probe");
    if (r.code !== 0 || r.timedOut || r.error) complaints.push(`[gemini -p] ${describeRun(r)}: ${stripAnsi(r.stdout + r.stderr).trim().slice(0, 400)}`);
    for (const c of geminiComplaints(r.stdout + "\n" + r.stderr, henv.project)) complaints.push(`[gemini -p] ${c}`);
    const o = offered(stub);
    if (!o.tools.length) complaints.push("[gemini -p] no model request with tools was made (startup did not finish)");
    for (const a of declared.agents) {
      if (o.agentText.includes(a)) agents.push(a);
      else complaints.push(`[gemini -p] agent '${a}' is not offered to the model (invoke_agent)`);
    }
    const gm = path.join(henv.project, "GEMINI.md");
    if (fs.existsSync(gm)) {
      const first = fs.readFileSync(gm, "utf8").split("\n").map((l) => l.trim()).find(Boolean) ?? "";
      if (first && !o.contents.includes(JSON.stringify(first).slice(1, -1))) complaints.push("[gemini -p] GEMINI.md is not in the model context");
    }

    // 2. each command: commands load only when the prompt starts with "/"; check it expanded
    const cmdRoot = path.join(henv.project, ".gemini", "commands");
    for (const c of declared.commands) {
      const file = path.join(cmdRoot, ...c.split(":")) + ".toml";
      let prompt = "";
      try {
        prompt = String((parseToml(fs.readFileSync(file, "utf8")) as { prompt?: unknown }).prompt ?? "");
      } catch (e) {
        complaints.push(`[toml lint] ${path.relative(henv.project, file)}: ${(e as Error).message.split("\n")[0]}`);
      }
      const cr = await gx(`/${c} HARNESS-ARG-7`);
      for (const x of geminiComplaints(cr.stdout + "\n" + cr.stderr, henv.project)) complaints.push(`[gemini /${c}] ${x}`);
      const sent = offered(stub).contents;
      const probe = prompt.split("\n").map((l) => l.trim()).find((l) => l.length > 12) ?? "";
      if (cr.code !== 0 || !sent.includes("HARNESS-ARG-7") || (probe && !sent.includes(JSON.stringify(probe.slice(0, 60)).slice(1, -1))))
        complaints.push(`[gemini /${c}] the command did not expand (exit ${cr.code})`);
      else commands.push(c);
    }
  } finally {
    await stub.close();
    henv.dispose();
  }
  return { host: "gemini-cli", agents, commands, complaints, declared: { agents: declared.agents, commands: declared.commands }, version, durationMs: Date.now() - t0, runs, scratch: henv.root };
}

export interface GeminiScriptedOptions {
  bin: string;
  tree: string;
  script: Conversation[] | ((project: string) => Conversation[]);
  args?: string[];
  prompt?: string;
  timeoutMs?: number;
  files?: Record<string, string>;
  setup?: (project: string, env: HostEnv) => void;
}

/** `gemini --policy <project>/.gemini/policies [args] -p <prompt>` against the scripted stub. */
export async function runGeminiScripted(o: GeminiScriptedOptions): Promise<{ env: HostEnv; stub: Stub; result: RunResult; exists(rel: string): boolean; dispose(): void }> {
  const env = createHostEnv({ tree: o.tree, label: "gme" });
  for (const [rel, content] of Object.entries(o.files ?? {})) {
    fs.mkdirSync(path.dirname(path.join(env.project, rel)), { recursive: true });
    fs.writeFileSync(path.join(env.project, rel), content);
  }
  o.setup?.(env.project, env);
  const stub = await startGeminiStub(typeof o.script === "function" ? o.script(env.project) : o.script);
  prepareGeminiHome(env, stub.baseUrl);
  try {
    const result = await run(o.bin, [...policyArgs(env.project), ...(o.args ?? []), "-p", o.prompt ?? "go"], { cwd: env.project, env: env.env, timeoutMs: o.timeoutMs ?? 120_000 });
    return { env, stub, result, exists: (rel) => fs.existsSync(path.join(env.project, rel)), dispose: () => env.dispose() };
  } finally {
    await stub.close();
  }
}
