// Installs (idempotently) the pinned host CLIs before the real-host tests and hands the
// host -> binary map to the tests. An install failure is NOT thrown here: each host's tests
// then fail with the installer's message (a missing host is a failure, never a skip).
import type { TestProject } from "vitest/node";
import { ensureHosts, type HostInstallMap } from "./lib/install.js";

declare module "vitest" {
  export interface ProvidedContext {
    hostInstall: HostInstallMap;
  }
}

export default function setup(project: TestProject): void {
  const t0 = Date.now();
  const map = ensureHosts();
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  for (const [host, r] of Object.entries(map))
    process.stderr.write(`[hosts] ${host}: ${r.ok ? `${r.versionOutput ?? r.version} ${r.bin}` : `NOT USABLE: ${r.error}`}\n`);
  process.stderr.write(`[hosts] install/check took ${secs}s\n`);
  project.provide("hostInstall", map);
}
