// Roles with `worktree: true` write inside a linked git worktree (Claude Code's isolation:
// worktree). The guard measures paths from the worktree's root, but only for a worktree that git
// really links to this project.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pebble } from "./fixture.js";
import { inProcess, payload } from "./helpers.js";

const decide = inProcess(pebble());
let root: string;
let project: string;
let sibling: string; // a worktree next to the project
let inner: string; // a worktree under .claude/worktrees
let forged: string;

function git(cwd: string, ...args: string[]): void {
  execFileSync("git", args, { cwd, stdio: "ignore", env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" } });
}

beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "harness-guard-wt-")));
  project = path.join(root, "proj");
  fs.mkdirSync(path.join(project, "src"), { recursive: true });
  fs.writeFileSync(path.join(project, "src/a.ts"), "x\n");
  git(project, "init", "-q");
  git(project, "add", ".");
  git(project, "commit", "-q", "-m", "init");
  sibling = path.join(root, "proj-wt");
  git(project, "worktree", "add", "-q", sibling);
  inner = path.join(project, ".claude/worktrees/w1");
  git(project, "worktree", "add", "-q", inner);
  // a folder that claims to be a worktree of the project, without git's back-pointer
  forged = path.join(root, "forged");
  fs.mkdirSync(path.join(forged, "src"), { recursive: true });
  fs.writeFileSync(path.join(forged, ".git"), `gitdir: ${path.join(project, ".git/worktrees/proj-wt")}\n`);
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const write = (file: string, role = "jade", cwd = project) =>
  decide(JSON.stringify(payload({ tool: "Write", input: { file_path: file, content: "" }, role, cwd })), { CLAUDE_PROJECT_DIR: project }, role ?? "@orchestrator");

describe("git worktrees", () => {
  it("a worktree beside the project: the role's scope applies from its root", () => {
    expect(write(path.join(sibling, "src/b.ts")).kind).toBe("allow");
    expect(write(path.join(sibling, "tests/a.test.ts"))).toMatchObject({ kind: "deny", reason: expect.stringMatching(/may not write tests\/a\.test\.ts \(in worktree proj-wt\) \(never-write: artifact tests\)/) });
    expect(write(path.join(sibling, ".git"))).toMatchObject({ kind: "deny", reason: expect.stringMatching(/never-write: \.git\/\*\*/) });
    expect(write(path.join(sibling, ".claude/hooks/harness-guard.off")).kind).toBe("deny");
  });
  it("a worktree under .claude/worktrees", () => {
    expect(write(path.join(inner, "src/b.ts"), "jade", inner).kind).toBe("allow");
    expect(write(path.join(inner, "README.md"), "jade", inner).kind).toBe("deny");
    const sh = decide(JSON.stringify(payload({ tool: "Bash", input: { command: "echo x > tests/a.test.ts" }, role: "jade", cwd: inner })), { CLAUDE_PROJECT_DIR: project }, "jade");
    expect(sh.kind).toBe("deny");
  });
  it("git runs in a verified worktree, beside the project or under it, and not in a forged one (r9)", () => {
    // this fixture's jade has no git rule (its read-only git is asked): only the repository check may name a repository
    const why = (command: string, cwd: string) => decide(JSON.stringify(payload({ tool: "Bash", input: { command }, role: "jade", cwd })), { CLAUDE_PROJECT_DIR: project }, "jade").reason ?? "";
    for (const [c, cwd] of [["git status", sibling], ["git diff --stat", path.join(sibling, "src")], ["cd ./src && git status", inner], ["git status", project]] as const) expect(why(c, cwd)).not.toMatch(/repository/);
    expect(why("git status", path.join(forged, "src"))).toMatch(/git would use the repository at .*forged\/\.git, not the project's/);
    expect(why("git status", root)).toMatch(/repository/); // no repository of its own, or one further up (a /tmp/.git)
  });
  it("a folder that only claims to be a worktree stays outside the project", () => {
    expect(write(path.join(forged, "src/b.ts"))).toMatchObject({ kind: "deny", reason: expect.stringMatching(/outside the project directory/) });
  });
});

describe("a worktree record that is not a regular file (second red team)", () => {
  it("a FIFO for .git/worktrees/<name>/gitdir neither holds the hook (Copilot lets a call through on a hook timeout) nor makes a worktree", async () => {
    const { makeProject, guardEnv } = await import("./helpers.js");
    const { spawnSync } = await import("node:child_process");
    const p = makeProject(pebble());
    try {
      fs.mkdirSync(path.join(p.dir, ".git/worktrees/w"), { recursive: true });
      execFileSync("mkfifo", [path.join(p.dir, ".git/worktrees/w/gitdir")]);
      fs.mkdirSync(path.join(p.dir, "src/w"), { recursive: true });
      fs.writeFileSync(path.join(p.dir, "src/w/.git"), `gitdir: ${path.join(p.dir, ".git/worktrees/w")}\n`);
      const input = JSON.stringify(payload({ tool: "Write", input: { file_path: path.join(p.dir, "src/w/x.test.ts"), content: "x" }, role: "jade", cwd: p.dir }));
      const r = spawnSync(process.execPath, [p.script, "jade"], { input, env: guardEnv(p.dir), cwd: p.dir, timeout: 8000 });
      expect([r.status, r.signal], r.stderr.toString()).toEqual([2, null]);
      expect(r.stderr.toString()).toMatch(/never-write/);
    } finally {
      p.cleanup();
    }
  });
});
