// GitHub Copilot CLI 1.0.102 against a generated tree, offline (notes: others.md §3.1, §5.1;
// antigravity-and-copilot-hooks.md §2).
//
// BYOK offline mode (COPILOT_OFFLINE=true, COPILOT_PROVIDER_BASE_URL=<loopback>/v1, COPILOT_MODEL)
// loads custom agents with no GitHub login. There is no agent list command: `copilot --agent
// __probe__ -p x` exits 1 with "No such agent: __probe__, available: a, b, …", and the log
// (--log-level all --log-dir) carries every loader message ("custom agent markdown frontmatter is
// malformed", "unknown field ignored", "Invalid hook configuration"). Skills: `copilot skill list
// --json`; instructions: `copilot instruction list`.
//
// The scratch HOME trusts the project persistently (~/.copilot/config.json trustedFolders): agent
// hooks and repository hooks load only in a trusted folder, and `--trust-folder` does not enable
// agent-scoped hooks.
import fs from "node:fs";
import path from "node:path";
import { parse as parseYaml, stringify as stringifyYaml } from "yaml";
import { createHostEnv, DEAD_URL, SCRATCH_ROOT, type HostEnv } from "./env.js";
import { describeRun, run, stripAnsi, type RunResult } from "./run.js";
import { startChatStub, type Conversation, type Stub } from "./stubs.js";
import { readFrontMatter, walkFiles } from "./tree.js";
import type { LoadOptions, LoadResult } from "./types.js";

/** The model name sent to the loopback provider; with a Claude-family name Copilot offers create/edit tools. */
export const COPILOT_STUB_MODEL = "claude-sonnet-4.6";

export interface CopilotDeclared {
  agents: string[];
  skills: string[];
}

export function declaredCopilot(tree: string): CopilotDeclared {
  const agents = walkFiles(path.join(tree, ".github", "agents"), (f) => f.endsWith(".md")).map((f) => {
    const fm = readFrontMatter(fs.readFileSync(f, "utf8"));
    return typeof fm.data?.name === "string" ? fm.data.name : path.basename(f).replace(/(\.agent)?\.md$/, "");
  });
  const skills = walkFiles(path.join(tree, ".github", "skills"), (f) => path.basename(f) === "SKILL.md").map((f) => {
    const fm = readFrontMatter(fs.readFileSync(f, "utf8"));
    return typeof fm.data?.name === "string" ? fm.data.name : path.basename(path.dirname(f));
  });
  return { agents, skills };
}

/**
 * The CLI unpacks itself (about 235 MB, 9 s) into $XDG_CACHE_HOME/copilot/pkg/<platform>/<version> on
 * the first run in a HOME. Every scratch HOME links that folder to one shared copy, unpacked once by
 * warmCopilot() (a `--version` run) before any other run uses it.
 */
const PKG_CACHE = path.join(SCRATCH_ROOT, "copilot-pkg-cache");
let warming: Promise<void> | undefined;
export function warmCopilot(bin: string): Promise<void> {
  warming ??= (async () => {
    const marker = path.join(PKG_CACHE, ".warm");
    if (fs.existsSync(marker)) return;
    const henv = createHostEnv({ label: "cpw" });
    try {
      fs.mkdirSync(PKG_CACHE, { recursive: true });
      const r = await run(bin, ["--version"], { cwd: henv.project, env: { ...henv.env, XDG_CACHE_HOME: PKG_CACHE }, timeoutMs: 120_000 });
      if (r.code !== 0) throw new Error(`copilot --version (unpacking its package): ${describeRun(r)}: ${r.stderr.slice(0, 300)}`);
      fs.writeFileSync(marker, "");
    } finally {
      henv.dispose();
    }
  })();
  return warming;
}

/** Scratch HOME: the project trusted persistently; BYOK offline env pointing at `baseUrl` (with /v1). */
export function prepareCopilotHome(env: HostEnv, baseUrl: string): void {
  if (fs.existsSync(path.join(PKG_CACHE, ".warm"))) fs.symlinkSync(path.join(PKG_CACHE, "copilot"), path.join(env.home, ".cache", "copilot"));
  const dir = path.join(env.home, ".copilot");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "config.json"), JSON.stringify({ trustedFolders: [env.project], banner: "never" }, null, 2));
  Object.assign(env.env, {
    COPILOT_OFFLINE: "true",
    COPILOT_PROVIDER_BASE_URL: baseUrl,
    COPILOT_PROVIDER_API_KEY: "harness-stub-key",
    COPILOT_MODEL: COPILOT_STUB_MODEL,
    COPILOT_AUTO_UPDATE: "false",
  });
}

