// `harness run` on OpenCode and Kilo (its fork): `<bin> run --format json --agent <role>` runs a
// primary agent with its own permission, model and prompt; `--session <id>` continues a session.
//
// Pebble's stage roles are `mode: subagent` (the orchestrator starts them with `task`), and
// `run --agent <subagent>` prints "is a subagent, not a primary agent. Falling back to default
// agent" and runs the built-in agent without the role's limits, exit 0 (measured on OpenCode
// 1.18.33 and in Kilo 7.7.7's code). So each session gets a config overlay in its own environment
// only (OPENCODE_CONFIG_CONTENT / KILO_CONFIG_CONTENT, merged last) that sets that one agent's
// mode to primary: the agent keeps its permission, tools, model and prompt (measured: `debug agent`
// differs only in `mode`), and the team's ordinary sessions see nothing of it. Before a session
// the driver resolves the agent the way `run` will (`debug agent <role>`, same environment) and
// refuses unless it is the role as a primary agent with its own prompt. The overlay's default agent
// has no permission at all, so a fallback after that check can do nothing, and its warning fails the
// stage. The classifying session is a hidden overlay agent with every permission denied.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { HostDriver, SessionRequest, SessionResult } from "../runner.js";
import { runProcess } from "../process-group.js";

export interface V1RunHost {
  host: string;
  /** the program on PATH, overridable by `binEnv` */
  program: string;
  binEnv: string;
  /** the environment variable whose inline JSON config the host merges over the project's */
  overlayEnv: string;
  display: string;
}

/** The agent a classifying session runs as: only in the overlay, hidden, no permission at all. */
export const CLASSIFY_AGENT = "harness-classify";
/** The overlay's default agent: what a fallback would run. No permission, so it can do nothing. */
export const REFUSE_AGENT = "harness-refuse";
const FALLBACK = /Falling back to default agent/;
const NOTHING = { "*": "deny" };

/** The overlay for one session: the user's own overlay (if any) with the session's agent made primary. */
export function overlayFor(role: string | null, existing: string | undefined): string {
  let base: Record<string, unknown> = {};
  if (existing?.trim()) {
    const parsed = JSON.parse(existing) as unknown;
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("not a JSON object");
    base = parsed as Record<string, unknown>;
  }
  const agents = { ...((base.agent as Record<string, unknown> | undefined) ?? {}) };
  if (role) agents[role] = { ...((agents[role] as Record<string, unknown> | undefined) ?? {}), mode: "primary" };
  else agents[CLASSIFY_AGENT] = { mode: "primary", hidden: true, description: "harness run: classifies a request (no tools)", permission: NOTHING, prompt: "Answer with the one word you are asked for. Use no tools." };
  // a default agent cannot be hidden (the host refuses to start), so this one is listed, in this session only
  agents[REFUSE_AGENT] = { mode: "primary", description: "harness run: what a fallback runs (no tools)", permission: NOTHING, prompt: "Reply exactly: harness-refused. Use no tools." };
  return JSON.stringify({ ...base, agent: agents, default_agent: REFUSE_AGENT });
}

interface V1Event {
  type?: string;
  sessionID?: string;
  part?: { type?: string; text?: string; messageID?: string; tokens?: { input?: number; output?: number; reasoning?: number; cache?: { read?: number; write?: number } } };
  error?: { name?: string; message?: string; data?: { message?: string } };
}

export function parseV1(stdout: string): { session: string | null; text: string; tokens: { input: number; output: number } | null; error: string | null } {
  let session: string | null = null;
  let input = 0;
  let output = 0;
  let usage = false;
  let error: string | null = null;
  const texts: { message: string | undefined; text: string }[] = [];
  for (const line of stdout.split("\n")) {
    if (!line.startsWith("{")) continue;
    let e: V1Event;
    try {
      e = JSON.parse(line) as V1Event;
    } catch {
      continue;
    }
    session ??= e.sessionID ?? null;
    if (e.type === "text" && typeof e.part?.text === "string") texts.push({ message: e.part.messageID, text: e.part.text });
    else if (e.type === "step_finish" && e.part?.tokens) {
      const t = e.part.tokens;
      usage = true;
      input += (t.input ?? 0) + (t.cache?.read ?? 0) + (t.cache?.write ?? 0);
      output += (t.output ?? 0) + (t.reasoning ?? 0);
    } else if (e.type === "error") error = e.error?.data?.message ?? e.error?.message ?? e.error?.name ?? "the session reported an error";
  }
  // the final reply: the text parts of the last message that has text
  const last = texts.at(-1)?.message;
  const text = texts.filter((t) => t.message === last).map((t) => t.text).join("");
  return { session, text, tokens: usage ? { input, output } : null, error };
}

