// `harness run` on Gemini CLI 0.61.0: `gemini --policy .gemini/policies -p <prompt> --output-format
// stream-json` (0.61 reads no project policy, so every session gets the folder on the command line,
// in the default approval mode, where a call no rule allows is refused headless). Gemini CLI has no
// `--agent`: a subagent role runs as itself only through invoke_agent, so its session asks the main
// session to call invoke_agent with the role's name and the brief, and the subagent runs with its
// own tools, model and subagent-scoped policy rules. A main-session role runs its own command,
// `/<pipeline>:<role> <brief>`, under the main session's rules. `--resume <session>` continues.
//
// Refusal instead of fallback: an unacknowledged project agent is silently absent in -p mode, so
// the driver refuses a subagent role whose file ~/.gemini/acknowledgments/agents.json does not
// acknowledge (by sha256), and fails the stage when the session made no invoke_agent call naming the
// role, or one another agent answered. The classifying session is plan mode (read only).
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { HostDriver, SessionRequest, SessionResult } from "../../src/adapter/runner.js";
import { runProcess } from "../../src/adapter/process-group.js";
import { POLICY_DIR } from "./index.js";

interface GeminiEvent {
  type?: string;
  session_id?: string;
  role?: string;
  content?: string;
  delta?: boolean;
  tool_name?: string;
  tool_id?: string;
  parameters?: { agent_name?: string };
  status?: string;
  error?: { message?: string } | string;
  message?: string;
  stats?: { input_tokens?: number; output_tokens?: number; total_tokens?: number; input?: number; models?: Record<string, { tokens?: { input?: number; prompt?: number; candidates?: number } }> };
}

export interface GeminiParsed {
  session: string | null;
  text: string;
  tokens: { input: number; output: number } | null;
  /** agent_name of every invoke_agent call that succeeded */
  invoked: string[];
  error: string | null;
}

export function parseGemini(stdout: string): GeminiParsed {
  let session: string | null = null;
  let text = "";
  let tokens: GeminiParsed["tokens"] = null;
  let error: string | null = null;
  const calls = new Map<string, string>();
  const invoked: string[] = [];
  for (const line of stdout.split("\n")) {
    if (!line.startsWith("{")) continue;
    let e: GeminiEvent;
    try {
      e = JSON.parse(line) as GeminiEvent;
    } catch {
      continue;
    }
    if (e.type === "init" && e.session_id) session = e.session_id;
    else if (e.type === "message" && e.role === "assistant" && typeof e.content === "string") text = e.delta ? text + e.content : e.content;
    else if (e.type === "message" && e.role === "user") text = "";
    else if (e.type === "tool_use") {
      text = ""; // the reply is what the model says after its last tool call
      if (e.tool_name === "invoke_agent" && e.tool_id) calls.set(e.tool_id, e.parameters?.agent_name ?? "");
    } else if (e.type === "tool_result" && e.tool_id && calls.has(e.tool_id) && e.status === "success") invoked.push(calls.get(e.tool_id)!);
    else if (e.type === "error") error = typeof e.error === "string" ? e.error : (e.error?.message ?? e.message ?? "gemini reported an error");
    else if (e.type === "result") {
      const s = e.stats;
      if (s && (s.input_tokens !== undefined || s.output_tokens !== undefined)) tokens = { input: s.input_tokens ?? 0, output: s.output_tokens ?? 0 };
      if (e.status && e.status !== "success") error ??= typeof e.error === "string" ? e.error : (e.error?.message ?? `the session ended ${e.status}`);
    }
  }
  return { session, text, tokens, invoked, error };
}

/** The project's subagent file for `role`, or null when the role runs in the main session. */
const agentFile = (cwd: string, role: string) => {
  const f = path.join(cwd, ".gemini", "agents", `${role}.md`);
  return fs.existsSync(f) ? f : null;
};

