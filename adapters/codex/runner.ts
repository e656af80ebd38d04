// Codex: each role runs alone through its launcher `.codex/bin/<role>.sh` (harness emits one per role:
// `codex exec` with the role's permission profile, model and instructions), `--json` for the event
// stream; `resume <id>` continues that session (measured: process-enforcement.md §5). The classifying
// session is a plain read-only `codex exec`.
import path from "node:path";
import type { HostDriver, SessionRequest, SessionResult } from "../../src/adapter/runner.js";
import { runProcess } from "../../src/adapter/process-group.js";

interface CodexEvent {
  type?: string;
  thread_id?: string;
  item?: { type?: string; text?: string };
  usage?: { input_tokens?: number; cached_input_tokens?: number; output_tokens?: number; reasoning_output_tokens?: number };
  error?: { message?: string };
  message?: string;
}

export function parseCodex(stdout: string): { session: string | null; text: string; tokens: { input: number; output: number } | null; error: string | null } {
  let session: string | null = null;
  let text = "";
  let input = 0;
  let output = 0;
  let usage = false;
  let error: string | null = null;
  for (const line of stdout.split("\n")) {
    if (!line.startsWith("{")) continue;
    let e: CodexEvent;
    try {
      e = JSON.parse(line) as CodexEvent;
    } catch {
      continue;
    }
    if (e.type === "thread.started" && e.thread_id) session = e.thread_id;
    else if (e.type === "item.completed" && e.item?.type === "agent_message" && typeof e.item.text === "string") text = e.item.text;
    else if (e.type === "turn.completed" && e.usage) {
      usage = true;
      // cached input is part of input_tokens; reasoning is part of output_tokens
      input += e.usage.input_tokens ?? 0;
      output += e.usage.output_tokens ?? 0;
    } else if (e.type === "turn.failed" || e.type === "error") error = e.error?.message ?? e.message ?? "codex reported an error";
  }
  return { session, text, tokens: usage ? { input, output } : null, error };
}

export function codexCommand(r: Pick<SessionRequest, "role" | "prompt" | "resume" | "cwd">): { bin: string; args: string[] } {
  const tail = [...(r.resume ? ["resume", r.resume] : []), "--json", "--skip-git-repo-check", "--", r.prompt];
  if (r.role) return { bin: path.join(r.cwd, ".codex", "bin", `${r.role}.sh`), args: tail };
  return { bin: process.env.CODEX_BIN || "codex", args: ["exec", "--sandbox", "read-only", ...tail] };
}

export const codex: HostDriver = {
  host: "codex",
  program: "codex",
  async run(r): Promise<SessionResult> {
    const { bin, args } = codexCommand(r);
    const p = await runProcess(bin, args, { cwd: r.cwd, signal: r.signal });
    const res = parseCodex(p.stdout);
    const error = p.interrupted
      ? null
      : p.exit === 127 && !res.session
        ? `could not start ${path.basename(bin)} (${p.stderr.trim().split("\n").slice(-1)[0] ?? "not found"}). Install Codex, put \`codex\` on PATH or set CODEX_BIN, and \`harness install --host codex\`.`
        : (res.error ?? (p.exit !== 0 ? `codex exited ${p.exit}${p.stderr.trim() ? `: ${p.stderr.trim().split("\n").slice(-1)[0]}` : ""}` : null));
    return { exit: p.exit, session: res.session, text: res.text, tokens: res.tokens, error, interrupted: p.interrupted };
  },
};
