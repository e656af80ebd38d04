// r4 red team: the user's global excludes file (core.excludesFile, by default
// $XDG_CONFIG_HOME/git/ignore) decides which paths a stage's audit ignores. Code a role's tests ran
// could add a pattern to it; the next stage that reads it fresh (the next session's first, every
// stage outside a /pebble run) then skipped those paths: a conftest.py or a __mocks__ folder that
// weakens the suite was never audited. It controls enforcement like .git/info/exclude: it is guarded.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { withRepo } from "./helpers.js";

const BASE = { "src/a.ts": "a\n", "tests/a.test.ts": "t\n", "README.md": "r\n", ".gitignore": "node_modules/\n" };
const put = (abs: string, text: string) => {
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, text);
};

describe("audit: the user's global excludes file is an enforcement file (r4)", () => {
  it("a pattern added to ~/.config/git/ignore (git's default core.excludesFile) is removed and fails the stage; the next session still audits the path", () =>
    withRepo(BASE, (r) => {
      const ignore = path.join(r.home, ".config/git/ignore");
      put(ignore, "*.log\n");
      r.start("x1", "jade");
      fs.appendFileSync(ignore, "conftest.py\n");
      r.put("src/b.ts", "b\n");
      r.stop("x1", "jade");
      expect(fs.readFileSync(ignore, "utf8")).toBe("*.log\n");
      const rep = r.report("x1");
      expect(rep.code).toBe(2);
      expect(rep.stderr).toContain(".config/git/ignore (modified; restored)");
      expect(r.read("src/b.ts")).toBe("b\n");
      // the next stage of another session reads the excludes fresh: the file jade may not write is audited
      r.start("x2", "jade");
      r.put("conftest.py", "import pytest\n");
      r.stop("x2", "jade");
      expect(r.exists("conftest.py")).toBe(false);
      expect(r.report("x2").code).toBe(2);
    }));

  it("the file core.excludesFile names in ~/.gitconfig is guarded the same way, created or changed", () =>
    withRepo(BASE, (r) => {
      fs.writeFileSync(path.join(r.home, ".gitconfig"), "[core]\n\texcludesFile = ~/.gitignore_global\n");
      const ignore = path.join(r.home, ".gitignore_global");
      r.start("x3", "jade");
      put(ignore, "tests/new.test.ts\n");
      r.stop("x3", "jade");
      expect(fs.existsSync(ignore)).toBe(false);
      const rep = r.report("x3");
      expect(rep.code).toBe(2);
      expect(rep.stderr).toContain(".gitignore_global (created; removed)");
    }));

  it("a role's own stage that leaves the excludes file alone still passes", () =>
    withRepo(BASE, (r) => {
      put(path.join(r.home, ".config/git/ignore"), "*.log\n");
      r.start("x4", "jade");
      r.put("src/b.ts", "b\n");
      r.stop("x4", "jade");
      expect(r.report("x4").code).toBe(0);
      expect(r.read("src/b.ts")).toBe("b\n");
    }));
});
