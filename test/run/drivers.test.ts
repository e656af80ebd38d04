// The drivers' pure parts: what each host's output means, and the OpenCode-family config overlay.
// (Their behaviour against the real programs is test/hosts/run.test.ts.)
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { HOSTS } from "../../adapters/index.js";
import { acknowledgementProblem, parseGemini } from "../../adapters/gemini-cli/runner.js";
import { CLASSIFY_AGENT, overlayFor, parseV1, REFUSE_AGENT } from "../../src/adapter/opencode-permission/runner.js";

describe("every host with a headless CLI has a driver in its adapter", () => {
  it("the adapters of Claude Code, Codex, Copilot CLI, Gemini CLI, OpenCode and Kilo have a runner; the others none", async () => {
    const withRunner: string[] = [];
    for (const [id, load] of Object.entries(HOSTS)) {
      const a = await load();
      if (a.runner) {
        const d = await a.runner();
        expect(d.host).toBe(id);
        withRunner.push(id);
      }
    }
    expect(withRunner.sort()).toEqual(["claude-code", "codex", "copilot", "gemini-cli", "kilo", "opencode"]);
  });
});

describe("OpenCode / Kilo overlay", () => {
  it("makes the session's agent primary and nothing else of it; the default agent has no permission", () => {
    const o = JSON.parse(overlayFor("jade", undefined));
    expect(o.agent.jade).toEqual({ mode: "primary" });
    expect(o.default_agent).toBe(REFUSE_AGENT);
    expect(o.agent[REFUSE_AGENT].permission).toEqual({ "*": "deny" });
    expect(o.agent[CLASSIFY_AGENT]).toBeUndefined();
  });

  it("keeps the user's own overlay, and their settings for the agent", () => {
    const o = JSON.parse(overlayFor("jade", JSON.stringify({ theme: "x", agent: { jade: { temperature: 0.1 }, other: { mode: "subagent" } } })));
    expect(o.theme).toBe("x");
    expect(o.agent.jade).toEqual({ temperature: 0.1, mode: "primary" });
    expect(o.agent.other).toEqual({ mode: "subagent" });
  });

  it("the classifying session is a hidden agent with every permission denied", () => {
    const o = JSON.parse(overlayFor(null, undefined));
    expect(o.agent[CLASSIFY_AGENT]).toMatchObject({ mode: "primary", hidden: true, permission: { "*": "deny" } });
  });

  it("refuses an overlay that is not a JSON object", () => {
    expect(() => overlayFor("jade", "[1]")).toThrow(/not a JSON object/);
    expect(() => overlayFor("jade", "{")).toThrow();
  });

  it("reads the session, the last message's text and the tokens of `run --format json` (as OpenCode 1.18.33 prints it)", () => {
    const ev = (type: string, part: Record<string, unknown>) => JSON.stringify({ type, timestamp: 1, sessionID: "ses_1", part });
    const out = [
      ev("step_start", { type: "step-start" }),
      ev("text", { type: "text", messageID: "m1", text: "thinking" }),
      ev("step_finish", { type: "step-finish", tokens: { input: 10, output: 5, reasoning: 1, cache: { read: 3, write: 2 } } }),
      ev("text", { type: "text", messageID: "m2", text: "Status: " }),
      ev("text", { type: "text", messageID: "m2", text: "done" }),
      ev("step_finish", { type: "step-finish", tokens: { input: 20, output: 4, reasoning: 0, cache: { read: 0, write: 0 } } }),
    ].join("\n");
    expect(parseV1(out)).toEqual({ session: "ses_1", text: "Status: done", tokens: { input: 35, output: 10 }, error: null });
    expect(parseV1(`${JSON.stringify({ type: "error", sessionID: "s", error: { name: "APIError", data: { message: "boom" } } })}\n`).error).toBe("boom");
  });
});

describe("Gemini CLI", () => {
  const ev = (o: Record<string, unknown>) => JSON.stringify(o);
  it("counts a subagent as run only when its invoke_agent call succeeded; the reply is what comes after the last tool call", () => {
    const out = [
      ev({ type: "init", session_id: "g-1" }),
      ev({ type: "message", role: "user", content: "go" }),
      ev({ type: "message", role: "assistant", content: "I will ", delta: true }),
      ev({ type: "tool_use", tool_name: "invoke_agent", tool_id: "t1", parameters: { agent_name: "jade" } }),
      ev({ type: "tool_result", tool_id: "t1", status: "success" }),
      ev({ type: "tool_use", tool_name: "invoke_agent", tool_id: "t2", parameters: { agent_name: "mica" } }),
      ev({ type: "tool_result", tool_id: "t2", status: "error" }),
      ev({ type: "message", role: "assistant", content: "Status: ", delta: true }),
      ev({ type: "message", role: "assistant", content: "done", delta: true }),
      ev({ type: "result", status: "success", stats: { input_tokens: 30, output_tokens: 7 } }),
    ].join("\n");
    expect(parseGemini(out)).toEqual({ session: "g-1", text: "Status: done", tokens: { input: 30, output: 7 }, invoked: ["jade"], error: null });
  });

  it("refuses an agent file the user has not acknowledged (Gemini CLI would leave it out in -p mode)", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "harness-ack-"));
    try {
      const project = path.join(dir, "p");
      const home = path.join(dir, "h");
      fs.mkdirSync(path.join(project, ".gemini", "agents"), { recursive: true });
      const file = path.join(project, ".gemini", "agents", "jade.md");
      fs.writeFileSync(file, "---\nname: jade\n---\nbody\n");
      expect(acknowledgementProblem(project, "jade", file, home)).toMatch(/has not acknowledged the project agent jade/);
      fs.mkdirSync(path.join(home, ".gemini", "acknowledgments"), { recursive: true });
      const sha = crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex");
      fs.writeFileSync(path.join(home, ".gemini", "acknowledgments", "agents.json"), JSON.stringify({ [project]: { jade: sha } }));
      expect(acknowledgementProblem(project, "jade", file, home)).toBeNull();
      fs.appendFileSync(file, "changed\n"); // an edited agent file needs a new acknowledgement
      expect(acknowledgementProblem(project, "jade", file, home)).toMatch(/has not acknowledged/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
