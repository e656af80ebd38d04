// The run controller's state cannot be switched off from inside the project: not by a HOME from the
// settings' env (the record outside the project lives in the account's home from the passwd
// database), not by code a stage runs that rewrites or deletes .harness/controller/ (the stage-end
// audit treats it as controller-owned: a change the controller did not make fails the stage and
// stops the run). Claude Code 2.1.332 payloads, the generated controller and audit scripts.
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { controllerHookCommand } from "../../adapters/claude-code/controller.js";
import { denied, PEBBLE, reason, Scene } from "./helpers.js";

let scenes: Scene[] = [];
const witnesses: string[] = [];
afterEach(() => {
  for (const s of scenes) s.cleanup();
  for (const w of witnesses.splice(0)) fs.rmSync(w, { force: true });
  scenes = [];
});
const scene = (accountHome = false) => {
  const s = new Scene(randomUUID(), {}, PEBBLE, accountHome);
  scenes.push(s);
  if (accountHome) witnesses.push(path.join(os.userInfo().homedir, ".local", "state", "harness", "sessions", s.sid));
  return s;
};
const stateFile = (s: Scene) => path.join(s.project, ".harness", "controller", `${s.sid}.json`);
/** the settings.json hook line for PreToolUse, run the way the host runs it (sh -c), with the hook env */
function shellHook(s: Scene, payload: Record<string, unknown>, env: Record<string, string>): { code: number; out: Record<string, unknown> | null; stderr: string } {
  const r = spawnSync("/bin/sh", ["-c", controllerHookCommand("PreToolUse", true)], {
    input: JSON.stringify({ session_id: s.sid, cwd: s.project, hook_event_name: "PreToolUse", ...payload }),
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", CLAUDE_PROJECT_DIR: s.project, CLAUDE_CODE_SESSION_ID: s.sid, ...env },
  });
  const text = r.stdout.trim();
  return { code: r.status ?? -1, out: text ? (JSON.parse(text) as Record<string, unknown>) : null, stderr: r.stderr };
}
const shellReason = (a: { out: Record<string, unknown> | null }) => String(((a.out?.hookSpecificOutput ?? {}) as Record<string, unknown>).permissionDecisionReason ?? "");

/** a bug-fix run with mica's stage started (controller and audit both saw the start) */
function micaRunning(s: Scene): void {
  s.prompt("/pebble fix the bug");
  s.pre("Bash", { command: ": harness kind bug-fix" });
  expect(denied(s.spawn("mica"))).toBe(false);
  s.auditHook("start", { agent_id: "m1", agent_type: "mica" });
  s.hook("SubagentStart", { agent_id: "m1", agent_type: "mica" });
}

describe("claude-code run controller: its state stays the controller's", () => {
  it("keeps its record in the account's home: a HOME from the settings' env and a deleted state still stop the run, in the shell line and in node", () => {
    const s = scene(true);
    s.prompt("/pebble add impl");
    s.pre("Bash", { command: ": harness kind feature" });
    expect(fs.existsSync(witnesses[0]!)).toBe(true);
    expect(fs.existsSync(path.join(s.home, ".local"))).toBe(false); // not in the HOME the hook was given
    fs.rmSync(stateFile(s)); // code an allowed command ran
    const other = path.join(s.dir, "elsewhere");
    const sh = shellHook(s, { tool_name: "Agent", tool_input: { subagent_type: "jade" } }, { HOME: other });
    expect(shellReason(sh)).toContain("tampering: the run state");
    expect(shellReason(sh)).toContain("was deleted");
    expect(reason(s.spawn("jade"))).toContain("tampering");
    expect(denied(s.hook("PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" } }, { HOME: other }))).toBe(true);
  });

  it("leaves an ordinary session on the shell's early exit, whatever HOME says", () => {
    const s = scene(true);
    // a script that would answer if node ran: the early exit must not reach it
    fs.writeFileSync(s.script, 'process.stdout.write("{\\"ran\\":1}");\n');
    for (const HOME of [s.home, "/nonexistent", ""]) {
      const a = shellHook(s, { tool_name: "Bash", tool_input: { command: "ls" } }, { HOME });
      expect(a.out).toBeNull();
      expect(a.code).toBe(0);
    }
  });

  it("the audit accepts the controller's own writes during a stage", () => {
    const s = scene();
    micaRunning(s);
    s.put("tests/x.test.js", "fails\n");
    const stop = s.hook("SubagentStop", { agent_id: "m1", agent_type: "mica", last_assistant_message: "Status: done" }); // runs npm test, saves the state
    expect(stop.out).toBeNull();
    const audit = s.auditHook("stop", { agent_id: "m1", agent_type: "mica" });
    expect(audit.stderr).toBe("");
    expect(reason(s.hook("PostToolUse", { tool_name: "Agent", tool_input: { subagent_type: "mica" } }))).toMatch(/stage tests \(mica\) done/);
    expect(denied(s.spawn("jade"))).toBe(false);
  });

  it("the audit fails a stage whose code rewrote the state, puts it back, and the run stops at the controller's next hook", () => {
    const s = scene();
    micaRunning(s);
    const doc = JSON.parse(fs.readFileSync(stateFile(s), "utf8"));
    for (const e of doc.data.record.stages) e.status = "done";
    fs.writeFileSync(stateFile(s), JSON.stringify(doc));
    const audit = s.auditHook("stop", { agent_id: "m1", agent_type: "mica" });
    expect(audit.stderr).toContain(`.harness/controller/${s.sid}.json`);
    expect(JSON.parse(fs.readFileSync(stateFile(s), "utf8")).data.record.stages[0].status).not.toBe("done");
    expect(reason(s.spawn("chalk"))).toMatch(/tampering: the stage-end audit found \.harness\/controller\/.*changed outside the controller/);
    expect((s.record() as { status: string }).status).toBe("failed");
  });

  it("the audit catches a stage's code deleting the state and the controller's record outside the project alike", () => {
    const s = scene();
    micaRunning(s);
    fs.rmSync(stateFile(s));
    fs.rmSync(path.join(s.home, ".local", "state", "harness", "sessions", s.sid));
    const audit = s.auditHook("stop", { agent_id: "m1", agent_type: "mica" });
    expect(audit.stderr).toContain(`.harness/controller/${s.sid}.json`);
    expect(fs.existsSync(stateFile(s))).toBe(true); // put back: the session stays bound
    const next = s.spawn("jade");
    expect(reason(next)).toMatch(/tampering: the stage-end audit found .* it was deleted/);
  });

  it("the audit refuses a state file the controller never wrote", () => {
    const s = scene();
    micaRunning(s);
    const forged = path.join(s.project, ".harness", "controller", "22222222-0000-0000-0000-000000000000.json");
    fs.writeFileSync(forged, JSON.stringify({ mac: "0".repeat(64), data: {} }));
    const audit = s.auditHook("stop", { agent_id: "m1", agent_type: "mica" });
    expect(audit.stderr).toContain("22222222-0000-0000-0000-000000000000.json");
    expect(fs.existsSync(forged)).toBe(false);
  });
});
