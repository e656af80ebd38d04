// Issue 22: a file the audit or its git reads, replaced by a FIFO by code a stage ran, must never
// hold the stage's end (a FIFO opened for reading waits for a writer: forever). The audit's git
// never reads the user's git configuration, its own reads open regular files only, and what git
// must read is checked first or bounded by the audit's time limit; each case fails the stage.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeRepo, script, type Repo } from "./helpers.js";

const BASE = { "src/a.ts": "a\n", "tests/a.test.ts": "t\n", "docs/guide.md": "g\n" };
// through node: a regression that opens a FIFO must hang a hook process (killed, and timed), not the
// test worker
function withRepo(files: Record<string, string>, body: (r: Repo) => void, scriptText?: string): void {
  const r = makeRepo(files, { viaProcess: true, ...(scriptText === undefined ? {} : { scriptText }) });
  try {
    body(r);
  } finally {
    r.cleanup();
  }
}
const mkfifo = (p: string) => {
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.rmSync(p, { force: true });
  execFileSync("mkfifo", [p]);
};
const isFifo = (p: string) => fs.lstatSync(p).isFIFO();
/** well under the helper's 60 s kill: a hang shows as a slow or killed hook */
const QUICK_MS = 15000;

describe("audit: a FIFO where the audit or its git reads", () => {
  it("~/.gitconfig, ~/.config/git/config and a file ~/.gitconfig includes, replaced by FIFOs: the stop ends, restores them and fails the stage", () =>
    withRepo(BASE, (r) => {
      const home = (rel: string) => path.join(r.home, rel);
      fs.writeFileSync(home(".gitconfig"), "[include]\n\tpath = .gitconfig-extra\n[user]\n\tname = Human\n");
      fs.writeFileSync(home(".gitconfig-extra"), "[core]\n\tquotePath = false\n");
      fs.mkdirSync(home(".config/git"), { recursive: true });
      fs.writeFileSync(home(".config/git/config"), "[color]\n\tui = auto\n");
      r.start("q1", "jade");
      mkfifo(home(".gitconfig"));
      mkfifo(home(".gitconfig-extra"));
      mkfifo(home(".config/git/config"));
      r.put("tests/a.test.ts", "rewritten\n");
      const stop = r.stop("q1", "jade");
      expect(stop.code).toBe(0);
      expect(stop.ms).toBeLessThan(QUICK_MS);
      expect(stop.stderr).toContain("stage FAILED");
      expect(stop.stderr).toContain("~/.gitconfig (replaced by a FIFO; restored)");
      expect(stop.stderr).toContain("~/.config/git/config (replaced by a FIFO; restored)");
      expect(stop.stderr).toContain(".gitconfig-extra (replaced by a FIFO; restored)");
      expect(stop.stderr).toContain("tests/a.test.ts (modified; restored)");
      expect(fs.readFileSync(home(".gitconfig"), "utf8")).toBe("[include]\n\tpath = .gitconfig-extra\n[user]\n\tname = Human\n");
      expect(fs.readFileSync(home(".gitconfig-extra"), "utf8")).toBe("[core]\n\tquotePath = false\n");
      expect(fs.readFileSync(home(".config/git/config"), "utf8")).toBe("[color]\n\tui = auto\n");
      expect(r.read("tests/a.test.ts")).toBe("t\n");
      expect(r.report("q1").code).toBe(2);
    }));

  it("a FIFO ~/.gitconfig planted before the stage starts holds neither the start nor the stop", () =>
    withRepo(BASE, (r) => {
      mkfifo(path.join(r.home, ".gitconfig"));
      const t = performance.now();
      r.start("q2", "jade");
      r.put("src/b.ts", "b\n");
      const stop = r.stop("q2", "jade");
      expect(performance.now() - t).toBeLessThan(QUICK_MS);
      expect(stop.stderr).toBe(""); // the FIFO was there at the start: the stage did not change it
      expect(isFifo(path.join(r.home, ".gitconfig"))).toBe(true);
    }));

  it(".git/config replaced by a FIFO during the stage: the stop puts it back before git runs and fails the stage", () =>
    withRepo(BASE, (r) => {
      const config = path.join(r.dir, ".git/config");
      const before = fs.readFileSync(config, "utf8");
      r.start("q3", "jade");
      mkfifo(config);
      r.put("tests/a.test.ts", "rewritten\n");
      const stop = r.stop("q3", "jade");
      expect(stop.ms).toBeLessThan(QUICK_MS);
      expect(stop.stderr).toContain("stage FAILED");
      expect(stop.stderr).toContain(".git/config (replaced by a FIFO; restored)");
      expect(stop.stderr).toContain("tests/a.test.ts (modified; restored)");
      expect(fs.readFileSync(config, "utf8")).toBe(before);
      expect(r.read("tests/a.test.ts")).toBe("t\n");
      const rep = r.report("q3");
      expect(rep.ms).toBeLessThan(QUICK_MS);
      expect(rep.code).toBe(2);
    }));

  it(".git/config a FIFO with no snapshot to restore it from (before the stage, or between stages): the start and the orchestrator's next command fail loudly at once", () =>
    withRepo(BASE, (r) => {
      const config = path.join(r.dir, ".git/config");
      r.start("q3b", "jade", "s1");
      r.stop("q3b", "jade", "s1");
      mkfifo(config);
      // the orchestrator's command after the stage: the last boundary's snapshot puts it back
      const between = r.between("s1");
      expect(between.code).toBe(2);
      expect(between.stderr).toContain(".git/config (replaced by a FIFO; restored)");
      expect(fs.lstatSync(config).isFile()).toBe(true);
      // planted where no snapshot holds it: the start refuses, naming it
      fs.rmSync(path.join(r.dir, ".git/harness-audit"), { recursive: true, force: true });
      mkfifo(config);
      const start = r.run("start", { agent_id: "q3c", agent_type: "jade" });
      expect(start.ms).toBeLessThan(QUICK_MS);
      expect(start.stderr).toMatch(/\.git\/config"? is a FIFO, not a regular file/);
      expect(r.report("q3c").code).toBe(2);
    }));

  it("the audit's own state (the stage-start snapshot) replaced by a FIFO fails the stage, without waiting", () =>
    withRepo(BASE, (r) => {
      r.start("q4", "jade");
      mkfifo(path.join(r.dir, ".git/harness-audit/q4.state"));
      const stop = r.stop("q4", "jade");
      expect(stop.ms).toBeLessThan(QUICK_MS);
      expect(stop.stderr).toContain("stage FAILED");
      expect(stop.stderr).toContain("is a FIFO, not a regular file");
    }));

  it("a .gitignore in the stage's own scope made a FIFO: git is stopped at the audit's time limit and the stage fails naming it", () =>
    withRepo(
      BASE,
      (r) => {
        r.start("q5", "jade");
        mkfifo(path.join(r.dir, "src/.gitignore"));
        const stop = r.stop("q5", "jade");
        expect(stop.ms).toBeLessThan(QUICK_MS);
        expect(stop.stderr).toContain("stage FAILED");
        expect(stop.stderr).toContain("did not finish within the audit's time limit");
        expect(stop.stderr).toContain("src/.gitignore");
      },
      // the shortest limit the audit allows any one git (1 s): what the test waits for
      script({ timeLimitMs: 1000 }),
    ));

  it("a .git that is a symbolic link to the repository folder is read as that folder (the checks before git refuse only what is no regular file)", () =>
    withRepo(BASE, (r) => {
      const real = path.join(path.dirname(r.dir), "project.git");
      fs.renameSync(path.join(r.dir, ".git"), real);
      fs.symlinkSync(real, path.join(r.dir, ".git"));
      r.start("q7", "jade");
      r.put("tests/a.test.ts", "rewritten\n");
      const stop = r.stop("q7", "jade");
      expect(stop.stderr).toContain("tests/a.test.ts (modified; restored)");
      expect(stop.stderr).not.toContain("could not run");
    }));

  it("the audit's git reads no user configuration, but keeps its safe.directory (a repository another account owns) and core.excludesFile", () =>
    withRepo(BASE, (r) => {
      fs.writeFileSync(path.join(r.home, ".gitignore-global"), "*.swp\n");
      fs.writeFileSync(path.join(r.home, ".gitconfig"), `[core]\n\texcludesFile = ~/.gitignore-global\n[safe]\n\tdirectory = ${r.dir}\n`);
      // a repository another account owns: git refuses it without safe.directory (root only can chown)
      const owned = process.getuid?.() === 0;
      if (owned) execFileSync("chown", ["-R", "nobody", r.dir]);
      r.start("q6", "jade");
      r.put("tests/.a.test.ts.swp", "editor swap file\n"); // ignored by the user's excludes: not audited
      r.put("tests/a.test.ts", "rewritten\n");
      const stop = r.stop("q6", "jade");
      expect(stop.stderr).toContain("tests/a.test.ts (modified; restored)");
      expect(stop.stderr).not.toContain(".swp");
      expect(stop.stderr).not.toContain("could not run");
      expect(r.exists("tests/.a.test.ts.swp")).toBe(true);
    }));
});
