// Qwen Code 0.24.4 enforcing what harness emits for roles/ (see enforce-out.test.ts for the method):
// the emitted tree in a scratch project, headless `qwen --approval-mode yolo` (write and shell tools
// are offered only then), and the OpenAI Chat Completions stub playing the model. Subagent roles are
// reached through the agent tool, as /pebble does; the orchestrator's session is started by the
// pipeline's launcher .qwen/bin/pebble.sh, as QWEN.md says. Test names are cited by adapters/qwen-code `proofs`.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { emittedTree, hostBin, REGISTERED_HOSTS } from "./helpers.js";
import { runQwenScripted, type QwenScriptedRun } from "./lib/qwen-code.js";
import type { Conversation, ModelRequest, Step, Stub } from "./lib/stubs.js";

const MAIN_ONLY = "MAIN-SESSION-ONLY-q7w3";
const LAUNCHER = ".qwen/bin/pebble.sh";

function explain(r: QwenScriptedRun): string {
  const text = [
    `exit ${r.result.code} in ${r.result.durationMs} ms${r.result.timedOut ? " (TIMED OUT)" : ""}`,
    `stub requests: ${r.stub.log.map((l) => `${l.conversation ?? "-"}#${l.step}`).join(" ")}`,
    `tool results:\n  | ${r.stub.toolResultTexts().map((t) => t.slice(0, 300)).join("\n  | ")}`,
    `stderr: ${r.result.stderr.slice(-1500)}`,
  ].join("\n");
  if (process.env.HARNESS_HOSTS_VERBOSE) process.stderr.write(`--- ${r.env.root}\n${text}\n`);
  return text;
}
const requestsOf = (stub: Stub, conv: string): ModelRequest[] => stub.log.filter((l) => l.conversation === conv && l.request).map((l) => l.request!);
/** what the host answered to step i (0-based) of a conversation: the last tool message of the next request */
function answerTo(r: QwenScriptedRun, conv: string, i: number): string {
  const q = requestsOf(r.stub, conv).find((x) => x.toolResults === i + 1);
  const msgs = ((q?.body.messages ?? []) as { role?: string; content?: unknown }[]).filter((m) => m.role === "tool");
  const c = msgs.at(-1)?.content;
  return Array.isArray(c) ? c.map((x) => (x && typeof x === "object" && "text" in x ? String((x as { text: unknown }).text) : JSON.stringify(x))).join("\n") : JSON.stringify(c ?? null);
}
const ranToEnd = (r: QwenScriptedRun, conv: string, steps: number, why: string) =>
  expect(r.stub.log.some((l) => l.conversation === conv && l.step === steps), `${conv} did not run its ${steps} step(s) to the end\n${why}`).toBe(true);
const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8", env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: cwd, GIT_CONFIG_NOSYSTEM: "1" } }).trim();

const write = (abs: string): Step => ({ tool: "write_file", input: { file_path: abs, content: `// written by the scripted model: ${path.basename(abs)}\n` } });
const read = (abs: string): Step => ({ tool: "read_file", input: { absolute_path: abs, file_path: abs } });
const sh = (command: string): Step => ({ tool: "run_shell_command", input: { command, description: "scripted step" } });
const agent = (role: string): Step => ({ tool: "agent", input: { description: `run ${role}`, prompt: `Do the ${role} stage.`, subagent_type: role, run_in_background: false } });
/** the main thread calling `before`, then delegating to one subagent role */
const delegate = (role: string, marker: string, steps: Conversation["steps"], before: Conversation["steps"] = []): Conversation[] => [
  { name: role, when: marker, steps },
  { name: "main", steps: [...before, agent(role)] },
];
/** a project with a commit, a bare origin, a staged file and an npm test script */
const scene = {
  files: { "package.json": JSON.stringify({ name: "scene", scripts: { test: "echo SCENE-TESTS-RAN" } }), "src/x.ts": "export const x = 1;\n", ".gitignore": "node_modules\n" },
  setup: (p: string) => {
    const bare = path.join(path.dirname(p), "origin.git");
    git(path.dirname(p), "init", "-q", "--bare", bare);
    git(p, "add", "-A");
    git(p, "commit", "-q", "-m", "scene: initial");
    git(p, "remote", "add", "origin", bare);
    fs.writeFileSync(path.join(p, "src", "staged.ts"), "export const staged = 1;\n");
    git(p, "add", "src/staged.ts");
  },
};

