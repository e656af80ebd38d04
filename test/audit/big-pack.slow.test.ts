// r8: a pack a role's own git writes during its stage (a fetch, a gc, fast-import) is checked by git's
// verify-pack, not by reading every object back through cat-file into the audit's memory: a pack of
// over 1 GB of content made the stop fail with ENOBUFS (legitimate work failed) after 12 s. Writing such
// a pack takes seconds: npm run test:slow. Forged packs are object-store.test.ts.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { gitEnv, script, withRepo } from "./helpers.js";

// 1040 distinct blobs of 1 MiB of zeros each (over the audit's 1 GiB pipe buffer once inflated; a few MB packed)
const BLOBS = String.raw`
import sys
w = sys.stdout.buffer
for i in range(1040):
    d = (b"%d\n" % i) + b"\0" * (1 << 20)
    w.write(b"blob\ndata %d\n" % len(d)); w.write(d); w.write(b"\n")
`;

describe("audit: a large pack written by the stage's own git", () => {
  it("a stage whose git writes a pack of over 1 GB of content passes, and its pack stays", { timeout: 240_000 }, () =>
    withRepo({ "src/a.ts": "a\n", "tests/a.test.ts": "t\n" }, (r) => {
      r.start("p1", "jade");
      execFileSync("/bin/sh", ["-c", "python3 -c \"$BLOBS\" | git -c core.compression=1 fast-import --quiet"], { cwd: r.dir, env: { ...gitEnv, HOME: r.home, BLOBS } });
      const packs = () => execFileSync("/bin/sh", ["-c", "ls .git/objects/pack/*.pack | wc -l"], { cwd: r.dir, encoding: "utf8" }).trim();
      expect(packs()).toBe("1");
      r.put("src/b.ts", "b\n");
      const stop = r.stop("p1", "jade");
      expect(stop.stderr).not.toMatch(/could not run|ENOBUFS/);
      expect(r.report("p1").code).toBe(0);
      expect(packs()).toBe("1");
      expect(r.read("src/b.ts")).toBe("b\n");
    }));

  // r8: git touches (freshens) a pack holding an object it is asked to write again; such a pack, its
  // index untouched, is checked by its bytes' hash against its name, not read in full (under a 4 s
  // limit, the full read of this pack's 1 GB of content took the stop past it: the stage failed)
  it("a stage whose git writes again an object a large older pack holds passes within a short time limit", { timeout: 240_000 }, () =>
    withRepo({ "src/a.ts": "a\n", "tests/a.test.ts": "t\n" }, (r) => {
      execFileSync("/bin/sh", ["-c", "python3 -c \"$BLOBS\" | git -c core.compression=1 fast-import --quiet && sleep 1.1"], { cwd: r.dir, env: { ...gitEnv, HOME: r.home, BLOBS } });
      r.start("p2", "jade");
      const pack = execFileSync("/bin/sh", ["-c", "ls .git/objects/pack/*.pack"], { cwd: r.dir, encoding: "utf8" }).trim();
      const ctime = () => execFileSync("stat", ["-c", "%Z.%z", pack], { cwd: r.dir, encoding: "utf8" });
      const before = ctime();
      execFileSync("/bin/sh", ["-c", "python3 -c 'import sys; sys.stdout.buffer.write(b\"7\\n\" + b\"\\0\" * (1 << 20))' | git hash-object -w --stdin"], { cwd: r.dir, env: { ...gitEnv, HOME: r.home } });
      expect(ctime()).not.toBe(before); // git freshened it
      r.put("src/b.ts", "b\n");
      const stop = r.stop("p2", "jade");
      expect(stop.stderr).not.toMatch(/could not run|time limit/);
      expect(r.report("p2").code).toBe(0);
      expect(execFileSync("/bin/sh", ["-c", "ls .git/objects/pack/*.pack"], { cwd: r.dir, encoding: "utf8" }).trim()).toBe(pack);
    }, { scriptText: script({ timeLimitMs: 4000 }) }));
});
