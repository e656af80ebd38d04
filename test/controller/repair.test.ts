// The generated run controller (Claude Code's) holds a repair stage (pipeline.yaml `repair_for`): a
// failed review sends the work to the fixer, only the fixer may run then, review runs again after
// it, a repair stage never runs on its own, and the check's retries cap the repairs.
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { HOST_IDS } from "../../adapters/index.js";
import { readPipeline } from "../../src/ir/normalize.js";
import { denied, reason, Scene } from "./helpers.js";

const MEND = readPipeline(path.join(__dirname, "..", "fixtures", "repair"), { knownHosts: HOST_IDS }).pipeline;
const REVIEW = ".mend/review.md";

let scenes: Scene[] = [];
afterEach(() => {
  for (const s of scenes) s.cleanup();
  scenes = [];
});
function reviewed(): Scene {
  const s = new Scene(undefined, {}, MEND);
  scenes.push(s);
  s.prompt("/mend add a");
  s.pre("Bash", { command: ": harness kind feature" });
  expect(denied(s.stage("coder", { "src/a.js": "a\n" }).spawn)).toBe(false);
  return s;
}
type Rec = { status: string; stages: { stage: string; status: string }[]; caps: { retries: Record<string, { used: number; max: number }> } };

describe("run controller: a repair stage", () => {
  it("routes a failed review to the fixer, refuses anything else meanwhile, then runs review again", () => {
    const s = reviewed();
    expect(reason(s.spawn("fixer"))).toMatch(/stage fix \(fixer\) refused: it is a repair stage: it runs only when a check after review sends the work to it/);
    const failed = s.stage("judge", { [REVIEW]: "Verdict: changes-required\n" });
    expect(String(failed.post?.out?.reason)).toMatch(/stage review \(judge\) failed.*May run now: stage fix \(fixer\), the repair of stage review/);
    expect(reason(s.spawn("writer"))).toMatch(/refused: the repair stage fix \(fixer\) runs first/);
    expect(reason(s.spawn("judge"))).toMatch(/refused: the repair stage fix \(fixer\) runs first/);
    const fix = s.stage("fixer", { "src/a.js": "fixed\n" });
    expect(denied(fix.spawn)).toBe(false);
    expect(reason(fix.post!)).toMatch(/stage fix \(fixer\) done.*May run now: stage review \(judge\)/);
    expect(reason(s.spawn("writer"))).toMatch(/stage review \(judge\) must come first/);
    expect(denied(s.stage("judge", { [REVIEW]: "Verdict: approve\n" }).spawn)).toBe(false);
    expect(denied(s.stage("writer", { "src/doc.md": "d\n" }).spawn)).toBe(false);
    s.hook("Stop", {});
    const rec = s.record() as Rec;
    // the plan's entries (the repair stage's skipped until routed to), then the repair and the second review
    expect(rec.stages.map((x) => `${x.stage}:${x.status}`)).toEqual(["build:done", "review:failed", "fix:skipped", "docs:done", "fix:done", "review:done"]);
    expect(rec.status).toBe("passed");
  });

  it("stops the run when the repairs use up the check's retries", () => {
    const s = reviewed();
    for (let i = 0; i < 2; i++) {
      s.stage("judge", { [REVIEW]: "Verdict: changes-required\n" });
      expect(denied(s.stage("fixer", { "src/a.js": `fix ${i}\n` }).spawn)).toBe(false);
    }
    const last = s.stage("judge", { [REVIEW]: "Verdict: changes-required\n" });
    expect(String(last.post?.out?.reason)).toMatch(/stage review \(judge\) failed/);
    expect(reason(s.spawn("fixer"))).toContain("the run is stopped for the human");
    const rec = s.record() as Rec;
    expect(rec.status).toBe("stopped");
    expect(rec.caps.retries["review-approved"]).toEqual({ used: 2, max: 2 });
  });
});
