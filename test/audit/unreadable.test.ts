// r7: a folder or file its owner can no longer read. git add skips what it cannot open (a folder
// with a warning only), so a test a stage's code created in a folder it then made unlistable (chmod
// 311) was not seen and the stage passed; a later chmod showed it. The audit opens such a folder or
// file for its owner again at a boundary, judges what it held, and fails the stage. Root reads any
// folder, so as root the scene runs as another account (setpriv), as a developer's session would.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { gitEnv, makeRepo, SCRIPT, type Repo } from "./helpers.js";

const BASE = { "src/a.ts": "a\n", "tests/a.test.ts": "t\n", "tests/keep/k.test.ts": "k\n", "docs/guide.md": "g\n", ".gitignore": "node_modules/\n" };
const root = process.getuid?.() === 0;
const NOBODY = ["--reuid=65534", "--regid=65534", "--clear-groups"];
const canDrop = !root || spawnSync("setpriv", [...NOBODY, "true"]).status === 0;

/** run as the account that owns the project (another one than root, which reads everything) */
function as(r: Repo, file: string, args: string[], input = ""): { code: number; stderr: string } {
  const [cmd, argv] = root ? ["setpriv", [...NOBODY, file, ...args]] : [file, args];
  const p = spawnSync(cmd, argv as string[], { cwd: r.dir, input, encoding: "utf8", env: { ...gitEnv, HOME: r.home, CLAUDE_PROJECT_DIR: r.dir }, timeout: 60000 });
  return { code: p.status ?? -1, stderr: p.stderr };
}
const hook = (r: Repo, mode: string, id: string) => as(r, "node", [path.join(r.dir, SCRIPT), mode], JSON.stringify({ agent_id: id, agent_type: "jade", tool_name: "Agent", tool_input: { subagent_type: "jade" }, tool_response: { status: "completed", agentId: id } }));
const code = (r: Repo, cmd: string) => as(r, "sh", ["-c", cmd]);

function withOwnedRepo(body: (r: Repo) => void): void {
  const r = makeRepo(BASE);
  try {
    if (root) spawnSync("chown", ["-R", "65534:65534", path.dirname(r.dir)]);
    body(r);
  } finally {
    spawnSync("chmod", ["-R", "u+rwx", path.dirname(r.dir)]);
    r.cleanup();
  }
}

describe("audit: folders and files their owner can no longer read (r7)", () => {
  it.skipIf(!canDrop)("a test created in a folder made unlistable is found, removed, and fails the stage; a shut file is read and restored", () =>
    withOwnedRepo((r) => {
      expect(hook(r, "start", "u1").code).toBe(0);
      code(r, "mkdir tests/hid && echo H > tests/hid/h.test.ts && chmod 311 tests/hid && echo N > tests/keep/new.test.ts && chmod 311 tests/keep && echo EVIL > tests/a.test.ts && chmod 000 tests/a.test.ts && echo b > src/b.ts");
      hook(r, "stop", "u1");
      const rep = hook(r, "report", "u1");
      expect(rep.code).toBe(2);
      expect(rep.stderr).toContain("tests/hid/h.test.ts (created; removed)");
      expect(rep.stderr).toContain("tests/keep/new.test.ts (created; removed)");
      expect(rep.stderr).toContain("tests/keep (folder made unreadable (opened for its owner again); restored)");
      expect(rep.stderr).toContain("tests/a.test.ts (modified; restored)");
      expect(fs.existsSync(path.join(r.dir, "tests/hid"))).toBe(false);
      expect(fs.readdirSync(path.join(r.dir, "tests/keep"))).toEqual(["k.test.ts"]);
      expect(fs.readFileSync(path.join(r.dir, "tests/a.test.ts"), "utf8")).toBe("t\n");
      expect(fs.readFileSync(path.join(r.dir, "src/b.ts"), "utf8")).toBe("b\n");
    }));

  it.skipIf(!canDrop)("a folder that was already shut at the start is left as it was, and its files are not taken for created", () =>
    withOwnedRepo((r) => {
      code(r, "mkdir -p vendor/locked && echo x > vendor/locked/x.txt && chmod 311 vendor/locked");
      expect(hook(r, "start", "u2").code).toBe(0);
      code(r, "echo b > src/b.ts");
      hook(r, "stop", "u2");
      expect(hook(r, "report", "u2").code).toBe(0);
      expect(fs.statSync(path.join(r.dir, "vendor/locked")).mode & 0o777).toBe(0o311);
      fs.chmodSync(path.join(r.dir, "vendor/locked"), 0o755);
      expect(fs.readFileSync(path.join(r.dir, "vendor/locked/x.txt"), "utf8")).toBe("x\n");
    }));

  // r8: opening one again was itself a violation, whoever's scope held it: jade's own test of a
  // permission error, leaving src/fixtures/locked (chmod 000) and src/secret.ts (chmod 000), failed the stage
  it.skipIf(!canDrop)("a folder and a file shut inside the stage's own scope are opened and judged, and the stage passes", () =>
    withOwnedRepo((r) => {
      expect(hook(r, "start", "u3").code).toBe(0);
      code(r, "mkdir -p src/fixtures/locked && echo f > src/fixtures/locked/f.ts && chmod 000 src/fixtures/locked && echo s > src/secret.ts && chmod 000 src/secret.ts");
      hook(r, "stop", "u3");
      const rep = hook(r, "report", "u3");
      expect(rep.stderr).toBe("");
      expect(rep.code).toBe(0);
      expect(fs.readFileSync(path.join(r.dir, "src/fixtures/locked/f.ts"), "utf8")).toBe("f\n");
      expect(fs.readFileSync(path.join(r.dir, "src/secret.ts"), "utf8")).toBe("s\n");
    }));

  it.skipIf(!canDrop)("a test folder shut by jade's code still fails jade's stage beside a shut folder in its scope", () =>
    withOwnedRepo((r) => {
      expect(hook(r, "start", "u4").code).toBe(0);
      code(r, "mkdir -p src/locked && chmod 000 src/locked && chmod 311 tests/keep");
      hook(r, "stop", "u4");
      const rep = hook(r, "report", "u4");
      expect(rep.code).toBe(2);
      expect(rep.stderr).toContain("tests/keep (folder made unreadable (opened for its owner again); restored)");
      expect(rep.stderr).not.toContain("src/locked");
    }));
});

