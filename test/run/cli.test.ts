// `harness run` as users type it (in-process, src/cli.ts main): what it refuses before any host session starts (exit 2, with the fix).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readPipeline } from "../../src/ir/normalize.js";
import { spawn } from "node:child_process";
import { processStart, readLock, writeLock } from "../../src/run/lock.js";
import { newRecord, planKind } from "../../src/run/plan.js";
import { saveDigest } from "../../src/run/trust.js";
import { recordPath, writeRecord } from "../../src/runs/record.js";
import { harness, ROOT, tempDir } from "../helpers/cli.js";

const FIXTURE = path.join(ROOT, "test/fixtures/run");

async function installed(): Promise<{ root: string; env: Record<string, string> }> {
  const root = tempDir("harness-run-cli-");
  execFileSync("git", ["init", "-q"], { cwd: root });
  fs.cpSync(FIXTURE, path.join(root, "roles"), { recursive: true });
  expect((await harness(["install", "--host", "claude-code", "-q"], root)).code).toBe(0);
  // no host on PATH: a run that got past the refusals would fail to start claude, never run one
  return { root, env: { HARNESS_STATE_HOME: tempDir("harness-state-"), PATH: path.dirname(process.execPath) + ":/usr/bin:/bin" } };
}

describe("harness run refuses before starting", () => {
  it("outside a git work tree, with nothing installed, and with installed files out of sync", async () => {
    const bare = tempDir();
    expect(await harness(["run", "x"], bare)).toMatchObject({ code: 2, stderr: expect.stringMatching(/needs a git work tree/) });
    execFileSync("git", ["init", "-q"], { cwd: bare });
    fs.cpSync(FIXTURE, path.join(bare, "roles"), { recursive: true });
    expect(await harness(["run", "x"], bare)).toMatchObject({ code: 2, stderr: expect.stringMatching(/Run `harness install --host claude-code`/) });
    const { root, env } = await installed();
    fs.appendFileSync(path.join(root, ".claude/agents/coder.md"), "\nhand edit\n");
    const r = await harness(["run", "x"], root, env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/E_DRIFT \.claude\/agents\/coder\.md was edited by hand/);
    expect(r.stderr).toMatch(/out of sync with roles\/ \(listed above\)\. Run `harness install --host claude-code`/);
    expect(fs.existsSync(path.join(root, ".harness"))).toBe(false);
  });

  it("bad flags: no request, an unknown kind, gate or host", async () => {
    const { root, env } = await installed();
    expect((await harness(["run"], root, env)).stderr).toMatch(/needs a request/);
    expect(await harness(["run", "--kind", "epic", "x"], root, env)).toMatchObject({ code: 2, stderr: expect.stringMatching(/--kind epic: not a work kind of flow \(feature, fix\)/) });
    expect(await harness(["run", "--approve", "spec,review", "x"], root, env)).toMatchObject({ code: 2, stderr: expect.stringMatching(/--approve review: flow has no such gate \(spec\)/) });
    expect(await harness(["run", "--host", "cursor", "x"], root, env)).toMatchObject({ code: 2, stderr: expect.stringMatching(/--host cursor: harness run drives claude-code, codex, copilot, gemini-cli, kilo, opencode so far/) });
    expect(fs.existsSync(path.join(root, ".harness"))).toBe(false);
  });

  it("--resume: a modified record is tampered, a record without the runner's digest is refused, a finished run is not resumed", async () => {
    const { root, env } = await installed();
    const pipeline = readPipeline(FIXTURE).pipeline;
    const id = "20261201T231500Z-a1b2c3";
    const rec = newRecord({ id, host: "claude-code", pipeline, request: "x", started: new Date(), budget: null });
    rec.status = "passed";
    saveDigest(root, id, writeRecord(root, rec), { HARNESS_STATE_HOME: env.HARNESS_STATE_HOME! });
    expect(await harness(["run", "--resume", id], root, env)).toMatchObject({ code: 2, stderr: expect.stringMatching(/the run is passed; only a run waiting at a gate, interrupted, or left running by a runner that is gone can be resumed/) });
    const file = recordPath(root, id);
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace('"status": "passed"', '"status": "waiting-gate"'));
    expect(await harness(["run", "--resume", id], root, env)).toMatchObject({ code: 2, stderr: expect.stringMatching(/changed after harness wrote it .*tampered\. Start a new run instead/) });
    expect(await harness(["run", "--resume", id], root, { ...env, HARNESS_STATE_HOME: tempDir() })).toMatchObject({ code: 2, stderr: expect.stringMatching(/harness has no digest of run/) });
    expect(await harness(["run", "--resume", id, "more"], root, env)).toMatchObject({ code: 2, stderr: expect.stringMatching(/give no request with it/) });
    expect(await harness(["run", "--resume", "../x"], root, env)).toMatchObject({ code: 2, stderr: expect.stringMatching(/not a run id/) });
  });
});

