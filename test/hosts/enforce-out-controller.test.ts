// The run controller that harness emits (src/adapter/controller/, adapters/<host>/controller.ts) on the
// real host: a Pebble run over several `claude -p` runs of ONE session (the human's gate replies come
// with --resume, as a headless human gives them), the scripted model making wrong moves as well as
// right ones. Evidence: what the model got back, the run record the controller wrote, files on disk.
//
// Test names are stable: the adapters' `proofs` cite them (proofs.test.ts).
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { emittedTree, hostBin, latestRunRecord } from "./helpers.js";
import { expectRunsShow, lowHopTree, MARKER, SCENE } from "./lib/controller-scene.js";
import { createHostEnv, type HostEnv } from "./lib/env.js";
import { run, type RunResult } from "./lib/run.js";
import { prepareCopilotHome, runCopilotScripted, warmCopilot } from "./lib/copilot.js";
import { startAnthropicStub, startChatStub, startResponsesStub, type Conversation, type ModelRequest, type Step, type Stub } from "./lib/stubs.js";

interface Scene {
  env: HostEnv;
  stub: Stub;
  sid: string;
  runs: RunResult[];
  /** one `claude -p` run of the session: the first starts it, the later ones resume it */
  turn(prompt: string): Promise<RunResult>;
  record(): Record<string, any>;
  /** every tool result and hook message the main thread got, as text */
  mainSaw(): string;
  dispose(): Promise<void>;
}

async function scene(tree: string, script: (p: string) => Conversation[], files: Record<string, string> = SCENE): Promise<Scene> {
  const env = createHostEnv({ tree, label: "ctl" });
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(env.project, rel)), { recursive: true });
    fs.writeFileSync(path.join(env.project, rel), text);
  }
  const stub = await startAnthropicStub(script(env.project));
  Object.assign(env.env, { ANTHROPIC_BASE_URL: stub.baseUrl, ANTHROPIC_API_KEY: "sk-ant-harness-stub" });
  const sid = randomUUID();
  const runs: RunResult[] = [];
  const s: Scene = {
    env,
    stub,
    sid,
    runs,
    async turn(prompt) {
      const args = ["-p", prompt, ...(runs.length ? ["--resume", sid] : ["--session-id", sid]), "--output-format", "stream-json", "--verbose", "--permission-mode", "acceptEdits"];
      const r = await run(hostBin("claude-code"), args, { cwd: env.project, env: env.env, timeoutMs: 240_000 });
      runs.push(r);
      return r;
    },
    record() {
      return latestRunRecord(env.project);
    },
    mainSaw: () => JSON.stringify(stub.log.filter((l) => l.conversation === "main" && l.request).map((l) => l.request!.body.messages)),
    async dispose() {
      await stub.close();
      env.dispose();
    },
  };
  return s;
}

const agent = (role: string, prompt = `Do the ${role} stage.`): Step => ({ tool: "Agent", input: { description: `stage ${role}`, prompt, subagent_type: role, run_in_background: false } });
const write = (p: string, rel: string, content: string): Step => ({ tool: "Write", input: { file_path: path.join(p, rel), content } });
/** the last user message is exactly `text` (the human's reply, typed or given with --resume) */
const typed = (req: ModelRequest, text: string): boolean => {
  const msgs = (req.body.messages ?? []) as { role: string; content: unknown }[];
  const last = msgs.filter((m) => m.role === "user").pop();
  const blocks = typeof last?.content === "string" ? [last.content] : ((last?.content ?? []) as { type?: string; text?: string }[]).filter((b) => b.type === "text").map((b) => b.text ?? "");
  return blocks.some((t) => t.trim() === text);
};
const sentBack = (req: ModelRequest): boolean => JSON.stringify(req.body.messages ?? "").includes("is not done (retry");
const explain = (s: Scene): string =>
  [
    ...s.runs.map((r, i) => `run ${i + 1}: exit ${r.code} in ${r.durationMs} ms${r.timedOut ? " TIMED OUT" : ""}; stderr ${r.stderr.slice(-600)}`),
    `stub: ${s.stub.log.map((l) => `${l.conversation ?? "-"}#${l.step}`).join(" ")}`,
    `tool results:\n  | ${s.stub.toolResultTexts().map((t) => t.slice(0, 300)).join("\n  | ")}`,
  ].join("\n");