describe.runIf(REGISTERED_HOSTS.includes("qwen-code")).concurrent("qwen-code: the emitted .qwen/ tree is enforced", () => {
  const run = async (o: Omit<Parameters<typeof runQwenScripted>[0], "bin" | "tree">) =>
    runQwenScripted({ bin: hostBin("qwen-code"), tree: await emittedTree("qwen-code"), prompt: `${MAIN_ONLY}: go`, timeoutMs: 150_000, ...o });

  it("qwen-code: subagent chalk gets exactly its tools, its model and its own context, no agent tool", async () => {
    const r = await run({ files: { "docs/a.md": "# a\n" }, script: (p) => delegate("chalk", "You are Chalk", [read(path.join(p, "docs/a.md"))]) });
    try {
      const why = explain(r);
      ranToEnd(r, "chalk", 1, why);
      const reqs = requestsOf(r.stub, "chalk");
      expect(reqs.length, why).toBeGreaterThan(0);
      for (const q of reqs) {
        expect([...q.tools].sort(), why).toEqual(["edit", "glob", "grep_search", "read_file", "write_file"]);
        expect(q.body.model, `chalk's model (hosts.qwen-code.models.fast)\n${why}`).toBe("qwen3-coder-flash");
        expect(JSON.stringify(q.body.messages), `chalk saw the main session's conversation\n${why}`).not.toContain(MAIN_ONLY);
      }
      // the main thread has the agent tool: the subagent's lack of it is its role's, not the session's
      expect(requestsOf(r.stub, "main")[0]?.tools, why).toContain("agent");
      expect(requestsOf(r.stub, "main")[0]?.body.model, why).toBe("stub-model");
    } finally {
      r.dispose();
    }
  });

  it("qwen-code: guard refuses jade writing tests/ and lets it write src/", async () => {
    const r = await run({
      launcher: LAUNCHER,
      files: { "src/.keep": "" },
      script: (p) =>
        delegate(
          "jade",
          "You are Jade",
          [write(path.join(p, "src/x.ts")), write(path.join(p, "tests/x.test.ts")), write(path.join(p, "docs/jade.md")), write(path.join(p, ".qwen/settings.json")), write(path.join(p, "src/../docs/up.md"))],
          [write(path.join(p, ".pebble/spec.md")), write(path.join(p, "src/main.ts")), write(path.join(p, "QWEN.md"))],
        ),
    });
    try {
      const why = explain(r);
      ranToEnd(r, "jade", 5, why);
      ranToEnd(r, "main", 4, why);
      expect(r.exists("src/x.ts"), `jade could not write its own scope\n${why}`).toBe(true);
      expect(r.exists(".pebble/spec.md"), `the orchestrator could not write Flint's spec\n${why}`).toBe(true);
      for (const f of ["tests/x.test.ts", "docs/jade.md", "docs/up.md", "src/main.ts"]) expect(r.exists(f), `${f} was written\n${why}`).toBe(false);
      expect(fs.readFileSync(path.join(r.env.project, ".qwen/settings.json"), "utf8"), why).not.toContain("scripted model");
      expect(fs.readFileSync(path.join(r.env.project, "QWEN.md"), "utf8"), why).not.toContain("scripted model");
      expect(answerTo(r, "jade", 1), why).toMatch(/harness guard: jade may not write tests\/x\.test\.ts \(never-write/);
      expect(answerTo(r, "jade", 2), why).toMatch(/harness guard: jade may not write docs\/jade\.md/);
      expect(answerTo(r, "jade", 3), why).toMatch(/harness guard: jade may not write \.qwen\/settings\.json/);
      expect(answerTo(r, "main", 1), why).toMatch(/harness guard: the orchestrator \(main thread\) may not write src\/main\.ts/);
      expect(answerTo(r, "main", 2), why).toMatch(/harness guard: the orchestrator \(main thread\) may not write QWEN\.md/);
    } finally {
      r.dispose();
    }
  });

  it("qwen-code: guard refuses git commit and git push for subagent jade and runs its npm test", async () => {
    const r = await run({
      launcher: LAUNCHER,
      ...scene,
      script: () =>
        delegate(
          "jade",
          "You are Jade",
          [sh("npm test"), sh("git commit -m x"), sh("git push origin HEAD:main"), sh("npm test && git push origin HEAD:main"), sh("curl -s http://127.0.0.1:9/"), sh("git status --short")],
          [sh("git commit -m orchestrator"), sh("git push origin HEAD:main"), sh("git stash push -m harness")],
        ),
    });
    try {
      const why = explain(r);
      ranToEnd(r, "jade", 6, why);
      expect(Number(git(r.env.project, "rev-list", "--count", "HEAD")), why).toBe(1);
      expect(git(path.join(path.dirname(r.env.project), "origin.git"), "for-each-ref"), why).toBe("");
      expect(answerTo(r, "main", 0), why).toMatch(/harness guard: the orchestrator \(main thread\) may not run "git commit -m orchestrator"/);
      expect(answerTo(r, "main", 1), why).toMatch(/harness guard: the orchestrator \(main thread\) may not run "git push origin HEAD:main"/);
      expect(git(r.env.project, "stash", "list"), `the orchestrator's own exception (git stash push) did not run\n${why}`).toMatch(/harness/);
      expect(answerTo(r, "jade", 0), why).toMatch(/SCENE-TESTS-RAN/);
      expect(answerTo(r, "jade", 1), why).toMatch(/harness guard: jade may not run "git commit -m x"/);
      expect(answerTo(r, "jade", 2), why).toMatch(/harness guard: jade may not run "git push origin HEAD:main"/);
      expect(answerTo(r, "jade", 3), `the compound command was not refused\n${why}`).toMatch(/harness guard: jade may not run/);
      expect(answerTo(r, "jade", 4), why).toMatch(/harness guard: jade (may not|wants to) run "curl/);
      expect(answerTo(r, "jade", 5), why).not.toMatch(/harness guard/);
    } finally {
      r.dispose();
    }
  });

  it("qwen-code: an ordinary session is unbound and its subagent roles stay guarded", async () => {
    const r = await run({
      ...scene,
      script: (p) => delegate("jade", "You are Jade", [write(path.join(p, "tests/x.test.ts")), write(path.join(p, "src/y.ts"))], [write(path.join(p, "src/main.ts")), sh("git commit -m ordinary")]),
    });
    try {
      const why = explain(r);
      ranToEnd(r, "jade", 2, why);
      expect(r.exists("src/main.ts"), `an ordinary session's write was refused\n${why}`).toBe(true);
      expect(Number(git(r.env.project, "rev-list", "--count", "HEAD")), `an ordinary session's commit was refused\n${why}`).toBe(2);
      expect(r.exists("tests/x.test.ts"), why).toBe(false);
      expect(r.exists("src/y.ts"), why).toBe(true);
      expect(answerTo(r, "jade", 0), why).toMatch(/harness guard: jade may not write tests\/x\.test\.ts/);
    } finally {
      r.dispose();
    }
  });

  it("qwen-code: maxTurns caps subagent jade's turns", async () => {
    // distinct files: Qwen Code stops a subagent that repeats one call (loop detection) long before any cap
    const steps = 50;
    const files = Object.fromEntries(Array.from({ length: steps }, (_, i) => [`src/f${i}.ts`, `export const f${i} = ${i};\n`]));
    const r = await run({ files, script: (p) => delegate("jade", "You are Jade", Array.from({ length: steps }, (_, i) => read(path.join(p, `src/f${i}.ts`)))) });
    try {
      const why = explain(r);
      const n = requestsOf(r.stub, "jade").length;
      expect(n, `jade made no request\n${why}`).toBeGreaterThan(0);
      expect(n, `jade ran past maxTurns 40 (${n} model requests)\n${why}`).toBeLessThanOrEqual(41);
      // and the cap is what stopped it: it got up to its 40th turn
      expect(n, `jade stopped before its cap (${n} model requests): something else ended it\n${why}`).toBeGreaterThanOrEqual(39);
      expect(r.stub.log.some((l) => l.conversation === "jade" && l.step >= steps), why).toBe(false);
    } finally {
      r.dispose();
    }
  });
});
