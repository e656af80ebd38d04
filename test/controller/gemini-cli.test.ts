// The generated Gemini CLI run controller, driven with the hook payloads Gemini CLI 0.61.0 sends
// (enforce-out-controller-gemini.test.ts runs the real host): bound by the pipeline command's exact
// expanded text, invoke_agent in order, a subagent's calls counted as its own, the stage end at
// AfterTool on invoke_agent, and a failed check allowing only the re-invocation, its prompt extended.
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { renderGeminiController } from "../../adapters/gemini-cli/controller.js";
import { PEBBLE, runController } from "./helpers.js";
import { SCRATCH } from "../helpers/scratch.js";

const ENTRY = "# Pebble: orchestrator (the command's text)\n\n## The request\n\n";
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** viaProcess: the hooks through node (a sample of the real process), else in this process */
function geminiScene(viaProcess = false) {
  const dir = fs.mkdtempSync(path.join(SCRATCH, "harness-ctl-gm-"));
  dirs.push(dir);
  const project = path.join(dir, "project"), home = path.join(dir, "home");
  fs.mkdirSync(home, { recursive: true });
  const script = path.join(project, ".gemini", "hooks", "harness-controller.cjs");
  fs.mkdirSync(path.dirname(script), { recursive: true });
  fs.writeFileSync(script, renderGeminiController(PEBBLE, ENTRY, "gemini --policy .gemini/policies", home));
  fs.writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "s", private: true, scripts: { test: "node t.js" } }));
  fs.writeFileSync(path.join(project, "t.js"), "process.exit(require('fs').existsSync('src/impl.js')?0:1);\n");
  const sid = randomUUID();
  const hook = (event: string, payload: Record<string, unknown>) => {
    const r = runController(script, event, JSON.stringify({ session_id: sid, cwd: project, hook_event_name: event, ...payload }), { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, GEMINI_PROJECT_DIR: project, GEMINI_SESSION_ID: sid }, viaProcess);
    const t = r.stdout.trim();
    return { code: r.code, out: t ? (JSON.parse(t) as Record<string, any>) : null, stderr: r.stderr };
  };
  const invoke = (role: string, prompt = `Do the ${role} stage.`) => hook("BeforeTool", { tool_name: "invoke_agent", tool_input: { agent_name: role, prompt } });
  const ended = (role: string, result: string) => hook("AfterTool", { tool_name: "invoke_agent", tool_input: { agent_name: role, prompt: "x" }, tool_response: { llmContent: [{ text: `Subagent '${role}' finished.\nTermination Reason: GOAL\nResult:\n${result}` }] } });
  const sh = (command: string) => hook("BeforeTool", { tool_name: "run_shell_command", tool_input: { command } });
  return { project, hook, invoke, ended, sh, put: (rel: string, t: string) => { fs.mkdirSync(path.dirname(path.join(project, rel)), { recursive: true }); fs.writeFileSync(path.join(project, rel), t); } };
}
const why = (a: { out: Record<string, any> | null }) => String(a.out?.reason ?? a.out?.hookSpecificOutput?.additionalContext ?? "");

describe("gemini-cli run controller", () => {
  it("binds only on the command's exact expanded text: /pebble as typed, or the text changed, binds nothing", () => {
    const s = geminiScene(true);
    expect(s.hook("BeforeAgent", { prompt: "/pebble add impl" }).out).toBeNull();
    expect(s.hook("BeforeAgent", { prompt: ENTRY.replace("orchestrator", "0rchestrator") + "add impl\n" }).out).toBeNull();
    expect(s.invoke("jade").out).toBeNull();
    expect(fs.existsSync(path.join(s.project, ".harness"))).toBe(false);
    expect(why(s.hook("BeforeAgent", { prompt: `${ENTRY}add impl\n` }))).toContain("started");
    expect(why(s.invoke("jade"))).toContain("work kind is not declared");
  });

  it("counts a subagent's calls as its own, and sends a failed stage back through its re-invocation", () => {
    const s = geminiScene();
    s.hook("BeforeAgent", { prompt: `${ENTRY}fix it\n` });
    expect(why(s.sh(": harness kind bug-fix"))).toContain("recorded work kind bug-fix");
    expect(s.invoke("mica").out).toBeNull();
    // mica's own test run and its kind step (BeforeTool names no agent: the running stage's)
    expect(s.sh("npm run test --if-present").out).toBeNull();
    expect(why(s.sh(": harness kind feature"))).toContain("only the orchestrator declares");
    expect(why(s.hook("BeforeTool", { tool_name: "write_file", tool_input: { file_path: ".pebble/review.md", content: "x" } }))).toContain("stage tests (mica) is running");
    s.put("src/impl.js", "x"); // the suite passes where it must fail
    const end = s.ended("mica", "Status: done");
    expect(end.out?.decision).toBe("block");
    expect(why(end)).toMatch(/stage tests \(mica\) failed: check new-tests-fail: `npm run test --if-present` exited 0, expected to fail.*May run now: stage tests \(mica\)/);
    expect(why(s.invoke("jade"))).toMatch(/stage tests \(mica\) must come first \(it is failed/);
    const again = s.invoke("mica", "Try again.");
    expect(again.out?.hookSpecificOutput?.tool_input?.agent_name).toBe("mica");
    expect(String(again.out?.hookSpecificOutput?.tool_input?.prompt)).toMatch(/^Try again\.\n\nharness: the run controller sent stage tests \(mica\) back: check new-tests-fail/);
    fs.rmSync(path.join(s.project, "src/impl.js"));
    expect(why(s.ended("mica", "Status: done"))).toMatch(/stage tests \(mica\) done; checks: new-tests-fail passed/);
    // the retries are used: the orchestrator's own run of the check is refused, jade may start
    expect(why(s.sh("npm run test --if-present"))).toContain("is a check the run controller runs itself");
    expect(s.invoke("jade").out).toBeNull();
  });

  it("a stage whose AfterTool never came (refused after the hook, or cancelled) runs again after the turn", () => {
    const s = geminiScene();
    s.hook("BeforeAgent", { prompt: `${ENTRY}fix it\n` });
    s.sh(": harness kind bug-fix");
    expect(s.invoke("mica").out).toBeNull();
    expect(why(s.invoke("mica"))).toContain("it is already running");
    s.hook("AfterAgent", { prompt: "x", prompt_response: "done", stop_hook_active: false });
    // nothing runs now: the orchestrator's own calls are its again
    expect(why(s.sh(": harness kind feature"))).toContain("already bug-fix");
    expect(s.invoke("mica").out).toBeNull();
  });

  it("approves from the human's prompt and prints the resume command at a gate", () => {
    const s = geminiScene();
    s.hook("BeforeAgent", { prompt: `${ENTRY}add impl\n` });
    s.sh(": harness kind feature");
    expect(s.hook("BeforeTool", { tool_name: "write_file", tool_input: { file_path: ".pebble/spec.md", content: "# Spec\n" } }).out).toBeNull();
    s.put(".pebble/spec.md", "# Spec\n");
    expect(why(s.invoke("slate"))).toMatch(/headless: gemini --policy \.gemini\/policies --resume [0-9a-f-]+ -p "\/pebble approve spec"/);
    expect(why(s.hook("BeforeAgent", { prompt: `${ENTRY}approve spec\n` }))).toContain("the human approved the spec");
    expect(s.invoke("slate").out).toBeNull();
  });
});