describe("claude-code: the run controller holds the process", () => {
  it("claude-code: controller holds a Pebble run: order, human gates bound to the spec, checks at stage end, the loop cap", async () => {
    const s = await scene(await emittedTree("claude-code"), (p) => [
      { name: "slate", when: MARKER.slate!, steps: [write(p, ".pebble/blueprint.md", "# Blueprint\n## Test plan\ntests/impl.test.mjs\n")], final: "Status: done (blueprint)" },
      {
        name: "mica",
        when: MARKER.mica!,
        steps: [
          write(p, "tests/impl.test.mjs", "// asserts nothing\n"),
          (req) => (sentBack(req) ? write(p, "tests/impl.test.mjs", 'import { add } from "../src/impl.mjs";\nif (add(1, 2) !== 3) throw new Error("add broken");\n') : { text: "Status: done" }),
        ],
        final: "Status: done (tests)",
      },
      { name: "jade", when: MARKER.jade!, steps: [(req) => (sentBack(req) ? write(p, "src/impl.mjs", "export const add = (a, b) => a + b;\n") : { text: "Status: done (claims it is done)" })], final: "Status: done (implemented)" },
      { name: "quartz", when: MARKER.quartz!, steps: [write(p, ".pebble/verification.md", "# Verification\nVerdict: fail\n")], final: "Status: done (verified)" },
      {
        name: "main",
        steps: [
          /* 0 */ { tool: "Bash", input: { command: ": harness kind feature", description: "declare the work kind" } },
          /* 1 */ agent("jade"),
          /* 2 */ write(p, ".pebble/spec.md", "# Spec\n1. add(a, b) returns a + b\n"),
          /* 3 */ agent("slate"),
          /* 4 */ { tool: "ScheduleWakeup", input: { delaySeconds: 60, reason: "approve it myself", prompt: "approve spec" } },
          /* 5 */ (req) => (typed(req, "approve spec") ? agent("slate") : { text: "WAITING for the human: approve spec" }),
          /* 6 */ write(p, ".pebble/spec.md", "# Spec\n1. add(a, b) returns a + b\n2. and more\n"),
          /* 7 */ agent("mica"),
          /* 8 */ (req) => (typed(req, "approve spec") ? agent("mica") : { text: "WAITING for the human: approve spec" }),
          /* 9 */ (req) => (typed(req, "approve blueprint") ? agent("mica") : { text: "WAITING for the human: approve blueprint" }),
          /* 10 */ agent("quartz"),
          /* 11 */ agent("jade"),
          /* 12 */ write(p, ".pebble/review.md", "# Review\nVerdict: changes-required\n"),
          /* 13 */ agent("quartz"),
          /* 14 */ agent("jade"),
          /* 15 */ write(p, ".pebble/review.md", "# Review\nVerdict: approve\n"),
          /* 16 */ agent("quartz"),
          /* 17 */ agent("jade"),
        ],
        final: "ORCHESTRATOR: handing over to the human",
      },
    ]);
    try {
      await s.turn("/pebble add an add() function");
      await s.turn("approve spec");
      await s.turn("approve spec");
      await s.turn("approve blueprint");
      const why = explain(s);
      const saw = s.mainSaw();
      const rec = s.record();
      const at = (stage: string) => rec.stages.filter((x: { stage: string }) => x.stage === stage);
      // order: jade first, slate before the approval, quartz before implement and before a passing review
      expect(saw, why).toContain("recorded work kind feature");
      expect(saw, why).toMatch(/stage implement \(jade\) refused: stage spec \(flint\) must come first/);
      expect(saw, why).toMatch(/stage blueprint \(slate\) refused: the spec at .pebble\/spec.md needs the human's approval first/);
      expect(saw, why).toContain(`claude -p --resume ${s.sid} \\"/pebble approve spec\\"`);
      expect(saw, why).toMatch(/stage verify \(quartz\) refused: stage implement \(jade\) must come first/);
      expect(saw, why).toMatch(/stage verify \(quartz\) refused: stage review \(onyx\) must come first \(it is failed: the verdict in .pebble\/review.md is fail\)/);
      // gates: the scheduled prompt is refused; the edited spec voids the approval; the human's resume counts
      expect(saw, why).toContain("ScheduleWakeup is off during a pipeline run");
      expect(saw, why).toMatch(/stage tests \(mica\) refused: the spec at .pebble\/spec.md changed after the human approved it/);
      expect(rec.gates.map((g: { gate: string; decision: string }) => `${g.gate} ${g.decision}`), why).toEqual(["spec approved", "spec void", "spec approved", "blueprint approved"]);
      for (const g of rec.gates) expect(g.channel).toBe("resume");
      // checks: the controller ran npm test (the model never did) and sent mica and jade back with its output
      expect(s.stub.log.some((l) => l.reply && "tool" in l.reply && l.reply.tool === "Bash" && JSON.stringify(l.reply).includes("npm")), why).toBe(false);
      const micaBack = JSON.stringify(s.stub.log.filter((l) => l.conversation === "mica" && l.request).map((l) => l.request!.body.messages));
      expect(micaBack, why).toMatch(/check new-tests-fail: `npm run test --if-present` exited 0, expected to fail: .*SCENE-TESTS PASSED 1\/1/);
      const jadeBack = JSON.stringify(s.stub.log.filter((l) => l.conversation === "jade" && l.request).map((l) => l.request!.body.messages));
      expect(jadeBack, why).toMatch(/check tests-pass: `npm run test --if-present` exited 1, expected to pass/);
      const tests = at("tests")[0];
      expect(tests.status, why).toBe("done");
      const testRuns = tests.checks.filter((c: { check: string }) => c.check === "new-tests-fail");
      expect(testRuns.map((c: { exit: number; passed: boolean }) => [c.exit, c.passed])).toEqual([[0, false], [1, true]]);
      for (const c of testRuns) expect(fs.readFileSync(path.join(s.env.project, c.log), "utf8")).toContain("SCENE-TESTS");
      expect(saw, why).toMatch(/stage tests \(mica\) done; checks: new-tests-fail passed/);
      // the loop: round 2 ran, the third was refused with on_exhausted, the run stopped for the human
      expect(at("implement").map((x: { round: number; status: string }) => `${x.round} ${x.status}`), why).toEqual(["1 done", "2 done"]);
      expect(at("review").map((x: { status: string; verdict: string }) => `${x.status} ${x.verdict}`), why).toEqual(["failed fail", "done pass"]);
      expect(saw, why).toMatch(/stage verify \(quartz\) failed: the verdict in .pebble\/verification.md is fail/);
      expect(saw, why).toMatch(/stage implement \(jade\) refused: loop cap reached: stage implement \(jade\) already ran 2 of 2 rounds\. Stop after the second round/);
      expect(rec.caps.loop, why).toEqual({ used: 2, max: 2 });
      expect(rec.status, why).toBe("stopped");
      expect(rec.source).toBe("controller");
      expect(rec.session).toBe(s.sid);
      await expectRunsShow(rec, s.env.project, s.env.env, ["new-tests-fail", "tests-pass", "typecheck-clean"], why);
    } finally {
      await s.dispose();
    }
  }, 900_000);

  it("claude-code: controller refuses a delegation past the hop cap", async () => {
    const s = await scene(await lowHopTree(), (p) => [
      { name: "jade", when: MARKER.jade!, steps: [write(p, "src/fix.mjs", "export const fixed = true;\n")], final: "Status: done (implemented)" },
      { name: "quartz", when: MARKER.quartz!, steps: [write(p, ".pebble/verification.md", "# Verification\nVerdict: pass\n")], final: "Status: done (verified)" },
      { name: "chalk", when: MARKER.chalk!, steps: [], final: "Status: done (docs)" },
      {
        name: "main",
        steps: [
          { tool: "Bash", input: { command: ": harness kind typo", description: "declare the work kind" } },
          agent("jade"),
          write(p, ".pebble/review.md", "# Review\nVerdict: approve\n"),
          agent("quartz"),
          agent("chalk"),
        ],
        final: "ORCHESTRATOR: handing over",
      },
    ]);
    try {
      await s.turn("/pebble fix a typo");
      const why = explain(s);
      const rec = s.record();
      expect(s.mainSaw(), why).toMatch(/stage docs \(chalk\) refused: hop cap reached: 2 of 2 delegations used\. Stop after the second round/);
      expect(s.stub.log.some((l) => l.conversation === "chalk"), why).toBe(false);
      expect(s.stub.log.some((l) => l.conversation === "quartz"), why).toBe(true);
      expect(rec.caps.hops, why).toEqual({ used: 2, max: 2 });
      expect(rec.status, why).toBe("stopped");
      expect(rec.stages.map((x: { stage: string; status: string }) => `${x.stage} ${x.status}`), why).toEqual(["implement done", "review done", "verify done", "docs pending"]);
    } finally {
      await s.dispose();
    }
  }, 300_000);

  it("claude-code: controller detects the run state rewritten by test code and stops the run", async () => {
    const forge = `import { readdirSync, readFileSync, writeFileSync } from "node:fs";
const dir = ".harness/controller";
for (const f of readdirSync(dir).filter((x) => x.endsWith(".json"))) {
  const doc = JSON.parse(readFileSync(dir + "/" + f, "utf8"));
  for (const e of doc.data.record.stages) e.status = "done";
  writeFileSync(dir + "/" + f, JSON.stringify(doc));
}
throw new Error("fix() is missing");
`;
    const s = await scene(await emittedTree("claude-code"), (p) => [
      {
        name: "mica",
        when: MARKER.mica!,
        // mica runs its allowed npm test during its stage: the test code forges the state
        steps: [write(p, "tests/fix.test.mjs", forge), { tool: "Bash", input: { command: "npm run test --if-present", description: "run the tests" } }],
        final: "Status: done (tests)",
      },
      { name: "chalk", when: MARKER.chalk!, steps: [], final: "Status: done (docs)" },
      {
        name: "main",
        steps: [
          { tool: "Bash", input: { command: ": harness kind bug-fix", description: "declare the work kind" } },
          agent("mica"),
          // the orchestrator's own run of a check command costs no model turn: the controller refuses it
          { tool: "Bash", input: { command: "npm run test --if-present", description: "run the tests" } },
          agent("chalk"),
        ],
        final: "ORCHESTRATOR: handing over",
      },
    ]);
    try {
      await s.turn("/pebble fix the bug");
      const why = explain(s);
      const saw = s.mainSaw();
      const micaSaw = JSON.stringify(s.stub.log.filter((l) => l.conversation === "mica" && l.request).map((l) => l.request!.body.messages));
      expect(micaSaw, why).toContain("SCENE-TESTS FAILED");
      // found at mica's stage end, by the controller's load or by the audit, whichever hook runs first
      expect(saw, why).toMatch(/harness: tampering: (the run state was rewritten outside the controller|the stage-end audit found \.harness\/controller\/)/);
      expect(s.stub.log.some((l) => l.conversation === "chalk"), why).toBe(false);
      const rec = s.record();
      expect(rec.status, why).toBe("failed");
      expect(rec.ending, why).toMatch(/^tampering: /);
    } finally {
      await s.dispose();
    }
  }, 300_000);

  it("claude-code: controller stops the run when test code deletes its state, whatever HOME the settings' env sets", async () => {
    const wipe = `import { rmSync } from "node:fs";
console.log("SEEN HOME=" + process.env.HOME + " PROBE=" + process.env.HARNESS_PROBE);
rmSync(".harness/controller", { recursive: true, force: true });
throw new Error("fix() is missing");
`;
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), "harness-ctl-elsewhere-"));
    const s = await scene(await emittedTree("claude-code"), (p) => [
      {
        name: "mica",
        when: MARKER.mica!,
        steps: [write(p, "tests/fix.test.mjs", wipe), { tool: "Bash", input: { command: "npm run test --if-present", description: "run the tests" } }],
        final: "Status: done (tests)",
      },
      { name: "chalk", when: MARKER.chalk!, steps: [], final: "Status: done (docs)" },
      {
        name: "main",
        steps: [
          { tool: "Bash", input: { command: ": harness kind bug-fix", description: "declare the work kind" } },
          (req) => (typed(req, "go on") ? agent("mica") : { text: "ORCHESTRATOR: the kind is declared" }),
          agent("chalk"),
        ],
        final: "ORCHESTRATOR: handing over",
      },
    ]);
    try {
      await s.turn("/pebble fix the bug");
      // between the session's runs the settings' env moves HOME for every hook and command (a file code
      // run earlier could have written); the run's record outside the project stays where it was
      fs.writeFileSync(path.join(s.env.project, ".claude", "settings.local.json"), JSON.stringify({ env: { HOME: elsewhere, HARNESS_PROBE: "from-settings" } }));
      await s.turn("go on");
      const why = explain(s);
      const saw = s.mainSaw();
      const micaSaw = JSON.stringify(s.stub.log.filter((l) => l.conversation === "mica" && l.request).map((l) => l.request!.body.messages));
      // the settings' env reached the role's commands (Claude Code 2.1.332 keeps HOME itself, for commands
      // and hooks alike: the controller's record is in the account's home either way)
      expect(micaSaw, why).toContain("PROBE=from-settings");
      expect(saw, why).toMatch(/harness: tampering: /);
      expect(s.stub.log.some((l) => l.conversation === "chalk"), why).toBe(false);
      const rec = s.record();
      expect(rec.status, why).toBe("failed");
      expect(rec.ending, why).toMatch(/^tampering: /);
    } finally {
      await s.dispose();
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  }, 400_000);

  it("claude-code: controller leaves an ordinary session unbound", async () => {
    const s = await scene(await emittedTree("claude-code"), (p) => [
      { name: "jade", when: MARKER.jade!, steps: [write(p, "src/x.mjs", "export const x = 1;\n")], final: "Status: done" },
      { name: "main", steps: [agent("jade"), write(p, ".pebble/review.md", "notes\n")], final: "MAIN-DONE" },
    ]);
    try {
      const r = await s.turn("look around, no pipeline");
      const why = explain(s);
      expect(r.code, why).toBe(0);
      expect(s.stub.log.some((l) => l.conversation === "jade"), why).toBe(true);
      expect(fs.existsSync(path.join(s.env.project, ".pebble/review.md")), why).toBe(true);
      expect(s.stub.toolResultTexts().join("\n"), why).not.toContain("harness:");
      expect(fs.existsSync(path.join(s.env.project, ".harness")), why).toBe(false);
    } finally {
      await s.dispose();
    }
  }, 300_000);
});

