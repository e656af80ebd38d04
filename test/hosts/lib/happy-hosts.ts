// The registered hosts as happy-path drivers (happy.ts): how each one starts a pipeline run or a role,
// which tool call each scenario action becomes, and how it reports a tool result. A new host adds one
// driver here and one line in HAPPY_DRIVERS.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { HostEnv } from "./env.js";
import type { HostDriver, HostSession, ToolResult } from "./happy.js";
import { ORCHESTRATOR, type Action, type Scenario, type Session, type Step } from "./scenario.js";
import { startAnthropicStub, startChatStub, startGeminiStub, startResponsesStub, type ModelRequest, type Step as StubStep } from "./stubs.js";
import { policyArgs, prepareGeminiHome } from "./gemini-cli.js";
import { prepareCopilotHome } from "./copilot.js";
import { prepareQwenHome, QWEN_FLAGS } from "./qwen-code.js";
import { preparePiHome, PI_FLAGS } from "./pi.js";
import { DROID_FLAGS, prepareDroidHome } from "./factory-droid.js";
import { DEAD_URL } from "./env.js";

const REQUEST = "harness happy-path scenario: add value(), which returns 42";
type Call = StubStep | ((req: ModelRequest) => StubStep);

const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const textOf = (v: unknown): string =>
  typeof v === "string" ? v : Array.isArray(v) ? v.map((x) => (x && typeof x === "object" && "text" in x ? String((x as { text: unknown }).text) : JSON.stringify(x))).join("\n") : JSON.stringify(v ?? "");

/** Build one host session: the main thread's calls and each delegated role's calls (plus `end`, a host's "I am done" call). */
function session(label: string, actor: string, main: Step[], s: Session, scenario: Scenario, toCalls: (st: Step) => Call[], end: Call[] = []): HostSession {
  const hs: HostSession = { label, actor, calls: { main: [] }, stepOfCall: { main: [] }, markers: { main: "" } };
  for (const st of main) {
    const calls = toCalls(st);
    hs.calls.main!.push(...calls);
    hs.stepOfCall.main!.push(st.id, ...calls.slice(1).map(() => null));
    if (st.action.kind === "delegate") {
      const role = st.action.role;
      const steps = s.delegated[role] ?? [];
      hs.calls[role] = [...steps.flatMap(toCalls), ...end];
      hs.stepOfCall[role] = steps.flatMap((x) => {
        const n = toCalls(x).length;
        return [x.id, ...Array.from({ length: n - 1 }, () => null)];
      });
      hs.markers[role] = scenario.markers[role]!;
    }
  }
  return hs;
}

// ---------------------------------------------------------------- Claude Code

/**
 * The folder a Claude Code agent writes in: a worktree-isolated agent's first message carries the git
 * context of its worktree ("Current branch: worktree-<name>", 2.1.332), and the worktree is
 * .claude/worktrees/<name>; any other agent works in the project. Only the system prompt and the first
 * message are read, never later tool results (the orchestrator may see a subagent's branch there).
 */
const claudeCwd = (req: ModelRequest, project: string) => {
  const first = Array.isArray(req.body.messages) ? req.body.messages[0] : undefined;
  const name = /Current branch: worktree-([A-Za-z0-9._-]+)/.exec(`${req.system}\n${JSON.stringify(first ?? "")}`)?.[1];
  return name ? path.join(project, ".claude", "worktrees", name) : project;
};

function claudeCall(project: string, a: Action): Call {
  switch (a.kind) {
    case "write":
      return (req) => ({ tool: "Write", input: { file_path: path.join(claudeCwd(req, project), a.path), content: a.content } });
    case "read":
      return { tool: "Read", input: { file_path: path.join(project, a.path) } };
    case "shell":
      return { tool: "Bash", input: { command: a.command, description: "scenario step" } };
    case "delegate":
      return (req) => ({
        tool: req.tools.includes("Agent") ? "Agent" : "Task",
        input: { description: `run ${a.role}`, prompt: `Do the ${a.role} stage.`, subagent_type: a.role, run_in_background: false },
      });
  }
}

/**
 * A host whose run controller (src/adapter/controller/) binds a pipeline run to one host session: the
 * scenario's sessions are ONE host session, started fresh and resumed for each later scenario session.
 * It opens by declaring the work kind that runs every stage; the session after a gated stage is the
 * human's "<entry> approve <gate>" reply, the others say <entry> again (the run continues). The probes
 * run alone in a fresh session, whose kind starts with the probed role's stage. A resumed conversation
 * holds every earlier tool result, so the main thread's calls are padded to the count it already made.
 */
interface ControllerRun {
  sid: string;
  mainCalls: number;
  prompt: string;
  fresh: boolean;
  previous: Session | null;
}
const newRun = (): ControllerRun => ({ sid: "", mainCalls: 0, prompt: "", fresh: true, previous: null });

