// Claude Code: `claude -p --agent <role> --output-format json --permission-mode acceptEdits <prompt>`
// runs the role alone as the main thread with its own tools and its front-matter guard (measured:
// process-enforcement.md §5); `--resume <id>` continues that session. acceptEdits lets the writes the
// role's rules allow through without a prompt nobody can answer; the guard and deny rules still hold.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { HostDriver, SessionRequest, SessionResult } from "../../src/adapter/runner.js";
import { runProcess } from "../../src/adapter/process-group.js";
import { claudeHooksOffProblem } from "./hooks-off.js";
import { makeMissingFolders, sandboxSettings, sandboxToolsProblem } from "./sandbox.js";

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

export function claudeArgs(r: Pick<SessionRequest, "role" | "prompt" | "resume">, settingsFile: string | null = null): string[] {
  // the classifying session (no role) gets no acceptEdits: in -p every write it tried would be refused
  return ["-p", ...(r.role ? ["--agent", r.role, "--permission-mode", "acceptEdits"] : ["--max-turns", "1"]), ...(settingsFile ? ["--settings", settingsFile] : []), "--output-format", "json", ...(r.resume ? ["--resume", r.resume] : []), "--", r.prompt];
}

/**
 * The sandbox's settings file for one session, in a fresh folder outside the project (the sandbox
 * mounts everything outside the project read-only, and the folder is denied to the Write and Edit
 * tools too); Claude Code reads it once at start. Removed when the session ends.
 */
function writeSandboxSettings(r: SessionRequest): { file: string; dispose(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "harness-sandbox-"));
  const file = path.join(dir, `${r.role ?? "classify"}.json`);
  const s = sandboxSettings(r.cwd, r.neverWrite, dir);
  fs.writeFileSync(file, `${JSON.stringify(s.settings, null, 2)}\n`, { mode: 0o444 });
  const unmake = makeMissingFolders(r.cwd, s.folders);
  return {
    file,
    dispose: () => {
      unmake();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function driver(sandbox: boolean): HostDriver {
  return {
    host: "claude-code",
    program: "claude",
    ...(sandbox ? {} : { sandboxed: () => driver(true), sandboxProblem: () => sandboxToolsProblem() }),
    async run(r): Promise<SessionResult> {
      // settings that switch the hooks off are seen by no hook: checked here, before each session
      const off = claudeHooksOffProblem(r.cwd);
      if (off) return { exit: null, session: null, text: "", tokens: null, error: off, interrupted: false };
      // checked again per session: a tool removed mid-run must stop the run, never run it unsandboxed
      const missing = sandbox ? sandboxToolsProblem() : null;
      if (missing) return { exit: null, session: null, text: "", tokens: null, error: missing, interrupted: false };
      const settings = sandbox ? writeSandboxSettings(r) : null;
      try {
        return await session(r, settings?.file ?? null);
      } finally {
        settings?.dispose();
      }
    },
  };
}

async function session(r: SessionRequest, settingsFile: string | null): Promise<SessionResult> {
  const p = await runProcess("claude", claudeArgs(r, settingsFile), { cwd: r.cwd, signal: r.signal });
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
}

export const claudeCode: HostDriver = driver(false);
