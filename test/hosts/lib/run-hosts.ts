// The hosts `harness run` drives, for the real-host scenes of test/hosts/run.test.ts: how a role
// writes a file on each host (the tool the host offers the scripted model), and how a scratch
// project reaches the stub (each host's provider settings, in the scratch HOME: never in the
// project, whose installed files must stay in sync).
import fs from "node:fs";
import path from "node:path";
import { hostBin } from "../helpers.js";
import { prepareCopilotHome, warmCopilot } from "./copilot.js";
import { prepareGeminiHome } from "./gemini-cli.js";
import { marker, runProject, type RunProject } from "./harness-run.js";
import { startAnthropicStub, startChatStub, startGeminiStub, startResponsesStub, type Conversation, type ModelRequest, type Step, type Stub } from "./stubs.js";

export type ScriptStep = Step | ((req: ModelRequest) => Step);

export interface RunHost {
  host: string;
  /** the step that writes `content` to project-relative `rel` */
  write(p: string, rel: string, content: string): ScriptStep;
  /** a scratch project with Pebble installed for the host, and the stub playing `script` */
  scene(label: string, script: (p: string) => Conversation[]): Promise<{ rp: RunProject; stub: Stub }>;
  /** the usage every stage session records */
  usage(tokens: Record<string, number> | null): boolean;
  /** a retry continues the role's own conversation (Gemini CLI: the main session's, which starts the subagent afresh) */
  resumesRole: boolean;
  /** make the host run another agent than `role` if asked for it (hosts that would fall back silently) */
  breakRole?(rp: RunProject, role: string): void;
}

const cxExec = (p: string, cmd: string) => (req: ModelRequest): Step =>
  req.tools.includes("exec_command") ? { tool: "exec_command", input: { cmd, workdir: p } } : { tool: "shell", input: { command: ["bash", "-lc", cmd], workdir: p } };

const tokens = (t: Record<string, number> | null) => Boolean(t && t.input! > 0);

