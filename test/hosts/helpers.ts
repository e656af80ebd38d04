// Shared helpers for the real-host tests.
import fs from "node:fs";
import path from "node:path";
import { expect, inject } from "vitest";
import { REPO_ROOT } from "./lib/env.js";
import { ensureHosts, type HostInstallMap } from "./lib/install.js";
import { HOST_IDS } from "../../adapters/index.js";
import { buildEmitted, EMITTED_ROOT, type Emitted } from "./lib/emitted.js";
import { HOST_VERSIONS, type HostId } from "./versions.js";

export const FIXTURES = path.join(REPO_ROOT, "test", "hosts", "fixtures");
/** HARNESS_HOSTS_OUT=<dir>: check that build (a folder with one <host>/ per host, e.g. out/) instead of a fresh one */
export const OUT_OVERRIDE = process.env.HARNESS_HOSTS_OUT ? path.resolve(process.env.HARNESS_HOSTS_OUT) : undefined;

let cached: HostInstallMap | undefined;
/** host -> binary map from the global setup (or, when run without it, from the installer directly). */
export function hostInstallMap(): HostInstallMap {
  if (cached) return cached;
  let provided: HostInstallMap | undefined;
  try {
    provided = inject("hostInstall");
  } catch {
    provided = undefined;
  }
  cached = provided ?? ensureHosts();
  return cached;
}

/** Binary of a host; FAILS the current test (never skips) when the CLI is not usable. */
export function hostBin(host: HostId): string {
  const r = hostInstallMap()[host];
  expect(r, `no install record for ${host}`).toBeDefined();
  expect(r.ok, `${host} CLI is not usable: ${r.error ?? "unknown error"}`).toBe(true);
  return r.bin;
}

export function fixture(host: HostId, name: string): string {
  const p = path.join(FIXTURES, host, name);
  if (!fs.existsSync(p)) throw new Error(`missing fixture ${p}`);
  return p;
}

let emittedCache: Promise<Emitted> | undefined;
/** What harness emits for roles/: the global setup's build (lib/emitted.ts), or HARNESS_HOSTS_OUT. */
export function emitted(): Promise<Emitted> {
  if (emittedCache) return emittedCache;
  if (OUT_OVERRIDE) return (emittedCache = Promise.resolve({ root: OUT_OVERRIDE, hosts: [...REGISTERED_HOSTS], durationMs: 0 }));
  let provided: Emitted | undefined;
  try {
    provided = inject("emitted");
  } catch {
    provided = undefined;
  }
  // run without the global setup: build it here (once per worker)
  emittedCache = provided ? Promise.resolve(provided) : buildEmitted(path.join(EMITTED_ROOT, `worker-${process.pid}`));
  return emittedCache;
}

/** The emitted tree of a registered host; FAILS the current test (never skips) when it cannot be had. */
export async function emittedTree(host: string): Promise<string> {
  const e = await emitted();
  expect(e.error, `harness could not build roles/:\n${e.error}`).toBeUndefined();
  const d = path.join(e.root, host);
  expect(fs.existsSync(d) && fs.statSync(d).isDirectory(), `${d} is missing: ${OUT_OVERRIDE ? "HARNESS_HOSTS_OUT has no folder for this host" : "harness build did not emit this host"}`).toBe(true);
  return d;
}

/** Every host registered in adapters/index.ts, real-host or docs-only. */
export const REGISTERED_HOSTS: readonly string[] = HOST_IDS;

/** Registered hosts with a CLI pinned in versions.json: the ones the real-host tests run. */
export const REAL_HOSTS: readonly HostId[] = HOST_IDS.filter((h): h is HostId => h in HOST_VERSIONS);

/** Registered hosts that versions.json does not pin: each must be a docs-only adapter (load.test.ts checks). */
export const UNPINNED_HOSTS: readonly string[] = HOST_IDS.filter((h) => !(h in HOST_VERSIONS));

/**
 * The newest run record in <project>/.harness/runs: by its `started` time, then its id. A run id holds
 * the second and random hex, so two runs of one second (a run the controller starts anew after its
 * state was deleted) sort by chance on the file name alone.
 */
export function latestRunRecord(project: string): Record<string, any> {
  const dir = path.join(project, ".harness", "runs");
  const recs = fs.readdirSync(dir).filter((x) => x.endsWith(".json")).map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")) as Record<string, any>);
  recs.sort((a, b) => (String(a.started) < String(b.started) ? -1 : String(a.started) > String(b.started) ? 1 : String(a.id) < String(b.id) ? -1 : 1));
  return recs[recs.length - 1]!;
}