// ---------------------------------------------------------------- Codex

interface CodexScene {
  env: HostEnv;
  stub: Stub;
  runs: RunResult[];
  sid(): string;
  turn(prompt: string): Promise<RunResult>;
  record(): Record<string, any>;
  saw(conv: string): string;
  dispose(): Promise<void>;
}
const CODEX_FLAGS = ["--json", "--skip-git-repo-check", "--disable", "unbounded_connection_retries", "--dangerously-bypass-hook-trust"];
async function codexScene(tree: string, script: (p: string) => Conversation[], files: Record<string, string> = SCENE): Promise<CodexScene> {
  const env = createHostEnv({ tree, label: "cxctl" });
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(env.project, rel)), { recursive: true });
    fs.writeFileSync(path.join(env.project, rel), text);
  }
  const stub = await startResponsesStub(script(env.project));
  const cfgPath = path.join(env.codexHome, "config.toml");
  const head = ['model = "stub-model"', 'model_provider = "stub"', 'approval_policy = "never"', ""].join("\n");
  const provider = ["", "[model_providers.stub]", 'name = "stub"', `base_url = ${JSON.stringify(stub.baseUrl)}`, 'wire_api = "responses"', "request_max_retries = 0", "stream_max_retries = 0", "supports_websockets = false", ""].join("\n");
  fs.writeFileSync(cfgPath, head + fs.readFileSync(cfgPath, "utf8") + provider);
  env.env.OPENAI_BASE_URL = stub.baseUrl;
  const runs: RunResult[] = [];
  let sid = "";
  const s: CodexScene = {
    env,
    stub,
    runs,
    sid: () => sid,
    async turn(prompt) {
      const args = sid ? ["exec", "resume", sid, ...CODEX_FLAGS, prompt] : ["exec", ...CODEX_FLAGS, prompt];
      const r = await run(hostBin("codex"), args, { cwd: env.project, env: env.env, timeoutMs: 300_000 });
      runs.push(r);
      // the run's session: the controller's state file is named by it
      const dir = path.join(env.project, ".harness", "controller");
      if (!sid && fs.existsSync(dir)) sid = fs.readdirSync(dir).find((f) => f.endsWith(".json"))?.replace(/\.json$/, "") ?? "";
      return r;
    },
    record() {
      return latestRunRecord(env.project);
    },
    saw: (conv) => JSON.stringify(stub.log.filter((l) => l.conversation === conv && l.request).map((l) => l.request!.body.input)),
    async dispose() {
      await stub.close();
      env.dispose();
    },
  };
  return s;
}
const cxSh = (p: string, cmd: string): Step => ({ tool: "exec_command", input: { cmd, workdir: p } });
const cxPatch = (p: string, rel: string, body: string, op: "Add" | "Update" = "Add"): Step => cxSh(p, `apply_patch <<'PATCH'\n*** Begin Patch\n*** ${op} File: ${path.join(p, rel)}\n${body}\n*** End Patch\nPATCH`);
const cxAdd = (p: string, rel: string, content: string): Step => cxPatch(p, rel, content.replace(/\n$/, "").split("\n").map((l) => `+${l}`).join("\n"));
const cxSpawn = (role: string, message = `Do the ${role} stage.`): Step => ({ tool: "spawn_agent", namespace: "multi_agent_v1", input: { message, agent_type: role, fork_turns: "none" } });
const cxAgentIds = (req: ModelRequest) => [...JSON.stringify(req.body).matchAll(/agent_id\\?"\s*:\s*\\?"([0-9a-f-]{8,})/g)].map((m) => m[1]!);
const cxWait = (req: ModelRequest): Step => ({ tool: "wait_agent", namespace: "multi_agent_v1", input: { targets: [cxAgentIds(req).pop() ?? "missing"], timeout_ms: 120000 } });
/** the last user message of a Codex request is exactly `text` (the human's prompt, or its resume) */
const cxTyped = (req: ModelRequest, text: string): boolean => {
  const items = ((req.body.input ?? []) as { type?: string; role?: string; content?: unknown }[]).filter((i) => i.role === "user");
  const last = items.pop();
  const texts = typeof last?.content === "string" ? [last.content] : ((last?.content ?? []) as { text?: string }[]).map((c) => c.text ?? "");
  return texts.some((t) => t.trim() === text);
};
const cxSentBack = (req: ModelRequest): boolean => JSON.stringify(req.body.input ?? "").includes("is not done (retry");
const cxExplain = (s: CodexScene): string =>
  [
    ...s.runs.map((r, i) => `run ${i + 1}: exit ${r.code} in ${r.durationMs} ms${r.timedOut ? " TIMED OUT" : ""}; stderr ${r.stderr.slice(-800)}`),
    `stub: ${s.stub.log.map((l) => `${l.conversation ?? "-"}#${l.step}`).join(" ")}`,
    `tool results:\n  | ${s.stub.toolResultTexts().map((t) => t.slice(0, 300)).join("\n  | ")}`,
  ].join("\n");

