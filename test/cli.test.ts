// The CLI as users run it: exit codes, nothing written on error, manifest-only deletion.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { CLI, harness, harnessProcess, ROOT, scratchProject } from "./helpers/cli.js";
import { listFiles, MANIFEST_FILE } from "../src/fileset.js";

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error("run `npm run build` first: the CLI tests use the compiled JavaScript");
});

/** stderr of a first build holds nothing but per-host loss listings: a header naming MAPPING.md, then compiler-style lines. */
const ONLY_LOSS_LISTING = /^(?:[a-z-]+: losses that need you \(\S+\/MAPPING\.md explains each; `harness explain CODE`\)\n(?:\S+:\d+:\d+: (?:warning|error) L_[A-Z_]+ .*\n)+)*$/;

const snapshot = (dir: string) => Object.fromEntries(listFiles(dir).map((f) => [f, readFileSync(path.join(dir, f), "utf8")]));

describe("harness build", () => {
  it("builds every listed host, then a second build changes nothing", async () => {
    const dir = scratchProject();
    const first = await harness(["build"], dir);
    expect(first.stderr).toMatch(ONLY_LOSS_LISTING);
    expect(first.stderr).toMatch(/^roles\/writer\.md:\d+:\d+: warning L_SHELL_WRITE_GAP claude-code writer shell \(permissions\.shell\) is guard: .*Host limit: no role change fixes it on claude-code/m);
    expect(first.code).toBe(0);
    const total = listFiles(path.join(dir, "out/claude-code")).length;
    expect(first.stdout).toMatch(new RegExp(`^claude-code\\s+out/claude-code: ${total} files, ${total} written, 0 removed`));
    const before = snapshot(path.join(dir, "out"));
    const second = await harness(["build"], dir);
    expect(second.code).toBe(0);
    // Nothing new since the first build: one line per host and nothing else.
    expect(second.stderr).toBe("");
    expect(second.stdout.trimEnd().split("\n")).toHaveLength(1);
    expect(second.stdout).toMatch(new RegExp(`^claude-code\\s+out/claude-code: ${total} files, 0 written, 0 removed`));
    expect(snapshot(path.join(dir, "out"))).toEqual(before);
    expect(statSync(path.join(dir, "out/claude-code/.claude/hooks/harness-guard.cjs")).mode & 0o111).not.toBe(0);
  });

  it("exits 2 with file:line:col on a broken role and writes nothing", async () => {
    const dir = scratchProject();
    const file = path.join(dir, "roles/writer.md");
    writeFileSync(file, readFileSync(file, "utf8").replace("isolation: subagent", "isolation: sidecar"));
    const r = await harness(["build"], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('roles/writer.md:6:12: error E_ROLE_SCHEMA isolation: "sidecar" is not one of the allowed values. Use one of: "subagent", "main".');
    expect(r.stderr).toContain("nothing was written");
    expect(existsSync(path.join(dir, "out"))).toBe(false);
  });

  it("a broken role leaves an existing out/ byte-identical", async () => {
    const dir = scratchProject();
    expect((await harness(["build"], dir)).code).toBe(0);
    const before = snapshot(path.join(dir, "out"));
    const file = path.join(dir, "roles/pipeline.yaml");
    writeFileSync(file, readFileSync(file, "utf8").replace("role: checker", "role: nobody"));
    expect((await harness(["build"], dir)).code).toBe(2);
    expect(snapshot(path.join(dir, "out"))).toEqual(before);
  });

  it("refuses an --out folder with files but no manifest (exit 2) and leaves it alone", async () => {
    const dir = scratchProject();
    mkdirSync(path.join(dir, "mine/claude-code"), { recursive: true });
    writeFileSync(path.join(dir, "mine/claude-code/notes.txt"), "my notes");
    const r = await harness(["build", "--out", "mine"], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`mine/claude-code: error E_OUT_DIR holds 1 file(s) but no ${MANIFEST_FILE}`);
    expect(readdirSync(path.join(dir, "mine/claude-code"))).toEqual(["notes.txt"]);
  });

  it("refuses to overwrite a file harness did not write", async () => {
    const dir = scratchProject();
    expect((await harness(["build"], dir)).code).toBe(0);
    const manifestPath = path.join(dir, "out/claude-code", MANIFEST_FILE);
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
    delete manifest.files["CLAUDE.md"];
    writeFileSync(manifestPath, JSON.stringify(manifest));
    writeFileSync(path.join(dir, "out/claude-code/CLAUDE.md"), "hand written\n");
    const r = await harness(["build"], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("CLAUDE.md exists but harness did not write it");
    expect(readFileSync(path.join(dir, "out/claude-code/CLAUDE.md"), "utf8")).toBe("hand written\n");
  });

  it("deletes only manifest-listed files that are no longer produced, never a stray file", async () => {
    const dir = scratchProject();
    expect((await harness(["build"], dir)).code).toBe(0);
    writeFileSync(path.join(dir, "out/claude-code/.claude/agents/stray.md"), "mine\n");
    // Rename a role: the old agent file is ours (in the manifest) and must go.
    const pipeline = path.join(dir, "roles/pipeline.yaml");
    writeFileSync(pipeline, readFileSync(pipeline, "utf8").replace("role: checker", "role: auditor"));
    writeFileSync(path.join(dir, "roles/auditor.md"), readFileSync(path.join(dir, "roles/checker.md"), "utf8"));
    rmSync(path.join(dir, "roles/checker.md"));
    const r = await harness(["build"], dir);
    expect(r.stderr).toContain("out/claude-code/.claude/agents/stray.md: warning W_STRAY not written by harness, so harness leaves it alone (and check reports it). Delete it if you do not need it.");
    expect(r.code).toBe(0);
    expect(existsSync(path.join(dir, "out/claude-code/.claude/agents/checker.md"))).toBe(false);
    expect(existsSync(path.join(dir, "out/claude-code/.claude/agents/auditor.md"))).toBe(true);
    expect(readFileSync(path.join(dir, "out/claude-code/.claude/agents/stray.md"), "utf8")).toBe("mine\n");
  });

  it("an unknown --host is a usage error (exit 2) naming the known hosts", async () => {
    const r = await harness(["build", "--host", "claude"], scratchProject());
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown host "claude". Did you mean "claude-code"?');
  });

  it("--help and --version exit 0; a bad flag exits 2", async () => {
    const dir = scratchProject();
    expect(harnessProcess(["--help"], dir).code).toBe(0);
    expect(harnessProcess(["build", "--help"], dir).stdout).toContain("Examples:");
    expect(harnessProcess(["--version"], dir).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    expect(harnessProcess(["build", "--bogus"], dir).code).toBe(2);
    expect(harnessProcess(["frobnicate"], dir).code).toBe(2);
  });
});

describe("harness check", () => {
  it("exits 0 in sync, 1 on a changed, missing or stray file, naming each with a diff", async () => {
    const dir = scratchProject();
    expect((await harness(["build"], dir)).code).toBe(0);
    expect((await harness(["check"], dir)).code).toBe(0);
    const agent = path.join(dir, "out/claude-code/.claude/agents/writer.md");
    writeFileSync(agent, readFileSync(agent, "utf8").replace("You write the article", "You write anything"));
    let r = await harness(["check"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("out/claude-code/.claude/agents/writer.md: error E_DRIFT was edited by hand since harness wrote it. Move the change into roles/ (or revert the file), then run `harness build --force`.");
    expect(r.stderr).toContain("--- out/claude-code/.claude/agents/writer.md\ton disk\n+++ out/claude-code/.claude/agents/writer.md\tas built from roles/");
    expect(r.stderr).toContain("-You write anything from the outline.");
    expect(r.stderr).toContain("+You write the article from the outline.");
    rmSync(path.join(dir, "out/claude-code/CLAUDE.md"));
    writeFileSync(path.join(dir, "out/claude-code/extra.txt"), "x\n");
    r = await harness(["check", "--json"], dir);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report.drift).toEqual([
      { host: "claude-code", path: "out/claude-code/.claude/agents/writer.md", kind: "edited" },
      { host: "claude-code", path: "out/claude-code/CLAUDE.md", kind: "missing" },
      { host: "claude-code", path: "out/claude-code/extra.txt", kind: "stray" },
    ]);
  });

  it("reports a host folder the pipeline no longer lists (exit 1), and an unknown host's folder as a usage error (exit 2)", async () => {
    const dir = scratchProject();
    expect((await harness(["build"], dir)).code).toBe(0);
    mkdirSync(path.join(dir, "out/codex"));
    writeFileSync(path.join(dir, "out/codex", MANIFEST_FILE), JSON.stringify({ generator: "harness", host: "codex", files: {} }));
    let r = await harness(["check", "--json"], dir);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).drift).toEqual([{ host: "codex", path: "out/codex", kind: "orphaned-host" }]);
    writeFileSync(path.join(dir, "out/codex", MANIFEST_FILE), JSON.stringify({ generator: "harness", host: "gemini-9", files: {} }));
    r = await harness(["check"], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('out/codex was built for host "gemini-9", which this harness does not know');
  });

  it("writes nothing, even when out/ is missing", async () => {
    const dir = scratchProject();
    const r = await harness(["check"], dir);
    expect(r.code).toBe(1);
    expect(existsSync(path.join(dir, "out"))).toBe(false);
  });

  it("exits 2 on invalid input", async () => {
    const dir = scratchProject();
    writeFileSync(path.join(dir, "roles/pipeline.yaml"), "name: [unclosed\n");
    const r = await harness(["check"], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^roles\/pipeline\.yaml:\d+:\d+: error E_YAML /);
  });

  it("orders its output the same under any locale (a Czech developer and CI agree)", async () => {
    // Czech sorts "ch" after "h", so a locale-aware sort would put coral.md before chalk.md.
    const probe = spawnSync(process.execPath, ["-e", "process.stdout.write(Intl.Collator().resolvedOptions().locale + ' ' + 'chalk'.localeCompare('coral'))"], { env: { ...process.env, LC_ALL: "cs_CZ.UTF-8" }, encoding: "utf8" });
    expect(probe.stdout).toBe("cs-CZ 1"); // else this test could not fail
    const dir = scratchProject();
    for (const id of ["coral", "chalk"]) writeFileSync(path.join(dir, `roles/${id}.md`), `---\nid: ${id}\nbogus: 1\n---\nx\n`);
    const c = harnessProcess(["check"], dir, { LC_ALL: "C.UTF-8" });
    const cs = harnessProcess(["check"], dir, { LC_ALL: "cs_CZ.UTF-8" });
    expect(c.code).toBe(2);
    expect(c.stderr.indexOf("roles/chalk.md")).toBeLessThan(c.stderr.indexOf("roles/coral.md"));
    expect(cs.stderr).toBe(c.stderr);
    // and the bundled process compiles to the committed bytes under it
    expect(harnessProcess(["check", "--roles", path.join(ROOT, "roles"), "--out", path.join(ROOT, "out")], dir, { LC_ALL: "cs_CZ.UTF-8" }).code).toBe(0);
  });
});

describe("fidelity findings", () => {
  it("a host that cannot enforce a scope fails the build (exit 1) until the loss is accepted, naming role file and field", async () => {
    const dir = scratchProject();
    const r = await harness(["build", "--host", "codex"], dir);
    expect(r.code).toBe(1);
    // planner runs in the orchestrator's session (no stage boundary for the audit); writer, a spawned agent, is audited
    expect(r.stderr).toMatch(/^roles\/planner\.md:\d+:\d+: error L_SCOPE_INSTRUCTED codex planner write-scope \(permissions\.write\) is instructed: .* Host limit: no role change fixes it on codex; accept it with a reason\.$/m);
    expect(r.stderr).not.toMatch(/error L_SCOPE_INSTRUCTED codex writer/);
    expect(r.stderr).toContain("unaccepted error-level loss(es). Each is a host limit that no role change fixes.");
    const pipeline = path.join(dir, "roles/pipeline.yaml");
    writeFileSync(
      pipeline,
      readFileSync(pipeline, "utf8") +
        ["accepted_losses:", ...["write-scope", "never-write", "shell"].map((c) => `  - { host: codex, constraint: ${c}, reason: tested }`), "  - { host: codex, role: planner, constraint: spawn, reason: tested }", ""].join("\n"),
    );
    const accepted = await harness(["build", "--host", "codex"], dir);
    expect(accepted.stderr).not.toContain("unaccepted");
    expect(accepted.code).toBe(0);
    const strict = await harness(["check", "--host", "codex", "--strict"], dir);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toMatch(/^roles\/pipeline\.yaml:\d+:\d+: error E_FIDELITY write-scope is required \(required_enforcement\) but instructed on codex for planner/m);
    expect(strict.stderr).not.toContain("instructed on codex for writer");
    expect((await harness(["check", "--host", "claude-code", "--strict"], dir)).stderr).not.toContain("E_FIDELITY");
  });

  it("an acceptance that matches no loss is a warning", async () => {
    const dir = scratchProject();
    const pipeline = path.join(dir, "roles/pipeline.yaml");
    writeFileSync(pipeline, readFileSync(pipeline, "utf8") + "accepted_losses:\n  - { host: claude-code, constraint: spawn, reason: nothing to accept }\n");
    const r = await harness(["build"], dir);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('warning W_ACCEPT_UNUSED accepted_losses[0]: accepts a loss of "spawn" on claude-code, but there is none. Remove the entry.');
  });
});
