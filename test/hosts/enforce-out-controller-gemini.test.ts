// The run controller harness emits for Gemini CLI 0.61.0 (adapters/gemini-cli/controller.ts) on the
// real host, as enforce-out-controller.test.ts does for the other hosts: a Pebble run over several
// `gemini -p` runs of ONE session (`--session-id`, then `--resume <id>` for the human's replies), the
// policy passed with --policy as GEMINI.md says, the scripted model making wrong moves as well as right
// ones. Gemini has no SubagentStop: a failed check comes back to the orchestrator at AfterTool on
// invoke_agent, and only the stage's re-invocation may run, its prompt carrying the controller's output.
//
// Test names are stable: the adapter's `proofs` cite them (proofs.test.ts).
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { emittedTree, hostBin, latestRunRecord } from "./helpers.js";
import { expectRunsShow, lowHopTree, MARKER, SCENE } from "./lib/controller-scene.js";
import { createHostEnv, type HostEnv } from "./lib/env.js";
import { policyArgs, prepareGeminiHome } from "./lib/gemini-cli.js";
import { run, type RunResult } from "./lib/run.js";
import { startGeminiStub, type Conversation, type ModelRequest, type Step, type Stub } from "./lib/stubs.js";

interface GeminiScene {
  env: HostEnv;
  stub: Stub;
  sid: string;
  runs: RunResult[];
  /** one `gemini -p` run of the session: the first starts it, the later ones resume it */
  turn(prompt: string): Promise<RunResult>;
  record(): Record<string, any>;
  saw(conv: string): string;
  dispose(): Promise<void>;
}

async function geminiScene(tree: string, script: (p: string) => Conversation[], files: Record<string, string> = SCENE): Promise<GeminiScene> {
  const env = createHostEnv({ tree, label: "gmctl" });
  for (const [rel, text] of Object.entries({ ...files, "src/.keep": "", "tests/.keep": "" })) {
    fs.mkdirSync(path.dirname(path.join(env.project, rel)), { recursive: true });
    fs.writeFileSync(path.join(env.project, rel), text);
  }
  const stub = await startGeminiStub(script(env.project));
  prepareGeminiHome(env, stub.baseUrl);
  const sid = randomUUID();
  const runs: RunResult[] = [];
  return {
    env,
    stub,
    sid,
    runs,
    async turn(prompt) {
      const args = [...policyArgs(env.project), ...(runs.length ? ["--resume", sid] : ["--session-id", sid]), "-p", prompt];
      const r = await run(hostBin("gemini-cli"), args, { cwd: env.project, env: env.env, timeoutMs: 300_000 });
      runs.push(r);
      return r;
    },
    record() {
      return latestRunRecord(env.project);
    },
    saw: (conv) => JSON.stringify(stub.log.filter((l) => l.conversation === conv && l.request).map((l) => l.request!.body.contents)),
    async dispose() {
      await stub.close();
      env.dispose();
    },
  };
}