function controllerPlan(st: ControllerRun, entry: string, s: Session, scenario: Scenario, toCalls: (st: Step) => Call[], kindStep: (kind: string) => Call): { hs: HostSession; next: ControllerRun } {
  const hs = session("main", ORCHESTRATOR, s.segments.flatMap((g) => g.steps), s, scenario, toCalls);
  const stageOf = (x: Session | null) => (x && x.id.startsWith("stage-") ? scenario.stages.find((y) => y.id === x.id.slice(6)) : undefined);
  const helpers: Call[] = [];
  let next: ControllerRun;
  if (s.id === "probes" || !st.mainCalls) {
    const delegated = Object.keys(s.delegated)[0];
    const first = s.id === "probes" && delegated ? scenario.stages.find((x) => x.role === delegated)?.id : undefined;
    const kind = first ? scenario.kinds.find((k) => k.stages[0] === first) : [...scenario.kinds].sort((a, b) => b.stages.length - a.stages.length)[0];
    next = { sid: randomUUID(), mainCalls: 0, prompt: `${entry} ${REQUEST}`, fresh: true, previous: s };
    if (kind) helpers.push(kindStep(kind.id));
  } else {
    const gate = stageOf(st.previous)?.gate;
    next = { ...st, prompt: gate ? `${entry} approve ${gate}` : `${entry} ${REQUEST}`, fresh: false, previous: s };
  }
  const pad = next.mainCalls;
  hs.calls.main = [...Array.from({ length: pad }, (): Call => ({ text: "(an earlier run)" })), ...helpers, ...hs.calls.main!];
  hs.stepOfCall.main = [...Array.from({ length: pad + helpers.length }, () => null), ...hs.stepOfCall.main!];
  next.mainCalls = hs.calls.main.length;
  return { hs, next };
}

let claudeRun: ControllerRun = newRun();
const kindStep = (kind: string): Call => ({ tool: "Bash", input: { command: `: harness kind ${kind}`, description: "declare the work kind" } });

function claudePlan(s: Session, scenario: Scenario, project: string): HostSession[] {
  const { hs, next } = controllerPlan(claudeRun, `/${scenario.name}`, s, scenario, (st) => [claudeCall(project, st.action)], kindStep);
  claudeRun = next;
  return [hs];
}

export const claudeDriver: HostDriver = {
  host: "claude-code",
  label: "cc",
  controllerRunsChecks: true,
  startStub: startAnthropicStub,
  prepare(env: HostEnv) {
    Object.assign(env.env, { ANTHROPIC_API_KEY: "sk-ant-harness-stub", HARNESS_HOOK_LOG: path.join(env.logs, "hooks.jsonl") });
    claudeRun = newRun();
  },
  useStub(env, stub) {
    env.env.ANTHROPIC_BASE_URL = stub.baseUrl;
  },
  // the pipeline command runs main-isolation roles in the orchestrator's own thread
  plan: claudePlan,
  command: () => ({ bin: "", args: ["-p", claudeRun.prompt, ...(claudeRun.fresh ? ["--session-id", claudeRun.sid] : ["--resume", claudeRun.sid]), "--output-format", "stream-json", "--verbose", "--permission-mode", "acceptEdits"] }),
  results(body) {
    const out: ToolResult[] = [];
    for (const m of asArray(body.messages) as { content?: unknown }[])
      for (const c of asArray(m.content) as { type?: string; content?: unknown; is_error?: boolean }[])
        if (c.type === "tool_result") out.push({ text: textOf(c.content), isError: c.is_error === true });
    return out;
  },
  // a command that ran and failed comes back as an error starting "Exit code N"; refusals (hook, rule, prompt) do not
  shellRan: (r) => !r.isError || /^Exit code \d+/.test(r.text),
  worktrees: (project) => {
    const dir = path.join(project, ".claude", "worktrees");
    return fs.existsSync(dir) ? fs.readdirSync(dir).map((d) => path.join(dir, d)) : [];
  },
};

// ---------------------------------------------------------------- OpenCode

function openCodeCall(project: string, a: Action): Call {
  switch (a.kind) {
    case "write":
      return { tool: "write", input: { filePath: path.join(project, a.path), content: a.content } };
    case "read":
      return { tool: "read", input: { filePath: path.join(project, a.path) } };
    case "shell":
      return { tool: "bash", input: { command: a.command, description: "scenario step" } };
    case "delegate":
      return { tool: "task", input: { description: `run ${a.role}`, prompt: `Do the ${a.role} stage.`, subagent_type: a.role } };
  }
}

