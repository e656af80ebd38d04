// Claude Code: `claude -p --agent <role> --output-format json --permission-mode acceptEdits <prompt>`
// runs the role alone as the main thread with its own tools and its front-matter guard (measured:
// process-enforcement.md §5); `--resume <id>` continues that session. acceptEdits lets the writes the
// role's rules allow through without a prompt nobody can answer; the guard and deny rules still hold.
import type { HostDriver, SessionRequest, SessionResult } from "../../src/adapter/runner.js";
import { runProcess } from "../../src/adapter/process-group.js";
import { claudeHooksOffProblem } from "./hooks-off.js";

interface ClaudeResult {
  type?: string;
  is_error?: boolean;
  subtype?: string;
  session_id?: string;
  result?: string;
  total_cost_usd?: number;
  usage?: { input_tokens?: number; output_tokens?: number; cache_creation_input_tokens?: number; cache_read_input_tokens?: number };
}

/** The last JSON object on stdout whose type is "result". */
export function parseClaude(stdout: string): ClaudeResult | null {
  const lines = stdout.split("\n").filter((l) => l.trim().startsWith("{"));
  for (const line of lines.reverse()) {
    try {
      const v = JSON.parse(line) as ClaudeResult;
      if (v.type === "result") return v;
    } catch {
      /* not JSON */
    }
  }
  return null;
}

export function claudeArgs(r: Pick<SessionRequest, "role" | "prompt" | "resume">): string[] {
  // the classifying session (no role) gets no acceptEdits: in -p every write it tried would be refused
  return ["-p", ...(r.role ? ["--agent", r.role, "--permission-mode", "acceptEdits"] : ["--max-turns", "1"]), "--output-format", "json", ...(r.resume ? ["--resume", r.resume] : []), "--", r.prompt];
}

export const claudeCode: HostDriver = {
  host: "claude-code",
  program: "claude",
  async run(r): Promise<SessionResult> {
    // settings that switch the hooks off are seen by no hook: checked here, before each session
    const off = claudeHooksOffProblem(r.cwd);
    if (off) return { exit: null, session: null, text: "", tokens: null, error: off, interrupted: false };
    const p = await runProcess("claude", claudeArgs(r), { cwd: r.cwd, signal: r.signal });
    const res = parseClaude(p.stdout);
    const u = res?.usage;
    const tokens = u ? { input: (u.input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0), output: u.output_tokens ?? 0, ...(typeof res?.total_cost_usd === "number" ? { costUsd: res.total_cost_usd } : {}) } : null;
    const error = p.interrupted
      ? null
      : p.exit === 127 && !res
        ? `could not start claude (${p.stderr.trim().split("\n")[0] ?? "not found"}). Install Claude Code, or put \`claude\` on PATH.`
        : !res
          ? `claude exited ${p.exit} without a result${p.stderr.trim() ? `: ${p.stderr.trim().split("\n").slice(-1)[0]}` : ""}`
          : res.is_error
            ? `claude reported an error (${res.subtype ?? "error"}): ${(res.result ?? "").slice(0, 300)}`
            : null;
    return { exit: p.exit, session: res?.session_id ?? null, text: res?.result ?? "", tokens, error, interrupted: p.interrupted };
  },
};