/** OpenCode and Kilo: the stub as an OpenAI-compatible provider in the user config; every provider an installed agent names is routed to it. */
function v1Config(rp: RunProject, stub: Stub, dir: "opencode" | "kilo", agentsDir: string) {
  const model = (name: string) => ({ name, tool_call: true, limit: { context: 100000, output: 4096 } });
  const provider = (name: string) => ({ npm: "@ai-sdk/openai-compatible", name, options: { baseURL: stub.baseUrl, apiKey: "harness-stub" }, models: {} as Record<string, unknown> });
  const providers: Record<string, ReturnType<typeof provider>> = { stub: provider("stub") };
  providers.stub!.models.stub = model("stub");
  const root = path.join(rp.project, agentsDir);
  for (const f of fs.existsSync(root) ? fs.readdirSync(root).filter((x) => x.endsWith(".md")) : []) {
    const m = fs.readFileSync(path.join(root, f), "utf8").match(/^model:\s*["']?([^/\s"']+)\/([^\s"']+)["']?\s*$/m);
    if (!m) continue;
    (providers[m[1]!] ??= provider(`stub for ${m[1]}`)).models[m[2]!] = model(m[2]!);
  }
  const cfgDir = path.join(rp.env.home, ".config", dir);
  fs.mkdirSync(cfgDir, { recursive: true });
  fs.writeFileSync(path.join(cfgDir, `${dir}.json`), JSON.stringify({ provider: providers, model: "stub/stub", small_model: "stub/stub", autoupdate: false, share: "disabled" }, null, 2));
}

export const RUN_HOSTS: Record<string, RunHost> = {
  "claude-code": {
    host: "claude-code",
    write: (p, rel, content) => ({ tool: "Write", input: { file_path: path.join(p, rel), content } }),
    async scene(label, script) {
      const bin = hostBin("claude-code");
      const rp = runProject("claude-code", label);
      const stub = await startAnthropicStub(script(rp.project));
      Object.assign(rp.env.env, { ANTHROPIC_BASE_URL: stub.baseUrl, ANTHROPIC_API_KEY: "sk-ant-harness-stub", PATH: `${path.dirname(bin)}:${rp.env.env.PATH}` });
      return { rp, stub };
    },
    usage: tokens,
    resumesRole: true,
  },
  codex: {
    host: "codex",
    write: (p, rel, content) => cxExec(p, `apply_patch <<'PATCH'\n*** Begin Patch\n*** Add File: ${path.join(p, rel)}\n${content.replace(/\n$/, "").split("\n").map((l) => `+${l}`).join("\n")}\n*** End Patch\nPATCH`),
    async scene(label, script) {
      const cx = hostBin("codex");
      const rp = runProject("codex", label);
      const stub = await startResponsesStub(script(rp.project));
      const cfg = path.join(rp.env.codexHome, "config.toml");
      const head = ['model = "stub-model"', 'model_provider = "stub"', 'approval_policy = "never"', ""].join("\n");
      const provider = ["", "[model_providers.stub]", 'name = "stub"', `base_url = ${JSON.stringify(stub.baseUrl)}`, 'wire_api = "responses"', "request_max_retries = 0", "stream_max_retries = 0", "supports_websockets = false", ""].join("\n");
      fs.writeFileSync(cfg, head + fs.readFileSync(cfg, "utf8") + provider);
      Object.assign(rp.env.env, { OPENAI_BASE_URL: stub.baseUrl, CODEX_BIN: cx, PATH: `${path.dirname(cx)}:${rp.env.env.PATH}` });
      return { rp, stub };
    },
    usage: tokens,
    resumesRole: true,
  },
  copilot: {
    host: "copilot",
    write: (p, rel, content) => ({ tool: "create", input: { path: path.join(p, rel), file_text: content } }),
    async scene(label, script) {
      const cp = hostBin("copilot");
      await warmCopilot(cp);
      const rp = runProject("copilot", label);
      const stub = await startChatStub(script(rp.project));
      prepareCopilotHome(rp.env, stub.baseUrl);
      Object.assign(rp.env.env, { COPILOT_BIN: cp, PATH: `${path.dirname(cp)}:${rp.env.env.PATH}` });
      return { rp, stub };
    },
    usage: (t) => typeof t?.premiumRequests === "number",
    resumesRole: true,
  },
  opencode: {
    host: "opencode",
    write: (p, rel, content) => ({ tool: "write", input: { filePath: path.join(p, rel), content } }),
    async scene(label, script) {
      const bin = hostBin("opencode");
      const rp = runProject("opencode", label);
      const stub = await startChatStub(script(rp.project));
      v1Config(rp, stub, "opencode", ".opencode/agents");
      Object.assign(rp.env.env, { OPENCODE_BIN: bin, PATH: `${path.dirname(bin)}:${rp.env.env.PATH}` });
      return { rp, stub };
    },
    usage: tokens,
    resumesRole: true,
    // the user's own overlay disables the agent: `run --agent` would print "not found. Falling back to default agent"
    breakRole: (rp, role) => void (rp.env.env.OPENCODE_CONFIG_CONTENT = JSON.stringify({ agent: { [role]: { disable: true } } })),
  },
  kilo: {
    host: "kilo",
    write: (p, rel, content) => ({ tool: "write", input: { filePath: path.join(p, rel), content } }),
    async scene(label, script) {
      const bin = hostBin("kilo");
      const rp = runProject("kilo", label);
      const stub = await startChatStub(script(rp.project));
      v1Config(rp, stub, "kilo", ".kilo/agents");
      Object.assign(rp.env.env, { KILO_BIN: bin, PATH: `${path.dirname(bin)}:${rp.env.env.PATH}` });
      return { rp, stub };
    },
    usage: tokens,
    resumesRole: true,
    breakRole: (rp, role) => void (rp.env.env.KILO_CONFIG_CONTENT = JSON.stringify({ agent: { [role]: { disable: true } } })),
  },
  "gemini-cli": {
    host: "gemini-cli",
    write: (_p, rel, content) => ({ tool: "write_file", input: { file_path: rel, content } }),
    async scene(label, script) {
      const bin = hostBin("gemini-cli");
      const rp = runProject("gemini-cli", label);
      const stub = await startGeminiStub(geminiScript(rp.project, script(rp.project)));
      prepareGeminiHome(rp.env, stub.baseUrl);
      Object.assign(rp.env.env, { GEMINI_BIN: bin, PATH: `${path.dirname(bin)}:${rp.env.env.PATH}` });
      return { rp, stub };
    },
    usage: tokens,
    resumesRole: false,
    // an agent file nobody acknowledged: -p mode leaves the agent out without a word
    breakRole: (rp) => fs.rmSync(path.join(rp.env.home, ".gemini", "acknowledgments", "agents.json")),
  },
};

/** The text of a Gemini request's last user turn (null when it ends with a tool result). */
function lastUserText(req: ModelRequest): string | null {
  const contents = (req.body.contents ?? []) as { role?: string; parts?: { text?: string; functionResponse?: unknown }[] }[];
  const last = contents.at(-1);
  if (!last || last.role !== "user" || (last.parts ?? []).some((p) => p.functionResponse)) return null;
  return (last.parts ?? []).map((p) => p.text ?? "").join("");
}

/**
 * Gemini CLI runs a subagent role through the main session's invoke_agent: each such role gets a
 * "via-<role>" conversation that passes the runner's brief on (the text between the ----- lines)
 * and answers with the role's report. A main-session role runs its command, whose prompt (with the
 * role's marker) is in the user turn, not the system instruction.
 */
function geminiScript(p: string, convs: Conversation[]): Conversation[] {
  const out: Conversation[] = [];
  const subagent = (id: string) => fs.existsSync(path.join(p, ".gemini", "agents", `${id}.md`));
  for (const c of convs) {
    const id = c.name;
    if (!subagent(id)) {
      out.push({ ...c, when: (req) => JSON.stringify(req.body.contents ?? "").includes(`Act as `) && JSON.stringify(req.body.contents ?? "").includes(JSON.stringify(marker(id)).slice(1, -1)) });
      continue;
    }
    // the subagent's report is in the last tool result: pass it on as the main session's reply
    const report = (req: ModelRequest): Step => {
      const contents = (req.body.contents ?? []) as { parts?: { functionResponse?: { response?: unknown } }[] }[];
      const resp = contents.at(-1)?.parts?.find((x) => x.functionResponse)?.functionResponse?.response;
      const raw = JSON.stringify(resp ?? "");
      const m = /Status: (?:[^"\\]|\\.)*/.exec(raw);
      return { text: m ? (JSON.parse(`"${m[0]}"`) as string) : "Status: done" };
    };
    const via = (req: ModelRequest): Step => {
      const text = lastUserText(req);
      if (text === null) return report(req);
      const brief = /-----\n([\s\S]*)\n-----/.exec(text)?.[1] ?? text;
      return { tool: "invoke_agent", input: { agent_name: id, prompt: brief } };
    };
    out.push({ name: `via-${id}`, when: (req) => JSON.stringify(req.body.contents ?? "").includes(`agent_name \\"${id}\\"`) && !req.system.includes(marker(id)), steps: Array.from({ length: 16 }, () => via) });
    out.push(c);
  }
  return out;
}
