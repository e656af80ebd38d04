// Gemini CLI 0.61.0 enforcing what harness emits for roles/ (see enforce-out.test.ts for the method):
// the emitted tree in a scratch project, the policy passed with --policy as GEMINI.md says, the
// default approval mode, headless (-p), and a loopback stand-in of the Gemini API playing the model.
// The orchestrator is the main session; jade is reached through invoke_agent, as /pebble does.
// Test names are cited by adapters/gemini-cli `proofs`.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { emittedTree, hostBin, REGISTERED_HOSTS } from "./helpers.js";
import { runGeminiScripted } from "./lib/gemini-cli.js";
import type { Conversation, ModelRequest, Step, Stub } from "./lib/stubs.js";

const MAIN_ONLY = "MAIN-SESSION-ONLY-g3m1";
type Run = Awaited<ReturnType<typeof runGeminiScripted>>;

function explain(r: Run): string {
  const text = [
    `exit ${r.result.code} in ${r.result.durationMs} ms${r.result.timedOut ? " (TIMED OUT)" : ""}`,
    `stub requests: ${r.stub.log.map((l) => `${l.conversation ?? "-"}#${l.step}`).join(" ")}`,
    `tool results:\n  | ${r.stub.toolResultTexts().map((t) => t.slice(0, 300)).join("\n  | ")}`,
    `stderr: ${r.result.stderr.slice(-1500)}`,
  ].join("\n");
  if (process.env.HARNESS_HOSTS_VERBOSE) process.stderr.write(`--- ${r.env.root}\n${text}\n`);
  return text;
}
const results = (r: Run) => r.stub.toolResultTexts().join("\n");
const ranToEnd = (r: Run, conv: string, steps: number, why: string) =>
  expect(r.stub.log.some((l) => l.conversation === conv && l.step === steps), `${conv} did not run its ${steps} step(s) to the end\n${why}`).toBe(true);
/** a subagent script ending in complete_task: the host ran every step and took the last as the goal */
const finished = (r: Run, conv: string, steps: number, why: string) => {
  ranToEnd(r, conv, steps - 1, why);
  expect(results(r), `${conv} did not finish with complete_task\n${why}`).toMatch(new RegExp(`Subagent '${conv}' finished\\.[\\s\\S]{0,4}Termination Reason: GOAL`));
};
/** what the host answered to step i (0-based) of a conversation: the last function response in the next request */
function answerTo(r: Run, conv: string, i: number): string {
  const q = requestsOf(r.stub, conv).find((x) => x.toolResults === i + 1);
  const parts = ((q?.body.contents ?? []) as { parts?: { functionResponse?: { response?: unknown } }[] }[]).flatMap((c) => c.parts ?? []).filter((p) => p.functionResponse);
  return JSON.stringify(parts.at(-1)?.functionResponse?.response ?? null);
}
const requestsOf = (stub: Stub, conv: string): ModelRequest[] => stub.log.filter((l) => l.conversation === conv && l.request).map((l) => l.request!);
const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8", env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: cwd, GIT_CONFIG_NOSYSTEM: "1" } }).trim();

const write = (rel: string): Step => ({ tool: "write_file", input: { file_path: rel, content: `// written by the scripted model: ${rel}\n` } });
const sh = (command: string): Step => ({ tool: "run_shell_command", input: { command, description: "scripted" } });
const done: Step = { tool: "complete_task", input: { result: "done" } };
const invoke = (agent: string): Step => ({ tool: "invoke_agent", input: { agent_name: agent, prompt: `Do the ${agent} stage.` } });
/** the main session (the orchestrator, /pebble) delegating to one subagent role */
const delegate = (role: string, marker: string, steps: Conversation["steps"], before: Conversation["steps"] = []): Conversation[] => [
  { name: role, when: marker, steps },
  { name: "main", steps: [...before, invoke(role)] },
];