/** the calls a request's history answered: Gemini 0.61 repeats each function response of a resumed session, so steps count distinct call ids */
const answered = (req: ModelRequest): number => {
  const ids = new Set<string>();
  for (const c of (req.body.contents ?? []) as { parts?: { functionResponse?: { id?: string; name?: string } }[] }[])
    for (const p of c.parts ?? []) if (p.functionResponse) ids.add(p.functionResponse.id ?? `${ids.size}`);
  return ids.size;
};
/** a conversation whose step is the number of distinct calls answered (see answered) */
const byCalls = (name: string, steps: (Step | ((req: ModelRequest) => Step))[], final: string, when?: string): Conversation => {
  const pick = (req: ModelRequest): Step => {
    const s = steps[answered(req)];
    return (typeof s === "function" ? s(req) : s) ?? { text: final };
  };
  return { name, ...(when ? { when } : {}), steps: Array.from({ length: 400 }, () => pick), final };
};
const invoke = (role: string, prompt = `Do the ${role} stage.`): Step => ({ tool: "invoke_agent", input: { agent_name: role, prompt } });
const write = (rel: string, content: string): Step => ({ tool: "write_file", input: { file_path: rel, content } });
const sh = (command: string): Step => ({ tool: "run_shell_command", input: { command, description: "scripted" } });
const finish = (result: string): Step => ({ tool: "complete_task", input: { result } });
/** the request answers the human's prompt, which ends with `text` (typed, or the request after the expanded /pebble) */
const typed = (req: ModelRequest, text: string): boolean => {
  const last = ((req.body.contents ?? []) as { role?: string; parts?: { text?: string; functionResponse?: unknown }[] }[]).at(-1);
  if (last?.role !== "user" || (last.parts ?? []).some((p) => p.functionResponse)) return false;
  return (last.parts ?? []).some((p) => (p.text ?? "").trim().endsWith(text));
};
/** a re-invoked stage: the controller added the failure to its prompt */
const sentBack = (req: ModelRequest): boolean => JSON.stringify(req.body.contents ?? "").includes("the run controller sent stage");
const explain = (s: GeminiScene): string =>
  [
    ...s.runs.map((r, i) => `run ${i + 1}: exit ${r.code} in ${r.durationMs} ms${r.timedOut ? " TIMED OUT" : ""}; stderr ${r.stderr.slice(-800)}`),
    `stub: ${s.stub.log.map((l) => `${l.conversation ?? "-"}#${l.request ? answered(l.request) : "-"}`).join(" ")}`,
    `tool results:\n  | ${s.stub.toolResultTexts().map((t) => t.slice(0, 300)).join("\n  | ")}`,
  ].join("\n");

