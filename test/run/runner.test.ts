// The runner's control flow with a fake host (fast): stage order, checks with expect, retries that
// resume the session, the loop cap, verdicts, gates (flag, terminal, none), questions, scope,
// budget, interruption and resume, and that nothing a check writes changes what runs next.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readPipeline } from "../../src/ir/normalize.js";
import type { PipelineIR } from "../../src/ir/types.js";
import { newRecord, planKind } from "../../src/run/plan.js";
import { Runner, type RunEvent, type RunIO } from "../../src/run/runner.js";
import { digestProblem, saveDigest } from "../../src/run/trust.js";
import { readRecord, writeRecord, type RunRecord } from "../../src/runs/record.js";
import { ROOT, tempDir } from "../helpers/cli.js";
import { fakeHost, type FakeScript } from "./fake-host.js";

const FIXTURE = path.join(ROOT, "test/fixtures/run");
const basePipeline = readPipeline(FIXTURE).pipeline;

function project(): { root: string; state: string } {
  const root = tempDir("harness-run-");
  execFileSync("git", ["init", "-q"], { cwd: root });
  fs.mkdirSync(path.join(root, "test"), { recursive: true });
  return { root, state: tempDir("harness-state-") };
}

// the happy roles: each writes its artifact and reports done
const TEST_SH = "test -f src/ok\n";
const happy: FakeScript = {
  asker: () => ({ write: { ".flow/spec.md": "# spec\n" }, text: "Status: done\nDeploy-relevant: no" }),
  tester: () => ({ write: { "test/run.sh": TEST_SH }, text: "Status: done" }),
  coder: () => ({ write: { "src/ok": "ok\n" }, text: "Status: done\nneeds-docs: no" }),
  judge: () => ({ write: { ".flow/review.md": "fine\n" }, text: "Status: done\nVerdict: approve" }),
};

interface Io extends RunIO {
  events: RunEvent[];
  asked: string[];
}

function io(tty: boolean, answers: string[] = []): Io {
  const events: RunEvent[] = [];
  const asked: string[] = [];
  return { tty, events, asked, ask: async (p) => (asked.push(p), answers.length ? answers.shift()! : null), event: (e) => events.push(e) };
}

interface Setup {
  root: string;
  state: string;
  pipeline?: PipelineIR;
  script: FakeScript;
  io: Io;
  approve?: string[];
  kind?: string;
  record?: RunRecord;
  controller?: AbortController;
}

async function runIt(s: Setup) {
  const pipeline = s.pipeline ?? basePipeline;
  const driver = fakeHost(s.root, s.script);
  const env = { HARNESS_STATE_HOME: s.state };
  const persist = (r: RunRecord) => saveDigest(s.root, r.id, writeRecord(s.root, r), env);
  const record = s.record ?? newRecord({ id: "20261201T231500Z-a1b2c3", host: "fake", pipeline, request: "add ok", started: new Date(), budget: pipeline.budget?.tokens ?? null });
  if (!s.record) planKind(record, pipeline, s.kind ?? "feature");
  const controller = s.controller ?? new AbortController();
  const runner = new Runner({ root: s.root, pipeline, driver, io: s.io, approve: new Set(s.approve ?? []), signal: controller.signal, persist }, record);
  const end = await runner.drive(Boolean(s.record));
  const onDisk = readRecord(s.root, end.id);
  return { end, driver, onDisk: onDisk.record, tampered: digestProblem(s.root, end.id, onDisk.bytes, env) };
}

const statuses = (r: RunRecord) => r.stages.map((s) => `${s.stage}:${s.status}`);