describe("audit: a folder deeper than the path limit (r7)", () => {
  // r9: the folder is removed now (from its shallowest folder the start's tree does not hold), not left
  // in place with an audit that could not run; test/audit/redteam-r9.test.ts has the in-scope case
  it("a test hidden below a path longer than git can open fails the stage and is removed; a stage in scope still passes", () => {
    const r = makeRepo(BASE);
    try {
      r.start("deep", "jade");
      let d = path.join(r.dir, "tests");
      const here = process.cwd();
      try {
        process.chdir(d);
        for (let i = 0; i < 45; i++) {
          fs.mkdirSync("d".repeat(100));
          process.chdir("d".repeat(100));
        }
        fs.writeFileSync("x.test.ts", "EVIL\n");
      } finally {
        process.chdir(here);
      }
      r.stop("deep", "jade");
      const rep = r.report("deep");
      expect(rep.code).toBe(2);
      expect(rep.stderr).toMatch(/tests\/d{100} \(created \(deeper than the system's path limit\); removed\)/);
      expect(r.exists("tests/" + "d".repeat(100))).toBe(false);
      expect(r.read("tests/a.test.ts")).toBe("t\n");
      r.start("deep2", "jade"); // the next stage's own work passes
      r.put("src/c.ts", "c\n");
      r.stop("deep2", "jade");
      expect(r.report("deep2").code).toBe(0);
    } finally {
      spawnSync("rm", ["-rf", path.join(r.dir, "tests")]);
      r.cleanup();
    }
  });
});

describe("audit: a stage whose audit could not run is over (r7)", () => {
  it("its write scope is not lent to the stages after it: mica's code writing src/ after jade's failed stage is restored", () => {
    const r = makeRepo(BASE);
    try {
      r.start("j1", "jade");
      const here = process.cwd();
      try {
        // jade's code makes its own audit fail loudly (a folder past the path limit)
        process.chdir(path.join(r.dir, "src"));
        for (let i = 0; i < 45; i++) {
          fs.mkdirSync("d".repeat(100));
          process.chdir("d".repeat(100));
        }
      } finally {
        process.chdir(here);
      }
      r.put("src/deep.ts", "x\n");
      r.stop("j1", "jade");
      expect(r.report("j1").stderr).toContain("could not run");
      r.start("m1", "mica");
      r.put("src/backdoor.ts", "evil\n");
      r.put("tests/b.test.ts", "b\n");
      r.stop("m1", "mica");
      const rep = r.report("m1", "mica");
      expect(rep.code).toBe(2);
      expect(rep.stderr).toContain("src/backdoor.ts (created; removed)");
      expect(r.exists("src/backdoor.ts")).toBe(false);
      expect(r.read("tests/b.test.ts")).toBe("b\n");
    } finally {
      spawnSync("rm", ["-rf", path.join(r.dir, "src")]);
      r.cleanup();
    }
  });
});
