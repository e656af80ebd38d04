// The published package: its name is free of the unrelated `harness` on the registry, the bin stays
// `harness`, and the packed files run with nothing installed beside them (the CLI bundle imports
// only node: built-ins; scripts/pack-smoke.sh proves the tarball end to end in CI).
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MINI_ROLES, ROOT } from "./helpers/cli.js";

const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8"));

describe("package.json", () => {
  it("is agent-harness with the harness bin, Node 20, and the files init and build need", () => {
    expect(pkg.name).toBe("agent-harness");
    expect(pkg.bin).toEqual({ harness: "dist/cli/cli.js" });
    expect(pkg.engines.node).toBe(">=20");
    expect(pkg.files).toEqual(expect.arrayContaining(["dist/cli", "roles", "schema", "templates"]));
  });

  it("has no runtime dependencies: everything is bundled into dist/cli", () => {
    expect(pkg.dependencies ?? {}).toEqual({});
    const imports = new Set<string>();
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (/\.c?js$/.test(p)) for (const m of readFileSync(p, "utf8").matchAll(/(?:from\s*|import\(\s*|require\(\s*)["'`]([^"'`]+)["'`]/g)) if (/^[@a-z][\w@/.:-]*$/.test(m[1]!)) imports.add(m[1]!);
      }
    };
    walk(path.join(ROOT, "dist/cli"));
    expect([...imports].filter((i) => !i.startsWith("node:") && !i.startsWith("."))).toEqual([]);
  });
});

describe("the bundle loads a builtin only when a command uses it", () => {
  // scripts/lazy-builtins.mjs: child_process (with net, dgram, stream) cost ~5 ms of every command
  // when commander loaded it eagerly; a quiet build never spawns, a printing build asks git.
  const loaded = (args: string[], cwd: string) => {
    const probe = path.join(mkdtempSync(path.join(tmpdir(), "harness-probe-")), "probe.cjs");
    writeFileSync(probe, 'process.on("exit", () => require("fs").writeSync(2, "\\nloaded " + process.moduleLoadList.join("|") + "\\n"));\n');
    const r = spawnSync(process.execPath, ["--require", probe, path.join(ROOT, "dist/cli/cli.js"), ...args], { cwd, encoding: "utf8", timeout: 30_000 });
    expect(r.status, r.stderr).toBe(0);
    return /\nloaded (.*)\n/.exec(r.stderr)![1]!.split("|");
  };
  it("does not load child_process for a quiet build or check, and does when a build asks git about out/", () => {
    const out = mkdtempSync(path.join(tmpdir(), "harness-lazy-out-"));
    expect(loaded(["build", "-q", "--out", out], ROOT)).not.toContain("NativeModule child_process");
    expect(loaded(["check", "-q", "--out", out], ROOT)).not.toContain("NativeModule child_process");
    expect(loaded(["build", "--out", out], ROOT)).toContain("NativeModule child_process");
  });
});

describe("the code cache is only an accelerator", () => {
  // dist/cli/main.cache is made by `npm run build` for this Node; another Node, or a damaged file,
  // must mean compiling from source with the same result, never a failure or different output.
  const run = (cliDir: string, args: string[], cwd: string) =>
    spawnSync(process.execPath, [path.join(cliDir, "cli.js"), ...args], { cwd, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" }, timeout: 30_000 });
  it("is accepted by this Node for the commands it was trained on", () => {
    const out = mkdtempSync(path.join(tmpdir(), "harness-cache-out-"));
    for (const args of [["build", "-q", "--out", out], ["check", "-q", "--out", out], ["--version"]]) {
      const r = spawnSync(process.execPath, [path.join(ROOT, "dist/cli/cli.js"), ...args], { cwd: ROOT, encoding: "utf8", env: { ...process.env, HARNESS_CODE_CACHE_REPORT: "1" }, timeout: 30_000 });
      expect(r.stderr.split("\n")[0], args.join(" ")).toBe("harness: code cache accepted");
    }
  });
  it("is accepted outside a project too (init, --version: no roles folder to count)", () => {
    const empty = mkdtempSync(path.join(tmpdir(), "harness-cache-empty-"));
    for (const args of [["--version"], ["init", "--help"]]) {
      const r = spawnSync(process.execPath, [path.join(ROOT, "dist/cli/cli.js"), ...args], { cwd: empty, encoding: "utf8", env: { ...process.env, HARNESS_CODE_CACHE_REPORT: "1" }, timeout: 30_000 });
      expect(r.stderr.split("\n")[0], args.join(" ")).toBe("harness: code cache accepted");
    }
  });
  it("exists after the build, and a missing or corrupt cache gives the same output and exit code", () => {
    expect(statSync(path.join(ROOT, "dist/cli/main.cache")).size).toBeGreaterThan(100_000);
    const work = mkdtempSync(path.join(tmpdir(), "harness-cache-test-"));
    const args = ["build", "--roles", MINI_ROLES, "--out"];
    const reference = run(path.join(ROOT, "dist/cli"), [...args, path.join(work, "out-ref")], work);
    expect(reference.status).toBe(0);
    for (const damage of ["missing", "corrupt", "truncated"] as const) {
      const cli = path.join(work, `cli-${damage}`);
      cpSync(path.join(ROOT, "dist/cli"), cli, { recursive: true });
      const cache = path.join(cli, "main.cache");
      if (damage === "missing") rmSync(cache);
      else if (damage === "corrupt") writeFileSync(cache, Buffer.alloc(statSync(cache).size, 0x5a));
      else writeFileSync(cache, readFileSync(cache).subarray(0, 1000));
      const r = run(cli, [...args, path.join(work, `out-${damage}`)], work);
      expect({ damage, status: r.status, stderr: r.stderr.replaceAll(`out-${damage}`, "out-ref") }).toEqual({ damage, status: 0, stderr: reference.stderr });
      expect(r.stdout.replaceAll(`out-${damage}`, "out-ref")).toBe(reference.stdout);
      for (const f of readdirSync(path.join(work, "out-ref"), { recursive: true }) as string[]) {
        const a = path.join(work, "out-ref", f);
        if (statSync(a).isFile()) expect(readFileSync(path.join(work, `out-${damage}`, f), "utf8"), f).toBe(readFileSync(a, "utf8"));
      }
    }
  });
});
