// harness install / uninstall / check --installed as users run them: output, exit codes, dry run.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { harness, PEBBLE_ROLES, scratchProject } from "../helpers/cli.js";
import { repositoryScope, snapshot, TEAM_FILES, teamProject } from "../helpers/project.js";
import { readRoles } from "../helpers/compile.js";

/** The hosts the bundled pipeline.yaml lists: `harness install` with no --host installs them all. */
const PEBBLE_HOSTS = Object.keys(readRoles(PEBBLE_ROLES).hosts).sort();

describe("harness install (CLI)", () => {
  it("prints one line per host, and check --installed is green", async () => {
    const dir = teamProject(PEBBLE_ROLES);
    const r = await harness(["install"], dir);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split("\n");
    expect(lines.map((l) => l.split(/\s+/)[0])).toEqual(PEBBLE_HOSTS);
    const line = (host: string) => lines.find((l) => l.startsWith(`${host} `));
    expect(line("claude-code")).toMatch(/^claude-code\s+into .*: \d+ created, 1 updated, 0 removed, 0 unchanged · shared: \.claude\/settings\.json \(merged\), CLAUDE\.md \(block\)$/);
    expect(line("codex")).toMatch(/^codex\s+into .*: \d+ created, 2 updated/);
    const check = await harness(["check", "--installed"], dir);
    expect(check.code).toBe(0);
    expect(check.stdout).toMatch(new RegExp(`^ok ${PEBBLE_HOSTS.join(", ")} installed in .*: \\d+ files match harness\\.lock\\.json and roles/\\n$`));
  });

  it("--dry-run summarises, a line per host; -v shows the plan as a diff; neither writes anything", async () => {
    const dir = repositoryScope(teamProject(PEBBLE_ROLES));
    const before = snapshot(dir);
    const brief = await harness(["install", "--dry-run", "--host", "claude-code"], dir);
    expect([brief.code, brief.stderr]).toEqual([0, ""]);
    expect(brief.stdout).toMatch(/^claude-code\s+into \.: would create \d+, update 1, remove 0; 0 unchanged · shared: \.claude\/settings\.json \(merged\), CLAUDE\.md \(block\)\nnothing written \(dry run\); -v prints the full diff\n$/);
    expect(snapshot(dir)).toEqual(before);
    const r = await harness(["install", "--dry-run", "-v", "--host", "claude-code"], dir);
    expect(r.code).toBe(0);
    expect(snapshot(dir)).toEqual(before);
    expect(r.stdout).toContain("--- a/.claude/settings.json\n+++ b/.claude/settings.json");
    // edited in place: the team's compact deny list keeps its entries first, harness's follow
    expect(r.stdout).toMatch(/^\+ {4}"deny": \["Bash\(rm -rf \*\)", "Bash\(git push\)", .*"Bash\(git commit\)"/m);
    expect(r.stdout).toContain("--- a/harness.lock.json\t(new file)\n+++ b/harness.lock.json");
    expect(r.stdout).not.toContain("--- a/AGENTS.md"); // only Claude Code was asked for
  });

  it("--json reports every change; the round trip through the CLI restores the project", async () => {
    const dir = teamProject(PEBBLE_ROLES);
    const before = snapshot(dir);
    const r = await harness(["install", "--json"], dir);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.lock).toBe("written");
    expect(report.changes.find((c: { path: string }) => c.path === "AGENTS.md")).toMatchObject({ action: "update", mode: "block", hosts: expect.arrayContaining(["codex", "opencode"]) });
    expect((await harness(["uninstall"], dir)).code).toBe(0);
    expect(snapshot(dir)).toEqual(before);
  });

  it("check --installed exits 1 on each kind of drift, with the fix", async () => {
    const dir = teamProject(PEBBLE_ROLES);
    expect((await harness(["check", "--installed"], dir)).stderr).toContain("harness.lock.json is missing: harness has installed nothing here. Run `harness install`");
    expect((await harness(["install", "-q"], dir)).code).toBe(0);
    writeFileSync(path.join(dir, "CLAUDE.md"), readFileSync(path.join(dir, "CLAUDE.md"), "utf8").replace("Pebble", "Pebbles"));
    const roleFile = path.join(dir, "roles/jade.md");
    writeFileSync(roleFile, readFileSync(roleFile, "utf8").replace(/^description: .*$/m, "description: Writes the code, and only the code."));
    const r = await harness(["check", "--installed"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("E_DRIFT CLAUDE.md was edited by hand since harness installed it.");
    expect(r.stderr).toContain("E_DRIFT .claude/agents/jade.md differs from what roles/ produce now. Run `harness install` and commit the result.");
    expect(r.stderr).toMatch(/\d+ installed file\(s\) out of sync with harness\.lock\.json and roles\/\.\n$/);
    expect((await harness(["install", "-q"], dir)).code).toBe(1); // CLAUDE.md kept
    expect((await harness(["install", "-q", "--force"], dir)).code).toBe(0);
    expect((await harness(["check", "--installed"], dir)).code).toBe(0);
  });

  it("exit 2 with nothing written: a missing --into folder, a broken shared file", async () => {
    const dir = teamProject(PEBBLE_ROLES, { ...TEAM_FILES, ".codex/config.toml": "model = \n" });
    expect(await harness(["install", "--into", "nowhere"], dir)).toMatchObject({ code: 2, stderr: expect.stringContaining("--into nowhere: no such folder") });
    const r = await harness(["install"], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^\.codex\/config\.toml:1:\d+: error E_INSTALL_PARSE is not valid TOML: .*\. Fix the file, then run harness install again\.\n1 error\(s\); nothing was written\.\n$/);
    expect(existsSync(path.join(dir, "harness.lock.json"))).toBe(false);
  });
});

describe("harness build and a git-ignored --out", () => {
  it("warns at the .gitignore line, with the fix", async () => {
    const dir = scratchProject();
    spawnSync("git", ["init", "-q"], { cwd: dir });
    writeFileSync(path.join(dir, ".gitignore"), "node_modules\n# Next.js build output\nout\n");
    const r = await harness(["build"], dir);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('.gitignore:3:1: warning W_OUT_IGNORED out/ is ignored by git (pattern "out"), so a fresh clone, and CI\'s harness check, will not have its files. Commit it anyway by adding "!/out/" after that line');
    writeFileSync(path.join(dir, ".gitignore"), "node_modules\nout\n!/out/\n");
    expect((await harness(["build"], dir)).stderr).not.toContain("W_OUT_IGNORED");
  });
});

describe("check --installed: a user-level agent that shadows an installed one", () => {
  it("warns about ~/.copilot/agents/<role>.agent.md (Copilot loads it instead), exit code unchanged", async () => {
    const { mkdirSync, mkdtempSync } = await import("node:fs");
    const os = await import("node:os");
    const dir = teamProject(PEBBLE_ROLES);
    expect((await harness(["install", "--host", "copilot"], dir)).code).toBe(0);
    const home = mkdtempSync(path.join(os.tmpdir(), "harness-home-"));
    expect((await harness(["check", "--installed"], dir, { HOME: home, COPILOT_HOME: "" })).stderr).not.toContain("W_HOST_HOME_OVERRIDE");
    mkdirSync(path.join(home, ".copilot", "agents"), { recursive: true });
    writeFileSync(path.join(home, ".copilot", "agents", "jade.agent.md"), "---\nname: jade\ndescription: mine\n---\nhi\n");
    const r = await harness(["check", "--installed"], dir, { HOME: home, COPILOT_HOME: "" });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/W_HOST_HOME_OVERRIDE .*\.copilot\/agents\/jade\.agent\.md overrides \.github\/agents\/jade\.agent\.md: Copilot CLI loads the user's agent/);
    expect(r.stderr.match(/W_HOST_HOME_OVERRIDE/g)).toHaveLength(1);
  });
});
