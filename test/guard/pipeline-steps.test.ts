// The orchestrator's own deterministic steps (pipeline.yaml `commands:`) run exactly as the author wrote
// them, even where they use shell syntax the guard does not parse (the mini fixture's
// `npx cspell articles/*.md`). Only the exact text, only for the orchestrator, only in the project root.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ORCHESTRATOR } from "../../adapters/claude-code/guard.js";
import { readPipeline } from "../../src/ir/normalize.js";
import { MINI_ROLES } from "../helpers/cli.js";
import { guardEnv, inProcess, payload } from "./helpers.js";

const { pipeline } = readPipeline(MINI_ROLES);
const decide = inProcess(pipeline);
const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "harness-steps-")));
fs.mkdirSync(path.join(dir, "articles"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const bash = (command: string, as: string | null, cwd = dir, role?: string) =>
  decide(JSON.stringify(payload({ tool: "Bash", input: { command }, cwd, ...(role ? { role } : {}) })), guardEnv(dir), as).kind;

describe("the orchestrator's pipeline steps", () => {
  const step = pipeline.commands.find((c) => c.run.includes("*"))!.run;

  it("the fixture has a step with a glob the guard cannot parse", () => {
    expect(step).toBe("npx cspell articles/*.md");
  });

  it("runs the exact text without asking, in the project root", () => {
    expect(bash(step, ORCHESTRATOR)).toBe("allow");
  });

  it("anything else with the same syntax still asks or is refused", () => {
    expect(bash(`${step} `, ORCHESTRATOR)).toBe("ask");
    expect(bash("npx cspell drafts/*.md", ORCHESTRATOR)).toBe("ask");
    expect(bash(`${step}; rm -rf articles`, ORCHESTRATOR)).not.toBe("allow");
    expect(bash(`${step} > README.md`, ORCHESTRATOR)).not.toBe("allow");
    expect(bash(step, ORCHESTRATOR, path.join(dir, "articles"))).toBe("ask");
  });

  it("a role gets no such exception", () => {
    const role = pipeline.roles.find((r) => r.shell && r.isolation === "subagent")!.id;
    expect(bash(step, role, dir, role)).not.toBe("allow");
  });
});
