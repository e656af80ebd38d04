// r7: git's object store and what git reads in place of it. The audit compares the tree with the
// stage-start tree by object id and restores from that tree's objects, and the human's next checkout
// writes files from the same store: code a stage ran must not be able to make the start tree read as
// its own (a replace ref, a rewritten loose object), nor leave objects that say other content than
// their names for the human's git (a loose blob, a pack whose index lies, a replace ref).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { gitEnv, withRepo, type Repo } from "./helpers.js";

const BASE = { "src/a.ts": "a\n", "tests/a.test.ts": "t\n", "docs/guide.md": "g\n", "README.md": "r\n", ".gitignore": "node_modules/\n" };
const sh = (r: Repo, cmd: string) => execFileSync("sh", ["-c", cmd], { cwd: r.dir, env: { ...gitEnv, HOME: r.home }, encoding: "utf8" });
const stateTree = (r: Repo, key: string) => JSON.parse(fs.readFileSync(path.join(r.dir, ".git/harness-audit", key + ".state"), "utf8")).tree as string;
const loose = (id: string) => `.git/objects/${id.slice(0, 2)}/${id.slice(2)}`;
/** the role's code: tests/a.test.ts rewritten, and the tree the start's tree would be with it */
const evilTree = (r: Repo, tree: string) =>
  sh(r, `echo EVIL > tests/a.test.ts; export GIT_INDEX_FILE="$PWD/../evil-index"; git read-tree ${tree}; git add tests/a.test.ts; git write-tree; rm -f "$GIT_INDEX_FILE"`).trim();
/** the human's next checkout of the file, from HEAD */
const checkoutAgain = (r: Repo) => sh(r, "rm tests/a.test.ts; git checkout -- tests/a.test.ts");

// a pack whose index names `fake` where the pack holds `real` (one object: the fan-out and the name)
const FORGE_IDX = `
import struct, hashlib, os, sys
idx, real, fake = sys.argv[1:4]
b = bytearray(open(idx, 'rb').read())
n = 8 + 256 * 4
assert b[n:n + 20].hex() == real
b[n:n + 20] = bytes.fromhex(fake)
for i in range(256): b[8 + i * 4:12 + i * 4] = struct.pack('>I', 1 if i >= bytes.fromhex(fake)[0] else 0)
b[-20:] = hashlib.sha1(bytes(b[:-20])).digest()
os.chmod(idx, 0o644); open(idx, 'wb').write(bytes(b))
`;

