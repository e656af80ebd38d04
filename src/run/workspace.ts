// The runner's own view of the project between stages: which paths a stage changed (from git, taken
// before and after the stage's process), whether they are in the role's scope, and the check commands.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { globMatcher } from "../glob.js";
import type { RoleIR } from "../ir/types.js";
import { RUNS_DIR } from "../runs/record.js";
import { runProcess } from "../adapter/process-group.js";
import { fileSha } from "./trust.js";

/** How long the runner's own git may take: far more than any real repository needs, and never forever. */
export const GIT_TIMEOUT_MS = 120_000;
export function gitTimedOut(what: string): string {
  return `${what} did not finish in ${GIT_TIMEOUT_MS / 1000} s: a file git reads (~/.gitconfig, .git/config, a .gitignore) may have been replaced by a FIFO or a device by code a stage ran; remove it and run again (harness run --resume).`;
}

export type Snapshot = Map<string, string | null> | null;

/** Every changed or untracked path with its content's sha256; null outside a git work tree. */
export function snapshot(root: string): Snapshot {
  // bounded: a file git reads (a git configuration, a .gitignore) that a stage's code replaced by a FIFO would hold it forever
  const git = spawnSync("git", ["status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames"], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], maxBuffer: 64 << 20, timeout: GIT_TIMEOUT_MS, killSignal: "SIGKILL" });
  if (git.error && (git.error as NodeJS.ErrnoException).code === "ETIMEDOUT") throw new Error(gitTimedOut("git status"));
  if (git.status !== 0) return null;
  const raw = git.stdout;
  const out = new Map<string, string | null>();
  for (const entry of raw.split("\0")) {
    if (entry.length < 4) continue;
    const rel = entry.slice(3);
    if (rel.startsWith(".harness/")) continue; // the runner's own output
    out.set(rel, fileSha(root, rel));
  }
  return out;
}

/** Paths whose content differs between two snapshots (new, changed or removed), sorted. */
export function changedBetween(before: Snapshot, after: Snapshot): string[] {
  if (!before || !after) return [];
  const keys = new Set([...before.keys(), ...after.keys()]);
  return [...keys].filter((k) => before.get(k) !== after.get(k) || before.has(k) !== after.has(k)).sort();
}

/** Changed paths the role may not write: outside its write globs, or inside its never-write globs. */
export function outOfScope(role: RoleIR, files: readonly string[]): string[] {
  const allowed = role.write.map((g) => globMatcher(g));
  const never = role.neverWrite.map((g) => globMatcher(g));
  return files.filter((f) => !allowed.some((m) => m(f)) || never.some((m) => m(f)));
}

export interface CommandRun {
  exit: number | null;
  durationMs: number;
  log: string;
  output: string;
  interrupted: boolean;
}

/** Run one pipeline command with sh in the project root, in its own process group; log beside the record. */
export async function runCommand(root: string, runId: string, command: string, logName: string, signal: AbortSignal): Promise<CommandRun> {
  const p = await runProcess("sh", ["-c", command], { cwd: root, signal });
  const log = path.posix.join(RUNS_DIR, runId, "checks", logName);
  const output = `$ ${command}\n${p.stdout}${p.stderr}${p.interrupted ? "\n[interrupted]\n" : `\n[exit ${p.exit ?? p.signal}]\n`}`;
  fs.mkdirSync(path.dirname(path.join(root, log)), { recursive: true });
  fs.writeFileSync(path.join(root, log), output);
  return { exit: p.exit, durationMs: p.durationMs, log, output, interrupted: p.interrupted };
}

/** The last lines of a command's output, for a retry prompt or the ending. */
export const tail = (text: string, lines = 40) => text.trimEnd().split("\n").slice(-lines).join("\n");