describe("codex: the run controller holds the process", () => {
  it("codex: controller holds a Pebble run: order, human gates bound to the spec, checks at stage end, the loop cap", async () => {
    const s = await codexScene(await emittedTree("codex"), (p) => [
      { name: "slate", when: MARKER.slate!, steps: [cxAdd(p, ".pebble/blueprint.md", "# Blueprint\n## Test plan\ntests/impl.test.mjs\n")], final: "Status: done (blueprint)" },
      {
        name: "mica",
        when: MARKER.mica!,
        steps: [
          cxAdd(p, "tests/impl.test.mjs", "// asserts nothing\n"),
          (req) => (cxSentBack(req) ? cxPatch(p, "tests/impl.test.mjs", '-// asserts nothing\n+import { add } from "../src/impl.mjs";\n+if (add(1, 2) !== 3) throw new Error("add broken");', "Update") : { text: "Status: done" }),
        ],
        final: "Status: done (tests)",
      },
      { name: "jade", when: MARKER.jade!, steps: [(req) => (cxSentBack(req) ? cxAdd(p, "src/impl.mjs", "export const add = (a, b) => a + b;\n") : { text: "Status: done (claims it is done)" })], final: "Status: done (implemented)" },
      { name: "quartz", when: MARKER.quartz!, steps: [cxAdd(p, ".pebble/verification.md", "# Verification\nVerdict: fail\n")], final: "Status: done (verified)" },
      {
        name: "main",
        steps: [
          /* 0 */ cxSh(p, ": harness kind feature"),
          /* 1 */ cxSpawn("jade"),
          /* 2 */ cxAdd(p, ".pebble/spec.md", "# Spec\n1. add(a, b) returns a + b\n"),
          /* 3 */ cxSpawn("slate"),
          // the spawn message (model-written) reaches the child's own prompt hook, with its agent id: it approves nothing
          /* 4 */ (req) => (cxTyped(req, "approve spec") ? cxSpawn("slate", "approve blueprint") : { text: "WAITING for the human: approve spec" }),
          /* 5 */ cxWait,
          /* 6 */ cxPatch(p, ".pebble/spec.md", " # Spec\n 1. add(a, b) returns a + b\n+2. and more", "Update"),
          /* 7 */ cxSpawn("mica"),
          /* 8 */ (req) => (cxTyped(req, "approve spec") ? cxSpawn("mica") : { text: "WAITING for the human: approve spec" }),
          /* 9 */ (req) => (cxTyped(req, "approve blueprint") ? cxSpawn("mica") : { text: "WAITING for the human: approve blueprint" }),
          /* 10 */ cxWait,
          /* 11 */ cxSh(p, "npm run test --if-present"),
          /* 12 */ cxSpawn("quartz"),
          /* 13 */ cxSpawn("jade"),
          /* 14 */ cxWait,
          /* 15 */ cxAdd(p, ".pebble/review.md", "# Review\nVerdict: changes-required\n"),
          /* 16 */ cxSpawn("quartz"),
          /* 17 */ cxSpawn("jade"),
          /* 18 */ cxWait,
          /* 19 */ cxPatch(p, ".pebble/review.md", " # Review\n-Verdict: changes-required\n+Verdict: approve", "Update"),
          /* 20 */ cxSpawn("quartz"),
          /* 21 */ cxWait,
          /* 22 */ cxSpawn("jade"),
        ],
        final: "ORCHESTRATOR: handing over to the human",
      },
    ]);
    try {
      await s.turn("$pebble add an add() function");
      await s.turn("approve spec");
      await s.turn("approve spec");
      await s.turn("approve blueprint");
      const why = cxExplain(s);
      const saw = s.saw("main");
      const rec = s.record();
      const at = (stage: string) => rec.stages.filter((x: { stage: string }) => x.stage === stage);
      expect(saw, why).toContain("recorded work kind feature");
      expect(saw, why).toMatch(/stage implement \(jade\) refused: stage spec \(flint\) must come first/);
      expect(saw, why).toMatch(/stage blueprint \(slate\) refused: the spec at .pebble\/spec.md needs the human's approval first/);
      expect(saw, why).toMatch(new RegExp(`codex exec resume ${s.sid()} (\\\\)*"\\$pebble approve spec`));
      expect(saw, why).toMatch(/stage tests \(mica\) refused: the spec at .pebble\/spec.md changed after the human approved it/);
      expect(rec.gates.map((g: { gate: string; decision: string }) => `${g.gate} ${g.decision}`), why).toEqual(["spec approved", "spec void", "spec approved", "blueprint approved"]);
      expect(s.saw("slate"), why).toContain("approve blueprint");
      expect(s.saw("slate"), why).not.toContain("harness:");
      // checks: the controller ran npm test (the orchestrator's own run was refused) and sent mica and jade back with its output
      expect(saw, why).toContain("is a check the run controller runs itself at the end of");
      expect(s.saw("mica"), why).toMatch(/check new-tests-fail: `npm run test --if-present` exited 0, expected to fail: .*SCENE-TESTS PASSED 1\/1/);
      expect(s.saw("jade"), why).toMatch(/check tests-pass: `npm run test --if-present` exited 1, expected to pass/);
      expect(at("tests")[0].status, why).toBe("done");
      expect(at("tests")[0].checks.filter((c: { check: string }) => c.check === "new-tests-fail").map((c: { exit: number; passed: boolean }) => [c.exit, c.passed]), why).toEqual([[0, false], [1, true]]);
      expect(saw, why).toMatch(/stage tests \(mica\) done; checks: new-tests-fail passed/);
      expect(saw, why).toMatch(/stage verify \(quartz\) refused: stage implement \(jade\) must come first/);
      expect(saw, why).toMatch(/stage verify \(quartz\) refused: stage review \(onyx\) must come first \(it is failed: the verdict in .pebble\/review.md is fail\)/);
      // the loop: round 2 ran, the third was refused with on_exhausted
      expect(at("implement").map((x: { round: number; status: string }) => `${x.round} ${x.status}`), why).toEqual(["1 done", "2 done"]);
      expect(saw, why).toMatch(/stage verify \(quartz\) failed: the verdict in .pebble\/verification.md is fail/);
      expect(saw, why).toMatch(/stage implement \(jade\) refused: loop cap reached: stage implement \(jade\) already ran 2 of 2 rounds/);
      expect(rec.caps.loop, why).toEqual({ used: 2, max: 2 });
      expect(rec.status, why).toBe("stopped");
      expect(rec.host).toBe("codex");
      await expectRunsShow(rec, s.env.project, s.env.env, ["new-tests-fail", "tests-pass", "typecheck-clean"], why);
    } finally {
      await s.dispose();
    }
  }, 1_500_000);

  it("codex: controller refuses a delegation past the hop cap", async () => {
    const s = await codexScene(await lowHopTree("codex"), (p) => [
      { name: "jade", when: MARKER.jade!, steps: [cxAdd(p, "src/fix.mjs", "export const fixed = true;\n")], final: "Status: done (implemented)" },
      { name: "quartz", when: MARKER.quartz!, steps: [cxAdd(p, ".pebble/verification.md", "# Verification\nVerdict: pass\n")], final: "Status: done (verified)" },
      { name: "chalk", when: MARKER.chalk!, steps: [], final: "Status: done (docs)" },
      {
        name: "main",
        steps: [cxSh(p, ": harness kind typo"), cxSpawn("jade"), cxWait, cxAdd(p, ".pebble/review.md", "# Review\nVerdict: approve\n"), cxSpawn("quartz"), cxWait, cxSpawn("chalk")],
        final: "ORCHESTRATOR: handing over",
      },
    ]);
    try {
      await s.turn("$pebble fix a typo");
      const why = cxExplain(s);
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

  it("codex: controller detects the run state rewritten by test code and stops the run", async () => {
    const forge = `import { readdirSync, readFileSync, writeFileSync } from "node:fs";
const dir = ".harness/controller";
for (const f of readdirSync(dir).filter((x) => x.endsWith(".json"))) {
  const doc = JSON.parse(readFileSync(dir + "/" + f, "utf8"));
  for (const e of doc.data.record.stages) e.status = "done";
  writeFileSync(dir + "/" + f, JSON.stringify(doc));
}
throw new Error("fix() is missing");
`;
    const s = await codexScene(await emittedTree("codex"), (p) => [
      // mica runs its allowed npm test during its stage: the test code forges the state
      { name: "mica", when: MARKER.mica!, steps: [cxAdd(p, "tests/fix.test.mjs", forge), cxSh(p, "npm run test --if-present")], final: "Status: done (tests)" },
      { name: "chalk", when: MARKER.chalk!, steps: [], final: "Status: done (docs)" },
      { name: "main", steps: [cxSh(p, ": harness kind bug-fix"), cxSpawn("mica"), cxWait, cxSpawn("chalk")], final: "ORCHESTRATOR: handing over" },
    ]);
    try {
      await s.turn("$pebble fix the bug");
      const why = cxExplain(s);
      expect(s.saw("mica"), why).toContain("SCENE-TESTS FAILED");
      expect(s.saw("main"), why).toMatch(/harness: tampering: (the run state was rewritten outside the controller|the stage-end audit found \.harness\/controller\/)/);
      expect(s.stub.log.some((l) => l.conversation === "chalk"), why).toBe(false);
      const rec = s.record();
      expect(rec.status, why).toBe("failed");
      expect(rec.ending, why).toMatch(/^tampering: /);
    } finally {
      await s.dispose();
    }
  }, 600_000);

  it("codex: controller leaves an ordinary session unbound", async () => {
    const s = await codexScene(await emittedTree("codex"), (p) => [
      { name: "jade", when: MARKER.jade!, steps: [cxAdd(p, "src/x.mjs", "export const x = 1;\n")], final: "Status: done" },
      { name: "main", steps: [cxSpawn("jade"), cxWait, cxSh(p, "npm run test --if-present")], final: "MAIN-DONE" },
    ]);
    try {
      const r = await s.turn("look around, no pipeline");
      const why = cxExplain(s);
      expect(r.code, why).toBe(0);
      expect(s.stub.log.some((l) => l.conversation === "jade"), why).toBe(true);
      expect(s.stub.toolResultTexts().join("\n"), why).toContain("SCENE-TESTS");
      expect(s.stub.toolResultTexts().join("\n"), why).not.toContain("harness:");
      expect(fs.existsSync(path.join(s.env.project, ".harness")), why).toBe(false);
    } finally {
      await s.dispose();
    }
  }, 300_000);
});

// ---------------------------------------------------------------- GitHub Copilot CLI

// The orchestrator runs as its agent through the pipeline's launcher (.github/copilot/bin/pebble.sh),
// whose front-matter hooks are the controller; a headless human's replies resume the session through
// the same launcher. A main-session stage (flint's spec) runs as its own Copilot session, which the
// test stands in for by writing its document between turns.
interface CopilotScene {
  env: HostEnv;
  stub: Stub;
  runs: RunResult[];
  sid(): string;
  turn(prompt: string): Promise<RunResult>;
  put(rel: string, text: string): void;
  record(): Record<string, any>;
  saw(conv: string): string;
  dispose(): Promise<void>;
}
async function copilotScene(tree: string, script: (p: string) => Conversation[], files: Record<string, string> = SCENE): Promise<CopilotScene> {
  const bin = hostBin("copilot");
  await warmCopilot(bin);
  const env = createHostEnv({ tree, label: "cpctl" });
  const put = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(env.project, rel)), { recursive: true });
    fs.writeFileSync(path.join(env.project, rel), text);
  };
  for (const [rel, text] of Object.entries({ ...files, "src/.keep": "", "tests/.keep": "", ".pebble/.keep": "" })) put(rel, text);
  const stub = await startChatStub(script(env.project));
  prepareCopilotHome(env, stub.baseUrl);
  const runs: RunResult[] = [];
  let sid = "";
  const s: CopilotScene = {
    env,
    stub,
    runs,
    put,
    sid: () => sid,
    async turn(prompt) {
      const args = [prompt, ...(sid ? [`--resume=${sid}`] : []), "--no-auto-update"];
      const r = await run(path.join(env.project, ".github/copilot/bin/pebble.sh"), args, { cwd: env.project, env: { ...env.env, COPILOT_BIN: bin }, timeoutMs: 300_000 });
      runs.push(r);
      const dir = path.join(env.project, ".harness", "controller");
      if (!sid && fs.existsSync(dir)) sid = fs.readdirSync(dir).find((f) => f.endsWith(".json"))?.replace(/\.json$/, "") ?? "";
      return r;
    },
    record() {
      return latestRunRecord(env.project);
    },
    saw: (conv) => JSON.stringify(stub.log.filter((l) => l.conversation === conv && l.request).map((l) => l.request!.body.messages)),
    async dispose() {
      await stub.close();
      env.dispose();
    },
  };
  return s;
}
const cpSh = (command: string): Step => ({ tool: "bash", input: { command, description: "scripted", mode: "sync", initial_wait: 120 } });
const cpCreate = (p: string, rel: string, content: string): Step => ({ tool: "create", input: { path: path.join(p, rel), file_text: content } });
const cpTask = (role: string, prompt = `Do the ${role} stage.`): Step => ({ tool: "task", input: { agent_type: role, description: `run ${role}`, prompt, mode: "sync", name: `${role}-stage` } });
const cpSentBack = (req: ModelRequest): boolean => JSON.stringify(req.body.messages ?? "").includes("is not done (retry");
/** the last user message of a Copilot request holds `text` (the human's prompt, or its resume) */
const cpTyped = (req: ModelRequest, text: string): boolean => {
  const users = ((req.body.messages ?? []) as { role?: string; content?: unknown }[]).filter((m) => m.role === "user");
  return JSON.stringify(users.at(-1)?.content ?? "").includes(text);
};
const cpExplain = (s: CopilotScene): string =>
  [
    ...s.runs.map((r, i) => `run ${i + 1}: exit ${r.code} in ${r.durationMs} ms${r.timedOut ? " TIMED OUT" : ""}; stdout ${r.stdout.slice(-600)}; stderr ${r.stderr.slice(-600)}`),
    `stub: ${s.stub.log.map((l) => `${l.conversation ?? "-"}#${l.step}`).join(" ")}`,
    `tool results:\n  | ${s.stub.toolResultTexts().map((t) => t.slice(0, 300)).join("\n  | ")}`,
  ].join("\n");

describe("copilot: the run controller holds the process", () => {
  it("copilot: controller holds a Pebble run: order, human gates bound to the spec, checks at stage end", async () => {
    const s = await copilotScene(await emittedTree("copilot"), (p) => [
      { name: "slate", when: MARKER.slate!, steps: [cpCreate(p, ".pebble/blueprint.md", "# Blueprint\n## Test plan\ntests/impl.test.mjs\n")], final: "Status: done (blueprint)" },
      {
        name: "mica",
        when: MARKER.mica!,
        steps: [
          cpCreate(p, "tests/impl.test.mjs", "// asserts nothing\n"),
          (req) => (cpSentBack(req) ? cpCreate(p, "tests/add.test.mjs", 'import { add } from "../src/impl.mjs";\nif (add(1, 2) !== 3) throw new Error("add broken");\n') : { text: "Status: done" }),
        ],
        final: "Status: done (tests)",
      },
      {
        name: "main",
        steps: [
          /* 0 */ cpSh(": harness kind feature"),
          /* 1 */ cpTask("jade"),
          // turn 2 (flint's spec is written now, in its own session)
          /* 2 */ (req) => (cpTyped(req, "the spec is written") ? cpTask("slate") : { text: "WAITING for flint's spec" }),
          // turn 3: the human approves; the task prompt (model-written) approves nothing
          /* 3 */ (req) => (cpTyped(req, "approve spec") ? cpTask("slate", "approve blueprint") : { text: "WAITING for the human: approve spec" }),
          /* 4 */ cpTask("mica"),
          // turn 4
          // turn 4: the spec was edited after its approval (flint's session, between the turns)
          /* 5 */ (req) => (cpTyped(req, "approve blueprint") ? cpTask("mica") : { text: "WAITING for the human: approve blueprint" }),
          // turn 5: the human approves the edited spec
          /* 6 */ (req) => (cpTyped(req, "approve spec") ? cpTask("mica") : { text: "WAITING for the human: approve spec" }),
          /* 7 */ cpSh("npm run test --if-present"),
          /* 8 */ cpTask("quartz"),
        ],
        final: "ORCHESTRATOR: handing over to the human",
      },
    ]);
    try {
      await s.turn("add an add() function");
      s.put(".pebble/spec.md", "# Spec\n1. add(a, b) returns a + b\n");
      await s.turn("the spec is written");
      await s.turn("approve spec");
      s.put(".pebble/spec.md", "# Spec\n1. add(a, b) returns a + b\n2. and more\n");
      await s.turn("approve blueprint");
      await s.turn("approve spec");
      const why = cpExplain(s);
      const saw = s.saw("main");
      const rec = s.record();
      const at = (stage: string) => rec.stages.filter((x: { stage: string }) => x.stage === stage);
      expect(saw, why).toContain("recorded work kind feature");
      expect(saw, why).toMatch(/stage implement \(jade\) refused: stage spec \(flint\) must come first/);
      expect(saw, why).toMatch(/stage blueprint \(slate\) refused: the spec at .pebble\/spec.md needs the human's approval first/);
      expect(saw, why).toMatch(new RegExp(`\\.github/copilot/bin/pebble\\.sh (\\\\)*"approve spec(\\\\)*" --resume=${s.sid()}`));
      expect(saw, why).toMatch(/stage blueprint \(slate\) done/);
      expect(saw, why).toMatch(/stage tests \(mica\) refused: the blueprint at .pebble\/blueprint.md needs the human's approval first/);
      expect(saw, why).toMatch(/stage tests \(mica\) refused: the spec at .pebble\/spec.md changed after the human approved it/);
      expect(rec.gates.map((g: { gate: string; decision: string }) => `${g.gate} ${g.decision}`), why).toEqual(["spec approved", "blueprint approved", "spec void", "spec approved"]);
      expect(s.saw("slate"), why).toContain("approve blueprint");
      // checks: the controller ran npm test at mica's stage end (the orchestrator's own run was refused) and sent mica back with its output
      expect(s.saw("mica"), why).toMatch(/check new-tests-fail: `npm run test --if-present` exited 0, expected to fail: .*SCENE-TESTS PASSED 1\/1/);
      expect(at("tests")[0].checks.filter((c: { check: string }) => c.check === "new-tests-fail").map((c: { exit: number; passed: boolean }) => [c.exit, c.passed]), why).toEqual([[0, false], [1, true]]);
      expect(at("tests")[0].status, why).toBe("done");
      expect(saw, why).toMatch(/stage tests \(mica\) done; checks: new-tests-fail passed/);
      expect(saw, why).toContain("is a check the run controller runs itself at the end of");
      expect(saw, why).toMatch(/stage verify \(quartz\) refused: stage implement \(jade\) must come first/);
      expect(s.stub.log.some((l) => l.conversation === "quartz"), why).toBe(false);
      expect(rec.host).toBe("copilot");
      await expectRunsShow(rec, s.env.project, s.env.env, ["new-tests-fail"], why);
    } finally {
      await s.dispose();
    }
  }, 1_500_000);

  it("copilot: controller refuses a delegation past the hop cap", async () => {
    // onyx's review is its own session (main-session role): its document is there when the run reaches it
    const s = await copilotScene(await lowHopTree("copilot"), (p) => [
      { name: "jade", when: MARKER.jade!, steps: [cpCreate(p, "src/fix.mjs", "export const fixed = true;\n")], final: "Status: done (implemented)" },
      { name: "quartz", when: MARKER.quartz!, steps: [cpCreate(p, ".pebble/verification.md", "# Verification\nVerdict: pass\n")], final: "Status: done (verified)" },
      { name: "chalk", when: MARKER.chalk!, steps: [], final: "Status: done (docs)" },
      { name: "main", steps: [cpSh(": harness kind typo"), cpTask("jade"), cpTask("quartz"), cpTask("chalk")], final: "ORCHESTRATOR: handing over" },
    ], { ...SCENE, ".pebble/review.md": "# Review\nVerdict: approve\n" });
    try {
      await s.turn("fix a typo");
      const why = cpExplain(s);
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

  it("copilot: controller refuses a third round of the loop", async () => {
    // onyx's review is its own session (main-session role): the test writes its document between turns
    const s = await copilotScene(await emittedTree("copilot"), (p) => [
      { name: "jade", when: MARKER.jade!, steps: [cpCreate(p, "src/fix.mjs", "export const fixed = true;\n")], final: "Status: done (implemented)" },
      { name: "quartz", when: MARKER.quartz!, steps: [cpCreate(p, ".pebble/verification.md", "# Verification\nVerdict: fail\n")], final: "Status: done (verified)" },
      {
        name: "main",
        steps: [
          /* 0 */ cpSh(": harness kind typo"),
          /* 1 */ cpTask("jade"),
          // turn 2: onyx asked for changes
          /* 2 */ (req) => (cpTyped(req, "the review is written") ? cpTask("quartz") : { text: "WAITING for onyx's review" }),
          /* 3 */ cpTask("jade"),
          // turn 3: onyx approved round 2
          /* 4 */ (req) => (cpTyped(req, "the review is written again") ? cpTask("quartz") : { text: "WAITING for onyx's review" }),
          /* 5 */ cpTask("jade"),
        ],
        final: "ORCHESTRATOR: handing over to the human",
      },
    ]);
    try {
      await s.turn("fix a typo");
      s.put(".pebble/review.md", "# Review\nVerdict: changes-required\n");
      await s.turn("the review is written");
      s.put(".pebble/review.md", "# Review\nVerdict: approve\n");
      await s.turn("the review is written again");
      const why = cpExplain(s);
      const saw = s.saw("main");
      const rec = s.record();
      const at = (stage: string) => rec.stages.filter((x: { stage: string }) => x.stage === stage);
      expect(saw, why).toMatch(/stage verify \(quartz\) refused: stage review \(onyx\) must come first \(it is failed: the verdict in .pebble\/review.md is fail\)/);
      expect(saw, why).toMatch(/stage verify \(quartz\) failed: the verdict in .pebble\/verification.md is fail/);
      expect(saw, why).toMatch(/stage implement \(jade\) refused: loop cap reached: stage implement \(jade\) already ran 2 of 2 rounds\. Stop after the second round/);
      expect(s.stub.log.filter((l) => l.conversation === "jade" && l.step === 0).length, why).toBe(2);
      expect(at("implement").map((x: { round: number; status: string }) => `${x.round} ${x.status}`), why).toEqual(["1 done", "2 done"]);
      expect(at("review").map((x: { status: string; verdict: string }) => `${x.status} ${x.verdict}`), why).toEqual(["failed fail", "done pass"]);
      expect(rec.caps.loop, why).toEqual({ used: 2, max: 2 });
      expect(rec.status, why).toBe("stopped");
    } finally {
      await s.dispose();
    }
  }, 900_000);

  it("copilot: controller detects the run state rewritten by test code and stops the run", async () => {
    const forge = `import { readdirSync, readFileSync, writeFileSync } from "node:fs";
const dir = ".harness/controller";
for (const f of readdirSync(dir).filter((x) => x.endsWith(".json"))) {
  const doc = JSON.parse(readFileSync(dir + "/" + f, "utf8"));
  for (const e of doc.data.record.stages) e.status = "done";
  writeFileSync(dir + "/" + f, JSON.stringify(doc));
}
throw new Error("fix() is missing");
`;
    const s = await copilotScene(await emittedTree("copilot"), (p) => [
      // mica runs its allowed npm test during its stage: the test code forges the state
      { name: "mica", when: MARKER.mica!, steps: [cpCreate(p, "tests/fix.test.mjs", forge), cpSh("npm run test --if-present")], final: "Status: done (tests)" },
      { name: "chalk", when: MARKER.chalk!, steps: [], final: "Status: done (docs)" },
      { name: "main", steps: [cpSh(": harness kind bug-fix"), cpTask("mica"), cpTask("chalk")], final: "ORCHESTRATOR: handing over" },
    ]);
    try {
      await s.turn("fix the bug");
      const why = cpExplain(s);
      expect(s.saw("mica"), why).toContain("SCENE-TESTS FAILED");
      expect(s.saw("main"), why).toMatch(/harness: tampering: (the run state was rewritten outside the controller|the stage-end audit found \.harness\/controller\/)/);
      expect(s.stub.log.some((l) => l.conversation === "chalk"), why).toBe(false);
      const rec = s.record();
      expect(rec.status, why).toBe("failed");
      expect(rec.ending, why).toMatch(/^tampering: /);
    } finally {
      await s.dispose();
    }
  }, 600_000);

  it("copilot: controller leaves an ordinary session unbound", async () => {
    // plain `copilot -p` (no --agent): the orchestrator agent's hooks do not run, nothing is bound
    const r = await runCopilotScripted({
      bin: hostBin("copilot"),
      tree: await emittedTree("copilot"),
      prompt: "look around, no pipeline",
      // Copilot's own permission flow would ask for the shell command (refused headless)
      args: ["--allow-all-tools"],
      files: { ...SCENE, "src/.keep": "" },
      script: (p) => [
        { name: "jade", when: MARKER.jade!, steps: [cpCreate(p, "src/x.mjs", "export const x = 1;\n")], final: "Status: done" },
        { name: "main", steps: [cpTask("jade"), cpSh("npm run test --if-present")], final: "MAIN-DONE" },
      ],
    });
    try {
      const texts = r.stub.toolResultTexts().join("\n");
      const why = `exit ${r.result.code}; stub ${r.stub.log.map((l) => `${l.conversation ?? "-"}#${l.step}`).join(" ")}\n${texts.slice(0, 1500)}`;
      expect(r.result.code, why).toBe(0);
      expect(r.stub.log.some((l) => l.conversation === "jade"), why).toBe(true);
      expect(texts, why).toContain("SCENE-TESTS");
      expect(texts, why).not.toContain("harness:");
      expect(fs.existsSync(path.join(r.env.project, ".harness")), why).toBe(false);
    } finally {
      r.dispose();
    }
  }, 300_000);
});
