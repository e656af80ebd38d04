// `harness hosts --check`: each host's pinned version (the adapter's checkedAgainst) beside the version
// of the CLI found on this machine's PATH, so drift between what harness was proven against and what
// a team runs shows before a build is trusted. Read only: runs `<bin> --version`, bounded in time.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { Adapter } from "../adapter/types.js";

export interface InstalledVersion {
  /** absolute path of the executable on PATH, or null when none is found */
  bin: string | null;
  /** the first x.y.z in its --version output, or null (not found, failed, timed out, no version) */
  version: string | null;
  /** why there is no version, when there is none */
  error?: string;
}

/** The first executable file named `name` in the PATH list (POSIX: a file with an execute bit). */
export function findOnPath(name: string, pathVar = process.env.PATH ?? ""): string | null {
  for (const dir of pathVar.split(path.delimiter)) {
    if (!dir) continue;
    const p = path.join(dir, name);
    try {
      const st = fs.statSync(p);
      if (st.isFile() && (st.mode & 0o111) !== 0) return p;
    } catch {
      /* not here */
    }
  }
  return null;
}

/** x.y.z (with a pre-release or build tail) out of a --version line. */
export function versionIn(text: string): string | null {
  return /(?<![\d.])(\d+\.\d+\.\d+(?:-[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*)?)/.exec(text)?.[1] ?? null;
}

export function probeVersion(bin: string, timeoutMs = 20_000): Promise<InstalledVersion> {
  return new Promise((resolve) => {
    // no update checks, no colour: the probe must not change the machine or wait on the network
    const env = { ...process.env, NO_COLOR: "1", CI: "1", DISABLE_AUTOUPDATER: "1", OPENCODE_DISABLE_AUTOUPDATE: "1", KILO_DISABLE_AUTOUPDATE: "1" };
    execFile(bin, ["--version"], { timeout: timeoutMs, killSignal: "SIGKILL", env, maxBuffer: 1 << 20 }, (err, stdout, stderr) => {
      const version = versionIn(`${stdout}\n${stderr}`);
      if (version) return resolve({ bin, version });
      resolve({ bin, version: null, error: err ? (err.killed ? "timed out" : `exit ${err.code ?? "?"}`) : "printed no version" });
    });
  });
}

export interface HostCheck {
  id: string;
  pinned: string;
  docsOnly: boolean;
  installed: InstalledVersion;
  /** "same" | "differs" | "not installed" | "unknown" (found but no version) | "docs only" */
  verdict: "same" | "differs" | "not installed" | "unknown" | "docs only";
}

export async function checkHosts(adapters: readonly Adapter[], find = findOnPath, probe = probeVersion): Promise<HostCheck[]> {
  return Promise.all(
    adapters.map(async (a): Promise<HostCheck> => {
      const docsOnly = a.checkedAgainst.basis === "docs";
      const base = { id: a.id, pinned: a.checkedAgainst.version, docsOnly };
      if (docsOnly || !a.checkedAgainst.bin) return { ...base, installed: { bin: null, version: null }, verdict: "docs only" };
      const bin = find(a.checkedAgainst.bin);
      if (!bin) return { ...base, installed: { bin: null, version: null, error: `${a.checkedAgainst.bin} is not on PATH` }, verdict: "not installed" };
      const installed = await probe(bin);
      return { ...base, installed, verdict: installed.version === null ? "unknown" : installed.version === base.pinned ? "same" : "differs" };
    }),
  );
}
