// The generated run controller (Claude Code's) with results handed back in final messages (kind:
// message): no file is asked for at stage end, and a review that hands back its notes is judged by
// the Verdict line of its final message.
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { HOST_IDS } from "../../adapters/index.js";
import { compileControllerModel } from "../../src/adapter/controller/model.js";
import { readPipeline } from "../../src/ir/normalize.js";
import { denied, reason, Scene } from "./helpers.js";

const RELAY = readPipeline(path.join(__dirname, "..", "fixtures", "handoff"), { knownHosts: HOST_IDS }).pipeline;

let scenes: Scene[] = [];
afterEach(() => {
  for (const s of scenes) s.cleanup();
  scenes = [];
});
function built(): Scene {
  const s = new Scene(undefined, {}, RELAY);
  scenes.push(s);
  s.prompt("/relay change f");
  s.pre("Bash", { command: ": harness kind feature" });
  const scout = s.stage("scout", {}, "Status: done\nFindings: src/f.js:3");
  expect(reason(scout.post!)).toMatch(/stage scout \(scout\) done/); // no file to check
  expect(denied(s.stage("coder", { "src/a.js": "a\n" }).spawn)).toBe(false);
  return s;
}

describe("run controller: message handoffs", () => {
  it("compiles the review's judgement to its final message, with no document", () => {
    const review = compileControllerModel(RELAY).stages.find((x) => x.id === "review")!;
    expect(review).toMatchObject({ docs: [], verdictMsg: 1 });
    expect(review.verdictDoc).toBeUndefined();
  });

  it("passes a review whose final message says Verdict: approve, and the run ends passed", () => {
    const s = built();
    const review = s.stage("judge", {}, "Status: done\nVerdict: approve\nNotes: fine");
    expect(reason(review.post!)).toMatch(/stage review \(judge\) done.*verdict pass/);
    s.hook("Stop", {});
    expect((s.record() as { status: string }).status).toBe("passed");
  });

  it("fails the review on Verdict: changes-required or on no verdict line in its final message", () => {
    const s = built();
    const review = s.stage("judge", {}, "Status: done\nVerdict: changes-required");
    expect(String(review.post?.out?.reason)).toMatch(/stage review \(judge\) failed: the verdict in its final message is fail/);
    const t = built();
    const none = t.stage("judge", {}, "Status: done\nLooks fine to me");
    expect(String(none.post?.out?.reason)).toMatch(/its final message has no verdict line/);
  });
});
