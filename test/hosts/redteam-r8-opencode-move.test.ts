// Red team r8g, real host: OpenCode 1.18.33's apply_patch (offered instead of edit/write when the model id
// holds "gpt-") asks the edit permission for each file's source path only: a "*** Move to:" target is
// written unchecked (its permission patterns are the Update File paths). A jade that may edit src/ moved
// src/x.ts onto tests/x.test.ts, a path its edit map denies. No config of the agent can close it (apply_patch
// shares permission.edit with edit and write), so MAPPING.md states it under write-scope; this test
// fails once OpenCode checks the Move to target, and the statement (opencode-permission/fidelity.ts) goes.
import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { emittedTree, hostBin } from "./helpers.js";
import { runKiloScripted, runOpenCodeScripted } from "./lib/scripted.js";
import type { Conversation } from "./lib/stubs.js";

// Kilo 7.7.7 (an OpenCode fork) carries the same apply_patch code and the same loss: run on both.
const HOSTS = [
  { host: "opencode", dir: ".opencode", run: runOpenCodeScripted },
  { host: "kilo", dir: ".kilo", run: runKiloScripted },
] as const;

it.each(HOSTS)("$host: known host gap: jade on a GPT model moves src/x.ts onto tests/ with apply_patch's Move to (its source path is the only one checked)", async ({ host, dir: hostDir, run }) => {
  const base = await emittedTree(host);
  const tree = fs.mkdtempSync(path.join(path.dirname(base), `r8g-${host}-`));
  fs.cpSync(base, tree, { recursive: true });
  const jade = path.join(tree, hostDir, "agents", "jade.md");
  fs.writeFileSync(jade, fs.readFileSync(jade, "utf8").replace(/^model: .*$/m, "model: openai/gpt-5"));
  const dir = path.join(tree, hostDir, "agents");
  const orch = fs.readdirSync(dir).find((f) => /^mode: primary$/m.test(fs.readFileSync(path.join(dir, f), "utf8")) && /^description: "?Orchestrator of/m.test(fs.readFileSync(path.join(dir, f), "utf8")))!.replace(/\.md$/, "");
  const patchText = ["*** Begin Patch", "*** Update File: src/x.ts", "*** Move to: tests/x.test.ts", "@@", "-export const x = 'original';", "+export const t = 'moved by jade';", "*** End Patch"].join("\n");
  const direct = ["*** Begin Patch", "*** Update File: tests/x.test.ts", "@@", "-export const t = 'original';", "+export const t = 'direct';", "*** End Patch"].join("\n");
  const script = (): Conversation[] => [
    { name: "jade", when: "You are Jade", steps: [(req) => (req.tools.includes("apply_patch") ? { tool: "apply_patch", input: { patchText: direct } } : { text: `no apply_patch: ${req.tools.join(",")}` }), (req) => (req.tools.includes("apply_patch") ? { tool: "apply_patch", input: { patchText } } : { text: `no apply_patch: ${req.tools.join(",")}` })] },
    { name: "main", steps: [{ tool: "task", input: { description: "run jade", prompt: "Do the jade stage.", subagent_type: "jade" } }] },
  ];
  const r = await run({ bin: hostBin(host), timeoutMs: 120_000, args: ["--agent", orch], tree, files: { "tests/x.test.ts": "export const t = 'original';\n", "src/x.ts": "export const x = 'original';\n" }, script });
  try {
    const why = `tool results:\n | ${r.stub.toolResultTexts().map((t) => t.slice(0, 500)).join("\n | ")}\nstderr: ${r.result.stderr.slice(-1500)}`;
    expect(r.stub.log.some((l) => l.conversation === "jade" && l.step === 2), why).toBe(true);
    // the same file patched in place is refused: the edit map holds for apply_patch's source paths
    expect(r.stub.toolResultTexts().join("\n"), why).toMatch(/prevents you from using this specific tool call[\s\S]*"permission":"edit"/);
    expect(fs.readFileSync(path.join(r.env.project, "tests/x.test.ts"), "utf8"), why).toBe("export const t = 'moved by jade';\n");
    expect(fs.existsSync(path.join(r.env.project, "src/x.ts")), why).toBe(false);
  } finally {
    r.dispose();
    fs.rmSync(tree, { recursive: true, force: true });
  }
}, 180_000);
