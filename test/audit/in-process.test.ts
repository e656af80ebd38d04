// The audit tests run the generated script in the test's process (test/helpers/hook-vm.ts), not
// through node: this sample runs one session both ways and compares every answer and the tree left.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { withRepo, type Repo } from "./helpers.js";

const BASE = { "src/a.ts": "a\n", "tests/a.test.ts": "t\n", "docs/guide.md": "g\n", "README.md": "r\n" };

/** a stage with writes in and out of scope, its report, the orchestrator's own step, a second stage */
function session(r: Repo): string {
  const out: unknown[] = [];
  const run = (mode: string, input: unknown) => {
    const a = r.run(mode, input);
    out.push({ mode, code: a.code, stdout: a.stdout, stderr: a.stderr });
  };
  run("start", { hook_event_name: "SubagentStart", agent_id: "s1", agent_type: "jade", session_id: "sess" });
  r.put("src/b.ts", "b\n");
  r.put("tests/a.test.ts", "changed\n");
  r.put("tests/new/deep.test.ts", "new\n");
  fs.rmSync(path.join(r.dir, "README.md"));
  run("stop", { hook_event_name: "SubagentStop", agent_id: "s1", agent_type: "jade", stop_hook_active: false, session_id: "sess" });
  run("report", { hook_event_name: "PostToolUse", tool_name: "Agent", tool_input: { subagent_type: "jade" }, tool_response: { status: "completed", agentId: "s1", agentType: "jade" } });
  r.put("docs/late.md", "written by the orchestrator's command\n");
  run("between", { hook_event_name: "PostToolUse", session_id: "sess", tool_name: "Bash", tool_input: { command: "npm test" } });
  run("start", { hook_event_name: "SubagentStart", agent_id: "s2", agent_type: "mica", session_id: "sess" });
  r.put("tests/b.test.ts", "b\n");
  r.put("src/c.ts", "c\n");
  run("stop", { hook_event_name: "SubagentStop", agent_id: "s2", agent_type: "mica", stop_hook_active: false, session_id: "sess" });
  run("report", { hook_event_name: "PostToolUse", tool_name: "Agent", tool_input: { subagent_type: "mica" }, tool_response: { status: "completed", agentId: "s2", agentType: "mica" } });
  run("report", "not json");
  const tree = r.git("ls-files", "-c", "-o", "--exclude-standard").split("\n").sort();
  return JSON.stringify({ out, tree, status: r.git("status", "--porcelain") }).split(r.dir).join("<project>");
}

describe("audit: in this process as through node", () => {
  it("gives the same exit codes, output and tree for a session of two stages, a report and the orchestrator's step", () => {
    let inProcess = "";
    let viaNode = "";
    withRepo(BASE, (r) => {
      inProcess = session(r);
    });
    withRepo(BASE, (r) => {
      viaNode = session(r);
    }, { viaProcess: true });
    expect(inProcess).toContain("tests/new/deep.test.ts (created; removed)");
    expect(inProcess).toContain('"code":2');
    expect(inProcess).toBe(viaNode);
  });
});
