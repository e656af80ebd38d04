// r8: the audit's git takes the repository's filter drivers as cat (r7), but the stage-start snapshot
// began from the human's index, whose entries for filtered files hold what the real filter made of
// them (git-lfs's pointer, git-crypt's cipher text). A byte-identical rewrite of such a file (a build
// step, a formatter, a copy) outside the scope compared as modified, failed the stage, and the restore
// wrote the filtered form into the work tree. Here a rot13 filter stands for them.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { gitEnv, makeRepo, type Repo } from "./helpers.js";

function withFiltered(body: (r: Repo, sh: (c: string) => string) => void): void {
  const r = makeRepo({ "src/a.ts": "a\n", "tests/a.test.ts": "t\n", ".gitignore": "node_modules/\n", "docs/x.txt": "hello\n", ".gitattributes": "docs/*.txt filter=rot\n" }, { git: false });
  const sh = (c: string) => execFileSync("/bin/sh", ["-c", c], { cwd: r.dir, env: { ...gitEnv, HOME: r.home }, encoding: "utf8" });
  try {
    // the sleep: the index's entries stat-clean, not racy (git would hash a racy one again anyway)
    sh("git init -q && git config filter.rot.clean 'tr a-z n-za-m' && git config filter.rot.smudge 'tr a-z n-za-m' && git add -A && git commit -qm i && sleep 1.1 && git status --short >/dev/null");
    expect(sh("git cat-file -p HEAD:docs/x.txt")).toBe("uryyb\n");
    body(r, sh);
  } finally {
    r.cleanup();
  }
}

describe("audit: files a filter driver converts (r8)", () => {
  it("a byte-identical rewrite of a filtered file outside the scope passes, and the file keeps its bytes", () =>
    withFiltered((r, sh) => {
      r.start("f1", "jade");
      sh("cp docs/x.txt ../y && cp ../y docs/x.txt");
      r.stop("f1", "jade");
      const rep = r.report("f1");
      expect(rep.stderr).toBe("");
      expect(rep.code).toBe(0);
      expect(r.read("docs/x.txt")).toBe("hello\n");
      expect(sh("git status --short")).toBe("");
    }));

  it("a real rewrite of it is restored to the bytes it had, not to its filtered form", () =>
    withFiltered((r, sh) => {
      r.start("f2", "jade");
      sh("echo EVIL > docs/x.txt");
      r.stop("f2", "jade");
      const rep = r.report("f2");
      expect(rep.code).toBe(2);
      expect(rep.stderr).toContain("docs/x.txt (modified; restored)");
      expect(r.read("docs/x.txt")).toBe("hello\n");
    }));
});
