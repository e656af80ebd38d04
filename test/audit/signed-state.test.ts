// The audit's own state cannot be forged by a role's code writing files (issue 22): a role's code runs
// as the same user and can write .git/harness-audit/. Each scene here passed on the code before the
// records were signed (checked against main in a detached worktree): an "active" record written by a
// test lent mica's scope to jade's stage, a rewritten, copied or deleted verdict passed a failed stage,
// a deleted chain record let a change between stages through. Now a record the audit did not sign for
// this project and name (key outside the project, runtime-signed.ts) lends nothing and passes nothing.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { withRepo, type Repo } from "./helpers.js";

const BASE = { "src/a.ts": "a\n", "tests/a.test.ts": "t\n", "docs/guide.md": "g\n" };
const auditDir = (r: Repo, ...rel: string[]) => path.join(r.dir, ".git/harness-audit", ...rel);
/** Codex's wait_agent names the stage by id only (no subagent_type to fall back on) */
const waitAgent = (r: Repo, id: string) => r.run("report", { hook_event_name: "PostToolUse", tool_name: "wait_agent", tool_input: { targets: [id] }, tool_response: { status: { [id]: { completed: "done" } } } });

describe("audit: its own state is signed (issue 22)", () => {
  it("an active record a role's code wrote (\"mica\") lends jade no write scope in tests/", () =>
    withRepo(BASE, (r) => {
      fs.mkdirSync(auditDir(r, "active"), { recursive: true });
      fs.writeFileSync(auditDir(r, "active", "x"), "mica");
      r.start("j1", "jade");
      r.put("tests/a.test.ts", "jade rewrote the test\n");
      r.put("src/a.ts", "jade's work\n");
      const s = r.stop("j1", "jade");
      expect(s.stderr).toContain("tests/a.test.ts (modified; restored)");
      expect(r.read("tests/a.test.ts")).toBe("t\n");
      expect(r.read("src/a.ts")).toBe("jade's work\n");
      expect(r.report("j1").code).toBe(2);
    }));

  it("a genuine active record copied from another project lends nothing here", () =>
    withRepo(BASE, (other) =>
      withRepo(BASE, (r) => {
        other.start("m1", "mica"); // other's audit writes a signed active/m1 ("mica")
        fs.mkdirSync(auditDir(r, "active"), { recursive: true });
        fs.copyFileSync(auditDir(other, "active", "m1"), auditDir(r, "active", "m1"));
        r.start("j2", "jade");
        r.put("tests/a.test.ts", "jade rewrote the test\n");
        expect(r.stop("j2", "jade").stderr).toContain("tests/a.test.ts (modified; restored)");
        expect(r.read("tests/a.test.ts")).toBe("t\n");
        expect(r.report("j2").code).toBe(2);
      }),
    ));

  it("a genuine active record put back after its stage ended (a replay) lends nothing", () =>
    withRepo(BASE, (r) => {
      r.start("m3", "mica");
      const saved = fs.readFileSync(auditDir(r, "active", "m3"));
      expect(r.stop("m3", "mica").code).toBe(0);
      expect(r.report("m3", "mica").code).toBe(0);
      fs.writeFileSync(auditDir(r, "active", "m3"), saved);
      r.start("j4", "jade");
      r.put("tests/a.test.ts", "jade rewrote the test\n");
      expect(r.stop("j4", "jade").stderr).toContain("tests/a.test.ts (modified; restored)");
      expect(r.report("j4").code).toBe(2);
    }));

  it("a verdict rewritten to ok fails the report", () =>
    withRepo(BASE, (r) => {
      r.start("v1", "jade");
      r.put("tests/a.test.ts", "x\n");
      r.stop("v1", "jade");
      const vp = auditDir(r, "v1.verdict");
      const v = JSON.parse(fs.readFileSync(vp, "utf8"));
      fs.writeFileSync(vp, JSON.stringify({ ...v, ok: true, violations: [], saved: null }));
      const rep = r.report("v1");
      expect(rep.code).toBe(2);
      expect(rep.stderr).toContain("signature does not verify");
    }));

  it("a passed stage's verdict copied over a failed stage's fails the report", () =>
    withRepo(BASE, (r) => {
      r.start("p1", "jade");
      r.put("src/a.ts", "fine\n");
      r.stop("p1", "jade");
      r.start("f1", "jade");
      r.put("tests/a.test.ts", "x\n");
      r.stop("f1", "jade");
      fs.copyFileSync(auditDir(r, "p1.verdict"), auditDir(r, "f1.verdict"));
      expect(r.report("f1").code).toBe(2);
      expect(r.report("p1").code).toBe(0); // the genuine one still passes
    }));

  it("a failed stage's verdict deleted before the report (wait_agent: no role named) fails the report", () =>
    withRepo(BASE, (r) => {
      r.start("d1", "jade");
      r.put("tests/a.test.ts", "x\n");
      r.stop("d1", "jade");
      fs.rmSync(auditDir(r, "d1.verdict"));
      const rep = waitAgent(r, "d1");
      expect(rep.code).toBe(2);
      expect(rep.stderr).toContain("were deleted");
      // a genuine verdict is reported once, then forgotten (the record outside the project goes with it)
      r.start("d2", "jade");
      r.stop("d2", "jade");
      expect(waitAgent(r, "d2").code).toBe(0);
      expect(waitAgent(r, "d2").code).toBe(0);
    }));

  it("a deleted chain record does not let a change between stages through", () =>
    withRepo(BASE, (r) => {
      r.start("c1", "jade", "S");
      r.put("src/a.ts", "jade\n");
      expect(r.stop("c1", "jade", "S").code).toBe(0);
      expect(r.between("S").code).toBe(0);
      // a process left behind rewrites a test and removes the record of the last boundary
      r.put("tests/a.test.ts", "written by no stage\n");
      fs.rmSync(auditDir(r, "chain"), { recursive: true, force: true });
      const b = r.between("S");
      expect(b.code).toBe(2);
      expect(b.stderr).toContain("was deleted");
    }));

  it("a chain record copied from another session is not this session's", () =>
    withRepo(BASE, (r) => {
      r.start("s2", "jade", "S2");
      r.stop("s2", "jade", "S2");
      r.put("tests/a.test.ts", "written by no stage\n");
      // a fresh session S1 takes the tree as it finds it: its record's tree holds the rewritten test
      r.start("s1", "mica", "S1");
      r.stop("s1", "mica", "S1");
      // S1's record made to look like S2's: the rewrite would then be S2's last boundary
      for (const ext of ["json", "index", "excludes"]) fs.copyFileSync(auditDir(r, "chain", "S1." + ext), auditDir(r, "chain", "S2." + ext));
      const b = r.between("S2");
      expect(b.code).toBe(2);
      expect(b.stderr).toContain("signature does not verify");
    }));

  it("a start snapshot rewritten during the stage (its tree made the current one) fails the stage", () =>
    withRepo(BASE, (r) => {
      r.start("t1", "jade");
      r.put("tests/a.test.ts", "x\n");
      const sp = auditDir(r, "t1.state");
      const st = JSON.parse(fs.readFileSync(sp, "utf8"));
      r.git("add", "-A");
      const tree = r.git("write-tree");
      r.git("reset", "-q");
      fs.writeFileSync(sp, JSON.stringify({ ...st, tree }));
      const s = r.stop("t1", "jade");
      expect(s.stderr).toContain("could not run");
      expect(r.report("t1").code).toBe(2);
    }));

  it("legitimate parallel stages still lend each other their scopes", () =>
    withRepo(BASE, (r) => {
      r.start("m2", "mica");
      r.start("j3", "jade");
      r.put("tests/a.test.ts", "mica's test\n");
      r.put("src/a.ts", "jade's code\n");
      expect(r.stop("j3", "jade").code).toBe(0);
      expect(r.stop("m2", "mica").code).toBe(0);
      expect(r.report("j3").code).toBe(0);
      expect(r.report("m2", "mica").code).toBe(0);
      expect(r.read("tests/a.test.ts")).toBe("mica's test\n");
    }));
});