/** null when ~/.gemini/acknowledgments/agents.json acknowledges this exact agent file for the project. */
export function acknowledgementProblem(cwd: string, role: string, file: string, home = os.homedir()): string | null {
  const acks = path.join(home, ".gemini", "acknowledgments", "agents.json");
  const sha = crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex");
  let ok = false;
  try {
    const all = JSON.parse(fs.readFileSync(acks, "utf8")) as Record<string, Record<string, string>>;
    ok = all[path.resolve(cwd)]?.[role] === sha;
  } catch {
    ok = false;
  }
  return ok
    ? null
    : `Gemini CLI has not acknowledged the project agent ${role} (${path.relative(cwd, file)}, sha256 ${sha.slice(0, 12)}… is not in ${acks}): in -p mode it would leave the agent out and the main session would work without the role's limits, so the stage is refused. Start \`gemini\` in the project once and acknowledge the agents in /agents, then resume.`;
}

function prompt(r: SessionRequest, pipeline: string): string {
  if (!r.role) return r.prompt;
  if (agentFile(r.cwd, r.role) === null) return r.resume ? r.prompt : `/${pipeline}:${r.role} ${r.prompt}`;
  // the main session only hands the brief to the role's subagent and passes its report back
  return [
    `Call invoke_agent with agent_name "${r.role}" and, as its prompt, the text between the lines below, unchanged. Do nothing else yourself: no other tool, no edits.`,
    `When it answers, reply with its report exactly as it gave it, and nothing else.`,
    "-----",
    r.prompt,
    "-----",
  ].join("\n");
}

/** The pipeline whose commands are installed: the one `.gemini/commands/<name>/` folder. */
function pipelineName(cwd: string): string {
  const dir = path.join(cwd, ".gemini", "commands");
  const names = fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name) : [];
  return names.length === 1 ? names[0]! : "";
}

export const geminiCli: HostDriver = {
  host: "gemini-cli",
  program: "gemini",
  async run(r): Promise<SessionResult> {
    const fail = (error: string): SessionResult => ({ exit: null, session: null, text: "", tokens: null, error, interrupted: false });
    const file = r.role ? agentFile(r.cwd, r.role) : null;
    if (r.role && file) {
      const problem = acknowledgementProblem(r.cwd, r.role, file);
      if (problem) return fail(problem);
    }
    const pipeline = pipelineName(r.cwd);
    if (r.role && !file && !pipeline) return fail(`no command for ${r.role}: .gemini/commands/ holds no single pipeline folder. Run \`harness install --host gemini-cli\`.`);
    const bin = process.env.GEMINI_BIN || "gemini";
    const mode = r.role ? "default" : "plan";
    const args = ["--policy", path.join(r.cwd, POLICY_DIR), "--approval-mode", mode, "--output-format", "stream-json", ...(r.resume ? ["--resume", r.resume] : []), "-p", prompt(r, pipeline)];
    const p = await runProcess(bin, args, { cwd: r.cwd, signal: r.signal });
    const res = parseGemini(p.stdout);
    const lastErr = p.stderr.trim().split("\n").filter((l) => l.trim()).slice(-1)[0] ?? "";
    let error = p.interrupted
      ? null
      : p.exit === 127 && !res.session
        ? `could not start ${bin} (${lastErr || "not found"}). Install Gemini CLI, put \`gemini\` on PATH or set GEMINI_BIN, and \`harness install --host gemini-cli\`.`
        : (res.error ?? (p.exit !== 0 ? `gemini exited ${p.exit}${lastErr ? `: ${lastErr}` : ""}` : null));
    // a subagent stage counts only if the role itself ran: exactly its invoke_agent call, and no other agent
    if (!error && !p.interrupted && r.role && file) {
      const others = res.invoked.filter((a) => a !== r.role);
      if (!res.invoked.includes(r.role)) error = `the session did not run ${r.role} (no successful invoke_agent call naming it): it ran without the role's limits, so the stage is refused`;
      else if (others.length) error = `the session also started ${[...new Set(others)].join(", ")}: only ${r.role} may run in its stage`;
    }
    return { exit: p.exit, session: res.session, text: res.text, tokens: res.tokens, error, interrupted: p.interrupted };
  },
};