const lastLine = (s: string) => s.trim().split("\n").filter((l) => l.trim()).slice(-1)[0] ?? "";

export function v1Runner(h: V1RunHost): HostDriver {
  const bin = () => process.env[h.binEnv] || h.program;
  const failStart = (stderr: string) => `could not start ${h.program} (${lastLine(stderr) || "not found"}). Install ${h.display}, put \`${h.program}\` on PATH or set ${h.binEnv}, and \`harness install --host ${h.host}\`.`;

  /**
   * null when `agent` resolves to that agent as a primary one with its own prompt (an agent only the
   * overlay names would have none); otherwise why the session is refused. Once per agent and
   * project per runner process: each call is a full start of the host (13-23 s for Kilo on a
   * loaded machine), and a later fallback can only reach the overlay's no-permission default agent.
   */
  const checked = new Set<string>();
  async function agentProblem(agent: string, r: SessionRequest, env: NodeJS.ProcessEnv): Promise<string | null> {
    if (checked.has(`${r.cwd}\0${agent}`)) return null;
    const p = await runProcess(bin(), ["debug", "agent", agent], { cwd: r.cwd, env, signal: r.signal });
    if (p.interrupted) return null;
    if (p.exit === 127) return failStart(p.stderr);
    let d: { name?: unknown; mode?: unknown; prompt?: unknown };
    try {
      d = JSON.parse(p.stdout) as typeof d;
    } catch {
      return `${h.display} does not know the agent ${agent} (\`${h.program} debug agent ${agent}\` exited ${p.exit}: ${lastLine(p.stderr + p.stdout).slice(0, 200)}); it would run another agent without the role's limits, so the stage is refused. Run \`harness install --host ${h.host}\`.`;
    }
    if (d.name !== agent || (d.mode !== "primary" && d.mode !== "all") || typeof d.prompt !== "string" || !d.prompt.trim())
      return `${h.display} resolves --agent ${agent} to ${String(d.name)} (mode ${String(d.mode)}${typeof d.prompt === "string" && d.prompt.trim() ? "" : ", no prompt"}), not the installed role as a primary agent: it would run without the role's limits, so the stage is refused. Check ${h.overlayEnv} and run \`harness install --host ${h.host}\`.`;
    checked.add(`${r.cwd}\0${agent}`);
    return null;
  }

  return {
    host: h.host,
    program: h.program,
    async run(r): Promise<SessionResult> {
      const agent = r.role ?? CLASSIFY_AGENT;
      let overlay: string;
      try {
        overlay = overlayFor(r.role, process.env[h.overlayEnv]);
      } catch (e) {
        return { exit: null, session: null, text: "", tokens: null, error: `${h.overlayEnv} is set but is not a JSON object (${(e as Error).message}); unset it or fix it, then resume the run.`, interrupted: false };
      }
      const env = { ...process.env, [h.overlayEnv]: overlay };
      const refused = await agentProblem(agent, r, env);
      if (r.signal.aborted) return { exit: null, session: null, text: "", tokens: null, error: null, interrupted: true };
      if (refused) return { exit: null, session: null, text: "", tokens: null, error: refused, interrupted: false };
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), `harness-${h.host}-`));
      try {
        const args = ["run", "--format", "json", "--agent", agent, ...(r.resume ? ["--session", r.resume] : []), "--", r.prompt];
        const p = await runProcess(bin(), args, { cwd: r.cwd, env, signal: r.signal, stdoutFile: path.join(dir, "stdout.jsonl") });
        const res = parseV1(p.stdout);
        const error = p.interrupted
          ? null
          : p.exit === 127 && !res.session
            ? failStart(p.stderr)
            : FALLBACK.test(p.stderr + p.stdout)
              ? `${h.display} fell back to its default agent instead of ${agent} (${lastLine(p.stderr)}): the session ran without the role's limits`
              : (res.error ?? (p.exit !== 0 ? `${h.program} exited ${p.exit}${p.stderr.trim() ? `: ${lastLine(p.stderr)}` : ""}` : !res.session ? `${h.program} printed no session` : null));
        return { exit: p.exit, session: res.session, text: res.text, tokens: res.tokens, error, interrupted: p.interrupted };
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
