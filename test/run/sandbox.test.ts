// `harness run --sandbox` (Claude Code): which never-write globs the sandbox can hold (plain folder
// and file prefixes only: Claude Code 2.1.332 silently does not enforce a glob deny), the exact
// settings one role's session gets, and what the command refuses before any session starts. The
// real host proof is test/hosts/run-sandbox.test.ts.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { makeMissingFolders, plainPrefix, sandboxGlobOnly, sandboxSettings, sandboxToolsProblem } from "../../adapters/claude-code/sandbox.js";
import { globMatcher } from "../../src/glob.js";
import { readPipeline } from "../../src/ir/normalize.js";
import { newRecord } from "../../src/run/plan.js";
import { saveDigest } from "../../src/run/trust.js";
import { writeRecord } from "../../src/runs/record.js";
import { harness, ROOT, tempDir } from "../helpers/cli.js";

describe("the never-write globs the sandbox holds", () => {
  it("a folder's `/**` and a glob-free path are prefixes; every other glob is left to the guard and the audit", () => {
    expect(["test/**", "./tests/**", ".claude/**", "CLAUDE.md", ".github/copilot-instructions.md", ".git/**"].map(plainPrefix)).toEqual(["test", "tests", ".claude", "CLAUDE.md", ".github/copilot-instructions.md", ".git"]);
    for (const g of ["**/*.test.*", "**/__tests__/**", "src/**/*.snap", "packages/*/src/**", "*.md", "src/a?.ts", "docs/{a,b}/**", "**", "../x/**", "/etc/**", "a//b"]) expect(plainPrefix(g), g).toBeNull();
    expect(sandboxGlobOnly(["test/**", "**/*.test.*", "CLAUDE.md"])).toEqual(["**/*.test.*"]);
  });

  it("a prefix denies exactly what the glob matches: the path itself and everything below it (property)", () => {
    const seg = fc.stringMatching(/^[a-z0-9._-]{1,6}$/).filter((s) => s !== "." && s !== "..");
    const rel = fc.array(seg, { minLength: 1, maxLength: 4 }).map((a) => a.join("/"));
    fc.assert(
      fc.property(rel, rel, fc.boolean(), (dir, other, folder) => {
        const glob = folder ? `${dir}/**` : dir;
        const prefix = plainPrefix(glob);
        expect(prefix).toBe(dir);
        const denied = (p: string) => p === prefix || p.startsWith(`${prefix}/`);
        for (const p of [other, `${dir}/${other}`, `${other}/${dir}`]) if (globMatcher(glob)(p)) expect(denied(p), `${glob} ${p}`).toBe(true);
        // the sandbox denies more than a file glob only where the glob is a folder's (dir itself)
        if (folder) expect(globMatcher(glob)(`${dir}/${other}`)).toBe(true);
      }),
    );
  });
});