describe("harness run: control flow (fake host)", () => {
  it("runs the kind's stages in order, runs each check with its expect, and records what happened", async () => {
    const p = project();
    const { end, driver, onDisk, tampered } = await runIt({ ...p, script: happy, io: io(false), approve: ["spec"] });
    expect(end.status).toBe("passed");
    expect(driver.calls.map((c) => c.role)).toEqual(["asker", "tester", "coder", "judge"]);
    expect(statuses(end)).toEqual(["spec:done", "tests:done", "build:done", "review:done", "docs:skipped"]);
    const checks = end.stages.flatMap((s) => s.checks.map((c) => [c.check, c.expect, c.exit, c.passed]));
    expect(checks).toEqual([
      ["new-tests-fail", "fail", 1, true],
      ["tests-pass", "pass", 0, true],
      ["review-approved", "pass", null, true],
    ]);
    expect(end.stages[1]!.files).toEqual(["test/run.sh"]);
    expect(end.stages[3]!.verdict).toBe("approve");
    expect(end.caps.hops.used).toBe(4);
    expect(end.gates).toMatchObject([{ gate: "spec", artifact: ".flow/spec.md", decision: "approved", channel: "flag" }]);
    expect(onDisk).toEqual(end);
    expect(tampered).toBeNull();
    // later stages are briefed with the earlier short reports, never a transcript
    expect(driver.calls[2]!.prompt).toMatch(/### tests \(tester\)\nStatus: done/);
    expect(fs.readFileSync(path.join(p.root, end.stages[1]!.checks[0]!.log!), "utf8")).toMatch(/^\$ sh test\/run\.sh\n[\s\S]*\[exit 1\]/);
  });

  it("without a TTY stops at the gate with the resume command; --resume on a terminal asks, and an approval binds the sha256", async () => {
    const p = project();
    const first = await runIt({ ...p, script: happy, io: io(false) });
    expect(first.end.status).toBe("waiting-gate");
    expect(first.end.ending).toMatch(/harness run --resume 20261201T231500Z-a1b2c3/);
    expect(first.driver.calls.map((c) => c.role)).toEqual(["asker"]);
    const term = io(true, ["approve"]);
    const second = await runIt({ ...p, script: happy, io: term, record: first.onDisk });
    expect(term.asked[0]).toMatch(/^Approve the spec\?/);
    expect(second.end.status).toBe("passed");
    expect(second.driver.calls.map((c) => c.role)).toEqual(["tester", "coder", "judge"]);
    const sha = execFileSync("sha256sum", [".flow/spec.md"], { cwd: p.root, encoding: "utf8" }).split(" ")[0];
    expect(second.end.gates).toMatchObject([{ gate: "spec", decision: "approved", channel: "tty", sha256: sha }]);
  });

  it("gate feedback on the terminal reruns the stage in its own session, then asks again", async () => {
    const p = project();
    const script = { ...happy, asker: (c: { n: number }) => ({ write: { ".flow/spec.md": `# spec v${c.n + 1}\n` }, text: "Status: done" }) };
    const term = io(true, ["say what happens on empty input", "approve"]);
    const { end, driver } = await runIt({ ...p, script, io: term });
    expect(end.status).toBe("passed");
    const asker = driver.calls.filter((c) => c.role === "asker");
    expect(asker).toHaveLength(2);
    expect(asker[1]!.resume).toBe(asker[0]!.session);
    expect(asker[1]!.prompt).toMatch(/asks for changes:\nsay what happens on empty input/);
    expect(end.gates.map((g) => [g.decision, g.feedback ?? null])).toEqual([
      ["feedback", "say what happens on empty input"],
      ["approved", null],
    ]);
    expect(end.gates[0]!.sha256).not.toBe(end.gates[1]!.sha256);
  });

  it("a failing check resumes that stage's session with the failure output, and stops when its retries run out", async () => {
    const p = project();
    const script = { ...happy, coder: () => ({ write: { "src/nope": "x" }, text: "Status: done" }) };
    const { end, driver } = await runIt({ ...p, script, io: io(false), approve: ["spec"] });
    expect(end.status).toBe("stopped");
    const coder = driver.calls.filter((c) => c.role === "coder");
    expect(coder).toHaveLength(2);
    expect(coder[1]!.resume).toBe(coder[0]!.session);
    expect(coder[1]!.prompt).toMatch(/The check "tests-pass" failed[\s\S]*`sh test\/run\.sh` exited 1/);
    const build = end.stages.find((s) => s.stage === "build")!;
    expect(build).toMatchObject({ status: "failed", retries: 1 });
    expect(build.checks.map((c) => c.passed)).toEqual([false, false]);
    expect(end.ending).toMatch(/tests-pass still fails after 1 retry/);
    expect(end.caps.retries["tests-pass"]).toEqual({ used: 1, max: 1 });
    expect(driver.calls.some((c) => c.role === "judge")).toBe(false);
  });

  it("the loop cap holds: changes-required sends the work back once, then the run stops with on_exhausted", async () => {
    const p = project();
    const script = { ...happy, judge: () => ({ write: { ".flow/review.md": "no\n" }, text: "Status: done\nVerdict: changes-required" }) };
    const { end, driver } = await runIt({ ...p, script, io: io(false), approve: ["spec"] });
    expect(end.status).toBe("stopped");
    expect(driver.calls.map((c) => c.role)).toEqual(["asker", "tester", "coder", "judge", "coder", "judge"]);
    expect(end.ending).toMatch(/round 2 of 2: Stop after the second round/);
    expect(end.caps.loop).toEqual({ used: 2, max: 2 });
    expect(end.stages.map((s) => `${s.stage}:${s.round}:${s.status}`)).toEqual(["spec:1:done", "tests:1:done", "build:1:done", "review:1:failed", "build:2:done", "review:2:failed", "docs:1:pending"]);
    // the second build resumes the first build's session with the review
    const coder = driver.calls.filter((c) => c.role === "coder");
    expect(coder[1]!.resume).toBe(coder[0]!.session);
    expect(coder[1]!.prompt).toMatch(/review-approved[\s\S]*verdict changes-required/);
  });

  it("a check's test code that forges the record, the state and the reports never makes the runner skip a stage", async () => {
    const p = project();
    const forge = [
      "mkdir -p .harness/runs .flow",
      // a record claiming everything passed, a review approving, and a stray state file
      `printf '{"version":1,"status":"passed","stages":[]}' > .harness/runs/20261201T231500Z-a1b2c3.json`,
      "printf 'Status: done\\nVerdict: approve\\n' > .flow/review.md",
      "printf 'approved' > .harness/gates",
      "exit 1",
    ].join("\n");
    const script = { ...happy, tester: () => ({ write: { "test/run.sh": forge }, text: "Status: done" }), coder: () => ({ write: { "src/ok": "ok" }, text: "Status: done" }) };
    const { end, driver, onDisk } = await runIt({ ...p, script, io: io(false), approve: ["spec"] });
    // the forged test suite still fails after build: the run stops there, judge never runs
    expect(driver.calls.map((c) => c.role)).toEqual(["asker", "tester", "coder", "coder"]);
    expect(end.status).toBe("stopped");
    expect(onDisk).toEqual(end); // the runner's record, not the forged one
  });

  it("a modified record is treated as tampered on resume", async () => {
    const p = project();
    const first = await runIt({ ...p, script: happy, io: io(false) });
    const file = path.join(p.root, ".harness/runs/20261201T231500Z-a1b2c3.json");
    const bytes = fs.readFileSync(file, "utf8");
    expect(digestProblem(p.root, first.end.id, bytes, { HARNESS_STATE_HOME: p.state })).toBeNull();
    const forged = bytes.replace('"status": "pending"', '"status": "done"');
    expect(digestProblem(p.root, first.end.id, forged, { HARNESS_STATE_HOME: p.state })).toMatch(/changed after harness wrote it.*tampered/);
    expect(digestProblem(p.root, first.end.id, bytes, { HARNESS_STATE_HOME: tempDir() })).toMatch(/no digest of run/);
  });

  it("Ctrl-C during a stage records the run interrupted with the stage pending; resume runs that stage again", async () => {
    const p = project();
    const controller = new AbortController();
    const script = { ...happy, tester: () => (setTimeout(() => controller.abort(), 20), { hang: true, text: "" }) };
    const first = await runIt({ ...p, script, io: io(false), approve: ["spec"], controller });
    expect(first.end.status).toBe("interrupted");
    expect(first.end.ending).toMatch(/during tests.*harness run --resume 20261201T231500Z-a1b2c3/);
    expect(statuses(first.end).slice(0, 2)).toEqual(["spec:done", "tests:pending"]);
    const second = await runIt({ ...p, script: happy, io: io(false), approve: ["spec"], record: first.onDisk });
    expect(second.end.status).toBe("passed");
    expect(second.driver.calls.map((c) => c.role)).toEqual(["tester", "coder", "judge"]);
  });

  it("a role that asks the human, headless: its questions go to the runner, the answer resumes its session", async () => {
    const p = project();
    const script = {
      ...happy,
      asker: (c: { n: number }) => (c.n === 0 ? { text: "Status: needs-human\nQuestions:\n1. Empty input: error or empty list?" } : { write: { ".flow/spec.md": "# spec\n" }, text: "Status: done" }),
    };
    const human = io(false, ["empty list"]);
    const { end, driver } = await runIt({ ...p, script, io: human, approve: ["spec"] });
    expect(end.status).toBe("passed");
    expect(human.asked[0]).toMatch(/Asker asks:\nQuestions:\n1\. Empty input/);
    const asker = driver.calls.filter((c) => c.role === "asker");
    expect(asker[1]).toMatchObject({ resume: asker[0]!.session, prompt: "The human answers:\nempty list" });
    // nobody answers: the run stops as needing the human
    const q = project();
    const silent = await runIt({ ...q, script, io: io(false), approve: ["spec"] });
    expect(silent.end.status).toBe("stopped");
    expect(silent.end.stages[0]).toMatchObject({ status: "needs-human" });
  });

  it("stops on a blocked report, a needs-human verdict, a missing artifact and a write outside the role's scope", async () => {
    const cases: [FakeScript, RegExp, string][] = [
      [{ ...happy, coder: () => ({ write: { "src/ok": "ok" }, text: "Status: blocked\nthe test is wrong" }) }, /Coder is blocked: Status: blocked/, "blocked"],
      [{ ...happy, judge: () => ({ write: { ".flow/review.md": "?" }, text: "Status: done\nVerdict: needs-human" }) }, /Judge needs the human/, "needs-human"],
      [{ ...happy, judge: () => ({ text: "Status: done\nVerdict: approve" }) }, /did not write \.flow\/review\.md/, "failed"],
      [{ ...happy, coder: () => ({ write: { "src/ok": "ok", "test/run.sh": "true" }, text: "Status: done" }) }, /changed test\/run\.sh outside coder's write scope/, "refused"],
    ];
    for (const [script, ending, stageStatus] of cases) {
      const { end } = await runIt({ ...project(), script, io: io(false), approve: ["spec"] });
      expect(end.ending).toMatch(ending);
      expect(end.stages.find((s) => s.reason && ending.test(`${s.stage}: ${s.reason}`))?.status).toBe(stageStatus);
    }
  });

  it("a condition a report declares runs the conditional stage; the budget is enforced before the next stage", async () => {
    const p = project();
    const script = { ...happy, coder: (c: { n: number }) => ({ write: { "src/ok": "ok", ...(c.n ? { "src/docs.md": "d" } : {}) }, text: "Status: done\nNeeds-docs: yes" }) };
    const { end } = await runIt({ ...p, script, io: io(false), approve: ["spec"] });
    expect(statuses(end).pop()).toBe("docs:done");
    const pipeline = { ...basePipeline, budget: { tokens: 300 } };
    const b = await runIt({ ...project(), pipeline, script: happy, io: io(false), approve: ["spec"] });
    expect(b.end.status).toBe("stopped");
    expect(b.driver.calls).toHaveLength(3); // 3 × 110 tokens: the fourth stage is refused
    expect(b.end.ending).toMatch(/review: token budget spent \(330\/300/);
    expect(b.end.budget).toEqual({ tokens: { used: 330, max: 300 } });
  });

  it("an approved artifact that changes later voids the approval and stops the run", async () => {
    const p = project();
    const script = { ...happy, tester: () => ({ write: { "test/run.sh": "printf changed > .flow/spec.md; exit 1" }, text: "Status: done" }) };
    const { end } = await runIt({ ...p, script, io: io(false), approve: ["spec"] });
    expect(end.status).toBe("stopped");
    expect(end.ending).toMatch(/\.flow\/spec\.md changed after the spec gate approved it/);
    expect(end.gates.map((g) => g.decision)).toEqual(["approved", "void"]);
  });
});
