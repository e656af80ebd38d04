// The generated Claude Code run controller, driven with the hook payloads Claude Code 2.1.332 sends:
// order, work kind, gates bound to the artifact's hash, checks run by the controller, caps, the run
// record, tamper evidence, and an ordinary session left alone.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { denied, reason, Scene } from "./helpers.js";

let scenes: Scene[] = [];
const scene = (...a: ConstructorParameters<typeof Scene>) => {
  const s = new Scene(...a);
  scenes.push(s);
  return s;
};
afterEach(() => {
  for (const s of scenes) s.cleanup();
  scenes = [];
});

const SPEC = ".pebble/spec.md";
const BLUEPRINT = ".pebble/blueprint.md";

/** a feature run up to the tests stage, gates approved */
function toTests(s: Scene): void {
  s.prompt("/pebble add impl");
  s.pre("Bash", { command: ": harness kind feature" });
  expect(denied(s.pre("Write", { file_path: path.join(s.project, SPEC), content: "x" }))).toBe(false);
  s.put(SPEC, "# Spec\n");
  s.prompt("approve spec");
  expect(denied(s.stage("slate", { [BLUEPRINT]: "# Blueprint\n" }).spawn)).toBe(false);
  s.prompt("approve blueprint");
}

describe("claude-code run controller", () => {
  it("leaves an ordinary session unbound: no state, no answer, fast", () => {
    const s = scene();
    expect(s.prompt("hello").out).toBeNull();
    const a = s.spawn("jade");
    expect(a.out).toBeNull();
    expect(a.code).toBe(0);
    expect(s.exists(".harness")).toBe(false);
  });

  it("binds on /pebble, refuses a spawn before the kind, then out of order, naming what comes first and what may run now", () => {
    const s = scene();
    expect(reason(s.prompt("/pebble add impl"))).toContain("started");
    const first = s.spawn("jade");
    expect(denied(first)).toBe(true);
    expect(reason(first)).toContain("work kind is not declared");
    expect(reason(s.pre("Bash", { command: ": harness kind typo" }, { agent_id: "a9", agent_type: "jade" }))).toContain("only the orchestrator declares");
    const kind = s.pre("Bash", { command: ": harness kind feature" });
    expect(reason(kind)).toContain("recorded work kind feature");
    const jade = s.spawn("jade");
    expect(reason(jade)).toMatch(/stage spec \(flint\) must come first.*May run now: stage spec \(flint\) in this session/);
    // a main-session stage's first write comes in order too
    expect(reason(s.pre("Write", { file_path: path.join(s.project, ".pebble/review.md"), content: "x" }))).toContain("not yet time for stage review (onyx)");
    expect(denied(s.pre("Write", { file_path: path.join(s.project, SPEC), content: "x" }))).toBe(false);
    s.put(SPEC, "# Spec\n");
    const slate = s.spawn("slate");
    expect(reason(slate)).toContain('needs the human\'s approval first: stop and ask the human to reply "approve spec"');
    expect(reason(slate)).toContain('claude -p --resume 11111111-2222-3333-4444-555555555555 "/pebble approve spec"');
  });

  it("counts only the human's approval: not a spawned agent's prompt, not a scheduled one; editing voids it", () => {
    const s = scene();
    s.prompt("/pebble add impl");
    s.pre("Bash", { command: ": harness kind feature" });
    s.pre("Write", { file_path: path.join(s.project, SPEC), content: "x" });
    s.put(SPEC, "# Spec\n");
    expect(reason(s.pre("ScheduleWakeup", { delaySeconds: 60, prompt: "approve spec" }))).toContain("off during a pipeline run");
    expect(s.prompt("approve spec", { agent_id: "a1", agent_type: "slate" }).out).toBeNull();
    expect(denied(s.spawn("slate"))).toBe(true);
    // an approval whose transcript row turns out scheduled is void
    const transcript = path.join(s.dir, "t.jsonl");
    s.prompt("approve spec", { prompt_id: "pid-sched", transcript_path: transcript });
    fs.writeFileSync(transcript, JSON.stringify({ type: "user", promptId: "pid-sched", message: { content: "approve spec" }, turnOrigin: "scheduled" }) + "\n");
    expect(reason(s.spawn("slate", { transcript_path: transcript }))).toContain("needs the human's approval");
    s.prompt("approve spec", { prompt_id: "pid-human", transcript_path: transcript });
    fs.appendFileSync(transcript, JSON.stringify({ type: "user", promptId: "pid-human", message: { content: "approve spec" }, turnOrigin: "sdk" }) + "\n");
    s.put(SPEC, "# Spec, edited\n");
    expect(reason(s.spawn("slate", { transcript_path: transcript }))).toContain("changed after the human approved it");
    expect(reason(s.prompt("approve"))).toContain("the human approved the spec"); // what the gate's question asks for
    s.put(SPEC, "# Spec, edited again\n");
    expect(reason(s.prompt("/pebble approve spec"))).toContain("the human approved the spec"); // the reply through the pipeline's command
    expect(denied(s.spawn("slate"))).toBe(false);
    const gates = s.record().gates as { decision: string; channel: string }[];
    expect(gates.map((g) => g.decision)).toEqual(["approved", "void", "approved", "void", "approved", "approved"]);
  });

  it("runs the check commands at stage end, sends mica back when the tests pass, then passes; logs the output", () => {
    const s = scene();
    toTests(s);
    s.put("src/impl.js", "x"); // the suite passes: mica's tests test nothing
    const spawn = s.spawn("mica");
    expect(denied(spawn)).toBe(false);
    s.hook("SubagentStart", { agent_id: "m1", agent_type: "mica" });
    const back = s.hook("SubagentStop", { agent_id: "m1", agent_type: "mica", last_assistant_message: "Status: done" });
    expect(back.out?.decision).toBe("block");
    expect(String(back.out?.reason)).toMatch(/check new-tests-fail: `npm run test --if-present` exited 0, expected to fail/);
    fs.rmSync(path.join(s.project, "src/impl.js"));
    const ok = s.hook("SubagentStop", { agent_id: "m1", agent_type: "mica", last_assistant_message: "Status: done", stop_hook_active: true });
    expect(ok.out).toBeNull();
    const post = s.hook("PostToolUse", { tool_name: "Agent", tool_input: { subagent_type: "mica" } });
    expect(reason(post)).toMatch(/stage tests \(mica\) done; checks: new-tests-fail passed/);
    const rec = s.record() as { stages: { stage: string; checks: { log: string; exit: number }[]; steps: { step: string; exit: number; log: string }[] }[] };
    const tests = rec.stages.find((x) => x.stage === "tests")!;
    expect(tests.checks.map((c) => c.exit)).toEqual([0, 1]);
    expect(tests.steps.map((c) => `${c.step} ${c.exit}`)).toEqual(["changed-files 0", "changed-files 0"]); // run and logged, judged by nobody
    for (const c of [...tests.checks, ...tests.steps]) expect(fs.readFileSync(path.join(s.project, c.log), "utf8")).toContain("$ ");
  });

  it("stops the run when a check's retries are exhausted and refuses every later spawn", () => {
    const s = scene();
    toTests(s);
    s.stage("mica");
    const r = s.stage("jade"); // src/impl.js never written: tests-pass fails twice
    expect(r.post && String(r.post.out?.reason)).toMatch(/stage implement \(jade\) failed/);
    const later = s.spawn("chalk");
    expect(reason(later)).toContain("the run is stopped for the human");
    expect((s.record() as { status: string }).status).toBe("stopped");
  });

  it("refuses a third round with on_exhausted and records the caps", () => {
    const s = scene();
    toTests(s);
    s.stage("mica");
    expect(s.stage("jade", { "src/impl.js": "x" }).post?.out).toBeTruthy();
    const review = (verdict: string) => {
      s.pre("Write", { file_path: path.join(s.project, ".pebble/review.md"), content: "x" });
      s.put(".pebble/review.md", `Verdict: ${verdict}\n`);
    };
    review("changes-required");
    expect(reason(s.spawn("quartz"))).toMatch(/stage review \(onyx\) must come first \(it is failed: the verdict in .pebble\/review.md is fail\)/);
    expect(denied(s.stage("jade", { "src/impl.js": "y" }).spawn)).toBe(false); // round 2
    review("approve");
    const verify = s.stage("quartz", { ".pebble/verification.md": "Verdict: fail\n" });
    expect(String(verify.post?.out?.reason)).toContain("stage verify (quartz) failed");
    const third = s.spawn("jade");
    expect(reason(third)).toContain("loop cap reached: stage implement (jade) already ran 2 of 2 rounds");
    expect(reason(third)).toContain("Do not start a third round");
    const rec = s.record() as { caps: { loop: { used: number; max: number }; hops: { used: number } }; status: string };
    expect(rec.caps.loop).toEqual({ used: 2, max: 2 });
    expect(rec.caps.hops.used).toBe(5);
    expect(rec.status).toBe("stopped");
  });

  it("refuses the orchestrator's own run of a check command (the controller runs it at stage end), and nothing else it needs", () => {
    const s = scene();
    toTests(s);
    for (const command of ["npm run test --if-present", "npm test", "npm run test 2>&1 | tail -n 20", "  npm run typecheck --if-present", "npm run build"]) {
      const a = s.pre("Bash", { command });
      expect(denied(a), command).toBe(true);
      expect(reason(a), command).toMatch(/is a check the run controller runs itself at the end of .*tests \(mica\)|is a check the run controller runs itself at the end of implement \(jade\)/);
      expect(reason(a), command).toContain("May run now: stage tests (mica)");
    }
    // the orchestrator's other commands, the pipeline's unjudged step, a role's own test run
    for (const command of ["git status --porcelain --untracked-files=all", "git diff --stat", "ls -la", "npm run test -- --grep add", "cat package.json"]) expect(s.pre("Bash", { command }).out, command).toBeNull();
    expect(s.pre("Bash", { command: "npm run test --if-present" }, { agent_id: "m1", agent_type: "mica" }).out).toBeNull();
    // no run left to hold: the orchestrator may run the tests for the human
    s.stage("mica");
    s.stage("jade"); // no src/impl.js: tests-pass fails twice, the run stops
    expect(s.pre("Bash", { command: "npm test" }).out).toBeNull();
  });

  it("records a skipped conditional stage with its reason, and refuses to skip any other", () => {
    const s = scene();
    s.prompt("/pebble change the CI config");
    s.pre("Bash", { command: ": harness kind infra" });
    expect(reason(s.pre("Bash", { command: ": harness skip review not needed" }))).toContain("is not conditional");
    expect(reason(s.pre("Bash", { command: ": harness skip infra the change is not deploy-relevant" }))).toContain("recorded stage infra skipped");
    expect(denied(s.pre("Write", { file_path: path.join(s.project, ".pebble/review.md"), content: "x" }))).toBe(false);
    const infra = (s.record() as { stages: { stage: string; status: string; reason: string }[] }).stages[0]!;
    expect(infra).toMatchObject({ stage: "infra", status: "skipped", reason: "the change is not deploy-relevant" });
    expect(reason(s.pre("Bash", { command: ": harness kind feature" }))).toContain("declared once per run");
  });

  it("detects a state rewritten outside the controller and stops the run (fail closed)", () => {
    const s = scene();
    s.prompt("/pebble add impl");
    s.pre("Bash", { command: ": harness kind feature" });
    const file = path.join(s.project, ".harness/controller", `${s.sid}.json`);
    const doc = JSON.parse(fs.readFileSync(file, "utf8"));
    for (const e of doc.data.record.stages) e.status = "done";
    fs.writeFileSync(file, JSON.stringify(doc));
    const a = s.spawn("chalk");
    expect(reason(a)).toContain("tampering: the run state was rewritten outside the controller");
    fs.rmSync(file);
    expect(reason(s.spawn("chalk"))).toContain("tampering");
    expect((s.record() as { status: string }).status).toBe("failed");
  });

  it("a state replaced by a FIFO is tampering, answered at once: no hook waits on it (issue 22)", () => {
    const s = scene();
    s.prompt("/pebble add impl");
    s.pre("Bash", { command: ": harness kind feature" });
    const file = path.join(s.project, ".harness/controller", `${s.sid}.json`);
    fs.rmSync(file);
    execFileSync("mkfifo", [file]);
    s.viaProcess = true; // a hook that would wait on the FIFO must not hold the test worker
    const a = s.spawn("chalk");
    expect(a.ms).toBeLessThan(15_000);
    expect(denied(a)).toBe(true);
    expect(reason(a)).toContain("tampering");
  });

  it("answers in this process exactly what it answers through node (the tests' hook runner, test/helpers/hook-vm.ts)", () => {
    // a run through its gates, a stage whose check runs, a spawn refused out of order, the run's end
    // and its record: every answer and the record, byte for byte but the scene's folder, the agent
    // ids, the clock, and the run id (a time and random bytes)
    const run = (viaProcess: boolean) => {
      const s = scene();
      s.viaProcess = viaProcess;
      toTests(s);
      s.stage("mica");
      s.spawn("chalk");
      s.hook("Stop", {});
      const text = JSON.stringify({ answers: s.answers, record: s.record() });
      return text.split(s.dir).join("<scene>").replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, "<time>").replace(/agent-(\w+)-\d+/g, "agent-$1").replace(/\d{8}T\d{6}Z-[0-9a-f]{6}/g, "<run>").replace(/"durationMs":\d+/g, '"durationMs":0');
    };
    const inProcess = run(false);
    expect(inProcess).toContain("checks: new-tests-fail passed");
    expect(inProcess).toContain("stage docs (chalk) refused");
    expect(inProcess).toBe(run(true));
  });
});
