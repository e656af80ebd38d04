// r4 red team: a file larger than the audit's snapshot limit (then 16 MB, now 128 MB) written into a guarded folder
// (~/.codex/rules, .github/hooks, ~/.gemini/policies, .git/hooks) made the stage-end audit throw
// before it compared anything: the stage "FAILED ... have a human check the work tree (git status)",
// while a planted .git/hooks/pre-commit, a core.fsmonitor (which that git status then runs) and an
// out-of-scope test edit all stayed. The limit now bounds each guarded path's reading alone, and a
// path too large to read is put back from the snapshot of the start like any other change.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { withRepo } from "./helpers.js";

const BASE = { "src/a.ts": "a\n", "tests/a.test.ts": "t\n", ".gitignore": "node_modules/\n" };

describe("audit: an oversized file in a guarded folder does not stop the restore (r4)", () => {
  it("the junk is removed, the hook, the fsmonitor and the test edit are undone, and the stage fails naming them", () =>
    withRepo(BASE, (r) => {
      const config = fs.readFileSync(path.join(r.dir, ".git/config"), "utf8");
      r.start("o1", "jade");
      fs.mkdirSync(path.join(r.home, ".codex/rules"), { recursive: true });
      // sparse: over the limit by size, with no bytes on the disk
      fs.writeFileSync(path.join(r.home, ".codex/rules/junk.rules"), "");
      fs.truncateSync(path.join(r.home, ".codex/rules/junk.rules"), (128 << 20) + 1);
      fs.writeFileSync(path.join(r.dir, ".git/hooks/pre-commit"), "#!/bin/sh\ntouch $HOME/pwned\n", { mode: 0o755 });
      fs.appendFileSync(path.join(r.dir, ".git/config"), "[core]\n\tfsmonitor = x\n");
      r.put("tests/a.test.ts", "weakened\n");
      r.stop("o1", "jade");
      expect(fs.existsSync(path.join(r.home, ".codex/rules/junk.rules"))).toBe(false);
      expect(fs.existsSync(path.join(r.dir, ".git/hooks/pre-commit"))).toBe(false);
      expect(fs.readFileSync(path.join(r.dir, ".git/config"), "utf8")).toBe(config);
      expect(r.read("tests/a.test.ts")).toBe("t\n");
      const rep = r.report("o1");
      expect(rep.code).toBe(2);
      expect(rep.stderr).toContain("~/.codex/rules (created; removed)");
      expect(rep.stderr).toContain(".git/hooks (modified; restored)");
      expect(rep.stderr).toContain("tests/a.test.ts");
    }));
});
