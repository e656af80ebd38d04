// Shared helpers for the real-host tests.
import fs from "node:fs";
import path from "node:path";
import { expect, inject } from "vitest";
import { REPO_ROOT } from "./lib/env.js";
import { ensureHosts, type HostInstallMap } from "./lib/install.js";
import type { HostId } from "./versions.js";

export const FIXTURES = path.join(REPO_ROOT, "test", "hosts", "fixtures");
/** where the compiler writes host trees; HARNESS_HOSTS_OUT overrides it (e.g. to check another build) */
export const OUT = process.env.HARNESS_HOSTS_OUT ? path.resolve(process.env.HARNESS_HOSTS_OUT) : path.join(REPO_ROOT, "out");

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

export function outDir(host: HostId): string {
  return path.join(OUT, host);
}

/** out/<host>/ exists (the only accepted reason not to load it, until the compiler lands). */
export function hasOut(host: HostId): boolean {
  const d = outDir(host);
  return fs.existsSync(d) && fs.statSync(d).isDirectory();
}
