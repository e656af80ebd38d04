// Run scripts/install-hosts.mjs (idempotent) and return its host -> binary map.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { REPO_ROOT } from "./env.js";
import type { HostId } from "../versions.js";

export interface HostInstall {
  bin: string;
  version: string;
  package: string;
  ok: boolean;
  installed?: boolean;
  versionOutput?: string;
  error?: string;
}
export type HostInstallMap = Record<HostId, HostInstall>;

export const INSTALL_SCRIPT = path.join(REPO_ROOT, "scripts", "install-hosts.mjs");

/** Installs missing CLIs (network to the npm registry) unless check=true. Never throws: failures are in the map. */
export function ensureHosts(opts: { check?: boolean; timeoutMs?: number } = {}): HostInstallMap {
  const r = spawnSync(process.execPath, [INSTALL_SCRIPT, "--details", ...(opts.check ? ["--check"] : [])], {
    cwd: REPO_ROOT,
    encoding: "utf8",
    timeout: opts.timeoutMs ?? 15 * 60_000,
    killSignal: "SIGKILL",
    stdio: ["ignore", "pipe", "pipe"],
  });
  const fail = (error: string): HostInstallMap => {
    const one = (h: HostId): HostInstall => ({ bin: "", version: "", package: "", ok: false, error: `${h}: ${error}` });
    return { "claude-code": one("claude-code"), opencode: one("opencode"), codex: one("codex"), copilot: one("copilot"), "gemini-cli": one("gemini-cli"), kilo: one("kilo"), "qwen-code": one("qwen-code"), pi: one("pi"), "factory-droid": one("factory-droid") };
  };
  if (r.error) return fail(`install-hosts.mjs did not run: ${r.error.message}`);
  try {
    return JSON.parse(r.stdout) as HostInstallMap;
  } catch {
    return fail(`install-hosts.mjs exited ${r.status} without a JSON map:\n${r.stderr.slice(-2000)}`);
  }
}
