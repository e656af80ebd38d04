// A repair stage after review (pipeline.yaml `repair_for`): it validates, compiles on every host with
// the orchestrator told when it runs, and `harness run` follows it: review fails → fix → review again,
// capped by the check's retries (and the loop's rounds when both stages are in the loop).
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { HOSTS, HOST_IDS } from "../../adapters/index.js";
import { compileHost } from "../../src/compile.js";
import { formatDiagnostic, InputError } from "../../src/errors.js";
import { readPipeline } from "../../src/ir/normalize.js";
import type { PipelineIR } from "../../src/ir/types.js";
import { newRecord, planKind } from "../../src/run/plan.js";
import { Runner, type RunEvent } from "../../src/run/runner.js";
import { writeRecord, type RunRecord } from "../../src/runs/record.js";
import { ROOT, tempDir } from "../helpers/cli.js";
import { fakeHost, type FakeScript } from "./fake-host.js";

const FIXTURE = path.join(ROOT, "test/fixtures/repair");

function copy(edit: (pipelineYaml: string) => string = (t) => t): string {
  const dir = tempDir("harness-repair-");
  cpSync(FIXTURE, dir, { recursive: true });
  const p = path.join(dir, "pipeline.yaml");
  writeFileSync(p, edit(readFileSync(p, "utf8")));
  return dir;
}

function diagnostics(dir: string): string[] {
  try {
    const { warnings } = readPipeline(dir, { knownHosts: HOST_IDS, cwd: dir });
    return warnings.map(formatDiagnostic);
  } catch (error) {
    if (error instanceof InputError) return error.diagnostics.map(formatDiagnostic);
    throw error;
  }
}

async function run(pipeline: PipelineIR, script: FakeScript) {
  const root = tempDir("harness-repair-run-");
  execFileSync("git", ["init", "-q"], { cwd: root });
  const driver = fakeHost(root, script);
  const events: RunEvent[] = [];
  const record = newRecord({ id: "20261202T080000Z-a1b2c3", host: "fake", pipeline, request: "add ok", started: new Date(), budget: null });
  planKind(record, pipeline, "feature");
  const planned = record.stages.map((s) => s.stage);
  const runner = new Runner({ root, pipeline, driver, io: { tty: false, ask: async () => null, event: (e) => events.push(e) }, approve: new Set(), signal: new AbortController().signal, persist: (r: RunRecord) => void writeRecord(root, r) }, record);
  const end = await runner.drive(false);
  return { end, driver, planned };
}

const judge = (verdicts: string[]) => (c: { n: number }) => ({ write: { ".mend/review.md": `Verdict: ${verdicts[c.n] ?? "approve"}\n` }, text: `Status: done\nVerdict: ${verdicts[c.n] ?? "approve"}\nFinding: ${c.n}` });
const script = (verdicts: string[]): FakeScript => ({
  coder: () => ({ write: { "src/a.js": "a\n" }, text: "Status: done" }),
  judge: judge(verdicts),
  fixer: (c) => ({ write: { "src/a.js": `fixed ${c.n}\n` }, text: "Status: done" }),
  writer: () => ({ write: { "src/doc.md": "doc\n" }, text: "Status: done" }),
});