describe("--resume a run left `running`", () => {
  it("refuses while its runner is alive; once it is gone, stops the groups it left in the project and runs the stage again", async () => {
    const { root, env } = await installed();
    const state = { HARNESS_STATE_HOME: env.HARNESS_STATE_HOME! };
    const pipeline = readPipeline(FIXTURE).pipeline;
    const id = "20261201T231500Z-c0ffee";
    const rec = newRecord({ id, host: "claude-code", pipeline, request: "x", started: new Date(), budget: null });
    planKind(rec, pipeline, "fix");
    rec.status = "running";
    rec.stages[0]!.status = "running";
    saveDigest(root, id, writeRecord(root, rec), state);
    // a stand-in for the crashed runner, and a stage's host it left behind (its own group, in the project)
    const runner = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
    const host = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { cwd: root, stdio: "ignore", detached: true });
    const elsewhere = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { cwd: tempDir(), stdio: "ignore", detached: true });
    try {
      await new Promise((r) => setTimeout(r, 200));
      writeLock(root, id, { pid: runner.pid!, start: processStart(runner.pid!), groups: [host.pid!, elsewhere.pid!] }, state);
      expect(await harness(["run", "--resume", id], root, env)).toMatchObject({ code: 2, stderr: expect.stringMatching(new RegExp(`the run is still going in process ${runner.pid}`)) });
      runner.kill("SIGKILL");
      await new Promise((r) => runner.on("exit", r));
      const r = await harness(["run", "--resume", id, "--json"], root, env);
      // no claude on PATH: the stage ran again (and could not start the host)
      expect(r.code, r.stderr).toBe(1);
      const ev = r.stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l));
      expect(ev.find((e) => e.event === "recovered")).toMatchObject({ stopped: [host.pid] });
      expect(ev.find((e) => e.event === "stage-start")).toMatchObject({ stage: rec.stages[0]!.stage });
      const after = JSON.parse(fs.readFileSync(recordPath(root, id), "utf8"));
      expect(after.stages[0].status).toBe("failed");
      expect(after.stages[0].reason).toMatch(/could not start claude/);
      // the host was stopped by the resuming runner (it is this test's child: wait for its exit to be seen)
      const ended = await Promise.race([new Promise((r) => (host.exitCode !== null || host.signalCode !== null ? r(true) : host.on("exit", () => r(true)))), new Promise((r) => setTimeout(() => r(false), 5000))]);
      expect(ended).toBe(true);
      expect(host.signalCode).toBe("SIGTERM");
      expect(() => process.kill(elsewhere.pid!, 0)).not.toThrow(); // not in the project: not the run's
      expect(readLock(root, id, state)).toBeNull(); // the lock goes with the runner that ended
    } finally {
      for (const c of [runner, host, elsewhere]) c.kill("SIGKILL");
    }
  });
});

describe("pipeline.yaml budget", () => {
  const withBudget = (yaml: string) => {
    const dir = tempDir();
    fs.cpSync(FIXTURE, dir, { recursive: true });
    fs.appendFileSync(path.join(dir, "pipeline.yaml"), yaml);
    return dir;
  };
  it("budget.tokens is read into the pipeline", () => {
    expect(readPipeline(withBudget("budget:\n  tokens: 500000\n")).pipeline.budget).toEqual({ tokens: 500000 });
    expect(readPipeline(FIXTURE).pipeline.budget).toBeUndefined();
  });
  it("a budget that is not a positive whole number, or an unknown key, is an error at its line", () => {
    for (const [yaml, re] of [
      ["budget:\n  tokens: 0\n", /pipeline\.yaml:\d+:\d+: error \S+ budget\.tokens:/],
      ["budget:\n  tokens: 1.5\n", /pipeline\.yaml:\d+:\d+: error \S+ budget\.tokens:/],
      ["budget:\n  dollars: 5\n", /pipeline\.yaml:\d+:\d+: error \S+ budget/],
    ] as const) {
      const dir = withBudget(yaml);
      expect(() => readPipeline(dir)).toThrow(re);
    }
  });
});