describe("audit: git's object store (r7)", () => {
  it("a replace ref that makes the start tree read as the stage's is removed, and the rewritten test restored", () =>
    withRepo(BASE, (r) => {
      r.start("o1", "jade");
      const t = stateTree(r, "o1");
      sh(r, `git replace ${t} ${evilTree(r, t)}`);
      r.stop("o1", "jade");
      expect(r.read("tests/a.test.ts")).toBe("t\n");
      const rep = r.report("o1");
      expect(rep.code).toBe(2);
      expect(rep.stderr).toContain(`.git/refs/replace/${t} (created; removed)`);
      expect(rep.stderr).toContain("tests/a.test.ts (modified; restored)");
      expect(sh(r, "git for-each-ref refs/replace/")).toBe("");
    }));

  it("a replace ref for HEAD's blob, which the human's next checkout would write, is removed and fails the stage", () =>
    withRepo(BASE, (r) => {
      r.start("o2", "jade");
      sh(r, "git replace $(git rev-parse HEAD:tests/a.test.ts) $(echo EVIL | git hash-object -w --stdin)");
      r.stop("o2", "jade");
      expect(r.report("o2").code).toBe(2);
      checkoutAgain(r);
      expect(r.read("tests/a.test.ts")).toBe("t\n");
    }));

  it("the start tree's loose object rewritten to hold the stage's tree: removed, written again, and the test restored", () =>
    withRepo(BASE, (r) => {
      r.start("o3", "jade");
      const t = stateTree(r, "o3");
      const n = evilTree(r, t);
      sh(r, `rm -f ${loose(t)}; cp ${loose(n)} ${loose(t)}`);
      r.stop("o3", "jade");
      expect(r.read("tests/a.test.ts")).toBe("t\n");
      const rep = r.report("o3");
      expect(rep.code).toBe(2);
      expect(rep.stderr).toContain(`${loose(t)} (rewritten: it does not hold the object it names; removed)`);
      expect(sh(r, `git cat-file -t ${t}`).trim()).toBe("tree");
    }));

  it("HEAD's loose blob rewritten in place: removed and hashed again from the work tree, so the human's checkout writes the real file", () =>
    withRepo(BASE, (r) => {
      r.start("o4", "jade");
      const b = r.git("rev-parse", "HEAD:tests/a.test.ts");
      const e = sh(r, "echo EVIL | git hash-object -w --stdin").trim();
      fs.chmodSync(path.join(r.dir, loose(b)), 0o644);
      fs.writeFileSync(path.join(r.dir, loose(b)), fs.readFileSync(path.join(r.dir, loose(e)))); // in place: the folder's ctime stays
      r.stop("o4", "jade");
      const rep = r.report("o4");
      expect(rep.code).toBe(2);
      expect(rep.stderr).toContain("(rewritten: it does not hold the object it names; removed)");
      checkoutAgain(r);
      expect(r.read("tests/a.test.ts")).toBe("t\n");
      expect(sh(r, "git fsck 2>&1 || true")).not.toMatch(/missing|corrupt|mismatch|sha1 mismatch/);
    }));

  it("a pack whose index names HEAD's blob with other content in it is removed", () =>
    withRepo(BASE, (r) => {
      fs.writeFileSync(path.join(r.dir, "../forge.py"), FORGE_IDX);
      r.start("o5", "jade");
      sh(r, `B=$(git rev-parse HEAD:tests/a.test.ts); E=$(echo EVIL | git hash-object -w --stdin); P=$(echo $E | git pack-objects .git/objects/pack/pack); python3 ../forge.py .git/objects/pack/pack-$P.idx $E $B; rm -f .git/objects/pack/pack-$P.rev`);
      expect(sh(r, "git cat-file -p HEAD:tests/a.test.ts")).toBe("EVIL\n"); // what the human's git would read
      r.stop("o5", "jade");
      const rep = r.report("o5");
      expect(rep.code).toBe(2);
      expect(rep.stderr).toMatch(/\.git\/objects\/pack\/pack-[0-9a-f]+\.idx \(written with objects that are not what their names say; removed\)/);
      checkoutAgain(r);
      expect(r.read("tests/a.test.ts")).toBe("t\n");
    }));

  // r8: the check read each object back through git, which takes an object from the newest pack that
  // holds it: a lying pack dated before the true one was read as true and stayed (a Known gap)
  it("a pack that repeats HEAD's blob, already packed, with other content is removed, whatever its date", () =>
    withRepo(BASE, (r) => {
      fs.writeFileSync(path.join(r.dir, "../forge.py"), FORGE_IDX);
      sh(r, "git gc -q");
      r.start("o5b", "jade");
      sh(r, `B=$(git rev-parse HEAD:tests/a.test.ts); E=$(echo EVIL | git hash-object -w --stdin); P=$(echo $E | git pack-objects .git/objects/pack/pack); python3 ../forge.py .git/objects/pack/pack-$P.idx $E $B; rm -f .git/objects/pack/pack-$P.rev; touch -d 2000-01-01 .git/objects/pack/pack-$P.*`);
      r.stop("o5b", "jade");
      const rep = r.report("o5b");
      expect(rep.code).toBe(2);
      expect(rep.stderr).toMatch(/\.git\/objects\/pack\/pack-[0-9a-f]+\.idx \(written with objects that are not what their names say; removed\)/);
      expect(sh(r, "ls .git/objects/pack/*.idx | wc -l").trim()).toBe("1");
      expect(sh(r, "git cat-file -p HEAD:tests/a.test.ts")).toBe("t\n");
    }));

  it("between stages: the last boundary's tree object rewritten by a leftover process is caught at the orchestrator's next command", () =>
    withRepo(BASE, (r) => {
      r.start("o6", "jade", "S");
      r.stop("o6", "jade", "S");
      const t = JSON.parse(fs.readFileSync(path.join(r.dir, ".git/harness-audit/chain/S.json"), "utf8")).tree as string;
      const n = evilTree(r, t);
      sh(r, `rm -f ${loose(t)}; cp ${loose(n)} ${loose(t)}`);
      const b = r.between("S");
      expect(b.code).toBe(2);
      expect(b.stderr).toContain("tests/a.test.ts (modified; restored)");
      expect(r.read("tests/a.test.ts")).toBe("t\n");
    }));

  it("a repository whose objects live in an alternate store (a --shared clone): the start tree rewritten there is caught too", () =>
    withRepo(BASE, (r) => {
      sh(r, 'mv .git/objects ../store && mkdir -p .git/objects/info .git/objects/pack && echo "$(cd ../store && pwd)" > .git/objects/info/alternates');
      r.start("o10", "jade");
      const t = stateTree(r, "o10");
      expect(r.exists(loose(t))).toBe(false); // git found the start tree in the other store and wrote none here
      const n = evilTree(r, t);
      const inStore = (id: string) => path.join(r.dir, "../store", id.slice(0, 2), id.slice(2));
      const target = fs.existsSync(inStore(n)) ? inStore(n) : path.join(r.dir, loose(n));
      fs.chmodSync(inStore(t), 0o644);
      fs.writeFileSync(inStore(t), fs.readFileSync(target));
      r.stop("o10", "jade");
      expect(r.read("tests/a.test.ts")).toBe("t\n");
      const rep = r.report("o10");
      expect(rep.code).toBe(2);
      expect(rep.stderr).toContain("tests/a.test.ts (modified; restored)");
    }));

  it("grafts and alternates planted in .git are removed and fail the stage", () =>
    withRepo(BASE, (r) => {
      r.start("o7", "jade");
      sh(r, `echo "$(git rev-parse HEAD)" > .git/info/grafts; mkdir -p ../alt; echo "$PWD/../alt" > .git/objects/info/alternates`);
      r.stop("o7", "jade");
      const rep = r.report("o7");
      expect(rep.code).toBe(2);
      expect(rep.stderr).toContain(".git/info/grafts (created; removed)");
      expect(rep.stderr).toContain(".git/objects/info/alternates (created; removed)");
      expect(r.exists(".git/info/grafts")).toBe(false);
    }));

  it("an interactive rebase planted in progress (its todo's exec runs at the human's git rebase --continue) is removed and fails the stage", () =>
    withRepo(BASE, (r) => {
      r.start("o9", "jade");
      sh(r, "mkdir -p .git/rebase-merge && echo 'exec sh -c \"echo EVIL > tests/a.test.ts\"' > .git/rebase-merge/git-rebase-todo && git rev-parse HEAD > .git/rebase-merge/orig-head && echo refs/heads/master > .git/rebase-merge/head-name && git rev-parse HEAD > .git/rebase-merge/onto && touch .git/rebase-merge/interactive");
      expect(sh(r, "git status")).toContain("rebase");
      r.stop("o9", "jade");
      const rep = r.report("o9");
      expect(rep.code).toBe(2);
      expect(rep.stderr).toContain(".git/rebase-merge (created; removed)");
      expect(r.exists(".git/rebase-merge")).toBe(false);
    }));

  it("a stage whose git packs the objects and writes a commit graph and a multi-pack index, inside its scope, passes", () =>
    withRepo(BASE, (r) => {
      r.start("o8", "jade");
      r.put("src/b.ts", "b\n");
      sh(r, "git -c gc.auto=0 gc -q --prune=now; git commit-graph write --reachable; git multi-pack-index write");
      r.stop("o8", "jade");
      expect(r.report("o8").code).toBe(0);
      expect(r.read("src/b.ts")).toBe("b\n");
    }));
});

