// GitHub Copilot CLI 1.0.102 enforcing what harness emits for roles/ (see enforce-out.test.ts for the
// method): the emitted tree in a scratch project, BYOK offline against the chat-completions stub,
// headless (-p), the project trusted. Roles are reached as the CLI reaches them: a subagent through
// the orchestrator's task tool, one role alone through its launcher (.github/copilot/bin/<role>.sh).
// Test names are cited by adapters/copilot `proofs`.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { emittedTree, hostBin, REGISTERED_HOSTS } from "./helpers.js";
import { runCopilotScripted, withoutController } from "./lib/copilot.js";
import type { Conversation, ModelRequest, Step, Stub } from "./lib/stubs.js";

const MAIN_ONLY = "MAIN-SESSION-ONLY-c0p1";
type Run = Awaited<ReturnType<typeof runCopilotScripted>>;

function explain(r: Run): string {
  const text = [
    `exit ${r.result.code} in ${r.result.durationMs} ms${r.result.timedOut ? " (TIMED OUT)" : ""}`,
    `stub requests: ${r.stub.log.map((l) => `${l.conversation ?? "-"}#${l.step}`).join(" ")}`,
    `tool results:\n  | ${r.stub.toolResultTexts().map((t) => t.slice(0, 300)).join("\n  | ")}`,
    `stdout: ${r.result.stdout.slice(-1200)}`,
    `stderr: ${r.result.stderr.slice(-800)}`,
  ].join("\n");
  if (process.env.HARNESS_HOSTS_VERBOSE) process.stderr.write(`--- ${r.env.root}\n${text}\n`);
  return text;
}
const results = (r: Run) => r.stub.toolResultTexts().join("\n");
const ranToEnd = (r: Run, conv: string, steps: number, why: string) =>
  expect(r.stub.log.some((l) => l.conversation === conv && l.step === steps), `${conv} did not run its ${steps} step(s) to the end\n${why}`).toBe(true);
const requestsOf = (stub: Stub, conv: string): ModelRequest[] => stub.log.filter((l) => l.conversation === conv && l.request).map((l) => l.request!);
/** what the host answered to step i (0-based) of a conversation: the last tool message of the next request */
function answerTo(r: Run, conv: string, i: number): string {
  const q = requestsOf(r.stub, conv).find((x) => x.toolResults === i + 1);
  const msgs = ((q?.body.messages ?? []) as { role?: string; content?: unknown }[]).filter((m) => m.role === "tool");
  return JSON.stringify(msgs.at(-1)?.content ?? null);
}
const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8", env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: cwd, GIT_CONFIG_NOSYSTEM: "1" } }).trim();

const create = (p: string, rel: string): Step => ({ tool: "create", input: { path: path.join(p, rel), file_text: `// written by the scripted model: ${rel}\n` } });
const sh = (command: string): Step => ({ tool: "bash", input: { command, description: "scripted", mode: "sync", initial_wait: 30 } });
const task = (agent: string): Step => ({ tool: "task", input: { agent_type: agent, description: `run ${agent}`, prompt: `Do the ${agent} stage.`, mode: "sync", name: `${agent}-stage` } });
const folders = { "src/.keep": "", "tests/.keep": "", "docs/.keep": "", ".pebble/.keep": "" };

/**
 * Takes the guard hook out of every agent file, so a run shows what the launchers' permission flags do
 * alone (the layer that binds agents whose hooks Copilot did not load). With the guard in place it
 * answers first, and its allow overrides the flags (measured; adapters/copilot/guard.ts).
 */
function withoutGuard(project: string): void {
  const dir = path.join(project, ".github", "agents");
  for (const f of fs.readdirSync(dir)) {
    const file = path.join(dir, f);
    const text = fs.readFileSync(file, "utf8");
    const parts = text.split(/^---$/m);
    const fm = parseYaml(parts[1] ?? "") as Record<string, unknown>;
    expect(fm.hooks, `${f} carries no guard hook`).toBeDefined();
    const stripped = text.replace(/^hooks:\n(?:[ \t]+.*\n)+/m, "");
    expect((parseYaml(stripped.split(/^---$/m)[1] ?? "") as Record<string, unknown>).hooks, `${f}: the hooks block was not removed`).toBeUndefined();
    fs.writeFileSync(file, stripped);
  }
}

