// Run a real host against a scripted loopback model (see stubs.ts), in a scratch copy of a tree,
// so a test can check what the host let happen: files on disk, the host's structured output, the
// tool results it sent back to the "model", and (Claude Code) the hook inputs.
import fs from "node:fs";
import path from "node:path";
import { createHostEnv, type HostEnv } from "./env.js";
import { run, type RunResult } from "./run.js";
import { startAnthropicStub, startChatStub, startResponsesStub, type Conversation, type Stub } from "./stubs.js";

export interface ScriptedRun {
  env: HostEnv;
  stub: Stub;
  result: RunResult;
  /** parsed JSON lines of stdout (stream-json / --format json / --json) */
  events: Record<string, unknown>[];
  /** does <project>/<rel> exist now */
  exists(rel: string): boolean;
  /** remove the scratch folder */
  dispose(): void;
}

export interface ScriptedOptions {
  bin: string;
  /** tree copied into the scratch project */
  tree: string;
  /** the scripted model; a function gets the scratch project path (tools want absolute paths) */
  script: Conversation[] | ((project: string) => Conversation[]);
  /** extra CLI arguments (before the prompt) */
  args?: string[];
  prompt?: string;
  timeoutMs?: number;
  keep?: boolean;
  /** files to create in the project before the run (rel path -> content) */
  files?: Record<string, string>;
  /** runs after `files` are written, before the host starts (e.g. make a commit, add a remote) */
  setup?: (project: string, env: HostEnv) => void;
  /** extra environment variables for the host run */
  env?: Record<string, string>;
}

const scriptFor = (o: ScriptedOptions, project: string): Conversation[] => (typeof o.script === "function" ? o.script(project) : o.script);

function jsonLines(s: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const line of s.split("\n")) {
    if (!line.trim().startsWith("{")) continue;
    try {
      out.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      /* partial line */
    }
  }
  return out;
}

function finish(env: HostEnv, stub: Stub, result: RunResult): ScriptedRun {
  return {
    env,
    stub,
    result,
    events: jsonLines(result.stdout),
    exists: (rel) => fs.existsSync(path.join(env.project, rel)),
    dispose: () => env.dispose(),
  };
}

function seed(env: HostEnv, o: ScriptedOptions): void {
  for (const [rel, content] of Object.entries(o.files ?? {})) {
    const p = path.join(env.project, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, content);
  }
  Object.assign(env.env, o.env ?? {});
  o.setup?.(env.project, env);
}

// ---------------------------------------------------------------- Claude Code

export interface ClaudeScriptedRun extends ScriptedRun {
  /** PreToolUse hook inputs, when the tree's hook honours HARNESS_HOOK_LOG */
  hookInputs(): Record<string, unknown>[];
  /** final stream-json `result` message */
  final(): Record<string, unknown> | undefined;
}

/**
 * `claude -p <prompt> --output-format stream-json --verbose --permission-mode acceptEdits [args]`
 * against the Anthropic stub (API key auth with a dummy key; the project is pre-trusted).
 * acceptEdits lets allowed writes through without a prompt; hooks and deny rules still apply.
 */
export async function runClaudeScripted(o: ScriptedOptions): Promise<ClaudeScriptedRun> {
  const env = createHostEnv({ tree: o.tree, label: "cce", ...(o.keep !== undefined ? { keep: o.keep } : {}) });
  const stub = await startAnthropicStub(scriptFor(o, env.project));
  const hookLog = path.join(env.logs, "hooks.jsonl");
  Object.assign(env.env, { ANTHROPIC_BASE_URL: stub.baseUrl, ANTHROPIC_API_KEY: "sk-ant-harness-stub", HARNESS_HOOK_LOG: hookLog });
  seed(env, o);
  try {
    const result = await run(
      o.bin,
      ["-p", o.prompt ?? "go", "--output-format", "stream-json", "--verbose", "--permission-mode", "acceptEdits", ...(o.args ?? [])],
      { cwd: env.project, env: env.env, timeoutMs: o.timeoutMs ?? 120_000 },
    );
    const base = finish(env, stub, result);
    return {
      ...base,
      hookInputs: () => (fs.existsSync(hookLog) ? jsonLines(fs.readFileSync(hookLog, "utf8")) : []),
      final: () => base.events.filter((e) => e.type === "result").pop(),
    };
  } finally {
    await stub.close();
  }
}

// ---------------------------------------------------------------- OpenCode

function walkMd(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).filter((e) => e.isFile() && e.name.endsWith(".md")).map((e) => path.join(e.parentPath, e.name));
}

/** The OpenCode family: where each keeps its agents and its project config. */
interface V1Family {
  label: string;
  dir: string; // ".opencode"
  config: string; // "opencode.json"
}
const OPENCODE: V1Family = { label: "oce", dir: ".opencode", config: "opencode.json" };
const KILO: V1Family = { label: "kle", dir: ".kilo", config: "kilo.json" };

/**
 * `opencode run --pure --format json [args] <prompt>` with a stub provider merged into the
 * project's opencode.json (provider "stub", model "stub/stub"; @ai-sdk/openai-compatible is
 * bundled in the binary, nothing is installed). Providers named by agents' `model:` fields are
 * pointed at the stub as well.
 */
export function runOpenCodeScripted(o: ScriptedOptions): Promise<ScriptedRun> {
  return runV1Scripted(o, OPENCODE);
}

/** `kilo run --pure --format json [args] <prompt>`: Kilo 7.7.7 is an OpenCode fork; same stub wiring in kilo.json. */
export function runKiloScripted(o: ScriptedOptions): Promise<ScriptedRun> {
  return runV1Scripted(o, KILO);
}