const LOG_COMPLAINT = /\[ERROR\]|\[WARNING\]|malformed|unknown field ignored|Invalid hook configuration|failed to parse|failed to load/i;
const LOG_NOISE = [
  /network|fetch failed|ECONNREFUSED|127\.0\.0\.1:9|No model backend|telemetry|update check|auto-?update|mcp/i,
  /Failed to (fetch|load) (user|org|copilot_internal)/i,
  // offline BYOK session plumbing, not about the tree
  /Failed to reload managed hooks|event was not delivered to its registered session host/,
  /No such agent: __harness_probe__/,
];
/**
 * Front-matter fields other Copilot surfaces read and the CLI ignores by design (VS Code: `agents`,
 * `handoffs`, `argument-hint`; VS Code and the cloud agent: `target`). The adapter emits `agents`
 * on purpose (the orchestrator's allow-list in VS Code); any other unknown field stays a complaint.
 */
export const CLI_IGNORED_FIELDS = ["agents"];

export function copilotLogComplaints(logDir: string, project: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const f of walkFiles(logDir)) {
    for (const raw of fs.readFileSync(f, "utf8").split("\n")) {
      if (!LOG_COMPLAINT.test(raw) || LOG_NOISE.some((re) => re.test(raw))) continue;
      const ignored = raw.match(/unknown field ignored: (\S+)/);
      if (ignored && CLI_IGNORED_FIELDS.includes(ignored[1]!)) continue;
      const l = raw.replace(/^\S+Z\s*/, "").split(`${project}/`).join("").split(project).join(".").trim();
      if (!seen.has(l)) (seen.add(l), out.push(l));
    }
  }
  return out;
}

export async function loadCopilot(tree: string, opts: LoadOptions): Promise<LoadResult> {
  const t0 = Date.now();
  const timeoutMs = opts.timeoutMs ?? 60_000;
  await warmCopilot(opts.bin);
  const henv = createHostEnv({ tree, label: "cp", ...(opts.keep !== undefined ? { keep: opts.keep } : {}) });
  prepareCopilotHome(henv, `${DEAD_URL}/v1`);
  const declared = declaredCopilot(tree);
  const complaints: string[] = [];
  const runs: RunResult[] = [];
  const exec = async (args: string[]) => {
    const r = await run(opts.bin, args, { cwd: henv.project, env: henv.env, timeoutMs });
    runs.push(r);
    if (r.timedOut || r.error) complaints.push(`[copilot ${args[0]}] ${describeRun(r)}`);
    return r;
  };
  let version = "";
  let agents: string[] = [];
  let commands: string[] = [];
  try {
    const ver = await exec(["--version"]);
    version = stripAnsi(ver.stdout).trim().split("\n")[0] ?? "";
    const logDir = path.join(henv.logs, "copilot");
    const probe = await exec(["--no-auto-update", "--agent", "__harness_probe__", "-p", "x", "--log-level", "all", "--log-dir", logDir]);
    const text = stripAnsi(probe.stdout + "\n" + probe.stderr);
    const m = text.match(/No such agent: __harness_probe__, available: (.*)/);
    if (!m) complaints.push(`[copilot --agent] expected "No such agent: …, available: …", got ${describeRun(probe)}: ${text.trim().slice(0, 300)}`);
    else agents = m[1]!.split(",").map((s) => s.trim()).filter(Boolean);
    for (const a of declared.agents) if (!agents.includes(a)) complaints.push(`[copilot --agent] agent '${a}' is not available`);
    for (const c of copilotLogComplaints(logDir, henv.project)) complaints.push(`[copilot log] ${c}`);

    const sk = await exec(["skill", "list", "--json"]);
    const skText = stripAnsi(sk.stdout + sk.stderr);
    const failed = skText.split(/failed to load:?/i)[1];
    if (failed !== undefined) for (const l of failed.split("\n").map((x) => x.replace(/^\s*•\s*/, "").trim()).filter(Boolean)) complaints.push(`[copilot skill list] ${l}`);
    try {
      const json = sk.stdout.slice(0, sk.stdout.search(/^\S*✖/m) >= 0 ? sk.stdout.search(/^\S*✖/m) : undefined);
      const parsed = JSON.parse(json) as unknown;
      const list = (Array.isArray(parsed) ? parsed : ((parsed as { skills?: unknown[] }).skills ?? [])) as { name?: string }[];
      commands = list.map((s) => s.name ?? "").filter(Boolean);
    } catch {
      complaints.push(`[copilot skill list --json] unparsable output: ${skText.slice(0, 200)}`);
    }
    for (const s of declared.skills) if (!commands.includes(s)) complaints.push(`[copilot skill list] skill '${s}' did not load`);
  } finally {
    henv.dispose();
  }
  return { host: "copilot", agents, commands, complaints, declared: { agents: declared.agents, commands: declared.skills }, version, durationMs: Date.now() - t0, runs, scratch: henv.root };
}

