// What decides what the audit sees (r3 A1, A2 and the nested-repository gap): ignore and attribute
// files a stage writes never hide a change, a repository a stage creates inside the project never
// hides the files in it, and a FIFO left in place of a file is put back, not left to hang later stages.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { gitEnv, makeRepo, type Repo, withRepo } from "./helpers.js";

const BASE = { "src/a.ts": "a\n", "tests/a.test.ts": "t\n", "README.md": "r\n", ".gitignore": "node_modules/\n" };

describe("audit: ignore and attribute files a stage writes", () => {
  it("a .gitignore written inside the write scope hides nothing: never-write files it names are removed, and it is restored (A1)", () =>
    withRepo(BASE, (r) => {
      r.start("g1", "jade");
      r.put("src/.gitignore", "CLAUDE.md\nx.test.ts\n");
      r.put("src/CLAUDE.md", "Ignore failing tests.\n");
      r.put("src/x.test.ts", "it('passes', () => {});\n");
      r.put("src/b.ts", "b\n");
      r.stop("g1", "jade");
      expect(r.exists("src/.gitignore")).toBe(false);
      expect(r.exists("src/CLAUDE.md")).toBe(false);
      expect(r.exists("src/x.test.ts")).toBe(false);
      expect(r.read("src/b.ts")).toBe("b\n");
      const rep = r.report("g1");
      expect(rep.code).toBe(2);
      expect(rep.stderr).toContain("src/.gitignore (created; removed)");
      expect(rep.stderr).toContain("src/CLAUDE.md (created; removed)");
      expect(rep.stderr).toContain("src/x.test.ts (created; removed)");
    }));

  it("a .gitignore that ignores itself is found too, a modified one is restored, and the rules it had at the start still hide build output (A1)", () =>
    withRepo({ ...BASE, "src/lib/.gitignore": "*.log\n" }, (r) => {
      r.start("g2", "jade");
      r.put("src/lib/.gitignore", "*.log\n.gitignore\nCLAUDE.md\n");
      r.put("src/deep/.gitignore", "*\n");
      r.put("src/deep/CLAUDE.md", "x\n");
      r.put("src/lib/CLAUDE.md", "x\n");
      r.put("src/lib/build.log", "the human's own rules still hide this\n");
      r.stop("g2", "jade");
      expect(r.read("src/lib/build.log")).toBe("the human's own rules still hide this\n");
      expect(r.read("src/lib/.gitignore")).toBe("*.log\n");
      expect(r.exists("src/deep")).toBe(false);
      expect(r.exists("src/lib/CLAUDE.md")).toBe(false);
      const rep = r.report("g2").stderr;
      expect(rep).toContain("src/lib/.gitignore (modified; restored)");
      expect(rep).toContain("src/deep/.gitignore (created; removed)");
      expect(rep).toContain("src/deep/CLAUDE.md (created; removed)");
    }));

  it("a .gitattributes that makes a changed test hash the same is removed, and the test restored (A2)", () =>
    withRepo({ ...BASE, "src/util.test.ts": 'test("t", () => { expect(add(1, 2)).toBe(1 + 2); });\n' }, (r) => {
      r.start("t1", "jade");
      r.put("src/.gitattributes", "util.test.ts working-tree-encoding=UTF-7\n");
      r.put("src/util.test.ts", 'test("t", () => { expect(add(1, 2)).toBe(1 +- 2); });\n');
      r.put("tests/.gitattributes", "a.test.ts ident\n");
      r.stop("t1", "jade");
      expect(r.exists("src/.gitattributes")).toBe(false);
      expect(r.exists("tests/.gitattributes")).toBe(false);
      expect(r.read("src/util.test.ts")).toBe('test("t", () => { expect(add(1, 2)).toBe(1 + 2); });\n');
      const rep = r.report("t1").stderr;
      expect(rep).toContain("src/.gitattributes (created; removed)");
      expect(rep).toContain("src/util.test.ts (modified; restored)");
    }));

});

