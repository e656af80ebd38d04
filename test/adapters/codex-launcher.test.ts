// Runs a generated Codex launcher against a fake codex that records what exists when it starts:
// the write folders and Codex's read-only mount points in them must exist before Codex starts
// (Codex 0.171.0 otherwise makes and removes placeholders per sandbox, and concurrent sandboxes race
// on them), and only what the launcher made is removed afterwards.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CodexAdapter } from "../../adapters/codex/index.js";
import { HOST_IDS } from "../../adapters/index.js";
import { compileHost } from "../../src/compile.js";
import { readPipeline } from "../../src/ir/normalize.js";

const ROOT = path.resolve(import.meta.dirname, "../..");
const MOUNT_POINTS = [".git", ".codex", ".agents", ".aws"];

function project(): { dir: string; run: (role: string) => { status: number | null; seen: string[]; stderr: string } } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "harness-codex-launch-"));
  const out = compileHost(readPipeline(path.join(ROOT, "roles"), { knownHosts: HOST_IDS }).pipeline, CodexAdapter);
  for (const f of out.files.filter((x) => x.path.startsWith(".codex/bin/"))) {
    fs.mkdirSync(path.dirname(path.join(dir, f.path)), { recursive: true });
    fs.writeFileSync(path.join(dir, f.path), f.content, { mode: 0o755 });
  }
  const fake = path.join(dir, "fake-codex");
  // lists every path (below the project, outside .codex) that exists when "codex" starts
  fs.writeFileSync(fake, '#!/bin/sh\nfind . -path ./.codex -prune -o -path ./fake-codex -prune -o -print | LC_ALL=C sort > "$SEEN"\nexit 3\n', { mode: 0o755 });
  const run = (role: string) => {
    const seen = path.join(os.tmpdir(), `${path.basename(dir)}-seen`);
    const r = spawnSync(path.join(dir, ".codex/bin", `${role}.sh`), ["task"], { cwd: dir, encoding: "utf8", env: { PATH: process.env.PATH ?? "/usr/bin:/bin", CODEX_BIN: fake, SEEN: seen } });
    const list = fs.readFileSync(seen, "utf8").split("\n").filter(Boolean);
    fs.rmSync(seen);
    return { status: r.status, seen: list, stderr: r.stderr };
  };
  return { dir, run };
}

function inProject(body: (p: ReturnType<typeof project>) => void): void {
  const p = project();
  try {
    body(p);
  } finally {
    fs.rmSync(p.dir, { recursive: true, force: true });
  }
}

const tree = (dir: string) =>
  spawnSync("find", [".", "-path", "./.codex", "-prune", "-o", "-path", "./fake-codex", "-prune", "-o", "-print"], { cwd: dir, encoding: "utf8" })
    .stdout.split("\n")
    .filter(Boolean)
    .sort();

describe("Codex launcher: write folders and mount points", () => {
  it("jade's folders and every mount point in them exist when Codex starts, and are gone afterwards", () =>
    inProject((p) => {
      const before = tree(p.dir);
      const r = p.run("jade");
      expect(r.status, r.stderr).toBe(3); // codex's own exit code comes back
      for (const folder of ["app", "lib", "src"]) {
        expect(r.seen).toContain(`./${folder}`);
        for (const m of MOUNT_POINTS) expect(r.seen).toContain(`./${folder}/${m}`);
      }
      expect(tree(p.dir)).toEqual(before);
    }));

  it("keeps what was there before: a .git pointer file, the team's own folders and files", () =>
    inProject((p) => {
      fs.mkdirSync(path.join(p.dir, "src/.aws"), { recursive: true });
      fs.writeFileSync(path.join(p.dir, "src/index.ts"), "export {};\n");
      fs.mkdirSync(path.join(p.dir, "lib"));
      fs.writeFileSync(path.join(p.dir, "lib/.git"), "gitdir: ../.git/modules/lib\n");
      const before = tree(p.dir);
      const r = p.run("jade");
      expect(r.status, r.stderr).toBe(3);
      expect(fs.readFileSync(path.join(p.dir, "lib/.git"), "utf8")).toBe("gitdir: ../.git/modules/lib\n");
      expect(r.seen).toContain("./src/.git");
      expect(tree(p.dir)).toEqual(before);
    }));

  it("a mount point the run left content in is kept", () =>
    inProject((p) => {
      const fake = path.join(p.dir, "fake-codex");
      fs.writeFileSync(fake, '#!/bin/sh\n: > "$SEEN"\necho kept > app/.aws/note\n', { mode: 0o755 });
      const r = p.run("jade");
      expect(r.status, r.stderr).toBe(0);
      expect(fs.readFileSync(path.join(p.dir, "app/.aws/note"), "utf8")).toBe("kept\n");
      expect(fs.existsSync(path.join(p.dir, "app/.git"))).toBe(false);
      expect(fs.existsSync(path.join(p.dir, "lib"))).toBe(false);
    }));
});

describe("Codex launcher: refuses a config that switches the hooks off", () => {
  const start = (config: string | null, extra: Record<string, string> = {}) =>
    inProject((p) => {
      const home = path.join(p.dir, ".home");
      fs.mkdirSync(home, { recursive: true });
      if (config !== null) fs.writeFileSync(path.join(home, "config.toml"), config);
      const fake = path.join(p.dir, "fake-codex");
      fs.writeFileSync(fake, "#!/bin/sh\nexit 3\n", { mode: 0o755 });
      const r = spawnSync(path.join(p.dir, ".codex/bin/jade.sh"), ["task"], { cwd: p.dir, encoding: "utf8", env: { PATH: process.env.PATH ?? "/usr/bin:/bin", CODEX_BIN: fake, CODEX_HOME: home, ...extra } });
      result = { status: r.status, stderr: r.stderr };
    });
  let result = { status: null as number | null, stderr: "" };
  const status = (config: string | null, extra: Record<string, string> = {}) => {
    start(config, extra);
    return result;
  };
  it("refuses hooks switched off in any spelling it reads, and NODE_OPTIONS; starts otherwise", () => {
    for (const bad of [
      "[features]\nhooks = false\n",
      '[features]\n"hooks" = false # off\n',
      "[ features ]\n  codex_hooks=false\n",
      "features.hooks = false\n",
      "features = { hooks = false }\n",
      "[profiles.ci.features]\nhooks = false\n",
      '[features]\n"ho\\u006fks" = false\n',
      '[shell_environment_policy]\nset = { NODE_OPTIONS = "--require=/tmp/x.js" }\n',
    ]) {
      const r = status(bad);
      expect(r.status, bad).toBe(1);
      expect(r.stderr, bad).toMatch(/harness: refusing to start: .*config\.toml would switch off or alter the guard and audit hooks/);
    }
    for (const ok of [null, "", "[features]\nhooks = true\n", '# hooks = false\nmodel = "x"\n', '[projects."/p"]\ntrust_level = "trusted"\n'])
      expect(status(ok).status, String(ok)).toBe(3);
    expect(status("[features]\nhooks = false\n", { HARNESS_GUARD_OFF: "1" }).status).toBe(3);
  });
});
