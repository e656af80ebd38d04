// Run the CLI in a temp folder: in this process (src/cli.ts main, what nearly every CLI test means:
// the command's output and exit code), or as the built executable users start, for the tests whose
// subject is the process itself (the loader, its code cache and cached no-op, signals, pipes).
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { main } from "../../src/cli.js";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const CLI = path.join(ROOT, "dist/cli/cli.js");
export const PEBBLE_ROLES = path.join(ROOT, "roles");
export const MINI_ROLES = path.join(ROOT, "test/fixtures/mini");

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * `harness args…` run from `cwd`, in this process: the same output and exit code as the executable,
 * without a process start and a bundle load per call (about 0.25 s each on the 2-core CI machine).
 * Calls run one at a time: a command sees the process's working folder and environment.
 */
export function harness(args: readonly string[], cwd: string, env: Record<string, string> = {}): Promise<RunResult> {
  const call = queue.then(async () => {
    const [stdout, stderr] = [new Capture(), new Capture()];
    const code = await main(args, { cwd, env: { ...process.env, NO_COLOR: "1", ...env }, stdout, stderr });
    return { code, stdout: stdout.text, stderr: stderr.text };
  });
  queue = call.catch(() => {});
  return call;
}
let queue: Promise<unknown> = Promise.resolve();

class Capture {
  text = "";
  readonly isTTY = false;
  write(chunk: string | Uint8Array): boolean {
    this.text += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
    return true;
  }
}

/** `harness args…` as a child process of the built executable (dist/cli/cli.js; `npm run build` first). */
export function harnessProcess(args: readonly string[], cwd: string, env: Record<string, string> = {}): RunResult {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: "utf8", env: { ...process.env, NO_COLOR: "1", ...env }, timeout: 30_000 });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

export function tempDir(prefix = "harness-test-"): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

/** A scratch project holding a copy of a roles folder at ./roles. */
export function scratchProject(rolesDir = MINI_ROLES): string {
  const dir = tempDir();
  cpSync(rolesDir, path.join(dir, "roles"), { recursive: true });
  return dir;
}
