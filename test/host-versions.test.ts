// `harness hosts --check`: the pinned version of each host beside the version of its CLI on PATH.
// Fake CLIs on a PATH of our own stand in for the real ones (no host runs here).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { HOSTS } from "../adapters/index.js";
import { checkHosts, findOnPath, versionIn } from "../src/commands/host-versions.js";
import { harness, tempDir } from "./helpers/cli.js";

function fakeBin(dir: string, name: string, script: string): void {
  fs.writeFileSync(path.join(dir, name), `#!/bin/sh\n${script}\n`, { mode: 0o755 });
}

describe("hosts --check", () => {
  it("versionIn takes the first x.y.z of a --version line", () => {
    expect(versionIn("2.1.332 (Claude Code)")).toBe("2.1.332");
    expect(versionIn("codex-cli 0.171.0\n")).toBe("0.171.0");
    expect(versionIn("GitHub Copilot CLI 1.0.102.")).toBe("1.0.102");
    expect(versionIn("v2.0.12-beta.3")).toBe("2.0.12-beta.3");
    expect(versionIn("no version here")).toBeNull();
  });

  it("findOnPath finds only executable files", () => {
    const d = tempDir();
    fs.writeFileSync(path.join(d, "plain"), "x");
    fakeBin(d, "exe", "true");
    fs.mkdirSync(path.join(d, "dir"));
    expect(findOnPath("plain", d)).toBeNull();
    expect(findOnPath("dir", d)).toBeNull();
    expect(findOnPath("exe", `/nonexistent${path.delimiter}${d}`)).toBe(path.join(d, "exe"));
  });

  it("every real-host adapter names its CLI; docs-only ones do not", async () => {
    for (const id of Object.keys(HOSTS)) {
      const a = await HOSTS[id]!();
      if (a.checkedAgainst.basis === "docs") expect(a.checkedAgainst.bin, id).toBeUndefined();
      else expect(a.checkedAgainst.bin, id).toMatch(/^[a-z][a-z0-9-]*$/);
    }
  });

  it("same, differs, not installed, unknown and docs only", async () => {
    const adapters = await Promise.all(["qwen-code", "kilo", "codex", "opencode", "cursor"].map((h) => HOSTS[h]!()));
    const found: Record<string, string> = { qwen: "/x/qwen", kilo: "/x/kilo", opencode: "/x/opencode" };
    const versions: Record<string, string | null> = { "/x/qwen": "0.24.4", "/x/kilo": "7.8.0", "/x/opencode": null };
    const checks = await checkHosts(adapters, (n) => found[n] ?? null, async (bin) => ({ bin, version: versions[bin] ?? null, ...(versions[bin] ? {} : { error: "printed no version" }) }));
    expect(Object.fromEntries(checks.map((c) => [c.id, c.verdict]))).toEqual({ "qwen-code": "same", kilo: "differs", codex: "not installed", opencode: "unknown", cursor: "docs only" });
  });

  it("the CLI prints one line per host, with the CLI found on PATH, and exits 0", async () => {
    const bin = tempDir();
    fakeBin(bin, "qwen", 'echo "0.24.3"');
    fakeBin(bin, "kilo", 'echo "7.7.7"');
    const r = await harness(["hosts", "--check"], tempDir(), { PATH: `${bin}${path.delimiter}${path.dirname(process.execPath)}` });
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split("\n");
    expect(lines.filter((l) => /pinned/.test(l))).toHaveLength(Object.keys(HOSTS).length);
    expect(lines.find((l) => l.startsWith("qwen-code"))).toMatch(/pinned 0\.24\.4 +installed 0\.24\.3 .*\/qwen +DIFFERS$/);
    expect(lines.find((l) => l.startsWith("kilo"))).toMatch(/pinned 7\.7\.7 +installed 7\.7\.7 .*\/kilo +same$/);
    expect(lines.find((l) => l.startsWith("codex"))).toMatch(/installed not on PATH$/);
    expect(lines.find((l) => l.startsWith("cursor"))).toMatch(/no CLI to install \(docs\)$/);
    expect(r.stdout).toMatch(/qwen-code: the installed CLI is not the version harness was proven against/);
  });
});
