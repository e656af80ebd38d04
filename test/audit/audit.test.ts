// The generated stage-end audit script, run with node in scratch git projects: what it restores,
// what it keeps, what it reports, what it never touches, and that every failure fails the stage
// (how fast it is, and how it waits for processes: timing.slow.test.ts).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { auditHookCommand } from "../../src/adapter/audit/index.js";
import { makeRepo, script, type Repo, withRepo } from "./helpers.js";

const BASE = { "src/a.ts": "a\n", "tests/a.test.ts": "t\n", "docs/guide.md": "g\n", "README.md": "r\n" };

describe("stage-end audit script", () => {
  it("restores created, modified and deleted files outside the scope, keeps the rest, and reports them", () =>
    withRepo(BASE, (r) => {
      r.start("ag1", "jade");
      r.put("src/b.ts", "b\n");
      r.put("src/a.ts", "a2\n");
      r.put("tests/a.test.ts", "changed\n");
      r.put("tests/new/deep.test.ts", "new\n");
      fs.rmSync(path.join(r.dir, "README.md"));
      const stop = r.stop("ag1", "jade");
      expect(stop.code).toBe(0); // Claude Code: a stop never blocks
      expect(r.read("tests/a.test.ts")).toBe("t\n");
      expect(r.exists("tests/new")).toBe(false); // the folder it created is gone too
      expect(r.read("README.md")).toBe("r\n");
      expect(r.read("src/b.ts")).toBe("b\n");
      expect(r.read("src/a.ts")).toBe("a2\n");
      const rep = r.report("ag1");
      expect(rep.code).toBe(2);
      expect(rep.stderr).toContain("harness audit: stage FAILED: jade (stage ag1) changed paths outside its write scope");
      expect(rep.stderr).toContain("  - tests/a.test.ts (modified; restored)");
      expect(rep.stderr).toContain("  - tests/new/deep.test.ts (created; removed)");
      expect(rep.stderr).toContain("  - README.md (deleted; restored)");
      expect(rep.stderr).not.toContain("src/");
      expect(r.git("status", "--porcelain").split("\n").map((l) => l.trim()).sort()).toEqual(["?? src/b.ts", "M src/a.ts"]);
    }));

  it("passes a stage that stays in scope, including deletions inside it, and leaves no state", () =>
    withRepo(BASE, (r) => {
      r.start("ok1", "jade");
      r.put("src/b.ts", "b\n");
      fs.rmSync(path.join(r.dir, "src/a.ts"));
      expect(r.stop("ok1", "jade").code).toBe(0);
      expect(r.report("ok1").code).toBe(0);
      expect(r.read("src/b.ts")).toBe("b\n");
      expect(r.exists("src/a.ts")).toBe(false);
      expect(fs.readdirSync(path.join(r.dir, ".git/harness-audit")).filter((f) => !["active", "peers"].includes(f))).toEqual([]);
    }));

  it("never-write wins over write, and the host's hook files are protected whatever the scope", () =>
    withRepo(BASE, (r) => {
      r.start("nw", "jade");
      r.put("src/x.test.ts", "a test in src\n"); // **/*.test.* is never-write for jade
      r.put(".claude/hooks/harness-audit.mjs.bak", "x");
      r.stop("nw", "jade");
      expect(r.exists("src/x.test.ts")).toBe(false);
      expect(r.exists(".claude/hooks/harness-audit.mjs.bak")).toBe(false);
      const rep = r.report("nw").stderr;
      expect(rep).toContain("  - src/x.test.ts (created; removed)");
      expect(rep).toContain("  - .claude/hooks/harness-audit.mjs.bak (created; removed)");
    }));

  it("renames: the old path is restored and the new one judged on its own", () =>
    withRepo(BASE, (r) => {
      r.start("mv", "jade");
      r.git("mv", "tests/a.test.ts", "src/moved.ts"); // also stages it in the real index: the audit must not care
      r.stop("mv", "jade");
      expect(r.read("tests/a.test.ts")).toBe("t\n");
      expect(r.read("src/moved.ts")).toBe("t\n");
      expect(r.report("mv").stderr).toContain("tests/a.test.ts (deleted; restored)");
    }));

  it("binary files come back byte for byte; mode changes are restored", () => {
    const bin = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256));
    withRepo({ ...BASE, "tests/fixture.bin": bin, "tests/run.sh": "#!/bin/sh\n" }, (r) => {
      r.start("bin", "jade");
      fs.writeFileSync(path.join(r.dir, "tests/fixture.bin"), Buffer.concat([bin, Buffer.from([0, 1, 2])]));
      fs.chmodSync(path.join(r.dir, "tests/run.sh"), 0o755);
      r.stop("bin", "jade");
      expect(fs.readFileSync(path.join(r.dir, "tests/fixture.bin")).equals(bin)).toBe(true);
      expect(fs.statSync(path.join(r.dir, "tests/run.sh")).mode & 0o111).toBe(0);
      expect(r.report("bin").stderr).toContain("tests/run.sh (modified; restored)");
    });
  });

  it("symbolic links: a created link is removed, a changed one restored, and writes through a link in scope are caught at their real path", () =>
    withRepo(BASE, (r) => {
      fs.symlinkSync("../tests", path.join(r.dir, "src/tests-link"));
      fs.symlinkSync("a.test.ts", path.join(r.dir, "tests/link.ts"));
      r.git("add", "-A");
      r.git("commit", "-q", "-m", "links");
      r.start("ln", "jade");
      fs.writeFileSync(path.join(r.dir, "src/tests-link/through.test.ts"), "via link\n");
      fs.symlinkSync("../src", path.join(r.dir, "tests/new-link"));
      fs.rmSync(path.join(r.dir, "tests/link.ts"));
      fs.symlinkSync("elsewhere.ts", path.join(r.dir, "tests/link.ts"));
      r.stop("ln", "jade");
      expect(r.exists("tests/through.test.ts")).toBe(false);
      expect(r.exists("tests/new-link")).toBe(false);
      expect(fs.readlinkSync(path.join(r.dir, "tests/link.ts"))).toBe("a.test.ts");
      expect(fs.readlinkSync(path.join(r.dir, "src/tests-link"))).toBe("../tests");
      expect(r.report("ln").stderr).toContain("tests/through.test.ts (created; removed)");
    }));

  it("paths with spaces, quotes, unicode and newlines", () =>
    withRepo({ ...BASE, "tests/with space.ts": "s\n", "tests/line\nbreak.ts": "n\n" }, (r) => {
      r.start("odd", "jade");
      r.put("tests/with space.ts", "changed\n");
      fs.rmSync(path.join(r.dir, "tests/line\nbreak.ts"));
      r.put('tests/new "quoted"\nname é.ts', "x\n");
      r.put("src/ok space\nname.ts", "ok\n");
      r.stop("odd", "jade");
      expect(r.read("tests/with space.ts")).toBe("s\n");
      expect(r.read("tests/line\nbreak.ts")).toBe("n\n");
      expect(r.exists('tests/new "quoted"\nname é.ts')).toBe(false);
      expect(r.read("src/ok space\nname.ts")).toBe("ok\n");
      const rep = r.report("odd").stderr;
      expect(rep).toContain("  - tests/with space.ts (modified; restored)");
      expect(rep).toContain('  - "tests/line\\nbreak.ts" (deleted; restored)'); // one line per path, always
    }));

  it("a file replaced by a folder and a folder replaced by a file are put back", () =>
    withRepo({ ...BASE, "tests/unit/a.test.ts": "u\n" }, (r) => {
      r.start("swap", "jade");
      fs.rmSync(path.join(r.dir, "tests/a.test.ts"));
      r.put("tests/a.test.ts/inner.ts", "dir now\n");
      fs.rmSync(path.join(r.dir, "tests/unit"), { recursive: true });
      r.put("tests/unit", "file now\n");
      r.stop("swap", "jade");
      expect(r.read("tests/a.test.ts")).toBe("t\n");
      expect(r.read("tests/unit/a.test.ts")).toBe("u\n");
      expect(r.git("status", "--porcelain")).toBe("");
    }));

  it("ignored paths are not audited, but hiding a path by changing the ignore rules does not work", () =>
    withRepo({ ...BASE, ".gitignore": "dist/\n" }, (r) => {
      r.start("ign", "jade");
      r.put("dist/bundle.js", "built\n"); // ignored at the start: tools write here
      fs.appendFileSync(path.join(r.dir, ".gitignore"), "tests/\n");
      r.put("tests/hidden.test.ts", "hidden\n");
      fs.mkdirSync(path.join(r.dir, ".git/info"), { recursive: true });
      fs.appendFileSync(path.join(r.dir, ".git/info/exclude"), "docs/\n");
      r.put("docs/hidden.md", "hidden\n");
      r.stop("ign", "jade");
      expect(r.exists("dist/bundle.js")).toBe(true);
      expect(r.read(".gitignore")).toBe("dist/\n");
      expect(r.exists("tests/hidden.test.ts")).toBe(false);
      expect(r.exists("docs/hidden.md")).toBe(false);
      expect(fs.readFileSync(path.join(r.dir, ".git/info/exclude"), "utf8")).not.toContain("docs/");
      const rep = r.report("ign").stderr;
      expect(rep).toContain(".gitignore (modified; restored)");
      expect(rep).toContain("tests/hidden.test.ts (created; removed)");
      expect(rep).toContain(".git/info/exclude (modified; restored)");
    }));

  it("untracked and staged work present at the start is neither reported nor lost; the real index, HEAD and refs are untouched", () =>
    withRepo(BASE, (r) => {
      r.put("tests/wip.test.ts", "human's untracked work\n");
      r.put("docs/guide.md", "staged edit\n");
      r.git("add", "docs/guide.md");
      const index = fs.readFileSync(path.join(r.dir, ".git/index"));
      const head = r.git("rev-parse", "HEAD");
      const refs = r.git("for-each-ref");
      r.start("wip", "jade");
      r.put("tests/wip.test.ts", "overwritten by the stage\n");
      r.put("src/z.ts", "z\n");
      r.stop("wip", "jade");
      expect(r.read("tests/wip.test.ts")).toBe("human's untracked work\n");
      expect(r.read("docs/guide.md")).toBe("staged edit\n");
      expect(fs.readFileSync(path.join(r.dir, ".git/index")).equals(index)).toBe(true);
      expect(r.git("rev-parse", "HEAD")).toBe(head);
      expect(r.git("for-each-ref")).toBe(refs);
      expect(r.report("wip").stderr).toContain("tests/wip.test.ts (modified; restored)");
    }));

  it("stages running in parallel may write each other's scope; anything else is still restored", () =>
    withRepo(BASE, (r) => {
      r.start("j", "jade");
      r.start("c", "chalk");
      r.put("src/j.ts", "jade's\n");
      r.put("docs/c.md", "chalk's\n");
      r.put("tests/x.test.ts", "nobody's\n");
      r.stop("c", "chalk");
      r.stop("j", "jade");
      expect(r.read("src/j.ts")).toBe("jade's\n");
      expect(r.read("docs/c.md")).toBe("chalk's\n");
      expect(r.exists("tests/x.test.ts")).toBe(false);
      expect(r.report("c", "chalk").stderr).toContain("tests/x.test.ts (created; removed)");
    }));

  it("a project inside a larger git work tree: paths are measured from the project", () => {
    const r = makeRepo({ "app/src/a.ts": "a\n", "app/tests/a.test.ts": "t\n", "other/x.txt": "x\n" });
    try {
      // move the script into app/ and use it as the project
      const app = path.join(r.dir, "app");
      fs.mkdirSync(path.join(app, ".claude/hooks"), { recursive: true });
      fs.writeFileSync(path.join(app, ".claude/hooks/harness-audit.mjs"), script());
      const run = (mode: string, id: string) =>
        spawnSync("node", [path.join(app, ".claude/hooks/harness-audit.mjs"), mode], {
          cwd: app,
          env: { PATH: process.env.PATH, HOME: r.home, CLAUDE_PROJECT_DIR: app },
          input: JSON.stringify({ agent_id: id, agent_type: "jade", tool_response: { status: "completed", agentId: id } }),
          encoding: "utf8",
        });
      expect(run("start", "sub").status).toBe(0);
      fs.writeFileSync(path.join(app, "src/b.ts"), "b\n");
      fs.writeFileSync(path.join(app, "tests/a.test.ts"), "changed\n");
      fs.writeFileSync(path.join(r.dir, "other/x.txt"), "changed outside the project\n");
      run("stop", "sub");
      expect(fs.readFileSync(path.join(app, "tests/a.test.ts"), "utf8")).toBe("t\n");
      expect(fs.readFileSync(path.join(r.dir, "other/x.txt"), "utf8")).toBe("x\n");
      expect(fs.readFileSync(path.join(app, "src/b.ts"), "utf8")).toBe("b\n");
      const rep = run("report", "sub").stderr;
      expect(rep).toContain("  - tests/a.test.ts (modified; restored)");
      expect(rep).toContain("  - other/x.txt (modified; restored)");
    } finally {
      r.cleanup();
    }
  });

  it("paths the host manages itself (exempt) are left alone", () => {
    const r = makeRepo(BASE, { scriptText: script({ exempt: [".claude/worktrees/**"] }) });
    try {
      r.start("ex", "jade");
      r.put(".claude/worktrees/other/tests/x.test.ts", "another agent's worktree\n");
      r.put("tests/y.test.ts", "y\n");
      r.stop("ex", "jade");
      expect(r.exists(".claude/worktrees/other/tests/x.test.ts")).toBe(true);
      expect(r.exists("tests/y.test.ts")).toBe(false);
      expect(r.report("ex").stderr).not.toContain("worktrees");
    } finally {
      r.cleanup();
    }
  });

  it("roles it does not audit and agents that are not roles pass through without a snapshot", () =>
    withRepo(BASE, (r) => {
      expect(r.run("start", { agent_id: "e1", agent_type: "Explore" }).code).toBe(0);
      expect(r.run("stop", { agent_id: "e1", agent_type: "Explore" }).code).toBe(0);
      expect(r.report("e1", "Explore").code).toBe(0);
      expect(fs.existsSync(path.join(r.dir, ".git/harness-audit/e1.state"))).toBe(false);
    }));
});

