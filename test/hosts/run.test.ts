// `harness run` drives the Pebble pipeline on the real Claude Code CLI (scripted loopback model):
// stages in order, gates on a pseudo-terminal and without one, --resume, a failing check retried
// then stopped, the loop cap, a test file that forges the run record, Ctrl-C. The run record must
// match what the stub saw, and `harness runs show` must print it.
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { hostBin } from "./helpers.js";
import { run } from "./lib/run.js";
import { classifier, CLI, events, harnessRun, harnessRunOnPty, processesIn, role, runProject, sessionsServed, type RunProject } from "./lib/harness-run.js";
import { startAnthropicStub, type Conversation, type Step, type Stub } from "./lib/stubs.js";

const REQUEST = "add value(), which returns 42";
let bin = "";
const open: { rp: RunProject; stub?: Stub }[] = [];

beforeAll(() => {
  if (!fs.existsSync(CLI)) throw new Error("run `npm run build` first: these tests run the built CLI");
  bin = hostBin("claude-code");
});
afterEach(async () => {
  for (const o of open.splice(0)) {
    await o.stub?.close();
    o.rp.dispose();
  }
});

const write = (p: string, rel: string, content: string): Step => ({ tool: "Write", input: { file_path: path.join(p, rel), content } });
const read = (p: string, rel: string): Step => ({ tool: "Read", input: { file_path: path.join(p, rel) } });

/** Every Pebble role doing its job; `over` replaces some. */
function pebble(p: string, over: Record<string, Conversation> = {}): Conversation[] {
  const roles: Record<string, Conversation> = {
    flint: role("flint", [write(p, ".pebble/spec.md", "# Spec\n1. value() returns 42\n")], "Status: done\nQuestions asked: 0\nDeploy-relevant: no, a pure function"),
    slate: role("slate", [write(p, ".pebble/blueprint.md", "# Blueprint\nsrc/value.mjs exports value()\n")], "Status: done\nDeploy-relevant: no, a pure function"),
    mica: role("mica", [write(p, "test/value.test.mjs", 'import { value } from "../src/value.mjs";\nif (value() !== 42) throw new Error("value() is " + value());\n')], "Status: done\nFailing: test/value.test.mjs (src/value.mjs missing)"),
    jade: role("jade", [write(p, "src/value.mjs", "export const value = () => 42;\n")], "Status: done"),
    onyx: role("onyx", [read(p, ".pebble/review.md"), write(p, ".pebble/review.md", "# Review\nNo findings.\nVerdict: approve\n")], "Status: done\nVerdict: approve"),
    quartz: role("quartz", [write(p, ".pebble/verification.md", "# Verification\nBoth runs passed.\nVerdict: pass\n")], "Status: done\nVerdict: pass"),
    coral: role("coral", [], "Status: done"),
    chalk: role("chalk", [write(p, "docs/value.md", "# value()\nReturns 42.\n")], "Status: done"),
    ...over,
  };
  return [classifier("feature"), ...Object.values(roles)];
}

async function scene(label: string, script: (p: string) => Conversation[]) {
  const rp = runProject("claude-code", label);
  const stub = await startAnthropicStub(script(rp.project));
  open.push({ rp, stub });
  Object.assign(rp.env.env, { ANTHROPIC_BASE_URL: stub.baseUrl, ANTHROPIC_API_KEY: "sk-ant-harness-stub", PATH: `${path.dirname(bin)}:${rp.env.env.PATH}` });
  return { rp, stub };
}

const stagesOf = (rec: Record<string, any>) => rec.stages.map((s: any) => `${s.stage}:${s.status}`);
const idFrom = (text: string) => /\b(\d{8}T\d{6}Z-[0-9a-f]{6})\b/.exec(text)?.[1] ?? "";

describe("harness run on claude-code", () => {
  it("a failing check is retried in the stage's own session, then the run stops", { timeout: 300_000 }, async () => {
    const { rp, stub } = await scene("run-ck", (p) => pebble(p, { jade: role("jade", [write(p, "src/value.mjs", "export const value = () => 41;\n")], "Status: done") }));
    const r = await harnessRun(rp, ["--kind", "bug-fix", "--json", REQUEST]);
    expect(r.code, r.stderr).toBe(1);
    const ev = events(r.stdout);
    const id = ev[0]!.id as string;
    const rec = rp.record(id);
    expect(stagesOf(rec)).toEqual(["tests:done", "implement:failed", "review:pending", "verify:pending", "docs:pending"]);
    const impl = rec.stages[1];
    expect(impl.retries).toBe(1);
    expect(impl.checks.filter((c: any) => c.check === "tests-pass").map((c: any) => [c.exit, c.passed])).toEqual([
      [1, false],
      [1, false],
    ]);
    expect(rec.ending).toMatch(/tests-pass still fails after 1 retry/);
    // the retry resumed jade's session: one new jade session, never a second one
    expect(sessionsServed(stub)).toEqual(["mica", "jade"]);
    const jadeRequests = stub.log.filter((l) => l.conversation === "jade");
    expect(JSON.stringify(jadeRequests.at(-1)!.request!.body.messages)).toMatch(/The check \\"tests-pass\\" failed/);
    expect(impl.session).toMatch(/^[0-9a-f-]{36}$/);
    expect(impl.tokens.input).toBeGreaterThan(0);
    const show = await run(process.execPath, [CLI, "runs", "show", id], { cwd: rp.project, env: rp.env.env, timeoutMs: 20_000 });
    expect(show.stdout).toMatch(/implement\s+jade\s+failed · 1 retry/);
    expect(show.stdout).toMatch(/FAIL tests-pass \(npm run test --if-present, exit 1, expect pass\)/);
  });
});