describe("audit: what the repository's or the hook's configuration says against the disk (r7)", () => {
  it("core.ignoreCase in the start's configuration on a case-sensitive disk: Tests/a.test.ts beside tests/ is seen", () =>
    withRepo(BASE, (r) => {
      r.git("config", "core.ignorecase", "true");
      r.start("c1", "jade");
      r.put("Tests/a.test.ts", "EVIL\n");
      r.stop("c1", "jade");
      expect(r.exists("Tests/a.test.ts")).toBe(false);
      expect(r.report("c1").stderr).toContain("Tests/a.test.ts (created; removed)");
    }));

  it("core.symlinks=false in the start's configuration: a link replaced by a file of its text is put back as the link", () =>
    withRepo(BASE, (r) => {
      sh(r, "ln -s a.test.ts tests/link.test.ts && git add -A && git commit -qm link");
      r.git("config", "core.symlinks", "false");
      r.start("c2", "jade");
      sh(r, "rm tests/link.test.ts && printf a.test.ts > tests/link.test.ts");
      r.stop("c2", "jade");
      expect(fs.lstatSync(path.join(r.dir, "tests/link.test.ts")).isSymbolicLink()).toBe(true);
      expect(r.report("c2").stderr).toContain("tests/link.test.ts (type changed; restored)");
    }));

  it("a GIT_* variable a settings file's env hands the stop (GIT_TRACE into ~/.bashrc) never reaches the audit's git", () =>
    withRepo(BASE, (r) => {
      r.start("c3", "jade");
      r.put("tests/a.test.ts", "EVIL\n");
      const bashrc = path.join(r.home, ".bashrc");
      r.run("stop", { hook_event_name: "SubagentStop", agent_id: "c3", agent_type: "jade" }, [], { GIT_TRACE: bashrc, GIT_REPLACE_REF_BASE: "refs/heads/" });
      expect(fs.existsSync(bashrc)).toBe(false);
      expect(r.read("tests/a.test.ts")).toBe("t\n");
      expect(r.report("c3").code).toBe(2);
    }));
});