function gitScene(project: string): void {
  const bare = path.join(path.dirname(project), "origin.git");
  git(path.dirname(project), "init", "-q", "--bare", bare);
  git(project, "add", "-A");
  git(project, "commit", "-q", "-m", "scene: initial");
  git(project, "remote", "add", "origin", bare);
  fs.writeFileSync(path.join(project, "src", "staged.ts"), "export const staged = 1;\n");
  git(project, "add", "src/staged.ts");
}
const gitState = (project: string) => ({ commits: Number(git(project, "rev-list", "--count", "HEAD")), originRefs: git(path.join(path.dirname(project), "origin.git"), "for-each-ref") });

describe.runIf(REGISTERED_HOSTS.includes("copilot")).concurrent("copilot: the emitted .github/ tree is enforced", () => {
  const run = async (o: Omit<Parameters<typeof runCopilotScripted>[0], "bin" | "tree">) =>
    runCopilotScripted({ bin: hostBin("copilot"), tree: await emittedTree("copilot"), prompt: `${MAIN_ONLY}: go`, timeoutMs: 120_000, ...o });

  it("copilot: subagent jade gets exactly its tools in its own context and cannot start agents", async () => {
    const tree = await emittedTree("copilot");
    const fm = (role: string) => parseYaml(fs.readFileSync(path.join(tree, `.github/agents/${role}.agent.md`), "utf8").split(/^---$/m)[1] ?? "") as { tools: string[]; model?: string };
    const r = await run({
      args: ["--agent", "pebble"],
      // the guard and the tools alone: the run controller would hold these delegations to the pipeline's order
      setup: (p) => withoutController(p),
      script: () => [
        { name: "jade", when: "You are Jade", steps: [task("mica")] },
        { name: "chalk", when: "You are Chalk", steps: [] },
        { name: "main", steps: [task("explore"), task("jade"), task("chalk")] },
      ],
    });
    try {
      const why = explain(r);
      ranToEnd(r, "jade", 1, why);
      ranToEnd(r, "main", 3, why);
      expect(fm("jade").tools.sort(), "jade's declared tools changed: update this test's expected host tools").toEqual(["edit", "execute", "read", "search", "todo"]);
      // read → view, edit → create+edit, search → grep+glob, execute → bash and its helpers, todo → update_todo
      const expected = ["bash", "create", "edit", "glob", "grep", "list_bash", "read_bash", "stop_bash", "update_todo", "view"];
      for (const q of requestsOf(r.stub, "jade")) {
        expect([...q.tools].sort(), `jade was not offered exactly its tools: ${q.tools.join(",")}\n${why}`).toEqual(expected);
        expect(JSON.stringify(q.body.messages), `jade saw the main session's messages\n${why}`).not.toContain(MAIN_ONLY);
      }
      // task is not among jade's tools (above); its guard hook, which Copilot runs before it looks the tool up, answers first
      expect(answerTo(r, "jade", 0), why).toMatch(/Denied by preToolUse hook: harness guard: jade may not start agents \(its role cannot spawn; refused \\"mica\\"\)/);
      // the orchestrator's guard: only pipeline roles may be started (the CLI ignores agents:)
      expect(answerTo(r, "main", 0), why).toMatch(/Denied by preToolUse hook: harness guard: the orchestrator \(main thread\) may not start \\"explore\\": it is not a role of pipeline pebble/);
      const main = requestsOf(r.stub, "main")[0];
      expect(main?.tools, why).toContain("task");
      expect(JSON.stringify(main?.body.messages), why).toContain(MAIN_ONLY);
      // chalk's model (fast tier) differs from the session's
      const chalk = requestsOf(r.stub, "chalk");
      expect(chalk.length, why).toBeGreaterThan(0);
      expect(chalk.map((q) => q.body.model), why).toEqual(chalk.map(() => fm("chalk").model));
      expect(main?.body.model, why).not.toBe(fm("chalk").model);
    } finally {
      r.dispose();
    }
  });

  it("copilot: jade's launcher allows src/ and its command, refuses tests/, docs/, git commit and git push", async () => {
    const r = await run({
      launcher: ".github/copilot/bin/jade.sh",
      files: { ...folders, "package.json": JSON.stringify({ name: "scene", scripts: { test: "echo SCENE-TESTS-RAN" } }) },
      setup: (p) => (withoutGuard(p), gitScene(p)),
      script: (p) => [
        {
          name: "jade",
          when: "You are Jade",
          steps: [create(p, "src/x.ts"), create(p, "tests/x.test.ts"), create(p, "docs/jade.md"), create(p, "src/y.test.ts"), sh("npm test"), sh("git commit -m x"), sh("git push origin HEAD:main"), sh("npm test && git push origin HEAD:main")],
        },
      ],
    });
    try {
      const why = explain(r);
      ranToEnd(r, "jade", 8, why);
      expect(r.exists("src/x.ts"), `jade could not write src/\n${why}`).toBe(true);
      for (const f of ["tests/x.test.ts", "docs/jade.md", "src/y.test.ts"]) expect(r.exists(f), `${f} was written\n${why}`).toBe(false);
      expect(gitState(r.env.project), why).toEqual({ commits: 1, originRefs: "" });
      expect(answerTo(r, "jade", 1), why).toMatch(/denied due to the following rules: `write\((tests\/\*\*|\*\*\/\*\.test\.\*)\)`/);
      expect(answerTo(r, "jade", 2), why).toMatch(/Permission denied because no interactive user response was available/);
      expect(answerTo(r, "jade", 3), why).toMatch(/denied due to the following rules: `write\(\*\*\/\*\.test\.\*\)`/);
      expect(answerTo(r, "jade", 4), why).toMatch(/SCENE-TESTS-RAN/);
      expect(answerTo(r, "jade", 5), why).toMatch(/denied due to the following rules: `shell\(git commit\)`/);
      expect(answerTo(r, "jade", 6), why).toMatch(/denied due to the following rules: `shell\(git push\)`/);
      expect(answerTo(r, "jade", 7), why).toMatch(/denied due to the following rules: `shell\(git push\)`/);
    } finally {
      r.dispose();
    }
  });

  it("copilot: the pipeline launcher refuses git commit, git push and never-write paths for subagent jade", async () => {
    const r = await run({
      launcher: ".github/copilot/bin/pebble.sh",
      files: folders,
      setup: (p) => (withoutGuard(p), gitScene(p)),
      script: (p): Conversation[] => [
        { name: "jade", when: "You are Jade", steps: [create(p, "src/x.ts"), create(p, ".github/agents/evil.agent.md"), sh("git commit -m x"), sh("git push origin HEAD:main"), sh("git status --short")] },
        { name: "main", steps: [task("jade")] },
      ],
    });
    try {
      const why = explain(r);
      ranToEnd(r, "jade", 5, why);
      expect(r.exists("src/x.ts"), `jade could not write src/ in an orchestrated run\n${why}`).toBe(true);
      expect(r.exists(".github/agents/evil.agent.md"), why).toBe(false);
      expect(gitState(r.env.project), why).toEqual({ commits: 1, originRefs: "" });
      expect(answerTo(r, "jade", 1), why).toMatch(/denied due to the following rules: `write\(\.github\/agents\/\*\*\)`/);
      expect(answerTo(r, "jade", 2), why).toMatch(/denied due to the following rules: `shell\(git commit\)`/);
      expect(answerTo(r, "jade", 3), why).toMatch(/denied due to the following rules: `shell\(git push\)`/);
      expect(answerTo(r, "jade", 4), why).toMatch(/A {2}src\/staged\.ts/);
    } finally {
      r.dispose();
    }
  });

  const guardSaid = (r: Run, conv: string, i: number) => answerTo(r, conv, i);
  const DENIED = /Denied by preToolUse hook: harness guard: /;

  it("copilot: guard refuses subagent jade writing tests/ and docs/ and running git commit, allows its src/ write and npm test; binds onyx run alone and the orchestrator", async () => {
    const scene = { ...folders, "package.json": JSON.stringify({ name: "scene", scripts: { test: "echo SCENE-TESTS-RAN" } }) };
    // an orchestrated run through the pipeline launcher: the orchestrator's and jade's own hooks
    const orch = await run({
      launcher: ".github/copilot/bin/pebble.sh",
      files: scene,
      setup: (p) => (withoutController(p), gitScene(p)),
      script: (p): Conversation[] => [
        {
          name: "jade",
          when: "You are Jade",
          steps: [create(p, "src/x.ts"), create(p, "tests/x.test.ts"), create(p, "docs/jade.md"), sh("npm test"), sh("git commit -m x"), sh("git push origin HEAD:main"), task("mica")],
        },
        { name: "main", steps: [task("explore"), sh("git commit -m x"), sh("git status --porcelain --untracked-files=all"), task("jade")] },
      ],
    });
    try {
      const why = explain(orch);
      ranToEnd(orch, "main", 4, why);
      ranToEnd(orch, "jade", 7, why);
      // the orchestrator: only pipeline roles may be started, git writes are refused, its own step runs
      expect(guardSaid(orch, "main", 0), why).toMatch(/Denied by preToolUse hook: harness guard: the orchestrator \(main thread\) may not start \\"explore\\": it is not a role of pipeline pebble/);
      expect(guardSaid(orch, "main", 1), why).toMatch(/Denied by preToolUse hook: harness guard: the orchestrator \(main thread\) may not run \\"git commit -m x\\"/);
      expect(guardSaid(orch, "main", 2), why).toMatch(/\?\? src\/x\.ts|A {2}src\/staged\.ts/);
      // jade, a subagent: its own scope only, although the run's flags allow every role's paths
      expect(orch.exists("src/x.ts"), `jade could not write src/ under the guard\n${why}`).toBe(true);
      for (const f of ["tests/x.test.ts", "docs/jade.md"]) expect(orch.exists(f), `${f} was written\n${why}`).toBe(false);
      expect(guardSaid(orch, "jade", 1), why).toMatch(/Denied by preToolUse hook: harness guard: jade may not write tests\/x\.test\.ts \(never-write: artifact tests\)/);
      expect(guardSaid(orch, "jade", 2), why).toMatch(/Denied by preToolUse hook: harness guard: jade may not write docs\/jade\.md \(not in its write scope/);
      expect(guardSaid(orch, "jade", 3), why).toMatch(/SCENE-TESTS-RAN/);
      expect(guardSaid(orch, "jade", 4), why).toMatch(/Denied by preToolUse hook: harness guard: jade may not run \\"git commit -m x\\" \(no pipeline agent may run git commit \*\)/);
      expect(guardSaid(orch, "jade", 5), why).toMatch(/Denied by preToolUse hook: harness guard: jade may not run \\"git push origin HEAD:main\\"/);
      expect(guardSaid(orch, "jade", 6), why).toMatch(/Denied by preToolUse hook: harness guard: jade may not start agents/);
      expect(gitState(orch.env.project), why).toEqual({ commits: 1, originRefs: "" });
    } finally {
      orch.dispose();
    }

    // onyx, a main-session role, run alone through its launcher (copilot --agent onyx): Copilot names
    // no agent in this hook input; the hook in onyx's own file binds it
    const alone = await run({
      launcher: ".github/copilot/bin/onyx.sh",
      files: scene,
      setup: (p) => gitScene(p),
      script: (p) => [{ name: "onyx", steps: [create(p, ".pebble/review.md"), create(p, "src/evil.ts"), sh("git diff --stat"), sh("npm install left-pad"), sh("npm audit fix"), sh("git log -1 --oneline")] }],
    });
    try {
      const why = explain(alone);
      ranToEnd(alone, "onyx", 6, why);
      expect(alone.exists(".pebble/review.md"), `onyx could not write its review\n${why}`).toBe(true);
      expect(alone.exists("src/evil.ts"), why).toBe(false);
      expect(guardSaid(alone, "onyx", 1), why).toMatch(/Denied by preToolUse hook: harness guard: onyx may not write src\/evil\.ts \(not in its write scope: \.pebble\/review\.md\)/);
      expect(guardSaid(alone, "onyx", 2), why).not.toMatch(DENIED);
      expect(guardSaid(alone, "onyx", 2), why).toMatch(/shellId|exit code 0/);
      expect(guardSaid(alone, "onyx", 3), why).toMatch(/Denied by preToolUse hook: harness guard: onyx may not run \\"npm install left-pad\\" \(no shell rule of its role allows it/);
      expect(guardSaid(alone, "onyx", 4), why).toMatch(/Denied by preToolUse hook: harness guard: onyx may not run \\"npm audit fix\\" \(its shell rules deny npm audit fix\*\)/);
      expect(guardSaid(alone, "onyx", 5), why).toMatch(/scene: initial/);
    } finally {
      alone.dispose();
    }
  });

  it("copilot: an ordinary session in the project runs no guard", async () => {
    // no --agent, no launcher: Copilot's own permission flow (here --allow-all-tools) decides alone
    const r = await run({
      args: ["--allow-all-tools"],
      files: folders,
      setup: (p) => gitScene(p),
      script: (p) => [{ name: "main", steps: [create(p, "tests/ordinary.test.ts"), sh("git commit -q -m ordinary"), create(p, ".pebble/notes.md")] }],
    });
    try {
      const why = explain(r);
      ranToEnd(r, "main", 3, why);
      expect(results(r), why).not.toMatch(/harness guard/);
      expect(r.exists("tests/ordinary.test.ts"), why).toBe(true);
      expect(r.exists(".pebble/notes.md"), why).toBe(true);
      expect(gitState(r.env.project).commits, why).toBe(2);
    } finally {
      r.dispose();
    }
  });

  it("copilot: in a folder not trusted persistently Copilot skips the agents' guard hooks, and the launchers refuse to start", async () => {
    const script = () => [{ name: "jade", steps: [sh("git commit -q -m untrusted")] }];
    // by hand: Copilot 1.0.102 loads the agent but defers its hooks; the commit goes through
    const bare = await run({ trusted: false, args: ["--agent", "jade", "--allow-all-tools"], files: folders, setup: (p) => gitScene(p), script });
    try {
      const why = explain(bare);
      ranToEnd(bare, "jade", 1, why);
      expect(results(bare), why).not.toMatch(/harness guard/);
      expect(gitState(bare.env.project).commits, `Copilot now runs agent hooks in an untrusted folder: revisit the launchers' trust check and the gap in adapters/copilot/guard.ts\n${why}`).toBe(2);
      const log = fs.readdirSync(bare.logDir).map((f) => fs.readFileSync(path.join(bare.logDir, f), "utf8")).join("\n");
      expect(log, why).toMatch(/agent hooks deferred until their workspace is trusted/);
    } finally {
      bare.dispose();
    }
    // through a launcher: refused before Copilot starts
    const launched = await run({ trusted: false, launcher: ".github/copilot/bin/jade.sh", files: folders, setup: (p) => gitScene(p), script });
    try {
      const why = explain(launched);
      expect(launched.result.code, why).toBe(1);
      expect(launched.result.stderr, why).toMatch(/harness: Copilot CLI runs the agents' guard hooks only in a folder it trusts persistently/);
      expect(launched.stub.log.filter((l) => l.request), why).toEqual([]);
      expect(gitState(launched.env.project).commits, why).toBe(1);
    } finally {
      launched.dispose();
    }
  });

  /** A git scene run with COPILOT_HOME set to a folder whose config.json trusts the project or not. */
  const copilotHomeScene = (trusts: boolean) => (p: string, env: { env: Record<string, string>; home: string }) => {
    gitScene(p);
    const home = path.join(env.home, "copilot-home");
    fs.mkdirSync(home, { recursive: true });
    fs.writeFileSync(path.join(home, "config.json"), JSON.stringify({ ...(trusts ? { trustedFolders: [p] } : {}), banner: "never" }, null, 2));
    env.env.COPILOT_HOME = home;
  };

  it("copilot: with COPILOT_HOME set, the folder trusted there starts the launcher; jade writes src/ and runs npm test, the guard refuses its commit", async () => {
    // ~/.copilot/config.json does not trust the project (trusted: false); $COPILOT_HOME/config.json does
    const r = await run({
      trusted: false,
      launcher: ".github/copilot/bin/jade.sh",
      files: { ...folders, "package.json": JSON.stringify({ name: "scene", scripts: { test: "echo SCENE-TESTS-RAN" } }) },
      setup: copilotHomeScene(true),
      script: (p) => [{ name: "jade", steps: [create(p, "src/x.ts"), sh("npm test"), sh("git commit -q -m via-copilot-home")] }],
    });
    try {
      const why = explain(r);
      expect(r.result.stderr, why).not.toMatch(/harness: Copilot CLI runs the agents' guard hooks only in a folder it trusts persistently/);
      ranToEnd(r, "jade", 3, why);
      expect(r.exists("src/x.ts"), `jade could not write src/\n${why}`).toBe(true);
      expect(answerTo(r, "jade", 1), why).toMatch(/SCENE-TESTS-RAN/);
      expect(answerTo(r, "jade", 2), why).toMatch(/harness guard: jade may not run \\?"git commit -q -m via-copilot-home\\?"/); // JSON-escaped
      expect(gitState(r.env.project).commits, why).toBe(1);
    } finally {
      r.dispose();
    }
  });

  it("copilot: with COPILOT_HOME set, trust recorded only in ~/.copilot does not count: Copilot skips the guard and the launcher refuses", async () => {
    const script = () => [{ name: "jade", steps: [sh("git commit -q -m home-trust-only")] }];
    // ~/.copilot/config.json trusts the project (the default); $COPILOT_HOME/config.json does not
    const bare = await run({ args: ["--agent", "jade", "--allow-all-tools"], files: folders, setup: copilotHomeScene(false), script });
    try {
      const why = explain(bare);
      ranToEnd(bare, "jade", 1, why);
      expect(results(bare), why).not.toMatch(/harness guard/);
      expect(gitState(bare.env.project).commits, `Copilot now reads trust from ~/.copilot despite COPILOT_HOME: revisit the launchers' trust check\n${why}`).toBe(2);
    } finally {
      bare.dispose();
    }
    const launched = await run({ launcher: ".github/copilot/bin/jade.sh", files: folders, setup: copilotHomeScene(false), script });
    try {
      const why = explain(launched);
      expect(launched.result.code, why).toBe(1);
      expect(launched.result.stderr, why).toMatch(/harness: Copilot CLI runs the agents' guard hooks only in a folder it trusts persistently, and .* is not in trustedFolders of .*copilot-home\/config\.json/);
      expect(launched.stub.log.filter((l) => l.request), why).toEqual([]);
      expect(gitState(launched.env.project).commits, why).toBe(1);
    } finally {
      launched.dispose();
    }
  });

  it("copilot: guard reads apply_patch's patch text (GPT models): jade's patch into src/ runs, one that also touches tests/ is refused whole", async () => {
    // with a GPT model Copilot offers apply_patch (a freeform tool) instead of create/edit; its hook input's toolArgs is the patch text
    const patch = (...lines: string[]) => ({ tool: "apply_patch", input: { input: ["*** Begin Patch", ...lines, "*** End Patch", ""].join("\n") } });
    const r = await run({
      launcher: ".github/copilot/bin/jade.sh",
      args: ["--model", "gpt-5.4"],
      files: folders,
      setup: (p) => {
        const f = path.join(p, ".github/agents/jade.agent.md");
        fs.writeFileSync(f, fs.readFileSync(f, "utf8").replace(/^model: .*$/m, "model: gpt-5.4"));
        gitScene(p);
      },
      script: (p) => [{ name: "jade", steps: [patch(`*** Add File: ${path.join(p, "src/p.ts")}`, "+ok"), patch("*** Add File: src/q.ts", "+q", "*** Add File: tests/q.test.ts", "+q"), patch("*** Update File: src/p.ts", "@@", "-ok", "+moved", "*** Move to: tests/p.test.ts")] }],
    });
    try {
      const why = explain(r);
      ranToEnd(r, "jade", 3, why);
      // a custom (freeform) tool in the chat request: {"type":"custom","custom":{"name":"apply_patch",…}}
      expect(JSON.stringify(requestsOf(r.stub, "jade")[0]?.body.tools), why).toMatch(/"custom":\{"name":"apply_patch"/);
      expect(fs.readFileSync(path.join(r.env.project, "src/p.ts"), "utf8"), why).toBe("ok\n");
      for (const f of ["src/q.ts", "tests/q.test.ts", "tests/p.test.ts"]) expect(r.exists(f), `${f} was written\n${why}`).toBe(false);
      expect(answerTo(r, "jade", 1), why).toMatch(/Denied by preToolUse hook: harness guard: jade may not write tests\/q\.test\.ts \(never-write: artifact tests\)/);
      expect(answerTo(r, "jade", 2), why).toMatch(/Denied by preToolUse hook: harness guard: jade may not write tests\/p\.test\.ts/);
    } finally {
      r.dispose();
    }
  });
});