export interface CopilotScriptedOptions {
  bin: string;
  tree: string;
  script: Conversation[] | ((project: string) => Conversation[]);
  args?: string[];
  prompt?: string;
  timeoutMs?: number;
  files?: Record<string, string>;
  setup?: (project: string, env: HostEnv) => void;
  /** project-relative launcher (e.g. `.github/copilot/bin/jade.sh`) run instead of the CLI; it gets COPILOT_BIN=<bin> and the prompt as its task */
  launcher?: string;
  /** trust the project persistently in the scratch HOME (default true; agent hooks need it) */
  trusted?: boolean;
}

/** `copilot --no-auto-update [args] -p <prompt>` against the chat-completions stub, with a log folder. */
export async function runCopilotScripted(o: CopilotScriptedOptions): Promise<{ env: HostEnv; stub: Stub; result: RunResult; logDir: string; exists(rel: string): boolean; dispose(): void }> {
  await warmCopilot(o.bin);
  const env = createHostEnv({ tree: o.tree, label: "cpe" });
  for (const [rel, content] of Object.entries(o.files ?? {})) {
    fs.mkdirSync(path.dirname(path.join(env.project, rel)), { recursive: true });
    fs.writeFileSync(path.join(env.project, rel), content);
  }
  o.setup?.(env.project, env);
  const stub = await startChatStub(typeof o.script === "function" ? o.script(env.project) : o.script);
  prepareCopilotHome(env, stub.baseUrl);
  if (o.trusted === false) fs.writeFileSync(path.join(env.home, ".copilot", "config.json"), JSON.stringify({ banner: "never" }, null, 2));
  const logDir = path.join(env.logs, "copilot");
  try {
    const common = ["--no-auto-update", ...(o.args ?? []), "--log-level", "all", "--log-dir", logDir];
    const result = o.launcher
      ? await run(path.join(env.project, o.launcher), [o.prompt ?? "go", ...common], { cwd: env.project, env: { ...env.env, COPILOT_BIN: o.bin }, timeoutMs: o.timeoutMs ?? 120_000 })
      : await run(o.bin, [...common, "-p", o.prompt ?? "go"], { cwd: env.project, env: env.env, timeoutMs: o.timeoutMs ?? 120_000 });
    return { env, stub, result, logDir, exists: (rel) => fs.existsSync(path.join(env.project, rel)), dispose: () => env.dispose() };
  } finally {
    await stub.close();
  }
}

/**
 * Takes the run controller's hooks out of the orchestrator agent (its front matter), keeping its guard:
 * for tests of the guard or the audit alone, whose scripted orchestrator runs no pipeline order.
 */
export function withoutController(project: string, orchestrator = "pebble"): void {
  const file = path.join(project, ".github", "agents", `${orchestrator}.agent.md`);
  const text = fs.readFileSync(file, "utf8");
  const m = /^---\n([\s\S]*?)\n---\n/.exec(text);
  if (!m) throw new Error(`${file}: no front matter`);
  const fm = parseYaml(m[1]!) as { hooks?: Record<string, { bash?: string }[]> };
  const hooks: Record<string, { bash?: string }[]> = {};
  for (const [event, list] of Object.entries(fm.hooks ?? {})) {
    const kept = list.filter((h) => !String(h.bash ?? "").includes("harness-controller.cjs"));
    if (kept.length) hooks[event] = kept;
  }
  if (JSON.stringify(hooks) === JSON.stringify(fm.hooks)) throw new Error(`${file}: no run controller hooks to take out`);
  fs.writeFileSync(file, `---\n${stringifyYaml({ ...fm, hooks })}---\n${text.slice(m[0].length)}`);
}