describe("a repair stage after review", () => {
  it("validates and compiles on every host; the orchestrator says when the repair stage runs and that review runs again", async () => {
    const dir = copy();
    expect(diagnostics(dir)).toEqual([]);
    const { pipeline } = readPipeline(dir, { knownHosts: HOST_IDS, cwd: dir });
    expect(pipeline.stages.find((s) => s.id === "fix")?.repairFor).toBe("review");
    for (const host of HOST_IDS) {
      const out = compileHost(pipeline, await HOSTS[host]!());
      const text = out.files.map((f) => f.content).join("\n");
      expect(text, host).toContain("A repair stage: run it only when a check after `review` sends the work here");
    }
  });

  it("rejects a forward route to a stage that is no repair stage of the failed one, and a misplaced repair stage", () => {
    const forward = copy((t) => t.replace("on_failure: fix", "on_failure: docs"));
    expect(diagnostics(forward)).toEqual([
      expect.stringMatching(/^pipeline\.yaml:\d+:17: error E_ROUTE_FORWARD checks\[0\]\.on_failure: on_failure sends work forward to "docs", past the failed stage\. Route to "review" or an earlier stage, or to "human"; for a stage that fixes what "review" found, add repair_for: review to stage "docs"\.$/),
      expect.stringMatching(/W_REPAIR_UNUSED stages\[2\]\.repair_for: no check sends work to the repair stage "fix"/),
    ]);
    const wrongTarget = copy((t) => t.replace("repair_for: review", "repair_for: build"));
    expect(diagnostics(wrongTarget)).toEqual([expect.stringMatching(/E_ROUTE_FORWARD checks\[0\]\.on_failure: on_failure sends work to the repair stage "fix", which repairs "build", not "review"\./)]);
    const before = copy((t) => t.replace("repair_for: review", "repair_for: docs"));
    expect(diagnostics(before)).toContainEqual(expect.stringMatching(/^pipeline\.yaml:24:17: error E_REPAIR_STAGE stages\[2\]\.repair_for: "fix" repairs "docs", which does not run before it\./));
    const main = copy();
    writeFileSync(path.join(main, "fixer.md"), readFileSync(path.join(main, "fixer.md"), "utf8").replace("isolation: subagent", "isolation: main"));
    expect(diagnostics(main)).toContainEqual(expect.stringMatching(/E_REPAIR_STAGE stages\[2\]\.repair_for: a repair stage runs in a session of its own, but role "fixer" runs in the orchestrator's \(isolation: main\)\. Use a role with isolation: subagent\.$/));
    const unknown = copy((t) => t.replace("repair_for: review", "repair_for: reveiw"));
    expect(diagnostics(unknown)).toContainEqual(expect.stringMatching(/E_UNKNOWN_STAGE stages\[2\]\.repair_for: repair_for "reveiw" is no stage\. Did you mean "review"\?/));
  });

  it("harness run: a failing review goes to the fixer, then review runs again and the run goes on", async () => {
    const { pipeline } = readPipeline(copy(), { knownHosts: HOST_IDS });
    const { end, driver, planned } = await run(pipeline, script(["changes-required"]));
    expect(planned).toEqual(["build", "review", "docs"]); // the repair stage is no step of the plan
    expect(end.status).toBe("passed");
    expect(driver.calls.map((c) => c.role)).toEqual(["coder", "judge", "fixer", "judge", "writer"]);
    expect(end.stages.map((s) => `${s.stage}:${s.status}`)).toEqual(["build:done", "review:failed", "fix:done", "review:done", "docs:done"]);
    const fixer = driver.calls.find((c) => c.role === "fixer")!;
    expect(fixer.prompt).toMatch(/review-approved" failed after the review stage[\s\S]*verdict changes-required[\s\S]*review runs again after you/);
    expect(end.caps.retries["review-approved"]).toEqual({ used: 1, max: 2 });
  });

  it("harness run: the check's retries cap the repairs", async () => {
    const { pipeline } = readPipeline(copy(), { knownHosts: HOST_IDS });
    const { end, driver } = await run(pipeline, script(["changes-required", "changes-required", "changes-required"]));
    expect(end.status).toBe("stopped");
    expect(driver.calls.map((c) => c.role)).toEqual(["coder", "judge", "fixer", "judge", "fixer", "judge"]);
    expect(end.ending).toMatch(/review-approved still fails after 2 retries/);
    // the second repair continues the fixer's session
    const fixes = driver.calls.filter((c) => c.role === "fixer");
    expect(fixes[1]!.resume).toBe(fixes[0]!.session);
  });

  it("harness run: with review and fix in a loop, the loop's rounds cap the repairs too", async () => {
    const dir = copy((t) => t.replace("policies:", "loop:\n  stages: [review, fix]\n  max_rounds: 2\n  on_exhausted: Hand over after two rounds.\npolicies:"));
    const { pipeline } = readPipeline(dir, { knownHosts: HOST_IDS });
    const { end, driver } = await run(pipeline, script(["changes-required", "changes-required", "changes-required"]));
    expect(end.status).toBe("stopped");
    expect(driver.calls.map((c) => c.role)).toEqual(["coder", "judge", "fixer", "judge"]);
    expect(end.ending).toMatch(/round 2 of 2: Hand over after two rounds/);
  });
});
