// Run the compiled CLI as users do, in a temp folder.
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const CLI = path.join(ROOT, "dist/cli/cli.js");
export const PEBBLE_ROLES = path.join(ROOT, "roles");
export const MINI_ROLES = path.join(ROOT, "test/fixtures/mini");

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function harness(args: readonly string[], cwd: string, env: Record<string, string> = {}): RunResult {
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
