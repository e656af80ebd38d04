// The stage-end audit in time: how fast its start and stop are on a large repository, and how a stop
// waits for (or refuses) processes a stage left running, and a rewrite git's whole-second timestamps
// cannot see. Each waits on real processes or the clock for seconds: npm run test:slow. What the
// audit restores and reports is audit.test.ts and boundary.test.ts.
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeRepo, type Repo, withRepo } from "./helpers.js";

const BASE = { "src/a.ts": "a\n", "tests/a.test.ts": "t\n", "docs/guide.md": "g\n", "README.md": "r\n", ".gitignore": "node_modules/\n.claude/settings.local.json\n" };

describe("stage-end audit script speed", () => {
  // Building 5000 files and their commit is slow on a loaded machine; the audit itself is what is timed.
  it("start and stop work on a repository of 5000 files, and report their time", { timeout: 180_000 }, () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 5000; i++) files[`src/m${i % 50}/f${i}.ts`] = `export const v${i} = ${i};\n`.repeat(20);
    withRepo(files, (r) => {
      const own = (stderr: string) => Number(/took (\d+) ms/.exec(stderr)?.[1] ?? NaN);
      const t0 = r.run("start", { agent_id: "big", agent_type: "jade" }, [], { HARNESS_AUDIT_TIMING: "1" });
      r.put("src/m1/new.ts", "x\n");
      r.put("tests/big.test.ts", "x\n");
      const t1 = r.run("stop", { agent_id: "big", agent_type: "jade" }, [], { HARNESS_AUDIT_TIMING: "1" });
      expect(t0.code).toBe(0);
      expect(r.exists("tests/big.test.ts")).toBe(false);
      expect(r.exists("src/m1/new.ts")).toBe(true);
      process.stdout.write(`audit timing, 5000 files: start ${own(t0.stderr)} ms (${t0.ms.toFixed(0)} ms with node start-up), stop with one restore ${own(t1.stderr)} ms (${t1.ms.toFixed(0)} ms)\n`);
      // Printed, not asserted: speed is measured side by side in bench/, never by a timed test.
      expect(Number.isFinite(own(t0.stderr)) && Number.isFinite(own(t1.stderr))).toBe(true);
    }, { viaProcess: true });
  });
});

describe("audit: processes a stage leaves running", () => {
  it("a process that keeps writing after the stage: the stop refuses loudly, never 'restored' with the file back", async () => {
    const r = makeRepo(BASE, { viaProcess: true });
    const target = path.join(r.dir, "tests/zombie.test.ts");
    r.start("z1", "jade");
    const child = spawn(process.execPath, ["-e", `const fs=require("fs");const end=Date.now()+8000;while(Date.now()<end){try{fs.writeFileSync(${JSON.stringify(target)},"z\\n")}catch{}}`], { stdio: "ignore", cwd: r.dir });
    try {
      while (!fs.existsSync(target)) await new Promise((res) => setTimeout(res, 20));
      r.stop("z1", "jade");
      const rep = r.report("z1");
      expect(rep.code).toBe(2);
      expect(rep.stderr).toContain(`process ${child.pid} (`);
      expect(rep.stderr).toContain("still running after the stage ended");
    } finally {
      child.kill();
      await new Promise((res) => child.once("exit", res));
      r.cleanup();
    }
  });

  it("a detached child that writes a second after the stage ends: the stop waits for it and audits what it wrote", async () => {
    const r = makeRepo(BASE, { viaProcess: true });
    // a server the human started before the stage, working in the project: not the stage's, not waited for
    const server = spawn(process.execPath, ["-e", "setTimeout(() => {}, 20000)"], { stdio: "ignore", cwd: r.dir });
    try {
      await new Promise((res) => setTimeout(res, 300));
      r.start("w1", "jade");
      const late = spawn(process.execPath, ["-e", `setTimeout(() => require("fs").writeFileSync("tests/late.test.ts", "late\\n"), 1000)`], { stdio: "ignore", cwd: r.dir, detached: true });
      late.unref();
      const stop = r.stop("w1", "jade");
      expect(stop.stderr).toContain("tests/late.test.ts (created; removed)");
      expect(stop.stderr).not.toContain("still running");
      expect(r.exists("tests/late.test.ts")).toBe(false);
      // the human's server outlives the audit's wait: had the stop counted it as the stage's, the
      // report would name it as still running and fail the stage (no clock is read: a loaded machine
      // makes any time bound a guess)
      r.start("w2", "jade");
      const stop2 = r.stop("w2", "jade");
      expect(stop2.stderr).not.toContain("still running");
      expect(r.report("w2").code).toBe(0);
    } finally {
      server.kill();
      r.cleanup();
    }
  });
});

describe("audit: content, not git's view, across git's whole-second timestamps", () => {
  it("flags set during the stage, and a configuration that loosens git's stat checks, hide nothing", async () => {
    const r = makeRepo(BASE, { viaProcess: true });
    try {
      // git compares whole seconds: a rewrite in the same second as the file's last change is the gap MAPPING.md lists
      await new Promise((res) => setTimeout(res, 1100));
      r.start("f2", "jade");
      // same size, same mtime: only content (and ctime) tells
      const p = path.join(r.dir, "tests/a.test.ts");
      const st = fs.statSync(p);
      fs.writeFileSync(p, "T\n");
      fs.utimesSync(p, st.atime, st.mtime);
      r.git("update-index", "--assume-unchanged", "tests/a.test.ts");
      fs.appendFileSync(path.join(r.dir, ".git/config"), "[core]\n\tcheckStat = minimal\n\ttrustctime = false\n\tignoreStat = true\n");
      r.stop("f2", "jade");
      expect(r.read("tests/a.test.ts")).toBe("t\n");
      expect(fs.readFileSync(path.join(r.dir, ".git/config"), "utf8")).not.toContain("checkStat");
      const rep = r.report("f2");
      expect(rep.stderr).toContain("tests/a.test.ts (modified; restored)");
      expect(rep.stderr).toContain(".git/config (modified; restored)");
    } finally {
      r.cleanup();
    }
  });
});

describe("audit: its own time limit, under the hosts' hook timeouts", () => {
  // A .gitignore made a FIFO holds git (it opens the file and waits for a writer); no check can list
  // every .gitignore beforehand. Hosts give SubagentStart 60 s: the start must answer before that.
  it("a FIFO .gitignore in the tree: the start stops git at its 45 s limit, names the file, and the stage is failed", { timeout: 120_000 }, () =>
    withRepo(BASE, (r) => {
      execFileSync("mkfifo", [path.join(r.dir, "src/.gitignore")]);
      const start = r.run("start", { agent_id: "slow1", agent_type: "jade" });
      expect(start.ms).toBeGreaterThan(40_000);
      expect(start.ms).toBeLessThan(58_000);
      expect(start.stderr).toContain("could not record the start of jade's stage");
      expect(start.stderr).toContain("src/.gitignore");
      fs.rmSync(path.join(r.dir, "src/.gitignore"));
      expect(r.report("slow1").code).toBe(2);
    }, { viaProcess: true }));
});
