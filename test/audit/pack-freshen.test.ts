// r8: a pack older than the stage whose index is untouched and whose .pack git only freshened (its
// ctime moved) is trusted by its bytes' hash against its name, not read in full again
// (big-pack.slow.test.ts times that). What that shortcut must still catch: the old pack's bytes
// rewritten under its name, with the trailer made to match them.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { gitEnv, withRepo } from "./helpers.js";

const BASE = { "src/a.ts": "a\n", "tests/a.test.ts": "t\n", ".gitignore": "node_modules/\n" };
// one byte of the pack's body flipped, and its trailer the hash of the new body (the name stays)
const REWRITE = String.raw`
import hashlib, os, sys
p = sys.argv[1]
b = bytearray(open(p, 'rb').read())
b[len(b) // 2] ^= 1
b[-20:] = hashlib.sha1(bytes(b[:-20])).digest()
os.chmod(p, 0o644); open(p, 'wb').write(bytes(b))
`;

describe("audit: an older pack git freshened (r8)", () => {
  it("an older pack rewritten under its name (its trailer matching) is still read in full and removed", () =>
    withRepo(BASE, (r) => {
      const sh = (c: string) => execFileSync("/bin/sh", ["-c", c], { cwd: r.dir, env: { ...gitEnv, HOME: r.home, REWRITE }, encoding: "utf8" });
      // a pack of one object no tree names (the snapshot never reads it: only the object check can see it)
      sh("E=$(echo extra | git hash-object -w --stdin); echo $E | git pack-objects -q .git/objects/pack/pack >/dev/null; rm -f .git/objects/$(echo $E | cut -c1-2)/$(echo $E | cut -c3-); sleep 1.1");
      const pack = sh("ls .git/objects/pack/*.pack").trim();
      r.start("k1", "jade");
      sh(`python3 -c "$REWRITE" ${pack}`);
      r.stop("k1", "jade");
      const rep = r.report("k1");
      expect(rep.code).toBe(2);
      expect(rep.stderr).toMatch(/\.git\/objects\/pack\/pack-[0-9a-f]+\.pack \(written with objects that are not what their names say; removed\)/);
      expect(sh("ls .git/objects/pack/")).not.toContain(pack.split("/").pop());
    }));

  it("an older pack git only freshened stays, and the stage passes", () =>
    withRepo(BASE, (r) => {
      const sh = (c: string) => execFileSync("/bin/sh", ["-c", c], { cwd: r.dir, env: { ...gitEnv, HOME: r.home }, encoding: "utf8" });
      sh("git gc -q && sleep 1.1");
      const pack = sh("ls .git/objects/pack/*.pack").trim();
      r.start("k2", "jade");
      sh("git hash-object -w src/a.ts >/dev/null");
      r.put("src/b.ts", "b\n");
      r.stop("k2", "jade");
      expect(r.report("k2").code).toBe(0);
      expect(sh("ls .git/objects/pack/*.pack").trim()).toBe(pack);
    }));
});
