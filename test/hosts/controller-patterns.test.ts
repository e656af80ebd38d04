// Claude Code 2.1.332, the real binary with the scripted model: the run controller holds a repair
// stage (pipeline.yaml `repair_for`, test/fixtures/repair): the review's verdict fails, the
// controller names the fixer as the only stage that may run and refuses the others, review runs
// again after the fix, and the run ends passed. And results handed back in final messages (artifacts
// with `kind: message`, test/fixtures/handoff): no file is asked for, and the review is judged by
// the Verdict line of its final message. Evidence: what the orchestrator got back and the run record.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { HOSTS } from "../../adapters/index.js";
import { build } from "../../src/commands/build.js";
import { hostBin, latestRunRecord } from "./helpers.js";
import { EMITTED_ROOT } from "./lib/emitted.js";
import { createHostEnv } from "./lib/env.js";
import { run } from "./lib/run.js";
import { startAnthropicStub, type Conversation, type ModelRequest, type Step } from "./lib/stubs.js";

const ROLES = path.join(__dirname, "..", "fixtures", "repair");
const HANDOFF = path.join(__dirname, "..", "fixtures", "handoff");

const agent = (role: string, prompt = `Do the ${role} stage.`): Step => ({ tool: "Agent", input: { description: `stage ${role}`, prompt, subagent_type: role, run_in_background: false } });
const again = (req: ModelRequest) => JSON.stringify(req.body.messages ?? "").includes("Review it again");

/** One headless `claude -p` run of a fixture pipeline's entry command with a scripted model. */
async function scripted(roles: string, prompt: string, script: (p: string) => Conversation[], check: (saw: string, rec: any, p: string, why: string) => void): Promise<void> {
  const out = path.join(EMITTED_ROOT, `${path.basename(roles)}-${process.pid}`);
  fs.rmSync(out, { recursive: true, force: true });
  expect(await build({ registry: HOSTS, roles, out, host: ["claude-code"], quiet: true })).toBe(0);
  const env = createHostEnv({ tree: path.join(out, "claude-code"), label: "pat" });
  const stub = await startAnthropicStub(script(env.project));
  Object.assign(env.env, { ANTHROPIC_BASE_URL: stub.baseUrl, ANTHROPIC_API_KEY: "sk-ant-harness-stub" });
  try {
    const r = await run(hostBin("claude-code"), ["-p", prompt, "--session-id", randomUUID(), "--output-format", "stream-json", "--verbose", "--permission-mode", "acceptEdits"], { cwd: env.project, env: env.env, timeoutMs: 240_000 });
    const saw = JSON.stringify(stub.log.filter((l) => l.conversation === "main" && l.request).map((l) => l.request!.body.messages));
    const why = `exit ${r.code}; stderr ${r.stderr.slice(-600)}\nstub: ${stub.log.map((l) => `${l.conversation ?? "-"}#${l.step}`).join(" ")}\ntool results:\n  | ${stub.toolResultTexts().map((t) => t.slice(0, 300)).join("\n  | ")}`;
    const rec = latestRunRecord(env.project);
    check(saw, rec, env.project, why);
  } finally {
    await stub.close();
    env.dispose();
    fs.rmSync(out, { recursive: true, force: true });
  }
}
const writeIn = (p: string, rel: string, content: string): Step => ({ tool: "Write", input: { file_path: path.join(p, rel), content } });

describe("claude-code: the run controller holds a repair stage", () => {
  it("claude-code: controller routes a failed review to the repair stage, then review again", async () => {
    await scripted(ROLES, "/mend add a", (p) => [
      { name: "coder", when: "You write code.", steps: [writeIn(p, "src/a.mjs", "export const a = 1;\n")], final: "Status: done (built)" },
      { name: "judge", when: "You review.", steps: [(req) => writeIn(p, ".mend/review.md", again(req) ? "# Review\nVerdict: approve\n" : "# Review\nVerdict: changes-required\n")], final: "Status: done (reviewed)" },
      { name: "fixer", when: "You fix what the review found.", steps: [writeIn(p, "src/a.mjs", "export const a = 2;\n")], final: "Status: done (fixed)" },
      { name: "writer", when: "You write docs.", steps: [writeIn(p, "src/doc.md", "# a\n")], final: "Status: done (docs)" },
      {
        name: "main",
        steps: [
          /* 0 */ { tool: "Bash", input: { command: ": harness kind feature", description: "declare the work kind" } },
          /* 1 */ agent("fixer"),
          /* 2 */ agent("coder"),
          /* 3 */ agent("judge"),
          /* 4 */ agent("writer"),
          /* 5 */ agent("fixer", "Fix what the review found."),
          /* 6 */ agent("writer"),
          /* 7 */ agent("judge", "Review it again."),
          /* 8 */ agent("writer"),
        ],
        final: "ORCHESTRATOR: handing over to the human",
      },
    ], (saw, rec, p, why) => {
      expect(saw, why).toMatch(/stage fix \(fixer\) refused: it is a repair stage: it runs only when a check after review sends the work to it/);
      expect(saw, why).toMatch(/stage review \(judge\) failed: the verdict in .mend\/review.md is fail.*May run now: stage fix \(fixer\), the repair of stage review/);
      expect(saw, why).toMatch(/stage docs \(writer\) refused: the repair stage fix \(fixer\) runs first/);
      expect(saw, why).toMatch(/stage docs \(writer\) refused: stage review \(judge\) must come first/);
      expect(rec.stages.map((x: { stage: string; status: string }) => `${x.stage}:${x.status}`), why).toEqual(["build:done", "review:failed", "fix:skipped", "docs:done", "fix:done", "review:done"]);
      expect(rec.caps.retries["review-approved"], why).toEqual({ used: 1, max: 2 });
      expect(rec.status, why).toBe("passed");
      expect(fs.readFileSync(path.join(p, "src/a.mjs"), "utf8")).toBe("export const a = 2;\n");
    });
  }, 600_000);
});

describe("claude-code: the run controller with results handed back in final messages", () => {
  for (const [verdict, outcome] of [["approve", "passed"], ["changes-required", "stopped"]] as const)
    it(`claude-code: controller asks no file of a message stage and judges the review by its final message (${verdict})`, async () => {
      await scripted(HANDOFF, "/relay change f", (p) => [
        { name: "scout", when: "You look around.", steps: [], final: "Status: done\nFindings: src/f.mjs:1 needs the change" },
        { name: "coder", when: "You write code.", steps: [writeIn(p, "src/f.mjs", "export const f = 2;\n")], final: "Status: done (built)" },
        { name: "judge", when: "You review.", steps: [], final: `Status: done\nVerdict: ${verdict}\nNotes: checked src/f.mjs` },
        { name: "main", steps: [{ tool: "Bash", input: { command: ": harness kind feature", description: "declare the work kind" } }, agent("scout"), agent("coder", "Findings: src/f.mjs:1 needs the change"), agent("judge")], final: "ORCHESTRATOR: handing over to the human" },
      ], (saw, rec, _p, why) => {
        expect(saw, why).toMatch(/stage scout \(scout\) done/);
        expect(rec.stages.map((x: { stage: string; status: string; verdict: string | null }) => `${x.stage}:${x.status}:${x.verdict}`), why).toEqual(["scout:done:null", "build:done:null", `review:${verdict === "approve" ? "done:pass" : "failed:fail"}`]);
        if (verdict !== "approve") expect(saw, why).toMatch(/stage review \(judge\) failed: the verdict in its final message is fail/);
        expect(rec.status, why).toBe(outcome);
      });
    }, 600_000);
});