describe("stage-end audit script fails closed", () => {
  it("no git repository: the start says so and the report fails the stage", () =>
    withRepo(
      BASE,
      (r) => {
        const start = r.run("start", { agent_id: "ng", agent_type: "jade" });
        expect(start.code).not.toBe(0);
        expect(start.stderr).toMatch(/harness audit: could not record the start of jade's stage/);
        expect(r.stop("ng", "jade").code).toBe(0);
        const rep = r.report("ng");
        expect(rep.code).toBe(2);
        expect(rep.stderr).toMatch(/stage FAILED: .*could not run/);
      },
      { git: false },
    ));

  it("a stage whose start was never recorded fails when it is reported", () =>
    withRepo(BASE, (r) => {
      const rep = r.report("never-started");
      expect(rep.code).toBe(2);
      expect(rep.stderr).toContain("no record of this stage's start");
    }));

  it("a stop that never ran is audited by the report; a corrupt snapshot fails the stage", () =>
    withRepo(BASE, (r) => {
      r.start("late", "jade");
      r.put("tests/late.test.ts", "x\n");
      const rep = r.report("late");
      expect(rep.code).toBe(2);
      expect(rep.stderr).toContain("tests/late.test.ts (created; removed)");
      expect(r.exists("tests/late.test.ts")).toBe(false);

      r.start("bad", "jade");
      fs.writeFileSync(path.join(r.dir, ".git/harness-audit/bad.state"), "{ not json");
      r.stop("bad", "jade");
      const bad = r.report("bad");
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/could not run \(no stage-start snapshot/);
    }));

  it("unreadable hook input and unknown modes block", () =>
    withRepo(BASE, (r) => {
      expect(r.run("report", "{ not json").code).toBe(2);
      expect(r.run("frobnicate", {}).code).toBe(2);
    }));

  it("a background launch is not judged before the agent has finished", () =>
    withRepo(BASE, (r) => {
      r.start("bg", "jade");
      const rep = r.run("report", { tool_name: "Agent", tool_input: { subagent_type: "jade" }, tool_response: { status: "async_launched", agentId: "bg" } });
      expect(rep.code).toBe(0);
      expect(fs.existsSync(path.join(r.dir, ".git/harness-audit/bg.state"))).toBe(true);
    }));

  it("stopBlocks hosts: the first stop with a violation blocks, the second lets the stage end", () => {
    const r = makeRepo(BASE, { scriptText: script({ stopBlocks: true }) });
    try {
      r.start("sb", "jade");
      r.put("tests/x.test.ts", "x\n");
      const first = r.run("stop", { agent_id: "sb", agent_type: "jade", stop_hook_active: false });
      expect(first.code).toBe(2);
      expect(first.stderr).toContain("tests/x.test.ts (created; removed)");
    } finally {
      r.cleanup();
    }
  });
});

describe("audit hook commands", () => {
  const sh = (command: string, env: Record<string, string>) => spawnSync("/bin/sh", ["-c", command], { env, input: "{}", encoding: "utf8" });
  it("block when node is missing or the script crashes; a Claude Code stop never blocks", () => {
    const noNode = sh(auditHookCommand('"/nonexistent/harness-audit.mjs"', "report"), { PATH: "/nonexistent-bin" });
    expect(noNode.status).toBe(2);
    expect(noNode.stderr).toContain("node is not on PATH");
    const crash = sh(auditHookCommand('"/nonexistent/harness-audit.mjs"', "report"), { PATH: process.env.PATH ?? "" });
    expect(crash.status).toBe(2);
    expect(crash.stderr).toContain("the audit script failed");
    expect(sh(auditHookCommand('"/nonexistent/harness-audit.mjs"', "stop", false), { PATH: process.env.PATH ?? "" }).status).toBe(0);
  });
});