async function runV1Scripted(o: ScriptedOptions, family: V1Family): Promise<ScriptedRun> {
  const env = createHostEnv({ tree: o.tree, label: family.label, ...(o.keep !== undefined ? { keep: o.keep } : {}) });
  const stub = await startChatStub(scriptFor(o, env.project));
  seed(env, o);
  const cfgPath = path.join(env.project, family.config);
  const cfg = fs.existsSync(cfgPath) ? (JSON.parse(fs.readFileSync(cfgPath, "utf8")) as Record<string, unknown>) : {};
  const model = (name: string) => ({ name, tool_call: true, limit: { context: 100000, output: 4096 } });
  // agents that name a model (`model: anthropic/claude-…` in <dir>/agents/*.md) reach the stub too:
  // each such provider is redefined as an OpenAI-compatible one at the stub's URL
  const routed: Record<string, { npm: string; name: string; options: unknown; models: Record<string, unknown> }> = {};
  for (const f of walkMd(path.join(env.project, family.dir))) {
    const m = fs.readFileSync(f, "utf8").match(/^model:\s*["']?([^/\s"']+)\/([^\s"']+)["']?\s*$/m);
    if (!m || m[1] === "stub") continue;
    routed[m[1]!] ??= { npm: "@ai-sdk/openai-compatible", name: `stub for ${m[1]}`, options: { baseURL: stub.baseUrl, apiKey: "harness-stub" }, models: {} };
    routed[m[1]!]!.models[m[2]!] = model(m[2]!);
  }
  Object.assign(cfg, {
    provider: {
      ...((cfg.provider as Record<string, unknown>) ?? {}),
      ...routed,
      stub: {
        npm: "@ai-sdk/openai-compatible",
        name: "Scripted stub",
        options: { baseURL: stub.baseUrl, apiKey: "harness-stub" },
        models: { stub: model("stub") },
      },
    },
    model: "stub/stub",
    small_model: "stub/stub",
    autoupdate: false,
    share: "disabled",
  });
  fs.writeFileSync(cfgPath, JSON.stringify(cfg, null, 2));
  try {
    const result = await run(o.bin, ["run", "--pure", "--format", "json", ...(o.args ?? []), o.prompt ?? "go"], {
      cwd: env.project,
      env: env.env,
      timeoutMs: o.timeoutMs ?? 120_000,
    });
    return finish(env, stub, result);
  } finally {
    await stub.close();
  }
}

// ---------------------------------------------------------------- Codex

export interface CodexScriptedOptions extends ScriptedOptions {
  /** TOML appended to the scratch $CODEX_HOME/config.toml (e.g. [permissions.<role>] profiles) */
  userConfig?: string;
  /**
   * project-relative launcher script to run instead of `codex exec` (e.g. `.codex/bin/jade.sh`, which
   * runs `$CODEX_BIN exec -c … "$@"`); it gets CODEX_BIN=<bin> and the same exec flags and prompt
   */
  launcher?: string;
}

/** The codex install prefix (…/.cache/hosts/openai__codex@<v>): a permission profile must let the
 *  sandbox read it, because the sandbox re-executes the codex binary (notes: scripted-model.md §3). */
export function codexInstallRoot(bin: string): string {
  return path.resolve(path.dirname(bin), "..", "..");
}

/**
 * `codex exec --json --skip-git-repo-check --disable unbounded_connection_retries [args] <prompt>`
 * with a stub model provider in the scratch $CODEX_HOME/config.toml (approval_policy = "never").
 * The scratch project lives under .cache/hosts-scratch (not /tmp), which Codex's sandbox needs.
 */
export async function runCodexScripted(o: CodexScriptedOptions): Promise<ScriptedRun> {
  const env = createHostEnv({ tree: o.tree, label: "cxe", ...(o.userConfig ? { codexUserConfig: o.userConfig } : {}), ...(o.keep !== undefined ? { keep: o.keep } : {}) });
  const stub = await startResponsesStub(scriptFor(o, env.project));
  // top-level keys must precede every table, the provider table can go last
  const cfgPath = path.join(env.codexHome, "config.toml");
  const head = ['model = "stub-model"', 'model_provider = "stub"', 'approval_policy = "never"', ""].join("\n");
  const provider = [
    "",
    "[model_providers.stub]",
    'name = "stub"',
    `base_url = ${JSON.stringify(stub.baseUrl)}`,
    'wire_api = "responses"',
    "request_max_retries = 0",
    "stream_max_retries = 0",
    "supports_websockets = false",
    "",
  ].join("\n");
  fs.writeFileSync(cfgPath, head + fs.readFileSync(cfgPath, "utf8") + provider);
  env.env.OPENAI_BASE_URL = stub.baseUrl;
  seed(env, o);
  const flags = ["--json", "--skip-git-repo-check", "--disable", "unbounded_connection_retries", ...(o.args ?? []), o.prompt ?? "go"];
  if (o.launcher) env.env.CODEX_BIN = o.bin;
  try {
    const result = o.launcher
      ? await run(path.join(env.project, o.launcher), flags, { cwd: env.project, env: env.env, timeoutMs: o.timeoutMs ?? 120_000 })
      : await run(o.bin, ["exec", ...flags], { cwd: env.project, env: env.env, timeoutMs: o.timeoutMs ?? 120_000 });
    return finish(env, stub, result);
  } finally {
    await stub.close();
  }
}
