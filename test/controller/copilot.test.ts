// The generated Copilot CLI run controller, driven with the hook payloads Copilot CLI 1.0.102 sends to
// the orchestrator agent's front-matter hooks (adapters/copilot/controller.ts): its first prompt binds
// the session, task in order, every refusal as JSON on stdout, checks at subagentStop, the verdict on
// postToolUse of task, a main-session stage (its own session) counted from its documents.
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { renderCopilotController } from "../../adapters/copilot/controller.js";
import { PEBBLE, runController } from "./helpers.js";
import { SCRATCH } from "../helpers/scratch.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const LAUNCHER = ".github/copilot/bin/pebble.sh";
/** viaProcess: the hooks through node (a sample of the real process), else in this process */
function copilotScene(viaProcess = false) {
  const dir = fs.mkdtempSync(path.join(SCRATCH, "harness-ctl-cp-"));
  dirs.push(dir);
  const project = path.join(dir, "project"), home = path.join(dir, "home");
  fs.mkdirSync(home, { recursive: true });
  const script = path.join(project, ".github", "hooks", "harness-controller.cjs");
  fs.mkdirSync(path.dirname(script), { recursive: true });
  fs.writeFileSync(script, renderCopilotController(PEBBLE, "pebble", LAUNCHER, home));
  fs.writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "s", private: true, scripts: { test: "node t.js" } }));
  fs.writeFileSync(path.join(project, "t.js"), "process.exit(require('fs').existsSync('src/impl.js')?0:1);\n");
  const sid = randomUUID();
  const hook = (event: string, payload: Record<string, unknown>) => {
    const r = runController(script, event, JSON.stringify({ sessionId: sid, timestamp: Date.now(), cwd: project, ...payload }), { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, COPILOT_PROJECT_DIR: project }, viaProcess);
    const t = r.stdout.trim();
    return { code: r.code, out: t ? (JSON.parse(t) as Record<string, any>) : null, stderr: r.stderr };
  };
  const task = (role: string, mode = "sync") => hook("preToolUse", { toolName: "task", toolArgs: { agent_type: role, description: `run ${role}`, prompt: `Do the ${role} stage.`, mode, name: `${role}-stage` } });
  const sh = (command: string) => hook("preToolUse", { toolName: "bash", toolArgs: { command, description: "x" } });
  const child = (role: string) => ({ agentId: `a-${role}`, agentType: role, agentName: role, parentAgentId: sid });
  const put = (rel: string, t: string) => { fs.mkdirSync(path.dirname(path.join(project, rel)), { recursive: true }); fs.writeFileSync(path.join(project, rel), t); };
  return { project, sid, hook, task, sh, child, put };
}
const why = (a: { out: Record<string, any> | null }) => String(a.out?.permissionDecisionReason ?? a.out?.additionalContext ?? a.out?.reason ?? "");
const denied = (a: { out: Record<string, any> | null }) => a.out?.permissionDecision === "deny";

describe("copilot run controller", () => {
  it("binds the orchestrator's first prompt, refuses out of order as JSON, counts only the session's own approval", () => {
    const s = copilotScene();
    expect(why(s.hook("userPromptSubmitted", { prompt: "add impl" }))).toContain("started");
    expect(why(s.task("jade"))).toContain("work kind is not declared");
    expect(why(s.sh(": harness kind feature"))).toContain("recorded work kind feature");
    const early = s.task("slate");
    expect(early.code).toBe(0);
    expect(denied(early)).toBe(true);
    expect(why(early)).toMatch(/stage spec \(flint\) must come first/);
    // flint's own session wrote the spec: the run reached it, so it counts, and the gate waits
    s.put(".pebble/spec.md", "# Spec\n1. x\n");
    expect(why(s.task("slate"))).toContain(`${LAUNCHER} "approve spec" --resume=${s.sid}`);
    // a prompt with an agent id (a subagent's, model-written) approves nothing
    expect(s.hook("userPromptSubmitted", { prompt: "approve spec", ...s.child("slate") }).out).toBeNull();
    expect(why(s.task("slate"))).toContain("needs the human's approval first");
    expect(why(s.hook("userPromptSubmitted", { prompt: "approve spec" }))).toContain("the human approved the spec");
    expect(denied(s.task("slate", "background"))).toBe(true);
    expect(denied(s.task("slate"))).toBe(false);
    s.hook("subagentStart", s.child("slate"));
    s.put(".pebble/blueprint.md", "# Blueprint\n");
    expect(s.hook("subagentStop", { ...s.child("slate"), response: "Status: done", stopReason: "end_turn" }).out).toBeNull();
    const post = s.hook("postToolUse", { toolName: "task", toolArgs: { agent_type: "slate" }, toolResult: { resultType: "success", textResultForLlm: "Status: done" } });
    expect(why(post)).toMatch(/stage blueprint \(slate\) done/);
  });

  it("runs a check at subagentStop, sends the agent back within its retries, and keeps the orchestrator's own run off", () => {
    const s = copilotScene();
    s.hook("userPromptSubmitted", { prompt: "fix it" });
    s.sh(": harness kind bug-fix");
    expect(denied(s.task("mica"))).toBe(false);
    s.hook("subagentStart", s.child("mica"));
    s.put("src/impl.js", "x"); // the suite passes: sent back
    const back = s.hook("subagentStop", { ...s.child("mica"), response: "Status: done" });
    expect(back.out?.decision).toBe("block");
    expect(String(back.out?.reason)).toMatch(/check new-tests-fail: `npm run test --if-present` exited 0, expected to fail/);
    fs.rmSync(path.join(s.project, "src/impl.js"));
    expect(s.hook("subagentStop", { ...s.child("mica"), response: "Status: done" }).out).toBeNull();
    expect(why(s.hook("postToolUse", { toolName: "task", toolArgs: { agent_type: "mica" } }))).toMatch(/stage tests \(mica\) done; checks: new-tests-fail passed/);
    expect(why(s.sh("npm run test --if-present"))).toContain("is a check the run controller runs itself");
    expect(s.sh("git status --porcelain --untracked-files=all").out).toBeNull();
    // a tool the controller does not judge gets no answer after the run's start
    expect(s.hook("postToolUse", { toolName: "bash", toolArgs: { command: "ls" } }).out).toBeNull();
  });

  it("fails closed with a JSON refusal on input it cannot read", () => {
    const s = copilotScene(true);
    const r = spawnSync(process.execPath, [path.join(s.project, ".github/hooks/harness-controller.cjs"), "preToolUse"], { input: "not json", encoding: "utf8" });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ permissionDecision: "deny" });
    expect(s.hook("preToolUse", { sessionId: "", toolName: "bash", toolArgs: { command: "ls" } }).out?.permissionDecision).toBe("deny");
  });
});