/** OpenCode's refusals: a deny rule, or an ask that `opencode run` rejects. */
export const OPENCODE_REFUSAL = /prevents you from using this specific tool call|rejected permission|user rejected|auto-reject/i;

export const openCodeDriver: HostDriver = {
  host: "opencode",
  label: "oc",
  startStub: startChatStub,
  prepare() {},
  useStub(env, stub) {
    const cfgPath = path.join(env.project, "opencode.json");
    const cfg = fs.existsSync(cfgPath) ? (JSON.parse(fs.readFileSync(cfgPath, "utf8")) as Record<string, unknown>) : {};
    const model = (name: string) => ({ name, tool_call: true, limit: { context: 100000, output: 4096 } });
    const routed: Record<string, { npm: string; name: string; options: unknown; models: Record<string, unknown> }> = {};
    const dir = path.join(env.project, ".opencode", "agents");
    for (const f of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
      const m = fs.readFileSync(path.join(dir, f), "utf8").match(/^model:\s*["']?([^/\s"']+)\/([^\s"']+)["']?\s*$/m);
      if (!m || m[1] === "stub") continue;
      routed[m[1]!] ??= { npm: "@ai-sdk/openai-compatible", name: `stub for ${m[1]}`, options: { baseURL: stub.baseUrl, apiKey: "harness-stub" }, models: {} };
      routed[m[1]!]!.models[m[2]!] = model(m[2]!);
    }
    Object.assign(cfg, {
      provider: { ...((cfg.provider as Record<string, unknown>) ?? {}), ...routed, stub: { npm: "@ai-sdk/openai-compatible", name: "Scripted stub", options: { baseURL: stub.baseUrl, apiKey: "harness-stub" }, models: { stub: model("stub") } } },
      model: "stub/stub",
      small_model: "stub/stub",
      autoupdate: false,
      share: "disabled",
    });
    fs.writeFileSync(cfgPath, JSON.stringify(cfg, null, 2));
  },
  // a main-isolation role is its own primary agent: each main-thread actor is its own `opencode run`
  plan: (s, scenario, project) => s.segments.map((g) => session(g.actor, g.actor, g.steps, s, scenario, (st) => [openCodeCall(project, st.action)])),
  command: (hs, scenario) => ({ bin: "", args: ["run", "--pure", "--format", "json", "--agent", hs.actor === ORCHESTRATOR ? scenario.name : hs.actor, REQUEST] }),
  results: (body) => (asArray(body.messages) as { role?: string; content?: unknown }[]).filter((m) => m.role === "tool").map((m) => ({ text: textOf(m.content) })),
  shellRan: (r) => !OPENCODE_REFUSAL.test(r.text),
  timeoutMs: 240_000,
};

/** Kilo 7.7.7, OpenCode's fork: the same run and refusals, its own .kilo/ folder and kilo.json. */
export const kiloDriver: HostDriver = {
  ...openCodeDriver,
  host: "kilo",
  label: "kl",
  useStub(env, stub) {
    const cfgPath = path.join(env.project, "kilo.json");
    const cfg = fs.existsSync(cfgPath) ? (JSON.parse(fs.readFileSync(cfgPath, "utf8")) as Record<string, unknown>) : {};
    const model = (name: string) => ({ name, tool_call: true, limit: { context: 100000, output: 4096 } });
    const routed: Record<string, { npm: string; name: string; options: unknown; models: Record<string, unknown> }> = {};
    const dir = path.join(env.project, ".kilo", "agents");
    for (const f of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
      const m = fs.readFileSync(path.join(dir, f), "utf8").match(/^model:\s*["']?([^/\s"']+)\/([^\s"']+)["']?\s*$/m);
      if (!m || m[1] === "stub") continue;
      routed[m[1]!] ??= { npm: "@ai-sdk/openai-compatible", name: `stub for ${m[1]}`, options: { baseURL: stub.baseUrl, apiKey: "harness-stub" }, models: {} };
      routed[m[1]!]!.models[m[2]!] = model(m[2]!);
    }
    Object.assign(cfg, {
      provider: { ...((cfg.provider as Record<string, unknown>) ?? {}), ...routed, stub: { npm: "@ai-sdk/openai-compatible", name: "Scripted stub", options: { baseURL: stub.baseUrl, apiKey: "harness-stub" }, models: { stub: model("stub") } } },
      model: "stub/stub",
      small_model: "stub/stub",
      autoupdate: false,
      share: "disabled",
    });
    fs.writeFileSync(cfgPath, JSON.stringify(cfg, null, 2));
  },
};

// ---------------------------------------------------------------- Codex

/** the agent the last spawn_agent started: a resumed session's request also holds the agents of earlier runs */
const agentId = (req: ModelRequest) => [...JSON.stringify(req.body).matchAll(/agent_id\\?"\s*:\s*\\?"([0-9a-f-]+)/g)].pop()?.[1] ?? "missing";

function codexCalls(project: string, a: Action): Call[] {
  const exec = (cmd: string): Call => (req) =>
    req.tools.includes("exec_command") ? { tool: "exec_command", input: { cmd, workdir: project } } : { tool: "shell", input: { command: ["bash", "-lc", cmd], workdir: project } };
  switch (a.kind) {
    case "write": {
      const body = a.content.replace(/\n$/, "").split("\n").map((l) => `+${l}`).join("\n");
      return [exec(`apply_patch <<'PATCH'\n*** Begin Patch\n*** Add File: ${path.join(project, a.path)}\n${body}\n*** End Patch\nPATCH`)];
    }
    case "read":
      return [exec(`cat ${a.path}`)];
    case "shell":
      return [exec(a.command)];
    case "delegate":
      return [
        { tool: "spawn_agent", namespace: "multi_agent_v1", input: { message: `Do the ${a.role} stage.`, agent_type: a.role, fork_turns: "none" } },
        (req) => ({ tool: "wait_agent", namespace: "multi_agent_v1", input: { targets: [agentId(req)], timeout_ms: 120000 } }),
      ];
  }
}

/** Codex refusals: a rule, an approval nobody can give, the sandbox (read-only paths), a rejected patch, the guard hook. */
export const CODEX_REFUSAL = /exec_command failed|rejected:|Rejected\(|approval|Read-only file system|Operation not permitted|patch rejected|Permission denied|blocked by PreToolUse hook/i;

function codexConfig(env: HostEnv, baseUrl: string): void {
  const cfgPath = path.join(env.codexHome, "config.toml");
  const base = fs.readFileSync(cfgPath, "utf8").replace(/^# harness-happy[\s\S]*?# end harness-happy\n/m, "").replace(/\n\[model_providers\.stub\][\s\S]*$/, "\n");
  const head = ["# harness-happy", 'model = "stub-model"', 'model_provider = "stub"', 'approval_policy = "never"', "# end harness-happy", ""].join("\n");
  const provider = ["", "[model_providers.stub]", 'name = "stub"', `base_url = ${JSON.stringify(baseUrl)}`, 'wire_api = "responses"', "request_max_retries = 0", "stream_max_retries = 0", "supports_websockets = false", ""].join("\n");
  fs.writeFileSync(cfgPath, head + base + provider);
  env.env.OPENAI_BASE_URL = baseUrl;
}

const codexResults = (body: Record<string, unknown>): ToolResult[] =>
  (asArray(body.input) as { type?: string; output?: unknown }[]).filter((i) => /_output$/.test(i.type ?? "")).map((i) => ({ text: textOf(i.output) }));
const codexRan = (r: ToolResult) => !CODEX_REFUSAL.test(r.text);
// hooks trusted, as README asks a team to do once (/hooks): the stage-end audit runs
const CODEX_FLAGS = ["--json", "--skip-git-repo-check", "--disable", "unbounded_connection_retries", "--dangerously-bypass-hook-trust"];

/**
 * `$<pipeline>` in `codex exec`: the orchestrator's session; main-isolation roles follow their skill in it;
 * subagents via spawn_agent. Codex's run controller (adapters/codex/controller.ts) binds the run to one
 * session: later scenario sessions are `codex exec resume <id>` (the id is the name of the controller's
 * state file: Codex's hook env names no session, the hooks' input does).
 */
let codexRun: ControllerRun = newRun();
let codexKnown = new Set<string>();
const codexStates = (project: string): string[] => {
  const dir = path.join(project, ".harness", "controller");
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith(".json")).map((f) => f.replace(/\.json$/, "")) : [];
};
export const codexDriver: HostDriver = {
  host: "codex",
  label: "cx",
  controllerRunsChecks: true,
  startStub: startResponsesStub,
  prepare() {
    codexRun = newRun();
    codexKnown = new Set();
  },
  useStub: (env, stub) => codexConfig(env, stub.baseUrl),
  plan(s, scenario, project) {
    const { hs, next } = controllerPlan(codexRun, `$${scenario.name}`, s, scenario, (st) => codexCalls(project, st.action), (kind) => codexCalls(project, { kind: "shell", command: `: harness kind ${kind}` })[0]!);
    codexRun = next;
    return [hs];
  },
  command(_hs, _scenario, env) {
    if (codexRun.fresh) {
      // the session this fresh run starts is the state file it adds
      codexKnown = new Set(codexStates(env.project));
      codexRun.sid = "";
      return { bin: "", args: ["exec", ...CODEX_FLAGS, codexRun.prompt] };
    }
    if (!codexRun.sid) codexRun.sid = codexStates(env.project).find((id) => !codexKnown.has(id)) ?? "missing-session";
    return { bin: "", args: ["exec", "resume", codexRun.sid, ...CODEX_FLAGS, codexRun.prompt] };
  },
  results: codexResults,
  shellRan: codexRan,
};

/** Each role alone through its launcher `.codex/bin/<role>.sh` (its own profile enforced); the orchestrator's steps are not part of this route. */
export const codexLauncherDriver: HostDriver = {
  ...codexDriver,
  label: "cxl",
  // each role alone, with no $<pipeline> prompt: no run to hold
  controllerRunsChecks: false,
  plan(s, scenario, project) {
    const out: HostSession[] = [];
    for (const g of s.segments) {
      if (g.actor !== ORCHESTRATOR) out.push(session(g.actor, g.actor, g.steps, s, scenario, (st) => codexCalls(project, st.action)));
      for (const st of g.steps)
        if (st.action.kind === "delegate") {
          const role = st.action.role;
          out.push(session(role, role, s.delegated[role] ?? [], s, scenario, (x) => codexCalls(project, x.action)));
        }
    }
    return out;
  },
  command: (hs, _scenario, env) => ({ bin: path.join(env.project, ".codex", "bin", `${hs.actor}.sh`), args: [...CODEX_FLAGS, REQUEST] }),
};

// ---------------------------------------------------------------- Gemini CLI

function geminiCall(a: Action): Call {
  switch (a.kind) {
    case "write":
      return { tool: "write_file", input: { file_path: a.path, content: a.content } };
    case "read":
      return { tool: "read_file", input: { file_path: a.path } };
    case "shell":
      return { tool: "run_shell_command", input: { command: a.command, description: "scenario step" } };
    case "delegate":
      return { tool: "invoke_agent", input: { agent_name: a.role, prompt: `Do the ${a.role} stage.` } };
  }
}

/** Gemini CLI's refusals: a policy deny, a confirmation nobody can give headless, a hook's (the run controller's) block. */
export const GEMINI_REFUSAL = /denied by policy|policy (?:engine )?(?:denied|blocked)|requires? (?:user )?confirmation|not allowed|was cancelled|rejected|Tool execution denied|Tool execution blocked/i;

/** the calls a Gemini request's history answered: 0.61 repeats each function response of a resumed session, so it counts distinct call ids */
function geminiAnswered(req: ModelRequest): number {
  const ids = new Set<string>();
  for (const c of asArray(req.body.contents) as { parts?: unknown }[])
    for (const p of asArray(c.parts) as { functionResponse?: { id?: string } }[]) if (p.functionResponse) ids.add(p.functionResponse.id ?? `#${ids.size}`);
  return ids.size;
}
/** the conversation's calls, each request answered with the call after the distinct calls it answered (see geminiAnswered) */
function byGeminiCalls(calls: Call[]): Call[] {
  const pick = (req: ModelRequest): StubStep | undefined => {
    const c = calls[geminiAnswered(req)];
    return typeof c === "function" ? c(req) : c;
  };
  // the stub indexes by the repeated count, which only grows: every slot asks pick; past the end, the conversation's final text
  return Array.from({ length: 4 * calls.length + 400 }, () => (req: ModelRequest) => pick(req) ?? { text: "Status: done" });
}

/**
 * `/<pipeline>` in `gemini -p` with the policy folder, as GEMINI.md says; subagents via invoke_agent,
 * ending with complete_task. The run controller binds the run to one session: later scenario sessions
 * are `gemini --resume <id>` (controllerPlan).
 */
let geminiRun: ControllerRun = newRun();
export const geminiDriver: HostDriver = {
  host: "gemini-cli",
  label: "gm",
  controllerRunsChecks: true,
  startStub: startGeminiStub,
  prepare() {
    geminiRun = newRun();
  },
  useStub: (env, stub) => prepareGeminiHome(env, stub.baseUrl),
  plan(s, scenario) {
    const { hs, next } = controllerPlan(geminiRun, `/${scenario.name}`, s, scenario, (st) => [geminiCall(st.action)], (kind) => geminiCall({ kind: "shell", command: `: harness kind ${kind}` }));
    geminiRun = next;
    for (const [name, calls] of Object.entries(hs.calls)) {
      // a subagent ends with complete_task, its report's status line first (the controller reads it)
      const all = name === "main" ? calls : [...calls, { tool: "complete_task", input: { result: `Status: done (${name})` } }];
      hs.calls[name] = byGeminiCalls(all);
    }
    return [hs];
  },
  command: (_hs, _scenario, env) => ({ bin: "", args: [...policyArgs(env.project), ...(geminiRun.fresh ? ["--session-id", geminiRun.sid] : ["--resume", geminiRun.sid]), "-p", geminiRun.prompt] }),
  results(body) {
    type Part = { functionResponse?: { id?: string; response?: unknown } };
    const seen = new Set<string>();
    return (asArray(body.contents) as { parts?: unknown }[])
      .flatMap((c) => asArray(c.parts) as Part[])
      .filter((p) => p.functionResponse && !(p.functionResponse.id && seen.has(p.functionResponse.id)) && (p.functionResponse.id ? seen.add(p.functionResponse.id) : true))
      .map((p) => ({ text: textOf(p.functionResponse!.response) }));
  },
  shellRan: (r) => !GEMINI_REFUSAL.test(r.text),
  timeoutMs: 240_000,
};

// ---------------------------------------------------------------- GitHub Copilot CLI

function copilotCall(project: string, a: Action): Call {
  switch (a.kind) {
    case "write":
      return { tool: "create", input: { path: path.join(project, a.path), file_text: a.content } };
    case "read":
      return { tool: "view", input: { path: path.join(project, a.path) } };
    case "shell":
      return { tool: "bash", input: { command: a.command, description: "scenario step", mode: "sync", initial_wait: 60 } };
    case "delegate":
      return { tool: "task", input: { agent_type: a.role, description: `run ${a.role}`, prompt: `Do the ${a.role} stage.`, mode: "sync", name: `${a.role}-stage` } };
  }
}

/** Copilot's refusals: a guard hook, a permission flag, an approval nobody can give headless, a tool the agent does not have. */
export const COPILOT_REFUSAL = /Denied by preToolUse hook|denied due to the following rules|Permission denied because no interactive user response|Tool '[^']+' does not exist/i;

/** The orchestrator agent's name (adapters/copilot orchestratorName): the pipeline's, unless a role has it. */
const copilotOrchestrator = (scenario: Scenario) => (scenario.roles.some((r) => r.id === scenario.name) ? `${scenario.name}-orchestrator` : scenario.name);

/**
 * The launchers, as AGENTS.md says to start Copilot: the orchestrator through .github/copilot/bin/<pipeline>.sh
 * (subagent roles via the task tool), each main-session role as its own session through
 * .github/copilot/bin/<role>.sh (the human starts it when the orchestrator stops). The orchestrator's
 * hooks are the run controller's, so its sessions are one run: the first declares the work kind, every
 * later one resumes it (--resume=<id>), after a gated stage with the human's "approve <gate>".
 * The scratch HOME trusts the project persistently, as a user does once: agent hooks need it.
 */
let copilotRun: ControllerRun = newRun();
let copilotKnown = new Set<string>();
let copilotPrev: Session | null = null;
/** the sessions with a run controller state in the project (the controller names its state file after the session) */
const copilotStates = (project: string): string[] => codexStates(project);
export const copilotDriver: HostDriver = {
  host: "copilot",
  label: "cp",
  controllerRunsChecks: true,
  startStub: startChatStub,
  prepare: (env) => {
    prepareCopilotHome(env, `${DEAD_URL}/v1`);
    copilotRun = newRun();
    copilotKnown = new Set();
    copilotPrev = null;
  },
  useStub(env, stub) {
    env.env.COPILOT_PROVIDER_BASE_URL = stub.baseUrl;
  },
  plan(s, scenario, project) {
    // the orchestrator makes the folders a stage's files go in (Copilot's create tool does not), as its
    // prompt says: before a delegation, and before a main-session role's own session
    const folders = (steps: Step[]) => [...new Set(steps.flatMap((x) => (x.action.kind === "write" ? [path.posix.dirname(x.action.path)] : [])).filter((d) => d !== "."))];
    const mkdirs = (steps: Step[]): Call[] => folders(steps).map((d) => copilotCall(project, { kind: "shell", command: `mkdir -p ${d}` }));
    const toCalls = (st: Step): Call[] => (st.action.kind === "delegate" ? [...mkdirs(s.delegated[st.action.role] ?? []), copilotCall(project, st.action)] : [copilotCall(project, st.action)]);
    const out: HostSession[] = [];
    let first = true;
    /** one resumed turn of the controlled orchestrator session */
    const controlled = (label: string, steps: Step[], extra: Call[]): HostSession => {
      const hs = session(label, ORCHESTRATOR, steps, s, scenario, toCalls);
      hs.calls.main!.unshift(...extra);
      hs.stepOfCall.main!.unshift(...extra.map(() => null));
      const helpers: Call[] = [];
      const stageOf = (x: Session | null) => (x && x.id.startsWith("stage-") ? scenario.stages.find((y) => y.id === x.id.slice(6)) : undefined);
      let next: ControllerRun;
      if ((s.id === "probes" && first) || !copilotRun.mainCalls) {
        const delegated = Object.keys(s.delegated)[0];
        const firstStage = s.id === "probes" && delegated ? scenario.stages.find((x) => x.role === delegated)?.id : undefined;
        const kind = firstStage ? scenario.kinds.find((k) => k.stages[0] === firstStage) : [...scenario.kinds].sort((a, b) => b.stages.length - a.stages.length)[0];
        next = { sid: "", mainCalls: 0, prompt: REQUEST, fresh: true, previous: s };
        if (kind) helpers.push(copilotCall(project, { kind: "shell", command: `: harness kind ${kind.id}` }));
      } else {
        const gate = first ? stageOf(copilotPrev)?.gate : undefined;
        next = { ...copilotRun, prompt: gate ? `approve ${gate}` : REQUEST, fresh: false, previous: s };
      }
      first = false;
      const pad = next.mainCalls;
      hs.calls.main = [...Array.from({ length: pad }, (): Call => ({ text: "(an earlier run)" })), ...helpers, ...hs.calls.main!];
      hs.stepOfCall.main = [...Array.from({ length: pad + helpers.length }, () => null), ...hs.stepOfCall.main!];
      next.mainCalls = hs.calls.main.length;
      copilotRun = next;
      (hs as HostSession & { run?: ControllerRun }).run = { ...next };
      return hs;
    };
    for (const g of s.segments) {
      if (g.actor === ORCHESTRATOR) out.push(controlled(g.actor, g.steps, []));
      else {
        if (mkdirs(g.steps).length) out.push(controlled(`${g.actor}-folders`, [], mkdirs(g.steps)));
        out.push(session(g.actor, g.actor, g.steps, s, scenario, toCalls));
      }
    }
    copilotPrev = s;
    return out;
  },
  command: (hs, scenario, env) => {
    const launcher = path.join(env.project, ".github", "copilot", "bin", `${hs.actor === ORCHESTRATOR ? copilotOrchestrator(scenario) : hs.actor}.sh`);
    const r = (hs as HostSession & { run?: ControllerRun }).run;
    if (hs.actor !== ORCHESTRATOR || !r) return { bin: launcher, args: [REQUEST, "--no-auto-update"] };
    if (r.fresh) {
      // the session this fresh run starts is the state file it adds
      copilotKnown = new Set(copilotStates(env.project));
      copilotRun.sid = "";
      return { bin: launcher, args: [r.prompt, "--no-auto-update"] };
    }
    if (!copilotRun.sid) copilotRun.sid = copilotStates(env.project).find((id) => !copilotKnown.has(id)) ?? "missing-session";
    return { bin: launcher, args: [r.prompt, `--resume=${copilotRun.sid}`, "--no-auto-update"] };
  },
  results: (body) => (asArray(body.messages) as { role?: string; content?: unknown }[]).filter((m) => m.role === "tool").map((m) => ({ text: textOf(m.content) })),
  shellRan: (r) => !COPILOT_REFUSAL.test(r.text),
};

// ---------------------------------------------------------------- Qwen Code

function qwenCall(project: string, a: Action): Call {
  switch (a.kind) {
    case "write":
      return { tool: "write_file", input: { file_path: path.join(project, a.path), content: a.content } };
    case "read":
      return { tool: "read_file", input: { absolute_path: path.join(project, a.path), file_path: path.join(project, a.path) } };
    case "shell":
      return { tool: "run_shell_command", input: { command: a.command, description: "scenario step" } };
    case "delegate":
      return { tool: "agent", input: { description: `run ${a.role}`, prompt: `Do the ${a.role} stage.`, subagent_type: a.role, run_in_background: false } };
  }
}

/** Qwen Code's refusals: the guard hook (its reason is the tool result). */
export const QWEN_REFUSAL = /harness guard:|requires user approval|cannot execute in non-interactive mode/i;

/**
 * The pipeline's launcher, as QWEN.md says to start a run: `.qwen/bin/<pipeline>.sh` with `/<pipeline>`;
 * main-isolation roles run in the orchestrator's thread, subagent roles through the agent tool.
 */
export const qwenDriver: HostDriver = {
  host: "qwen-code",
  label: "qw",
  startStub: startChatStub,
  prepare: (env) => prepareQwenHome(env, `${DEAD_URL}/v1`),
  useStub(env, stub) {
    env.env.OPENAI_BASE_URL = stub.baseUrl;
  },
  plan: (s, scenario, project) => [session("main", ORCHESTRATOR, s.segments.flatMap((g) => g.steps), s, scenario, (st) => [qwenCall(project, st.action)])],
  command: (_hs, scenario, env) => ({ bin: path.join(env.project, ".qwen", "bin", `${scenario.name}.sh`), args: [...QWEN_FLAGS, `/${scenario.name} ${REQUEST}`] }),
  results: (body) => (asArray(body.messages) as { role?: string; content?: unknown }[]).filter((m) => m.role === "tool").map((m) => ({ text: textOf(m.content) })),
  shellRan: (r) => !QWEN_REFUSAL.test(r.text),
};

// ---------------------------------------------------------------- Pi

function piCall(project: string, a: Action): Call {
  switch (a.kind) {
    case "write":
      return { tool: "write", input: { path: path.join(project, a.path), content: a.content } };
    case "read":
      return { tool: "read", input: { path: path.join(project, a.path) } };
    case "shell":
      return { tool: "bash", input: { command: a.command } };
    case "delegate":
      return { tool: "harness_subagent", input: { agent: a.role, task: `Do the ${a.role} stage.` } };
  }
}

/** Pi's refusals: the extension's guard (its reason is the tool result), a tool the role's --tools lacks. */
export const PI_REFUSAL = /harness guard:|Tool \S+ not found/i;

/**
 * The pipeline's launcher, as AGENTS.md says to start a run: `.pi/bin/<pipeline>.sh` with `/<pipeline>`;
 * main-isolation roles run in the orchestrator's session, subagent roles through harness_subagent (each
 * a child pi on the same stub, told apart by its role's prompt).
 */
export const piDriver: HostDriver = {
  host: "pi",
  label: "pi",
  startStub: startChatStub,
  prepare: (env) => preparePiHome(env, `${DEAD_URL}/v1`),
  useStub: (env, stub) => preparePiHome(env, stub.baseUrl),
  plan: (s, scenario, project) => [session("main", ORCHESTRATOR, s.segments.flatMap((g) => g.steps), s, scenario, (st) => [piCall(project, st.action)])],
  command: (_hs, scenario, env) => ({ bin: path.join(env.project, ".pi", "bin", `${scenario.name}.sh`), args: [...PI_FLAGS, `/${scenario.name} ${REQUEST}`] }),
  results: (body) => (asArray(body.messages) as { role?: string; content?: unknown }[]).filter((m) => m.role === "tool").map((m) => ({ text: textOf(m.content) })),
  shellRan: (r) => !PI_REFUSAL.test(r.text),
};

// ---------------------------------------------------------------- Factory Droid

function droidCall(project: string, a: Action): Call {
  const exec = (command: string, timeout = 120) => ({ tool: "Execute", input: { command, summary: "Run a scenario step", riskLevel: "low", riskLevelReason: "scenario step", timeout } });
  switch (a.kind) {
    case "write":
      return { tool: "Create", input: { file_path: path.join(project, a.path), content: a.content } };
    case "read":
      return { tool: "Read", input: { file_path: path.join(project, a.path) } };
    case "shell":
      return exec(a.command);
    case "delegate":
      return exec(`.factory/bin/${a.role}.sh 'Do the ${a.role} stage.'`, 600);
  }
}

/** Factory Droid's refusals: the guard hook (the model reads "Error: <reason>"). */
export const DROID_REFUSAL = /harness guard:/i;

/**
 * The pipeline's launcher, as AGENTS.md says to start a run: `.factory/bin/<pipeline>.sh exec … /<pipeline>`;
 * main-isolation roles run in the orchestrator's session, subagent roles through their launchers
 * (.factory/bin/<role>.sh, run with the Execute tool).
 */
export const droidDriver: HostDriver = {
  host: "factory-droid",
  label: "fd",
  startStub: startChatStub,
  prepare: (env) => prepareDroidHome(env, `${DEAD_URL}/v1`),
  useStub(env, stub) {
    prepareDroidHome(env, stub.baseUrl);
  },
  plan: (s, scenario, project) => [session("main", ORCHESTRATOR, s.segments.flatMap((g) => g.steps), s, scenario, (st) => [droidCall(project, st.action)])],
  command: (_hs, scenario, env) => ({ bin: path.join(env.project, ".factory", "bin", `${scenario.name}.sh`), args: [...DROID_FLAGS, `/${scenario.name} ${REQUEST}`] }),
  results: (body) => (asArray(body.messages) as { role?: string; content?: unknown }[]).filter((m) => m.role === "tool").map((m) => ({ text: textOf(m.content) })),
  shellRan: (r) => !DROID_REFUSAL.test(r.text),
};

/**
 * Pinned hosts whose happy-path driver is not written yet, with why. The happy test fails for a pinned
 * host that is in neither list, so a new host cannot go undriven silently.
 */
export const HAPPY_PENDING: Record<string, string> = {};

export const HAPPY_DRIVERS: Record<string, HostDriver> = { "claude-code": claudeDriver, opencode: openCodeDriver, codex: codexDriver, "gemini-cli": geminiDriver, kilo: kiloDriver, copilot: copilotDriver, "qwen-code": qwenDriver, pi: piDriver, "factory-droid": droidDriver };