describe("one role's sandbox settings", () => {
  it("Pebble's Jade: its never-write folders and files, .harness, .claude, the audit's .git parts and the settings folder, as //absolute denyWrite and Edit deny rules", () => {
    const root = tempDir("harness-sbx-");
    execFileSync("git", ["init", "-q"], { cwd: root });
    const jade = readPipeline(path.join(ROOT, "roles")).pipeline.roles.find((r) => r.id === "jade")!;
    const { settings, globOnly } = sandboxSettings(root, jade.neverWrite, "/tmp/harness-sandbox-X");
    const s = settings as { sandbox: Record<string, any>; permissions: { deny: string[] } };
    expect(Object.keys(settings)).toEqual(["sandbox", "permissions"]);
    expect({ ...s.sandbox, filesystem: undefined }).toEqual({ enabled: true, failIfUnavailable: true, allowUnsandboxedCommands: false, autoAllowBashIfSandboxed: false, filesystem: undefined });
    const real = fs.realpathSync(root);
    const rel = (s.sandbox.filesystem.denyWrite as string[]).map((p) => (p.startsWith(`/${root}/`) ? p.slice(root.length + 2) : p.startsWith(`/${real}/`) ? `git:${p.slice(real.length + 2)}` : p));
    expect(rel).toEqual(expect.arrayContaining(["test", "tests", "spec", "e2e", ".harness", ".claude", ".git", "CLAUDE.md", "AGENTS.md", "opencode.json", "//tmp/harness-sandbox-X"]));
    for (const g of ["hooks", "config", "info", "harness-audit"]) expect(rel.some((p) => p === `.git/${g}` || p === `git:.git/${g}`), g).toBe(true);
    expect(rel.every((p) => !/[*?]/.test(p))).toBe(true);
    expect(s.permissions.deny).toContain(`Edit(/${root}/test/**)`);
    expect(s.permissions.deny).toContain(`Edit(/${root}/test)`);
    expect(s.permissions.deny.length).toBe(2 * rel.length);
    // no escape hatch key is ever written
    expect(JSON.stringify(settings)).not.toMatch(/excludedCommands|ignoreViolations|allowWrite|enableWeaker/);
    expect(globOnly).toEqual(["**/*.key", "**/*.pem", "**/*.spec.*", "**/*.test.*", "**/*_test.*", "**/__mocks__/**", "**/__snapshots__/**", "**/__tests__/**", "**/conftest.py", "**/test_*.py", ".env.*.local"]);
    // deterministic bytes: the same input twice serializes the same
    expect(JSON.stringify(sandboxSettings(root, [...jade.neverWrite].reverse(), "/tmp/harness-sandbox-X").settings)).toBe(JSON.stringify(settings));
  });

  it("the denied folders a project lacks are made empty for the session and removed after, unless something landed in them", () => {
    const root = tempDir("harness-sbx-dirs-");
    fs.mkdirSync(path.join(root, "test"));
    fs.writeFileSync(path.join(root, "test", "a.test.mjs"), "x");
    const { folders } = sandboxSettings(root, ["test/**", "spec/**", ".github/agents/**", "CLAUDE.md", "**/*.test.*"], "/tmp/x");
    expect(folders).toEqual([".github/agents", "spec", "test"].map((f) => path.join(root, f)));
    const undo = makeMissingFolders(root, [...folders, "/elsewhere/x"]);
    for (const f of folders) expect(fs.statSync(f).isDirectory(), f).toBe(true);
    expect(fs.existsSync("/elsewhere")).toBe(false);
    fs.writeFileSync(path.join(root, "spec", "kept.txt"), "x");
    undo();
    expect(fs.readdirSync(root).sort()).toEqual(["spec", "test"]);
    expect(fs.readdirSync(path.join(root, "spec"))).toEqual(["kept.txt"]);
    expect(fs.readdirSync(path.join(root, "test"))).toEqual(["a.test.mjs"]);
  });

  it("a project reached through a symbolic link is denied in both spellings", () => {
    const real = tempDir("harness-sbx-real-");
    const link = path.join(tempDir("harness-sbx-link-"), "p");
    fs.symlinkSync(real, link);
    const deny = (sandboxSettings(link, ["test/**"], "/tmp/x").settings as any).sandbox.filesystem.denyWrite as string[];
    expect(deny).toEqual(expect.arrayContaining([`/${link}/test`, `/${fs.realpathSync(real)}/test`, `/${link}/.harness`, `/${fs.realpathSync(real)}/.harness`]));
  });

  it("bwrap and socat must both be on PATH", () => {
    const dir = tempDir("harness-sbx-bin-");
    expect(sandboxToolsProblem({ PATH: dir })).toMatch(/needs bwrap and socat on PATH, and they are not there\. Install them \(`apt-get install bubblewrap socat`/);
    fs.writeFileSync(path.join(dir, "bwrap"), "#!/bin/sh\n", { mode: 0o755 });
    expect(sandboxToolsProblem({ PATH: dir })).toMatch(/needs socat on PATH, and it is not there/);
    fs.writeFileSync(path.join(dir, "socat"), "#!/bin/sh\n", { mode: 0o644 });
    expect(sandboxToolsProblem({ PATH: dir })).toMatch(/needs socat on PATH/);
    fs.chmodSync(path.join(dir, "socat"), 0o755);
    expect(sandboxToolsProblem({ PATH: dir })).toBeNull();
  });
});

const FIXTURE = path.join(ROOT, "test/fixtures/run");
async function installed(hosts: string[], roles = FIXTURE): Promise<{ root: string; env: Record<string, string> }> {
  const root = tempDir("harness-run-sbx-");
  execFileSync("git", ["init", "-q"], { cwd: root });
  fs.cpSync(roles, path.join(root, "roles"), { recursive: true });
  expect((await harness(["install", ...hosts.flatMap((h) => ["--host", h]), "-q"], root)).code).toBe(0);
  // no bwrap, socat or host on PATH
  return { root, env: { HARNESS_STATE_HOME: tempDir("harness-state-"), PATH: path.dirname(process.execPath) } };
}

describe("harness run --sandbox refuses before starting", () => {
  it("without bwrap and socat: exit 2, the fix, nothing run or recorded", async () => {
    const { root, env } = await installed(["claude-code"]);
    const r = await harness(["run", "--sandbox", "--kind", "fix", "x"], root, env);
    expect(r).toMatchObject({ code: 2, stderr: expect.stringMatching(/--sandbox: Claude Code's sandbox needs bwrap and socat on PATH, and they are not there\. Install them \(`apt-get install bubblewrap socat`, or your system's packages\), or run without --sandbox\./) });
    expect(fs.existsSync(path.join(root, ".harness"))).toBe(false);
  });

  it("on a host whose sandbox harness does not drive", async () => {
    const { root, env } = await installed(["claude-code", "codex"], path.join(ROOT, "roles"));
    expect(await harness(["run", "--sandbox", "--host", "codex", "x"], root, env)).toMatchObject({ code: 2, stderr: expect.stringMatching(/--sandbox: harness run drives the sandbox of claude-code only so far, not codex's/) });
  });

  it("--resume of a sandboxed run without --sandbox still needs the sandbox: never resumed unsandboxed", async () => {
    const { root, env } = await installed(["claude-code"]);
    const id = "20261201T231500Z-a1b2c3";
    const rec = newRecord({ id, host: "claude-code", pipeline: readPipeline(FIXTURE).pipeline, request: "x", started: new Date(), budget: null });
    rec.status = "interrupted";
    rec.sandbox = true;
    saveDigest(root, id, writeRecord(root, rec), { HARNESS_STATE_HOME: env.HARNESS_STATE_HOME! });
    expect(await harness(["run", "--resume", id], root, env)).toMatchObject({ code: 2, stderr: expect.stringMatching(/needs bwrap and socat on PATH.*This run was started with --sandbox, so it resumes only in the sandbox\./) });
  });
});

describe("MAPPING.md's --sandbox section", () => {
  it("cites the real-host tests by their names (describe: it) in test/hosts/run-sandbox.test.ts", async () => {
    const { NO_SANDBOX_PROOF, SANDBOX_PROOF } = await import("../../adapters/claude-code/sandbox-mapping.js");
    const src = fs.readFileSync(path.join(ROOT, "test/hosts/run-sandbox.test.ts"), "utf8");
    const names: string[] = [];
    let suite = "";
    for (const m of src.matchAll(/\b(describe|it)(?:\.\w+(?:\([^)]*\))?)*\(\s*"((?:[^"\\]|\\.)*)"/g)) {
      if (m[1] === "describe") suite = m[2]!;
      else names.push(`claude-code: ${suite}: ${m[2]}`);
    }
    expect(names).toContain(SANDBOX_PROOF);
    expect(names).toContain(NO_SANDBOX_PROOF);
  });
});