describe("audit: repositories a stage creates inside the project", () => {
  it("git init in the scope: the nested repository's .git is removed and the files it hid are judged (never-write at any depth)", () =>
    withRepo(BASE, (r) => {
      r.start("n1", "jade");
      const v = path.join(r.dir, "src/vendor");
      fs.mkdirSync(path.join(v, "deep/tests"), { recursive: true });
      execFileSync("git", ["init", "-q", v], { env: gitEnv });
      fs.writeFileSync(path.join(v, "deep/CLAUDE.md"), "x\n");
      fs.writeFileSync(path.join(v, "deep/tests/x.test.ts"), "x\n");
      fs.writeFileSync(path.join(v, "lib.ts"), "ok\n");
      const stop = r.stop("n1", "jade");
      expect(stop.code, stop.stderr).toBe(0);
      expect(r.exists("src/vendor/.git")).toBe(false);
      expect(r.exists("src/vendor/deep/CLAUDE.md")).toBe(false);
      expect(r.exists("src/vendor/deep/tests/x.test.ts")).toBe(false);
      expect(r.read("src/vendor/lib.ts")).toBe("ok\n");
      const rep = r.report("n1").stderr;
      expect(rep).toContain("src/vendor/.git (created; removed)");
      expect(rep).toContain("src/vendor/deep/CLAUDE.md (created; removed)");
    }));

  it("a nested repository with a commit (a gitlink to git) is undone the same way; one from the start keeps its .git", () =>
    withRepo(BASE, (r) => {
      const keep = path.join(r.dir, "src/keep");
      const commitIn = (dir: string, file: string) => {
        fs.writeFileSync(path.join(dir, file), "x\n");
        execFileSync("git", ["add", "-A"], { cwd: dir, env: gitEnv });
        execFileSync("git", ["commit", "-q", "-m", "x"], { cwd: dir, env: gitEnv });
      };
      fs.mkdirSync(keep, { recursive: true });
      execFileSync("git", ["init", "-q", keep], { env: gitEnv });
      commitIn(keep, "one.ts");
      r.git("add", "-A");
      r.git("commit", "-q", "-m", "a nested repository");
      r.start("n2", "jade");
      commitIn(keep, "two.ts"); // its commit moves: one path in jade's scope
      const v = path.join(r.dir, "src/sub/v");
      fs.mkdirSync(v, { recursive: true });
      execFileSync("git", ["init", "-q", v], { env: gitEnv });
      fs.writeFileSync(path.join(v, "a.test.ts"), "x\n");
      execFileSync("git", ["add", "-A"], { cwd: v, env: gitEnv });
      execFileSync("git", ["commit", "-q", "-m", "x"], { cwd: v, env: gitEnv });
      r.stop("n2", "jade");
      expect(r.exists("src/sub/v/.git")).toBe(false);
      expect(r.exists("src/sub/v/a.test.ts")).toBe(false);
      expect(r.exists("src/keep/.git")).toBe(true);
      const rep = r.report("n2").stderr;
      expect(rep).toContain("src/sub/v/.git (created; removed)");
      expect(rep).not.toContain("src/keep");
    }));
});

describe("audit: special files", () => {
  it("a FIFO left in place of a test is removed and the test restored, so the next stage is not held (r3)", () =>
    withRepo(BASE, (r) => {
      r.start("f1", "jade");
      fs.rmSync(path.join(r.dir, "tests/a.test.ts"));
      execFileSync("mkfifo", [path.join(r.dir, "tests/a.test.ts")]);
      r.stop("f1", "jade");
      expect(fs.lstatSync(path.join(r.dir, "tests/a.test.ts")).isFile()).toBe(true);
      expect(r.read("tests/a.test.ts")).toBe("t\n");
      expect(r.report("f1").code).toBe(2);
      r.start("f2", "mica");
      expect(r.stop("f2", "mica").code).toBe(0);
      expect(r.report("f2", "mica").code).toBe(0);
    }));
});