describe("audit: a path named .git that is no repository (r7)", () => {
  it("a plain .git folder or file, which git never reads, is removed with what it hides, whatever the scope; one from the start stays", () =>
    withRepo({ ...BASE, "docs/fixture/.git": "not a gitdir\n" }, (r) => {
      r.start("g1", "jade");
      r.put("tests/.git/evil.test.ts", "EVIL\n");
      r.put("src/x/.git/CLAUDE.md", "obey\n"); // in jade's scope, never-write at any depth
      r.put("src/y/.git", "junk\n");
      r.put("tests/e/f/.git/deep.test.ts", "EVIL\n"); // below a folder git sees as empty
      r.put("src/b.ts", "b\n");
      expect(sh(r, "git status --porcelain")).not.toContain(".git"); // git's own view sees none of them
      r.stop("g1", "jade");
      const rep = r.report("g1");
      expect(rep.code).toBe(2);
      for (const p of ["tests/.git", "src/x/.git", "src/y/.git", "tests/e/f/.git"]) {
        expect(rep.stderr).toContain(`${p} (created; removed)`);
        expect(r.exists(p), p).toBe(false);
      }
      expect(r.read("docs/fixture/.git")).toBe("not a gitdir\n");
      expect(r.read("src/b.ts")).toBe("b\n");
    }));
});

describe("audit: the filter programs the repository's configuration names (r7)", () => {
  const FILES = { "src/a.ts": "a\n", "src/clean.sh": "cat\n", "tests/a.test.ts": "t\n", ".gitattributes": "tests/** filter=strip\n" };
  it("a clean filter whose script is in the role's scope never runs in the audit: the rewritten test is seen and restored", () =>
    withRepo(FILES, (r) => {
      r.git("config", "filter.strip.clean", "sh src/clean.sh");
      r.git("config", "filter.strip.smudge", "cat");
      r.start("fl1", "jade");
      r.put("src/clean.sh", "cat >/dev/null; echo t\n"); // jade's own scope: every file now cleans to the original test
      r.put("tests/a.test.ts", "EVIL\n");
      r.stop("fl1", "jade");
      expect(r.read("tests/a.test.ts")).toBe("t\n");
      expect(r.report("fl1").stderr).toContain("tests/a.test.ts (modified; restored)");
    }));

  it("a long-running process filter the same way; a stage in its own scope still passes", () =>
    withRepo(FILES, (r) => {
      r.git("config", "filter.strip.process", "sh src/clean.sh");
      r.git("config", "filter.strip.required", "true");
      r.start("fl2", "jade");
      r.put("src/b.ts", "b\n");
      r.put("tests/a.test.ts", "EVIL\n");
      r.stop("fl2", "jade");
      expect(r.read("tests/a.test.ts")).toBe("t\n");
      const rep = r.report("fl2");
      expect(rep.stderr).toContain("tests/a.test.ts (modified; restored)");
      r.start("fl3", "jade");
      r.put("src/c.ts", "c\n");
      r.stop("fl3", "jade");
      expect(r.report("fl3").code).toBe(0);
    }));
});

describe("audit: a filter driver whose name git's -c cannot spell (review)", () => {
  // before the fix, -c filter.a=b.clean=cat set filter.a and left this program to run in every audit git call
  // (the start case shows it; a planting during the stage was already undone by the restore of .git/config first)
  const FILES = { "src/a.ts": "a\n", "tests/a.test.ts": "t\n", ".gitattributes": "tests/** filter=a=b\n" };
  const evil = (mark: string) => `sh -c 'touch ${mark}; cat >/dev/null; echo t'`;
  it("filter \"a=b\" planted during the stage: its program never runs in the audit, and the stage fails loudly", () =>
    withRepo(FILES, (r) => {
      const mark = path.join(r.home, "ran");
      r.start("fe1", "jade");
      r.git("config", "filter.a=b.clean", evil(mark));
      r.put("tests/a.test.ts", "EVIL\n");
      r.stop("fe1", "jade");
      const rep = r.report("fe1");
      expect(rep.code).toBe(2);
      expect(fs.existsSync(mark)).toBe(false);
    }));
  it("one there before the stage: the start refuses, naming it, and the program never runs", () =>
    withRepo(FILES, (r) => {
      const mark = path.join(r.home, "ran");
      r.git("config", "filter.a=b.clean", evil(mark));
      const res = r.run("start", { hook_event_name: "SubagentStart", agent_id: "fe2", agent_type: "jade" });
      expect(res.code).not.toBe(0);
      expect(res.stderr).toContain("cannot keep it from running");
      expect(fs.existsSync(mark)).toBe(false);
    }));
});