describe.runIf(REGISTERED_HOSTS.includes("gemini-cli")).concurrent("gemini-cli: the emitted .gemini/ tree is enforced", () => {
  const run = async (o: Omit<Parameters<typeof runGeminiScripted>[0], "bin" | "tree">) =>
    runGeminiScripted({ bin: hostBin("gemini-cli"), tree: await emittedTree("gemini-cli"), prompt: `${MAIN_ONLY}: go`, timeoutMs: 120_000, ...o });

  it("gemini-cli: policy limits subagent jade's writes to its scope and the main session's to its roles' union", async () => {
    const r = await run({
      files: { "src/.keep": "" },
      script: (p) =>
        delegate(
          "jade",
          "You are Jade",
          [write("src/x.ts"), write("tests/x.test.ts"), write("docs/jade.md"), write(path.join(p, "src/abs.ts")), write("src/../docs/up.md"), write(".gemini/policies/evil.toml"), done],
          [write(".pebble/spec.md"), write("src/main.ts"), write("GEMINI.md")],
        ),
    });
    try {
      const why = explain(r);
      finished(r, "jade", 7, why);
      ranToEnd(r, "main", 4, why);
      expect(r.exists("src/x.ts"), `jade could not write its own scope\n${why}`).toBe(true);
      expect(r.exists(".pebble/spec.md"), `the main session could not write Flint's spec\n${why}`).toBe(true);
      for (const f of ["tests/x.test.ts", "docs/jade.md", "src/abs.ts", "docs/up.md", ".gemini/policies/evil.toml", "src/main.ts"]) expect(r.exists(f), `${f} was written\n${why}`).toBe(false);
      expect(fs.readFileSync(path.join(r.env.project, "GEMINI.md"), "utf8"), why).not.toContain("scripted model");
      const res = results(r);
      // each refusal answers its own call; never-write globs share one rule (and one message) per role
      const never = (who: string, glob: string) => new RegExp(`denied by policy\\. ${who} may not write [^()"]*${glob}[^()"]* \\(never-write\\)`);
      expect(answerTo(r, "jade", 1), why).toMatch(never("jade", "(?:\\*\\*/\\*\\.test\\.\\*|tests/\\*\\*)"));
      expect(answerTo(r, "jade", 2), why).toMatch(/denied by policy\. jade may write only /);
      expect(answerTo(r, "jade", 3), why).toMatch(/denied by policy\. jade: give file paths relative to the project root/);
      expect(answerTo(r, "jade", 4), why).toMatch(/denied by policy\. jade: \\*"\.\.\\*" is not allowed/);
      expect(answerTo(r, "jade", 5), why).toMatch(never("jade", "\\.gemini/\\*\\*"));
      expect(answerTo(r, "main", 2), why).toMatch(never("the main session", "GEMINI\\.md"));
      expect(res, why).toMatch(/requires user confirmation, which is not supported in non-interactive mode/); // src/main.ts: outside the main session's scope, asked
    } finally {
      r.dispose();
    }
  });

  it("gemini-cli: policy runs jade's allowed command and refuses git commit, git push and unlisted commands", async () => {
    const r = await run({
      files: { "package.json": JSON.stringify({ name: "scene", scripts: { test: "echo SCENE-TESTS-RAN" } }), "src/x.ts": "export const x = 1;\n" },
      setup: (p) => {
        const bare = path.join(path.dirname(p), "origin.git");
        git(path.dirname(p), "init", "-q", "--bare", bare);
        git(p, "add", "-A");
        git(p, "commit", "-q", "-m", "scene: initial");
        git(p, "remote", "add", "origin", bare);
        fs.writeFileSync(path.join(p, "src", "staged.ts"), "export const staged = 1;\n");
        git(p, "add", "src/staged.ts");
      },
      script: () => delegate("jade", "You are Jade", [sh("npm test"), sh("git commit -m x"), sh("git push origin HEAD:main"), sh("npm test && git push origin HEAD:main"), sh("curl -s http://127.0.0.1:9/"), sh("git status --short"), done]),
    });
    try {
      const why = explain(r);
      finished(r, "jade", 7, why);
      expect(Number(git(r.env.project, "rev-list", "--count", "HEAD")), why).toBe(1);
      expect(git(path.join(path.dirname(r.env.project), "origin.git"), "for-each-ref"), why).toBe("");
      const res = results(r);
      expect(res, why).toMatch(/SCENE-TESTS-RAN/); // the allowed command ran
      // shell denies share one rule (and one message) per role
      const denied = (cmd: string) => new RegExp(`denied by policy\\. jade may not run this command \\(it matches (?:one of )?(?:[^()"]*, )?${cmd}(?:, [^()"]*)?\\)`);
      expect(answerTo(r, "jade", 1), why).toMatch(denied("git commit \\*"));
      expect(answerTo(r, "jade", 2), why).toMatch(denied("git push \\*"));
      expect(answerTo(r, "jade", 3), `the compound command was not refused\n${why}`).toMatch(denied("git push \\*"));
      expect(res, why).toMatch(/requires user confirmation, which is not supported in non-interactive mode/); // curl: jade's default is ask
      expect(res, why).toMatch(/A {2}src\/staged\.ts/); // git status is on jade's allow list
    } finally {
      r.dispose();
    }
  });

  // write_todos is registered only when the session model is a Gemini 2 model (Config.useWriteTodos); the
  // stand-in session is not, so jade's list arrives without it (recorded as L_TOOL_MISSING for roles with todo)
  it("gemini-cli: subagent jade gets exactly its tools and model in its own context, and no invoke_agent", async () => {
    const tree = await emittedTree("gemini-cli");
    const fm = parseYaml(fs.readFileSync(path.join(tree, ".gemini/agents/jade.md"), "utf8").split(/^---$/m)[1] ?? "") as { tools: string[]; model: string; temperature: number };
    const r = await run({
      script: () => [
        { name: "jade", when: "You are Jade", steps: [{ tool: "invoke_agent", input: { agent_name: "mica", prompt: "nested" } }, done] },
        { name: "main", steps: [invoke("codebase_investigator"), invoke("jade")] },
      ],
    });
    try {
      const why = explain(r);
      finished(r, "jade", 2, why);
      const jade = requestsOf(r.stub, "jade");
      expect(jade.length, why).toBeGreaterThan(0);
      for (const q of jade) {
        expect([...q.tools].sort(), `jade was not offered exactly its tools: ${q.tools.join(",")}\n${why}`).toEqual([...fm.tools.filter((t) => t !== "write_todos"), "complete_task"].sort());
        expect(q.url, why).toContain(`/models/${fm.model}:`);
        // NOT a proof: 0.61.0 reads temperature: from the agent file but jade's requests carry 1 (recorded as lost);
        // this fails when a newer pin sends the agent's value, and then temperature can be native
        expect((q.body.generationConfig as { temperature?: number } | undefined)?.temperature, `jade's temperature reached the model: raise it to native\n${why}`).not.toBe(fm.temperature);
        expect(JSON.stringify(q.body.contents), `jade saw the main session's messages\n${why}`).not.toContain(MAIN_ONLY);
      }
      const main = requestsOf(r.stub, "main")[0];
      expect(main?.tools, why).toContain("invoke_agent");
      expect(JSON.stringify(main?.body.contents), why).toContain(MAIN_ONLY);
      const res = results(r);
      expect(res, why).toMatch(/denied by policy\. Only the Pebble roles may be started/); // codebase_investigator
      expect(res, why).toMatch(/Unauthorized tool call: 'invoke_agent' is not available to this agent|Tool "invoke_agent" not found/);
    } finally {
      r.dispose();
    }
  });

  it("gemini-cli: max_turns stops subagent jade", async () => {
    const calls = 8;
    const r = await run({
      setup: (p) => {
        const f = path.join(p, ".gemini/agents/jade.md");
        const text = fs.readFileSync(f, "utf8");
        expect(text, "the emitted jade.md has no max_turns: N").toMatch(/^max_turns: \d+$/m);
        fs.writeFileSync(f, text.replace(/^max_turns: \d+$/m, "max_turns: 3"));
      },
      files: { "src/x.ts": "export const x = 1;\n" },
      script: () => delegate("jade", "You are Jade", Array.from({ length: calls }, () => ({ tool: "read_file", input: { file_path: "src/x.ts" } }))),
    });
    try {
      const why = explain(r);
      ranToEnd(r, "main", 1, why); // the main session got jade's result and went on
      const steps = r.stub.log.filter((l) => l.conversation === "jade").map((l) => l.step);
      expect(Math.max(...steps), `jade was not stopped near 3 turns\n${why}`).toBeLessThanOrEqual(4);
      expect(results(r), why).toMatch(/MAX_TURNS|maximum number of turns/);
    } finally {
      r.dispose();
    }
  });
});
