// Results handed back in a stage's final message (an artifact with `kind: message`, no paths): they
// validate (no E_READ_BEFORE_WRITE, no W_WRITE_WITHOUT_TOOL for a role with no write tool), every
// host's prompts say who hands back and who receives, and `harness run` passes the earlier stage's
// final message whole into the brief of the stage that reads it.
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { HOSTS, HOST_IDS } from "../adapters/index.js";
import { compileHost } from "../src/compile.js";
import { formatDiagnostic, InputError } from "../src/errors.js";
import { readPipeline } from "../src/ir/normalize.js";
import { newRecord, planKind } from "../src/run/plan.js";
import { Runner } from "../src/run/runner.js";
import { writeRecord, type RunRecord } from "../src/runs/record.js";
import { ROOT, tempDir } from "./helpers/cli.js";
import { fakeHost } from "./run/fake-host.js";

const FIXTURE = path.join(ROOT, "test/fixtures/handoff");

function copy(edits: Record<string, (t: string) => string> = {}): string {
  const dir = tempDir("harness-handoff-");
  cpSync(FIXTURE, dir, { recursive: true });
  for (const [file, edit] of Object.entries(edits)) writeFileSync(path.join(dir, file), edit(readFileSync(path.join(dir, file), "utf8")));
  return dir;
}
function diagnostics(dir: string): string[] {
  try {
    return readPipeline(dir, { knownHosts: HOST_IDS, cwd: dir }).warnings.map(formatDiagnostic);
  } catch (error) {
    if (error instanceof InputError) return error.diagnostics.map(formatDiagnostic);
    throw error;
  }
}

describe("message handoffs (kind: message)", () => {
  it("validates: a role with no write tool hands back a message, and later stages read it", () => {
    expect(diagnostics(copy())).toEqual([]);
    const { pipeline } = readPipeline(FIXTURE, { knownHosts: HOST_IDS });
    expect(pipeline.artifacts.find((a) => a.name === "findings")).toEqual({ name: "findings", description: "What the scout found, with file and line for each point.", paths: [], document: false, message: true });
    expect(pipeline.roles.find((r) => r.id === "scout")!.write).toEqual([]); // no write scope from a message
  });

  it("reports the wrong shapes with a position and the fix", () => {
    const withPaths = copy({ "pipeline.yaml": (t) => t.replace("    kind: message\n    description: What the scout", '    kind: message\n    paths: ["f.md"]\n    description: What the scout') });
    expect(diagnostics(withPaths)).toEqual([expect.stringMatching(/^pipeline\.yaml:10:12: error E_PIPELINE_SCHEMA artifacts\.findings\.paths: a message artifact has no paths: the stage hands it back in its final message\. Remove paths, or remove kind: message to make it a file\.$/)]);
    const noPaths = copy({ "pipeline.yaml": (t) => t.replace("    kind: message\n    description: What the scout", "    description: What the scout") });
    expect(diagnostics(noPaths)).toEqual([expect.stringMatching(/E_PIPELINE_SCHEMA artifacts\.findings.*an artifact needs at least one path; for a result the stage hands back in its final message, write kind: message instead\.$/)]);
    const unwritten = copy({ "scout.md": (t) => t.replace("writes: [findings]\n", "") });
    expect(diagnostics(unwritten)).toContainEqual(expect.stringMatching(/^coder\.md:6:9: error E_READ_BEFORE_WRITE reads\[0\]: "findings" is a message artifact that no stage hands back, so there is nothing to pass on\./));
    const gated = copy({ "pipeline.yaml": (t) => t.replace("    role: scout\n", "    role: scout\n    gate:\n      approve: findings\n      ask: Good?\n") });
    expect(diagnostics(gated)).toContainEqual(expect.stringMatching(/E_GATE_NOTHING stages\[0\]\.gate\.approve: the gate approves "findings", a message artifact/));
  });

  it("every host: the writing role hands it back, the reading role receives it in its brief, the orchestrator passes it on", async () => {
    const { pipeline } = readPipeline(FIXTURE, { knownHosts: HOST_IDS });
    for (const host of HOST_IDS) {
      const out = compileHost(pipeline, await HOSTS[host]!());
      expect(out.prompts.scout, host).toContain("- Hand back in your final message, not in a file: findings (What the scout found, with file and line for each point).");
      expect(out.prompts.coder, host).toContain("- You receive in your brief, from an earlier stage's final message (there is no file): findings (What the scout found");
      const all = out.files.map((f) => f.content).join("\n");
      expect(all, host).toContain("findings (the final message of `scout`: put it whole into this stage's brief)");
      expect(all, host).toMatch(/findings \(handed back in its final message, no file: keep it whole and pass it on in the brief of `build`, `review`\)/);
    }
  });

  it("the controller hosts' MAPPING.md says a judgement check of a message stage reads the final message's verdict", async () => {
    const { pipeline } = readPipeline(FIXTURE, { knownHosts: HOST_IDS });
    for (const host of ["claude-code", "codex", "copilot", "gemini-cli"]) {
      const mapping = compileHost(pipeline, await HOSTS[host]!()).files.find((f) => f.path === "MAPPING.md")!.content;
      const row = mapping.split("\n").find((l) => l.startsWith("| (pipeline) | checks |"));
      expect(row, host).toContain("judgement checks read the stage document's Verdict line, or the final message's for a stage that hands its result back as a message (scout, review)");
    }
  });

  it("harness run: the scout's whole final message goes into the coder's and the judge's briefs; no file is asked for", async () => {
    const { pipeline } = readPipeline(FIXTURE, { knownHosts: HOST_IDS });
    const root = tempDir("harness-handoff-run-");
    execFileSync("git", ["init", "-q"], { cwd: root });
    const long = `Status: done\nFindings:\n${Array.from({ length: 120 }, (_, i) => `- src/f${i}.js:${i} needs the change`).join("\n")}`;
    const driver = fakeHost(root, {
      scout: () => ({ text: long }),
      coder: () => ({ write: { "src/a.js": "a\n" }, text: "Status: done" }),
      judge: () => ({ text: "Status: done\nVerdict: approve\nNotes: fine" }),
    });
    const record = newRecord({ id: "20261202T080000Z-a1b2c3", host: "fake", pipeline, request: "change f", started: new Date(), budget: null });
    planKind(record, pipeline, "feature");
    const end = await new Runner({ root, pipeline, driver, io: { tty: false, ask: async () => null, event: () => {} }, approve: new Set(), signal: new AbortController().signal, persist: (r: RunRecord) => void writeRecord(root, r) }, record).drive(false);
    expect(end.status).toBe("passed");
    const [scout, coder, judge] = driver.calls;
    expect(scout!.prompt).toMatch(/Hand back in your final reply, not in a file[^\n]*\n- findings: no file; What the scout found/);
    for (const brief of [coder!.prompt, judge!.prompt]) {
      expect(brief).toContain(`### findings (the final message of the scout stage, passed on by harness)\n${long}`);
      expect(brief).toContain("- findings: no file; What the scout found");
      expect(brief).not.toContain("### scout (scout)"); // not twice: no capped copy among the reports
    }
    expect(long.length).toBeGreaterThan(2000); // more than the capped short report
    expect(end.stages.find((s) => s.stage === "scout")!.message).toBe(long);
    expect(end.stages.find((s) => s.stage === "build")!.message).toBeUndefined();
  });
});
