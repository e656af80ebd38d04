// The generated Codex run controller, driven with the hook payloads Codex 0.171.0 sends (process-
// enforcement report §4.1): bound from `$pebble`, spawn_agent in order, a spawned agent's prompt
// never counts, checks at SubagentStop, the verdict on multi_agent_v1wait_agent, an unbound session.
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { codexControllerHookCommand, renderCodexController } from "../../adapters/codex/controller.js";
import { PEBBLE, runController } from "./helpers.js";
import { SCRATCH } from "../helpers/scratch.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** viaProcess: the hooks through node (a sample of the real process), else in this process */
function codexScene(viaProcess = false) {
  const dir = fs.mkdtempSync(path.join(SCRATCH, "harness-ctl-cx-"));
  dirs.push(dir);
  const project = path.join(dir, "project"), home = path.join(dir, "home");
  fs.mkdirSync(home, { recursive: true });
  const script = path.join(project, ".codex", "hooks", "harness-controller.cjs");
  fs.mkdirSync(path.dirname(script), { recursive: true });
  fs.writeFileSync(script, renderCodexController(PEBBLE, home));
  fs.writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "s", private: true, scripts: { test: "node t.js" } }));
  fs.writeFileSync(path.join(project, "t.js"), "process.exit(require('fs').existsSync('src/impl.js')?0:1);\n");
  spawnSync("git", ["init", "-q"], { cwd: project });
  const sid = randomUUID();
  const hook = (event: string, payload: Record<string, unknown>) => {
    const r = runController(script, event, JSON.stringify({ session_id: sid, turn_id: randomUUID(), cwd: project, hook_event_name: event, ...payload }), { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, CODEX_HOME: path.join(home, ".codex") }, viaProcess);
    const t = r.stdout.trim();
    return { code: r.code, out: t ? (JSON.parse(t) as Record<string, any>) : null, stderr: r.stderr };
  };
  const spawn = (role: string, extra: Record<string, unknown> = {}) => hook("PreToolUse", { tool_name: "spawn_agent", tool_input: { message: `Do the ${role} stage.`, agent_type: role, fork_turns: "none" }, ...extra });
  const sh = (command: string, extra: Record<string, unknown> = {}) => hook("PreToolUse", { tool_name: "Bash", tool_input: { command }, ...extra });
  return { dir, project, home, sid, hook, spawn, sh, put: (rel: string, t: string) => { fs.mkdirSync(path.dirname(path.join(project, rel)), { recursive: true }); fs.writeFileSync(path.join(project, rel), t); } };
}
const why = (a: { out: Record<string, any> | null }) => String(a.out?.hookSpecificOutput?.permissionDecisionReason ?? a.out?.hookSpecificOutput?.additionalContext ?? a.out?.reason ?? "");
const denied = (a: { out: Record<string, any> | null }) => a.out?.hookSpecificOutput?.permissionDecision === "deny";

describe("codex run controller", () => {
  it("leaves an ordinary session unbound, and /pebble (Claude Code's spelling) binds nothing", () => {
    const s = codexScene(true);
    expect(s.hook("UserPromptSubmit", { prompt: "/pebble add impl" }).out).toBeNull();
    expect(s.spawn("jade").out).toBeNull();
    expect(fs.existsSync(path.join(s.project, ".harness"))).toBe(false);
  });

  it("binds on $pebble, refuses out of order, ignores a spawned agent's 'approve spec', approves from the human's resume", () => {
    const s = codexScene();
    expect(why(s.hook("UserPromptSubmit", { prompt: "$pebble add impl" }))).toContain("started");
    expect(why(s.spawn("jade"))).toContain("work kind is not declared");
    expect(why(s.sh(": harness kind bug-fix"))).toContain("recorded work kind bug-fix");
    expect(why(s.spawn("jade"))).toMatch(/stage tests \(mica\) must come first/);
    // mica's stage: spawned, the child's own prompt hook (model-written) does not approve anything
    expect(denied(s.spawn("mica"))).toBe(false);
    expect(s.hook("UserPromptSubmit", { prompt: "approve spec", agent_id: "a-mica", agent_type: "mica" }).out).toBeNull();
    s.hook("SubagentStart", { agent_id: "a-mica", agent_type: "mica" });
    s.put("src/impl.js", "x"); // the suite passes: sent back
    const back = s.hook("SubagentStop", { agent_id: "a-mica", agent_type: "mica", last_assistant_message: "Status: done", stop_hook_active: false });
    expect(back.out?.decision).toBe("block");
    expect(String(back.out?.reason)).toMatch(/check new-tests-fail: `npm run test --if-present` exited 0, expected to fail/);
    fs.rmSync(path.join(s.project, "src/impl.js"));
    expect(s.hook("SubagentStop", { agent_id: "a-mica", agent_type: "mica", last_assistant_message: "Status: done", stop_hook_active: true }).out).toBeNull();
    // the verdict on wait_agent (tool_response is a JSON string)
    const waited = s.hook("PostToolUse", { tool_name: "multi_agent_v1wait_agent", tool_input: { targets: ["a-mica"], timeout_ms: 30000 }, tool_response: JSON.stringify({ status: { "a-mica": { completed: "Status: done" } }, timed_out: false }) });
    expect(why(waited)).toMatch(/stage tests \(mica\) done; checks: new-tests-fail passed/);
    // the orchestrator's own test run is the controller's
    expect(why(s.sh("npm run test --if-present"))).toContain("is a check the run controller runs itself");
    expect(s.sh("git status --porcelain --untracked-files=all").out).toBeNull();
  });

  it("holds a main-session stage's first apply_patch to its document in order, and prints the resume command at a gate", () => {
    const s = codexScene();
    s.hook("UserPromptSubmit", { prompt: "$pebble add impl" });
    s.sh(": harness kind feature");
    const patch = (rel: string) => `apply_patch <<'PATCH'\n*** Begin Patch\n*** Add File: ${path.join(s.project, rel)}\n+x\n*** End Patch\nPATCH`;
    expect(why(s.sh(patch(".pebble/review.md")))).toContain("not yet time for stage review (onyx)");
    expect(denied(s.sh(patch(".pebble/spec.md")))).toBe(false);
    s.put(".pebble/spec.md", "# Spec\n");
    expect(why(s.spawn("slate"))).toContain(`codex exec resume ${s.sid} "$pebble approve spec"`);
    expect(why(s.hook("UserPromptSubmit", { prompt: "approve spec" }))).toContain("the human approved the spec");
    expect(denied(s.spawn("slate"))).toBe(false);
  });

  it("the hook line exits in the shell for a project with no controller folder, and reaches node for one with it", () => {
    const s = codexScene(true);
    fs.writeFileSync(path.join(s.project, ".codex/hooks/harness-controller.cjs"), 'process.stdout.write("{\\"ran\\":1}");\n');
    const line = (event: string) => spawnSync("/bin/sh", ["-c", codexControllerHookCommand(event)], { cwd: s.project, input: "{}", encoding: "utf8", env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } }).stdout.trim();
    expect(line("PreToolUse")).toBe("");
    expect(line("UserPromptSubmit")).toBe('{"ran":1}');
    fs.mkdirSync(path.join(s.project, ".harness/controller"), { recursive: true });
    expect(line("PreToolUse")).toBe('{"ran":1}');
  });
});
