// Copilot CLI: each role runs alone through its launcher `.github/copilot/bin/<role>.sh` (harness
// emits one per role: `copilot --agent <role> -p` with its write scope and command rules as
// permission flags, refusing a folder Copilot does not trust), `--output-format json` for the event
// stream, `--resume=<id>` to continue the session (measured with copilot 1.0.102). Usage is premium
// requests only. Copilot's create tool makes no folders, so the driver makes the folders the role
// may write in first (what the pipeline's orchestrator prompt does on Copilot).
import fs from "node:fs";
import path from "node:path";
import type { HostDriver, SessionRequest, SessionResult } from "../../src/adapter/runner.js";
import { runProcess } from "../../src/adapter/process-group.js";

interface CopilotEvent {
  type?: string;
  sessionId?: string;
  exitCode?: number;
  usage?: { premiumRequests?: number };
  data?: { content?: string; toolRequests?: unknown[]; message?: string };
}

export function parseCopilot(stdout: string): { session: string | null; text: string; premium: number | null; exitCode: number | null; error: string | null } {
  let session: string | null = null;
  let text = "";
  let premium: number | null = null;
  let exitCode: number | null = null;
  let error: string | null = null;
  for (const line of stdout.split("\n")) {
    if (!line.startsWith("{")) continue;
    let e: CopilotEvent;
    try {
      e = JSON.parse(line) as CopilotEvent;
    } catch {
      continue;
    }
    if (e.type === "assistant.message" && typeof e.data?.content === "string" && e.data.content.trim()) text = e.data.content;
    else if (e.type === "session.error") error = e.data?.message ?? "copilot reported a session error";
    else if (e.type === "result") {
      session = e.sessionId ?? session;
      exitCode = e.exitCode ?? null;
      premium = e.usage?.premiumRequests ?? null;
    }
  }
  return { session, text, premium, exitCode, error };
}

/** The folders a role's write globs name before their first wildcard (a literal file: its folder). */
export function writeFolders(globs: readonly string[]): string[] {
  const out = new Set<string>();
  for (const g of globs) {
    const parts = g.split("/");
    const wild = parts.findIndex((p) => /[*?[\]{}]/.test(p));
    const dir = wild < 0 ? parts.slice(0, -1) : parts.slice(0, wild);
    if (dir.length && !dir.some((p) => p === ".." || p === "")) out.add(dir.join("/"));
  }
  return [...out].sort();
}

export function copilotCommand(r: Pick<SessionRequest, "role" | "prompt" | "resume" | "cwd">): { bin: string; args: string[] } {
  // the launcher takes a first argument that is not an option as the task (-p)
  const task = r.prompt.startsWith("-") ? ` ${r.prompt}` : r.prompt;
  const tail = ["--output-format", "json", "--no-auto-update", ...(r.resume ? [`--resume=${r.resume}`] : [])];
  if (r.role) return { bin: path.join(r.cwd, ".github", "copilot", "bin", `${r.role}.sh`), args: [task, ...tail] };
  return { bin: process.env.COPILOT_BIN || "copilot", args: ["-p", task, ...tail] };
}

export const copilot: HostDriver = {
  host: "copilot",
  program: "copilot",
  async run(r): Promise<SessionResult> {
    for (const d of writeFolders(r.write)) fs.mkdirSync(path.join(r.cwd, d), { recursive: true });
    const { bin, args } = copilotCommand(r);
    const p = await runProcess(bin, args, { cwd: r.cwd, signal: r.signal });
    const res = parseCopilot(p.stdout);
    const error = p.interrupted
      ? null
      : p.exit === 127 && !res.session
        ? `could not start ${path.basename(bin)} (${p.stderr.trim().split("\n").slice(-1)[0] ?? "not found"}). Install Copilot CLI, put \`copilot\` on PATH or set COPILOT_BIN, and \`harness install --host copilot\`.`
        : (res.error ?? (p.exit !== 0 || (res.exitCode ?? 0) !== 0 ? `copilot exited ${p.exit}${p.stderr.trim() ? `: ${p.stderr.trim().split("\n").slice(-1)[0]}` : ""}` : null));
    return { exit: p.exit, session: res.session, text: res.text, tokens: res.premium === null ? null : { premiumRequests: res.premium }, error, interrupted: p.interrupted };
  },
};
