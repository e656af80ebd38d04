// Installs (idempotently) the pinned host CLIs before the real-host tests and hands the
// host -> binary map to the tests. An install failure is NOT thrown here: each host's tests
// then fail with the installer's message (a missing host is a failure, never a skip).
// It also builds what harness emits for roles/ (lib/emitted.ts) once, into .cache/hosts-emitted/;
// a build failure is handed on the same way, and every test of the emitted tree fails with it.
import fs from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { buildEmitted, EMITTED_ROOT, type Emitted } from "./lib/emitted.js";
import { ensureHosts, type HostInstallMap } from "./lib/install.js";

declare module "vitest" {
  export interface ProvidedContext {
    hostInstall: HostInstallMap;
    emitted: Emitted;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const t0 = Date.now();
  const map = ensureHosts();
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  for (const [host, r] of Object.entries(map))
    process.stderr.write(`[hosts] ${host}: ${r.ok ? `${r.versionOutput ?? r.version} ${r.bin}` : `NOT USABLE: ${r.error}`}\n`);
  process.stderr.write(`[hosts] install/check took ${secs}s\n`);
  project.provide("hostInstall", map);

  const dest = path.join(EMITTED_ROOT, `run-${process.pid}`);
  const emitted = await buildEmitted(dest);
  process.stderr.write(
    emitted.error
      ? `[hosts] emitted tree: BUILD FAILED (${emitted.durationMs} ms): ${emitted.error.split("\n").slice(0, 3).join(" | ")}\n`
      : `[hosts] emitted tree: ${emitted.hosts.join(", ")} built in ${emitted.durationMs} ms (exit ${emitted.code}) at ${path.relative(process.cwd(), dest)}\n`,
  );
  project.provide("emitted", emitted);
  return () => {
    if (process.env.HARNESS_KEEP_SCRATCH !== "1") fs.rmSync(dest, { recursive: true, force: true });
  };
}