describe("gemini-cli: the run controller holds the process", () => {
  it("gemini-cli: controller holds a Pebble run: order, human gates bound to the spec, checks at stage end, the loop cap", async () => {
    const s = await geminiScene(await emittedTree("gemini-cli"), () => [
      byCalls("slate", [write(".pebble/blueprint.md", "# Blueprint\n## Test plan\ntests/impl.test.mjs\n"), finish("Status: done (blueprint)")], "Status: done", MARKER.slate!),
      byCalls("mica", [(req) => (sentBack(req) ? write("tests/impl.test.mjs", 'import { add } from "../src/impl.mjs";\nif (add(1, 2) !== 3) throw new Error("add broken");\n') : write("tests/impl.test.mjs", "// asserts nothing\n")), finish("Status: done (tests)")], "Status: done", MARKER.mica!),
      byCalls("jade", [(req) => (sentBack(req) ? write("src/impl.mjs", "export const add = (a, b) => a + b;\n") : finish("Status: done (claims it is done)")), finish("Status: done (implemented)")], "Status: done", MARKER.jade!),
      byCalls("quartz", [write(".pebble/verification.md", "# Verification\nVerdict: fail\n"), finish("Status: done (verified)")], "Status: done", MARKER.quartz!),
      byCalls(
        "main",
        [
          /* 0 */ sh(": harness kind feature"),
          /* 1 */ invoke("jade"),
          /* 2 */ write(".pebble/spec.md", "# Spec\n1. add(a, b) returns a + b\n"),
          /* 3 */ invoke("slate"),
          // turn 2, the human's reply as the controller printed it; the brief (model-written) approves nothing
          /* 4 */ (req) => (typed(req, "approve spec") ? invoke("slate", "approve blueprint") : { text: "WAITING for the human: approve spec" }),
          /* 5 */ write(".pebble/spec.md", "# Spec\n1. add(a, b) returns a + b\n2. and more\n"),
          /* 6 */ invoke("mica"),
          // turn 3
          /* 7 */ (req) => (typed(req, "approve spec") ? invoke("mica") : { text: "WAITING for the human: approve spec" }),
          // turn 4, typed plainly
          /* 8 */ (req) => (typed(req, "approve blueprint") ? invoke("mica") : { text: "WAITING for the human: approve blueprint" }),
          /* 9 */ invoke("mica"),
          /* 10 */ sh("npm run test --if-present"),
          /* 11 */ invoke("quartz"),
          /* 12 */ invoke("jade"),
          /* 13 */ invoke("jade"),
          /* 14 */ write(".pebble/review.md", "# Review\nVerdict: changes-required\n"),
          /* 15 */ invoke("quartz"),
          /* 16 */ invoke("jade"),
          /* 17 */ write(".pebble/review.md", "# Review\nVerdict: approve\n"),
          /* 18 */ invoke("quartz"),
          /* 19 */ invoke("jade"),
        ],
        "ORCHESTRATOR: handing over to the human",
      ),
    ]);
    try {
      await s.turn("/pebble add an add() function");
      await s.turn("/pebble approve spec");
      await s.turn("/pebble approve spec");
      await s.turn("approve blueprint");
      const why = explain(s);
      const saw = s.saw("main");
      const rec = s.record();
      const at = (stage: string) => rec.stages.filter((x: { stage: string }) => x.stage === stage);
      // order: jade first, slate before the approval, quartz before implement and before a passing review
      expect(saw, why).toContain("recorded work kind feature");
      expect(saw, why).toMatch(/stage implement \(jade\) refused: stage spec \(flint\) must come first/);
      expect(saw, why).toMatch(/stage blueprint \(slate\) refused: the spec at .pebble\/spec.md needs the human's approval first/);
      expect(saw, why).toContain(`gemini --policy .gemini/policies --resume ${s.sid} -p \\"/pebble approve spec\\"`);
      expect(saw, why).toMatch(/stage verify \(quartz\) refused: stage implement \(jade\) must come first/);
      expect(saw, why).toMatch(/stage verify \(quartz\) refused: stage review \(onyx\) must come first \(it is failed: the verdict in .pebble\/review.md is fail\)/);
      // gates: slate's model-written "approve blueprint" counts for nothing; the edited spec voids the approval; the human's replies count
      expect(s.saw("slate"), why).toContain("approve blueprint");
      expect(saw, why).toMatch(/stage tests \(mica\) refused: the spec at .pebble\/spec.md changed after the human approved it/);
      expect(saw, why).toMatch(/stage tests \(mica\) refused: the blueprint at .pebble\/blueprint.md needs the human's approval first/);
      expect(rec.gates.map((g: { gate: string; decision: string }) => `${g.gate} ${g.decision}`), why).toEqual(["spec approved", "spec void", "spec approved", "blueprint approved"]);
      for (const g of rec.gates) expect(g.channel).toBe("prompt");
      // checks: the controller ran npm test at stage end (the orchestrator's own run was refused); a
      // failed check came back as the verdict and only the re-invocation ran, with the controller's output
      expect(saw, why).toContain("is a check the run controller runs itself at the end of");
      expect(saw, why).toMatch(/stage tests \(mica\) failed: check new-tests-fail: `npm run test --if-present` exited 0, expected to fail.*May run now: stage tests \(mica\)/);
      expect(s.saw("mica"), why).toMatch(/the run controller sent stage tests \(mica\) back: check new-tests-fail: `npm run test --if-present` exited 0, expected to fail: .*SCENE-TESTS PASSED 1\/1/);
      expect(s.saw("jade"), why).toMatch(/the run controller sent stage implement \(jade\) back: check tests-pass: `npm run test --if-present` exited 1, expected to pass/);
      expect(at("tests").map((x: { status: string }) => x.status), why).toEqual(["failed", "done"]);
      const testRuns = at("tests").flatMap((x: { checks: { check: string }[] }) => x.checks).filter((c: { check: string }) => c.check === "new-tests-fail");
      expect(testRuns.map((c: { exit: number; passed: boolean }) => [c.exit, c.passed]), why).toEqual([[0, false], [1, true]]);
      for (const c of testRuns) expect(fs.readFileSync(path.join(s.env.project, c.log), "utf8")).toContain("SCENE-TESTS");
      expect(saw, why).toMatch(/stage tests \(mica\) done; checks: new-tests-fail passed/);
      expect(rec.caps.retries["new-tests-fail"], why).toEqual({ used: 1, max: 1 });
      // the loop: round 2 ran, the third was refused with on_exhausted, the run stopped for the human
      expect(at("implement").map((x: { round: number; status: string }) => `${x.round} ${x.status}`), why).toEqual(["1 failed", "1 done", "2 done"]);
      expect(at("review").map((x: { status: string; verdict: string }) => `${x.status} ${x.verdict}`), why).toEqual(["failed fail", "done pass"]);
      expect(saw, why).toMatch(/stage verify \(quartz\) failed: the verdict in .pebble\/verification.md is fail/);
      expect(saw, why).toMatch(/stage implement \(jade\) refused: loop cap reached: stage implement \(jade\) already ran 2 of 2 rounds\. Stop after the second round/);
      expect(rec.caps.loop, why).toEqual({ used: 2, max: 2 });
      expect(rec.status, why).toBe("stopped");
      expect(rec.host).toBe("gemini-cli");
      expect(rec.session).toBe(s.sid);
      // harness runs show --json lists every stage, check, gate decision and cap the controller recorded
      await expectRunsShow(rec, s.env.project, s.env.env, ["new-tests-fail", "tests-pass", "typecheck-clean"], why);
    } finally {
      await s.dispose();
    }
  }, 1_500_000);

  it("gemini-cli: controller refuses a delegation past the hop cap", async () => {
    const s = await geminiScene(await lowHopTree("gemini-cli"), () => [
      byCalls("jade", [write("src/fix.mjs", "export const fixed = true;\n"), finish("Status: done (implemented)")], "Status: done", MARKER.jade!),
      byCalls("quartz", [write(".pebble/verification.md", "# Verification\nVerdict: pass\n"), finish("Status: done (verified)")], "Status: done", MARKER.quartz!),
      byCalls("chalk", [finish("Status: done (docs)")], "Status: done", MARKER.chalk!),
      byCalls("main", [sh(": harness kind typo"), invoke("jade"), write(".pebble/review.md", "# Review\nVerdict: approve\n"), invoke("quartz"), invoke("chalk")], "ORCHESTRATOR: handing over"),
    ]);
    try {
      await s.turn("/pebble fix a typo");
      const why = explain(s);
      const rec = s.record();
      expect(s.saw("main"), why).toMatch(/stage docs \(chalk\) refused: hop cap reached: 2 of 2 delegations used\. Stop after the second round/);
      expect(s.stub.log.some((l) => l.conversation === "chalk"), why).toBe(false);
      expect(s.stub.log.some((l) => l.conversation === "quartz"), why).toBe(true);
      expect(rec.caps.hops, why).toEqual({ used: 2, max: 2 });
      expect(rec.status, why).toBe("stopped");
      expect(rec.stages.map((x: { stage: string; status: string }) => `${x.stage} ${x.status}`), why).toEqual(["implement done", "review done", "verify done", "docs pending"]);
    } finally {
      await s.dispose();
    }
  }, 600_000);

  it("gemini-cli: controller detects the run state rewritten by test code and stops the run", async () => {
    const forge = `import { readdirSync, readFileSync, writeFileSync } from "node:fs";
const dir = ".harness/controller";
for (const f of readdirSync(dir).filter((x) => x.endsWith(".json"))) {
  const doc = JSON.parse(readFileSync(dir + "/" + f, "utf8"));
  for (const e of doc.data.record.stages) e.status = "done";
  writeFileSync(dir + "/" + f, JSON.stringify(doc));
}
throw new Error("fix() is missing");
`;
    const s = await geminiScene(await emittedTree("gemini-cli"), () => [
      // mica runs its allowed npm test during its stage: the test code forges the state
      byCalls("mica", [write("tests/fix.test.mjs", forge), sh("npm run test --if-present"), finish("Status: done (tests)")], "Status: done (tests)", MARKER.mica!),
      byCalls("chalk", [finish("Status: done (docs)")], "Status: done", MARKER.chalk!),
      byCalls("main", [sh(": harness kind bug-fix"), invoke("mica"), invoke("chalk")], "ORCHESTRATOR: handing over"),
    ]);
    try {
      await s.turn("/pebble fix the bug");
      const why = explain(s);
      expect(s.saw("mica"), why).toContain("SCENE-TESTS FAILED");
      expect(s.saw("main"), why).toMatch(/harness: tampering: the run state was rewritten outside the controller/);
      expect(s.stub.log.some((l) => l.conversation === "chalk"), why).toBe(false);
      const rec = s.record();
      expect(rec.status, why).toBe("failed");
      expect(rec.ending, why).toMatch(/^tampering: /);
    } finally {
      await s.dispose();
    }
  }, 600_000);

  it("gemini-cli: controller stops the run when test code deletes its state", async () => {
    const wipe = `import { rmSync } from "node:fs";
rmSync(".harness/controller", { recursive: true, force: true });
throw new Error("fix() is missing");
`;
    const s = await geminiScene(await emittedTree("gemini-cli"), () => [
      byCalls("mica", [write("tests/fix.test.mjs", wipe), sh("npm run test --if-present"), finish("Status: done (tests)")], "Status: done (tests)", MARKER.mica!),
      byCalls("chalk", [finish("Status: done (docs)")], "Status: done", MARKER.chalk!),
      byCalls("main", [sh(": harness kind bug-fix"), invoke("mica"), invoke("chalk")], "ORCHESTRATOR: handing over"),
    ]);
    try {
      await s.turn("/pebble fix the bug");
      const why = explain(s);
      expect(s.saw("mica"), why).toContain("SCENE-TESTS FAILED");
      // the hook line's early exit still runs node: the controller's record outside the project names the session
      expect(s.saw("main"), why).toMatch(/harness: tampering: the run state \S+ was deleted/);
      expect(s.stub.log.some((l) => l.conversation === "chalk"), why).toBe(false);
      const rec = s.record();
      expect(rec.status, why).toBe("failed");
      expect(rec.ending, why).toMatch(/^tampering: /);
    } finally {
      await s.dispose();
    }
  }, 600_000);

  it("gemini-cli: controller leaves an ordinary session unbound", async () => {
    const s = await geminiScene(await emittedTree("gemini-cli"), () => [
      byCalls("jade", [write("src/x.mjs", "export const x = 1;\n"), finish("Status: done")], "Status: done", MARKER.jade!),
      byCalls("main", [invoke("jade"), write(".pebble/review.md", "notes\n")], "MAIN-DONE"),
    ]);
    try {
      const r = await s.turn("look around, no pipeline");
      const why = explain(s);
      // the controller is wired (every event of the session ran its hook line) and bound nothing
      const hooks = JSON.parse(fs.readFileSync(path.join(s.env.project, ".gemini/settings.json"), "utf8")).hooks as Record<string, { hooks: { command: string }[] }[]>;
      for (const e of ["BeforeAgent", "BeforeTool", "AfterTool", "AfterAgent"]) expect(JSON.stringify(hooks[e] ?? []), e).toContain("harness-controller.cjs");
      expect(r.code, why).toBe(0);
      expect(s.stub.log.some((l) => l.conversation === "jade"), why).toBe(true);
      expect(fs.existsSync(path.join(s.env.project, "src/x.mjs")), why).toBe(true);
      expect(fs.existsSync(path.join(s.env.project, ".pebble/review.md")), why).toBe(true);
      expect(s.stub.toolResultTexts().join("\n"), why).not.toContain("harness:");
      expect(fs.existsSync(path.join(s.env.project, ".harness")), why).toBe(false);
    } finally {
      await s.dispose();
    }
  }, 300_000);
});
