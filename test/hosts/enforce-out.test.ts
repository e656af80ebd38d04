// Enforcement of what harness actually EMITS for the repo's roles (roles/ -> lib/emitted.ts, the
// same build() the CLI runs): each test copies one host's emitted tree into a scratch project,
// has a loopback stub play the model as one pipeline role, and checks what the real host let
// happen: files on disk, git state, the tool results the host sent back, the tools it offered.
//
// Test names are stable: the adapters' `proofs` fields cite them (proofs.test.ts checks that every
// cited name exists here). One real host run per test, loopback only, bounded in time.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse as parseToml } from "smol-toml";
import { parse as parseYaml } from "yaml";
import { emittedTree, hostBin, REGISTERED_HOSTS } from "./helpers.js";
import { buildEmitted, EMITTED_ROOT, ROLES_DIR } from "./lib/emitted.js";
import { runClaudeScripted, runCodexScripted, runKiloScripted, runOpenCodeScripted, type ScriptedRun } from "./lib/scripted.js";
import type { Conversation, ModelRequest, Step } from "./lib/stubs.js";

// ---------------------------------------------------------------- shared

/** Text in the main session's prompt; a subagent that sees it did not get its own context. */
const MAIN_ONLY = "MAIN-SESSION-ONLY-7f3a";

function explain(r: ScriptedRun): string {
  const text = [
    `exit ${r.result.code} in ${r.result.durationMs} ms${r.result.timedOut ? " (TIMED OUT)" : ""}${r.result.error ? ` (${r.result.error})` : ""}`,
    `stub requests: ${r.stub.log.map((l) => `${l.conversation ?? "-"}#${l.step}`).join(" ")}`,
    `tool results:\n  | ${r.stub.toolResultTexts().map((t) => t.slice(0, 400)).join("\n  | ")}`,
    `stderr: ${r.result.stderr.slice(-2000)}`,
  ].join("\n");
  if (process.env.HARNESS_HOSTS_VERBOSE) process.stderr.write(`--- ${r.env.root}\n${text}\n`);
  return text;
}

/** the conversation ran every scripted step and got a result for the last one */
function ranToEnd(r: ScriptedRun, conv: string, steps: number, why: string): void {
  expect(r.stub.log.some((l) => l.conversation === conv && l.step === steps), `${conv} did not run its ${steps} step(s) to the end\n${why}`).toBe(true);
}

const results = (r: ScriptedRun) => r.stub.toolResultTexts().join("\n");
const read = (r: ScriptedRun, rel: string) => fs.readFileSync(path.join(r.env.project, rel), "utf8");
const requestsOf = (r: ScriptedRun, conv: string): ModelRequest[] => r.stub.log.filter((l) => l.conversation === conv && l.request).map((l) => l.request!);
const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, { cwd, encoding: "utf8", env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: cwd, GIT_CONFIG_NOSYSTEM: "1" } }).trim();

/** A project with one commit, a staged change and a local bare `origin`: a commit or push that is not refused would really happen. */
function gitScene(project: string): void {
  const bare = path.join(path.dirname(project), "origin.git");
  git(path.dirname(project), "init", "-q", "--bare", bare);
  git(project, "add", "-A");
  git(project, "commit", "-q", "-m", "scene: initial");
  git(project, "remote", "add", "origin", bare);
  fs.writeFileSync(path.join(project, "src", "staged.ts"), "export const staged = 1;\n");
  git(project, "add", "src/staged.ts");
}
/** the scene's git state after the run: commits on HEAD, refs in origin */
function gitState(project: string): { commits: number; originRefs: string } {
  const bare = path.join(path.dirname(project), "origin.git");
  return { commits: Number(git(project, "rev-list", "--count", "HEAD")), originRefs: git(bare, "for-each-ref") };
}

// ---------------------------------------------------------------- Claude Code

/** A package whose test script really runs (without one, npm would walk up to this repository's own). */
const SCENE_PACKAGE = JSON.stringify({ name: "scene", private: true, scripts: { test: "node -e \"console.log('SCENE-TESTS-RAN')\"" } });

/** The bundled roles built with policies.scope: repository, once per run. */
let repoTree: Promise<string> | undefined;
function repositoryScopeTree(): Promise<string> {
  repoTree ??= (async () => {
    const base = path.join(EMITTED_ROOT, `scope-repository-${process.pid}`);
    const roles = path.join(base, "roles");
    fs.rmSync(base, { recursive: true, force: true });
    fs.cpSync(ROLES_DIR, roles, { recursive: true });
    const yml = path.join(roles, "pipeline.yaml");
    fs.writeFileSync(yml, fs.readFileSync(yml, "utf8").replace(/^policies:\n/m, "policies:\n  scope: repository\n"));
    const built = await buildEmitted(path.join(base, "out"), roles);
    if (!built.root) throw new Error(built.error);
    return path.join(built.root, "claude-code");
  })();
  return repoTree;
}

describe.concurrent("claude-code: the emitted .claude/ tree is enforced", () => {
  const write = (p: string, rel: string): Step => ({ tool: "Write", input: { file_path: path.join(p, rel), content: `// written by the scripted model: ${rel}\n` } });
  const readF = (p: string, rel: string): Step => ({ tool: "Read", input: { file_path: path.join(p, rel) } });
  const edit = (p: string, rel: string): Step => ({ tool: "Edit", input: { file_path: path.join(p, rel), old_string: "original", new_string: "edited" } });
  const bash = (command: string): Step => ({ tool: "Bash", input: { command, description: "scripted" } });
  const spawn = (role: string) => (req: ModelRequest): Step => ({
    tool: req.tools.includes("Agent") ? "Agent" : "Task",
    input: { description: `run ${role}`, prompt: `Do the ${role} stage.`, subagent_type: role, run_in_background: false },
  });
  /** main thread delegating to one role, plus the role's own script (matched by its prompt) */
  const delegate = (role: string, marker: string, steps: Conversation["steps"]): Conversation[] => [
    { name: role, when: marker, steps },
    { name: "main", steps: [spawn(role)] },
  ];
  const run = (o: Omit<Parameters<typeof runClaudeScripted>[0], "bin" | "tree"> & { tree: string }) =>
    runClaudeScripted({ bin: hostBin("claude-code"), prompt: `${MAIN_ONLY}: go`, timeoutMs: 90_000, ...o });

  it("claude-code: guard refuses jade writing tests/", async () => {
    const tree = await emittedTree("claude-code");
    const r = await run({
      tree,
      script: (p) => delegate("jade", "You are Jade", [write(p, "tests/x.test.ts"), write(p, "src/x.ts"), write(p, "docs/jade.md")]),
    });
    try {
      const why = explain(r);
      ranToEnd(r, "jade", 3, why);
      expect(r.exists("tests/x.test.ts"), why).toBe(false);
      expect(r.exists("docs/jade.md"), why).toBe(false);
      expect(r.exists("src/x.ts"), `jade could not write src/ at all\n${why}`).toBe(true);
      expect(results(r), why).toMatch(/jade may not write tests\/x\.test\.ts \(never-write: [^)]*artifact tests/);
      expect(results(r), why).toMatch(/jade may not write docs\/jade\.md \(not in /);
    } finally {
      r.dispose();
    }
  });

  // anthropics/claude-code#95650: some builds never fire an agent's front-matter hooks. The settings.json
  // layer (the guard with no argument, keyed on agent_type) must hold the role alone.
  it("claude-code: with jade's front-matter hook removed, the settings.json layer still refuses jade writing tests/", async () => {
    const tree = await emittedTree("claude-code");
    const r = await run({
      tree,
      setup: (p) => {
        const f = path.join(p, ".claude", "agents", "jade.md");
        const text = fs.readFileSync(f, "utf8");
        const stripped = text.replace(/^hooks:\n(?:[ ]+.*\n)+(?=---\n)/m, "");
        if (stripped === text || stripped.includes("harness-guard")) throw new Error("could not remove the hooks block of jade.md");
        fs.writeFileSync(f, stripped);
      },
      script: (p) => [
        { name: "jade", when: "You are Jade", steps: [write(p, "tests/x.test.ts"), write(p, "src/x.ts"), bash("git commit -m x")] },
        { name: "main", steps: [write(p, "tests/ordinary.test.ts"), spawn("jade")] },
      ],
    });
    try {
      const why = explain(r);
      ranToEnd(r, "jade", 3, why);
      expect(read(r, ".claude/agents/jade.md"), why).not.toContain("harness-guard");
      expect(r.exists("tests/x.test.ts"), `jade wrote tests/ with only the settings.json layer\n${why}`).toBe(false);
      expect(r.exists("src/x.ts"), `jade could not write src/\n${why}`).toBe(true);
      expect(results(r), why).toMatch(/jade may not write tests\/x\.test\.ts \(never-write: [^)]*artifact tests/);
      expect(results(r), why).toMatch(/jade may not run "git commit -m x"/);
      // the same layer leaves the ordinary main thread alone
      expect(r.exists("tests/ordinary.test.ts"), `the settings.json layer bound the ordinary session\n${why}`).toBe(true);
    } finally {
      r.dispose();
    }
  });

  // chalk has no Bash: with Bash in the list, Claude Code 2.1.332 (native build) serves Grep/Glob through Bash
  // (embedded ugrep/bfs) and drops the Grep/Glob tools, so only a Bash-less role's list compares exactly.
  // chalk's model (haiku) also differs from the session's default.
  it("claude-code: subagent chalk gets exactly its tools, its model and its own context", async () => {
    const tree = await emittedTree("claude-code");
    const r = await run({ tree, script: (p) => delegate("chalk", "You are Chalk", [write(p, "docs/chalk.md")]) });
    try {
      const why = explain(r);
      ranToEnd(r, "chalk", 1, why);
      const fm = parseYaml(fs.readFileSync(path.join(tree, ".claude/agents/chalk.md"), "utf8").split(/^---$/m)[1] ?? "") as { tools?: string; model?: string; effort?: string };
      const declared = String(fm.tools ?? "").split(/,\s*/).filter(Boolean).sort();
      expect(declared, "chalk.md declares no tools").toContain("Read");
      expect(declared, "chalk.md grew a Bash tool: pick a Bash-less role for this test").not.toContain("Bash");
      const chalk = requestsOf(r, "chalk");
      for (const q of chalk) expect([...q.tools].sort(), `chalk was not offered exactly its tools: list\n${why}`).toEqual(declared);
      const main = requestsOf(r, "main")[0];
      expect(main?.tools, why).toEqual(expect.arrayContaining(["Agent", "Bash"])); // what chalk was not given
      expect(String(main?.body.model), why).not.toContain(String(fm.model));
      for (const q of chalk) expect(String(q.body.model), `chalk did not run on its model: ${fm.model}\n${why}`).toContain(String(fm.model));
      // effort: the role's own (chalk: low), not the session's
      expect(fm.effort, "chalk.md sets no effort").toBeTruthy();
      expect((main?.body.output_config as { effort?: string } | undefined)?.effort, why).not.toBe(fm.effort);
      for (const q of chalk) expect((q.body.output_config as { effort?: string } | undefined)?.effort, `chalk did not run at its effort: ${fm.effort}\n${why}`).toBe(fm.effort);
      expect(JSON.stringify(main?.body.messages), why).toContain(MAIN_ONLY);
      for (const q of chalk) expect(JSON.stringify(q.body.messages), `chalk saw the main session's messages\n${why}`).not.toContain(MAIN_ONLY);
      expect(r.exists("docs/chalk.md"), why).toBe(true);
    } finally {
      r.dispose();
    }
  });

  it("claude-code: guard refuses mica writing src/", async () => {
    const tree = await emittedTree("claude-code");
    const r = await run({ tree, script: (p) => delegate("mica", "You are Mica", [write(p, "src/x.ts"), write(p, "tests/x.test.ts")]) });
    try {
      const why = explain(r);
      ranToEnd(r, "mica", 2, why);
      expect(r.exists("src/x.ts"), why).toBe(false);
      expect(r.exists("tests/x.test.ts"), `mica could not write tests/ at all\n${why}`).toBe(true);
      expect(results(r), why).toMatch(/mica may not write src\/x\.ts \(not in its write scope: /);
    } finally {
      r.dispose();
    }
  });

  it("claude-code: guard refuses quartz editing src/ (Edit and shell redirect)", async () => {
    const tree = await emittedTree("claude-code");
    const r = await run({
      tree,
      files: { "src/x.ts": "export const x = 'original';\n" },
      script: (p) =>
        delegate("quartz", "You are Quartz", [readF(p, "src/x.ts"), edit(p, "src/x.ts"), bash("echo hacked > src/x.ts"), write(p, ".pebble/verification.md")]),
    });
    try {
      const why = explain(r);
      ranToEnd(r, "quartz", 4, why);
      expect(read(r, "src/x.ts"), why).toBe("export const x = 'original';\n");
      expect(r.exists(".pebble/verification.md"), `quartz could not write its report\n${why}`).toBe(true);
      expect(results(r), why).toMatch(/quartz may not write src\/x\.ts \(/);
      expect(results(r), why).toMatch(/quartz may not write src\/x\.ts \([^)]*\), in the command "echo hacked > src\/x\.ts"/);
    } finally {
      r.dispose();
    }
  });

  it("claude-code: guard refuses onyx (--agent) editing src/ and running commands its shell rules deny", async () => {
    const tree = await emittedTree("claude-code");
    const r = await run({
      tree,
      args: ["--agent", "onyx"],
      files: { "src/x.ts": "export const x = 'original';\n" },
      script: (p) => [
        {
          name: "onyx",
          when: "You are Onyx",
          steps: [readF(p, "src/x.ts"), edit(p, "src/x.ts"), bash("npm audit fix"), bash("touch src/y.ts"), bash("git status --short"), write(p, ".pebble/review.md")],
        },
      ],
    });
    try {
      const why = explain(r);
      ranToEnd(r, "onyx", 6, why);
      expect(read(r, "src/x.ts"), why).toBe("export const x = 'original';\n");
      expect(r.exists("src/y.ts"), why).toBe(false);
      expect(r.exists(".pebble/review.md"), `onyx could not write its review\n${why}`).toBe(true);
      const res = results(r);
      expect(res, why).toMatch(/onyx may not write src\/x\.ts \(/);
      expect(res, why).toMatch(/onyx may not run "npm audit fix" \(its shell rules deny npm audit fix\*\)/);
      expect(res, why).toMatch(/onyx may not run "touch src\/y\.ts"|onyx may not write src\/y\.ts/);
      expect(res, why).toMatch(/\?\? src\//); // git status ran (allowed) and saw the seeded file
    } finally {
      r.dispose();
    }
  });

  it("claude-code: guard refuses git commit and git push for subagent jade", async () => {
    const tree = await emittedTree("claude-code");
    const r = await run({
      tree,
      files: { "src/x.ts": "export const x = 1;\n" },
      setup: (p) => gitScene(p),
      script: () => delegate("jade", "You are Jade", [bash("git commit -m x"), bash("git push origin HEAD:main")]),
    });
    try {
      const why = explain(r);
      ranToEnd(r, "jade", 2, why);
      expect(gitState(r.env.project), why).toEqual({ commits: 1, originRefs: "" });
      expect(results(r), why).toMatch(/jade may not run "git commit -m x" \(no pipeline agent may run git commit \*\)/);
      expect(results(r), why).toMatch(/jade may not run "git push origin HEAD:main" \(no pipeline agent may run git push \*\)/);
    } finally {
      r.dispose();
    }
  });

  // policies.scope: repository (today's behaviour on request): one settings.json hook binds every
  // session, and settings.json denies only what no allowed command meets, so the orchestrator's
  // `git stash push` is not shadowed by a broader deny (Claude Code checks deny before any allow)
  it("claude-code: scope repository: every session is the orchestrator, its git stash push runs, and settings.json deny holds with the guard off", async () => {
    const tree = await repositoryScopeTree();
    const human = { "docs/wip.md": "work in progress\n" };
    const on = await run({
      tree,
      files: { "src/x.ts": "export const x = 1;\n", "package.json": SCENE_PACKAGE },
      setup: (p) => { gitScene(p); fs.mkdirSync(path.join(p, "docs"), { recursive: true }); fs.writeFileSync(path.join(p, "src/x.ts"), human["docs/wip.md"]); },
      script: (p) => [{ name: "main", steps: [bash("git stash push -m pre-run"), write(p, "src/bar.ts"), bash("git stash pop")] }],
    });
    try {
      const why = explain(on);
      ranToEnd(on, "main", 3, why);
      expect(git(on.env.project, "stash", "list"), why).toMatch(/pre-run/);
      expect(on.exists("src/bar.ts"), why).toBe(false);
      expect(results(on), why).toMatch(/the orchestrator \(main thread\) may not write src\/bar\.ts/);
      expect(results(on), why).toMatch(/may not run "git stash pop" \(no pipeline agent may run git stash \*\)/);
    } finally {
      on.dispose();
    }
    const off = await run({
      tree,
      env: { HARNESS_GUARD_OFF: "1" },
      files: { "src/x.ts": "export const x = 1;\n" },
      setup: (p) => gitScene(p),
      script: () => delegate("jade", "You are Jade", [bash("git commit -m x"), bash("git push origin HEAD:main"), bash("git status --short")]),
    });
    try {
      const why = explain(off);
      ranToEnd(off, "jade", 3, why);
      expect(gitState(off.env.project), why).toEqual({ commits: 1, originRefs: "" });
      const res = results(off);
      expect(res, why).not.toMatch(/harness guard: jade/); // the guard is really off
      expect(res, why).toMatch(/git commit -m x[^\n]*has been denied|denied[^\n]*git commit -m x/i);
      expect(res, why).toMatch(/git push origin HEAD:main[^\n]*has been denied|denied[^\n]*git push origin HEAD:main/i);
    } finally {
      off.dispose();
    }
  });

  // policies.scope: pipeline (the default): the limits travel in the roles' and the pipeline
  // command's front matter; settings.json carries none, so a teammate's session is not bound
  it("claude-code: an ordinary session writes src/ and tests/; subagent jade still cannot write tests/", async () => {
    const tree = await emittedTree("claude-code");
    const r = await run({
      tree,
      files: { "src/x.ts": "export const x = 1;\n" },
      setup: (p) => gitScene(p),
      script: (p) => [
        { name: "jade", when: "You are Jade", steps: [write(p, "tests/by-jade.test.ts"), write(p, "src/by-jade.ts")] },
        { name: "main", steps: [write(p, "src/ordinary.ts"), write(p, "tests/ordinary.test.ts"), write(p, "CLAUDE.md"), spawn("jade")] },
      ],
    });
    try {
      const why = explain(r);
      ranToEnd(r, "main", 4, why);
      ranToEnd(r, "jade", 2, why);
      for (const f of ["src/ordinary.ts", "tests/ordinary.test.ts", "src/by-jade.ts"]) expect(r.exists(f), `${f}\n${why}`).toBe(true);
      expect(read(r, "CLAUDE.md"), why).toContain("written by the scripted model");
      expect(r.exists("tests/by-jade.test.ts"), why).toBe(false);
      expect(results(r), why).toMatch(/jade may not write tests\/by-jade\.test\.ts \(never-write: [^)]*artifact tests/);
      expect(results(r), why).not.toMatch(/harness guard: the orchestrator/);
    } finally {
      r.dispose();
    }
  });

  // A hook's permissionDecision "allow" lets the call run without a prompt even in the default
  // permission mode, headless: a role's shell.allow means "runs without asking". ask stays ask.
  it("claude-code: guard lets jade run its allowed commands and write its scope headless with no prompt (default mode)", async () => {
    const tree = await emittedTree("claude-code");
    const r = await run({
      tree,
      args: ["--permission-mode", "default"],
      files: { "package.json": SCENE_PACKAGE, "src/x.ts": "export const x = 1;\n" },
      setup: (p) => gitScene(p),
      script: (p) => delegate("jade", "You are Jade", [write(p, "src/feature.ts"), bash("npm test"), bash("git status -u"), bash("git diff -u"), bash("ls src"), bash("npm install left-pad"), bash("git difftool -x true")]),
    });
    try {
      const why = explain(r);
      ranToEnd(r, "jade", 7, why);
      expect(r.exists("src/feature.ts"), `jade's write asked for approval\n${why}`).toBe(true);
      const res = results(r);
      expect(res, `npm test did not run\n${why}`).toMatch(/SCENE-TESTS-RAN/);
      expect(res, why).toMatch(/Untracked files:[\s\S]*src\/feature\.ts/); // git status -u ran
      expect(res, why).toMatch(/^feature\.ts\nstaged\.ts\nx\.ts$/m); // ls ran
      expect(res, why).not.toMatch(/npm test[^\n]*requires approval|haven't granted it yet[^\n]*npm test/);
      expect(r.exists("node_modules/left-pad"), why).toBe(false); // ask: refused headless
      expect(res, why).toMatch(/jade may not run "git difftool -x true" \(git difftool changes the repository/);
    } finally {
      r.dispose();
    }
  });

  it("claude-code: subagent jade cannot start an agent", async () => {
    const tree = await emittedTree("claude-code");
    const r = await run({
      tree,
      script: (p) => [
        { name: "mica", when: "You are Mica", steps: [write(p, "tests/nested.test.ts")] },
        ...delegate("jade", "You are Jade", [spawn("mica"), write(p, "src/after.ts")]),
      ],
    });
    try {
      const why = explain(r);
      ranToEnd(r, "jade", 2, why);
      for (const q of requestsOf(r, "jade")) expect(q.tools.filter((t) => t === "Agent" || t === "Task"), why).toEqual([]);
      expect(r.stub.log.some((l) => l.conversation === "mica"), `jade started mica\n${why}`).toBe(false);
      expect(r.exists("tests/nested.test.ts"), why).toBe(false);
      expect(r.exists("src/after.ts"), why).toBe(true);
      expect(results(r), why).toMatch(/No such tool available: (Agent|Task)|not available|does not exist/i);
    } finally {
      r.dispose();
    }
  });

  // The emitted cap (maxTurns: 40) is lowered to 3 in the scratch copy, in the same front-matter field, so the
  // run stays short; jade's script would call Read 30 times. A turn is one model request: Claude Code runs the
  // tool calls of the 3rd and then ends the subagent instead of asking the model again, and the Agent tool's
  // result tells the main thread so.
  it("claude-code: maxTurns caps subagent jade's turns", async () => {
    const tree = await emittedTree("claude-code");
    const emittedCap = fs.readFileSync(path.join(tree, ".claude/agents/jade.md"), "utf8").split(/^---$/m)[1]?.match(/^maxTurns: (\d+)$/m)?.[1];
    expect(Number(emittedCap), "the emitted .claude/agents/jade.md front matter has no maxTurns: N").toBeGreaterThan(3);
    const r = await run({
      tree,
      files: { "src/x.ts": "export const x = 1;\n" },
      setup: (p) => {
        const f = path.join(p, ".claude/agents/jade.md");
        fs.writeFileSync(f, fs.readFileSync(f, "utf8").replace(/^maxTurns: \d+$/m, "maxTurns: 3"));
      },
      script: (p) => delegate("jade", "You are Jade", Array.from({ length: 30 }, () => readF(p, "src/x.ts"))),
    });
    try {
      const why = explain(r);
      ranToEnd(r, "main", 1, why); // the main thread got the Agent result and went on
      const jade = r.stub.log.filter((l) => l.conversation === "jade");
      expect(jade.map((l) => l.step), `jade was not stopped after 3 turns\n${why}`).toEqual([0, 1, 2]);
      const res = results(r);
      expect(res, why).toMatch(/this agent stopped at its 3-turn limit before finishing/);
      expect(res, why).toMatch(/tool_uses: 3\b/);
      expect(r.final()?.is_error, why).toBe(false);
    } finally {
      r.dispose();
    }
  });

  // NOT a proof: maxTurns binds a subagent only. The same field on a role run as the main thread
  // (`claude --agent onyx`) does not cap it: Claude Code 2.1.332 keeps asking the model. (/onyx, the other
  // main-session route, is a command in the main session; not run here.)
  // When a newer pin caps the main thread too this test fails: then max-turns of main-session roles can be native.
  it("claude-code: maxTurns does not cap onyx run as the main thread (--agent)", async () => {
    const tree = await emittedTree("claude-code");
    const calls = 8;
    const r = await run({
      tree,
      args: ["--agent", "onyx"],
      files: { "src/x.ts": "export const x = 1;\n" },
      setup: (p) => {
        const f = path.join(p, ".claude/agents/onyx.md");
        const text = fs.readFileSync(f, "utf8");
        expect(text, "the emitted .claude/agents/onyx.md has no maxTurns: N").toMatch(/^maxTurns: \d+$/m);
        fs.writeFileSync(f, text.replace(/^maxTurns: \d+$/m, "maxTurns: 3"));
      },
      script: (p) => [{ name: "onyx", when: "You are Onyx", steps: Array.from({ length: calls }, () => readF(p, "src/x.ts")) }],
    });
    try {
      const why = explain(r);
      ranToEnd(r, "onyx", calls, why); // every scripted Read ran: nothing stopped onyx at 3
      expect({ subtype: r.final()?.subtype, turns: r.final()?.num_turns }, why).toEqual({ subtype: "success", turns: calls + 1 });
    } finally {
      r.dispose();
    }
  });

  // /pebble's front-matter hook binds the main thread for the rest of that session: the
  // orchestrator's exception runs with no prompt, the rest of git stash, git push and writes outside
  // the main-session roles' documents are refused
  it("claude-code: /pebble: the orchestrator's git stash push runs; git stash pop, git push and writing src/ or .git/ are refused", async () => {
    const tree = await emittedTree("claude-code");
    const r = await run({
      tree,
      prompt: "/pebble add foo(n), which doubles n",
      files: { "src/x.ts": "export const x = 1;\n", "package.json": SCENE_PACKAGE },
      setup: (p) => { gitScene(p); fs.writeFileSync(path.join(p, "src/x.ts"), "export const x = 2; // the human's work in progress\n"); },
      // the work kind first: the run controller lets the spec (a main-session stage's document) be written only then
      script: (p) => [{ name: "main", steps: [bash(": harness kind feature"), bash("git stash push -m pre-run"), bash("npm run test --if-present"), write(p, ".pebble/spec.md"), bash("git stash pop"), bash("git push origin HEAD:main"), write(p, "src/bar.ts"), write(p, ".git/config"), bash("git status --porcelain --untracked-files=all")] }],
    });
    try {
      const why = explain(r);
      ranToEnd(r, "main", 9, why);
      expect(git(r.env.project, "stash", "list"), `the stash did not run\n${why}`).toMatch(/pre-run/);
      expect(read(r, "src/x.ts"), why).toBe("export const x = 1;\n"); // stashed, and not popped back
      expect(r.exists(".pebble/spec.md"), why).toBe(true);
      expect(r.exists("src/bar.ts"), why).toBe(false);
      expect(read(r, ".git/config"), why).not.toContain("scripted model");
      expect(gitState(r.env.project), why).toEqual({ commits: 1, originRefs: "" });
      const res = results(r);
      expect(res, why).toMatch(/the orchestrator \(main thread\) may not run "git stash pop" \(no pipeline agent may run git stash \*\)/);
      expect(res, why).toMatch(/the orchestrator \(main thread\) may not run "git push origin HEAD:main"/);
      expect(res, why).toMatch(/the orchestrator \(main thread\) may not write src\/bar\.ts \(not in the main-thread write scope[^)]*\)\. Delegate it to jade/);
      expect(res, why).toMatch(/may not write \.git\/config \(never-write: \.git\/\*\*/);
    } finally {
      r.dispose();
    }
  });
});

// ---------------------------------------------------------------- Codex

describe.concurrent("codex: the emitted .codex/ tree is enforced", () => {
  const shell = (p: string, cmd: string) => (req: ModelRequest): Step =>
    req.tools.includes("exec_command") ? { tool: "exec_command", input: { cmd, workdir: p } } : { tool: "shell", input: { command: ["bash", "-lc", cmd], workdir: p } };
  const patch = (p: string, rel: string) => shell(p, `apply_patch <<'PATCH'\n*** Begin Patch\n*** Add File: ${path.join(p, rel)}\n+patched\n*** End Patch\nPATCH`);
  const agentId = (req: ModelRequest) => JSON.stringify(req.body).match(/agent_id\\?"\s*:\s*\\?"([0-9a-f-]+)/)?.[1] ?? "missing";
  /** the orchestrator session spawning one role and waiting for it */
  const orchestrate = (role: string): Conversation => ({
    name: "main",
    steps: [
      { tool: "spawn_agent", namespace: "multi_agent_v1", input: { message: `Do the ${role} stage.`, agent_type: role, fork_turns: "none" } },
      (req) => ({ tool: "wait_agent", namespace: "multi_agent_v1", input: { targets: [agentId(req)], timeout_ms: 30000 } }),
    ],
  });
  const folders = { "src/.keep": "", "tests/.keep": "", "docs/.keep": "" };
  const run = (o: Omit<Parameters<typeof runCodexScripted>[0], "bin">) => runCodexScripted({ bin: hostBin("codex"), timeoutMs: 90_000, files: folders, ...o });

  it("codex: jade's launcher refuses writes to tests/, allows src/", async () => {
    const tree = await emittedTree("codex");
    const r = await run({
      tree,
      launcher: ".codex/bin/jade.sh",
      script: (p) => [
        {
          name: "jade",
          when: "You are Jade",
          steps: [
            shell(p, "echo no > tests/x.test.ts"),
            shell(p, "echo yes > src/x.ts"),
            patch(p, "tests/y.test.ts"),
            patch(p, "src/y.ts"),
            shell(p, "echo no > docs/jade.md"),
          ],
        },
      ],
    });
    try {
      const why = explain(r);
      ranToEnd(r, "jade", 5, why);
      expect(r.exists("tests/x.test.ts"), why).toBe(false);
      expect(r.exists("tests/y.test.ts"), why).toBe(false);
      expect(r.exists("docs/jade.md"), why).toBe(false);
      expect(r.exists("src/x.ts"), `jade could not write src/ at all\n${why}`).toBe(true);
      expect(r.exists("src/y.ts"), why).toBe(true);
      expect(results(r), why).toMatch(/tests\/x\.test\.ts: Read-only file system/);
      expect(results(r), why).toMatch(/docs\/jade\.md: Read-only file system/);
    } finally {
      r.dispose();
    }
  });

  it("codex: rules forbid git commit and git push (jade's launcher)", async () => {
    const tree = await emittedTree("codex");
    const r = await run({
      tree,
      launcher: ".codex/bin/jade.sh",
      setup: (p) => gitScene(p),
      script: (p) => [{ name: "jade", when: "You are Jade", steps: [shell(p, "git commit -m x"), shell(p, "git push origin HEAD:main"), shell(p, "git status --short")] }],
    });
    try {
      const why = explain(r);
      ranToEnd(r, "jade", 3, why);
      expect(gitState(r.env.project), why).toEqual({ commits: 1, originRefs: "" });
      expect(results(r), why).toMatch(/git commit -m x'` rejected: git commit[^:]*: the human owns this/);
      expect(results(r), why).toMatch(/git push origin HEAD:main'` rejected: git push[^:]*: the human owns this/);
      expect(results(r), why).toMatch(/A {2}src\/staged\.ts/); // an allowed git command ran
    } finally {
      r.dispose();
    }
  });

  it("codex: rules forbid git commit and git push in a spawned agent", async () => {
    const tree = await emittedTree("codex");
    const r = await run({
      tree,
      setup: (p) => gitScene(p),
      script: (p) => [{ name: "jade", when: "You are Jade", steps: [shell(p, "git commit -m x"), shell(p, "git push origin HEAD:main")] }, orchestrate("jade")],
    });
    try {
      const why = explain(r);
      ranToEnd(r, "jade", 2, why);
      expect(gitState(r.env.project), why).toEqual({ commits: 1, originRefs: "" });
      expect(results(r), why).toMatch(/git commit -m x'` rejected: git commit[^:]*: the human owns this/);
      expect(results(r), why).toMatch(/git push origin HEAD:main'` rejected: git push[^:]*: the human owns this/);
    } finally {
      r.dispose();
    }
  });

  it("codex: a spawned role starts from its own context with its developer_instructions and model", async () => {
    const tree = await emittedTree("codex");
    const r = await run({ tree, prompt: `${MAIN_ONLY}: go`, script: (p) => [{ name: "jade", when: "You are Jade", steps: [shell(p, "echo ok > src/ok.txt")] }, orchestrate("jade")] });
    try {
      const why = explain(r);
      ranToEnd(r, "jade", 1, why);
      expect(JSON.stringify(requestsOf(r, "main")[0]?.body.input), why).toContain(MAIN_ONLY);
      const jade = requestsOf(r, "jade");
      for (const q of jade) expect(JSON.stringify(q.body.input), `jade saw the orchestrator's conversation\n${why}`).not.toContain(MAIN_ONLY);
      expect(jade[0]?.system, why).toContain("# Jade: implementation");
      const role = parseToml(fs.readFileSync(path.join(tree, ".codex/agents/jade.toml"), "utf8")) as { model?: string; model_reasoning_effort?: string };
      expect(role.model, "jade.toml names no model").toBeTruthy();
      expect(role.model_reasoning_effort, "jade.toml names no effort").toBeTruthy();
      for (const q of jade) expect((q.body.reasoning as { effort?: string } | undefined)?.effort, `jade did not run at its effort\n${why}`).toBe(role.model_reasoning_effort);
      expect(requestsOf(r, "main")[0]?.body.model, why).toBe("stub-model"); // the session's own model
      for (const q of jade) expect(q.body.model, why).toBe(role.model);
      expect(r.exists("src/ok.txt"), why).toBe(true);
    } finally {
      r.dispose();
    }
  });

  // policies.scope: pipeline. The [permissions.<role>] profiles bind only the launchers; an ordinary session
  // keeps Codex's default :workspace sandbox. .codex/rules have no per-session scope: they bind it too (MAPPING.md).
  it("codex: an ordinary session writes src/ and tests/; the project rules still refuse its git commit", async () => {
    const tree = await emittedTree("codex");
    const r = await run({
      tree,
      setup: (p) => gitScene(p),
      script: (p) => [{ name: "main", steps: [shell(p, "echo ok > src/ordinary.ts"), shell(p, "echo ok > tests/ordinary.test.ts"), shell(p, "git commit -m x")] }],
    });
    try {
      const why = explain(r);
      ranToEnd(r, "main", 3, why);
      expect(r.exists("src/ordinary.ts"), why).toBe(true);
      expect(r.exists("tests/ordinary.test.ts"), why).toBe(true);
      expect(gitState(r.env.project).commits, why).toBe(1);
      expect(results(r), why).toMatch(/git commit -m x'` rejected: git commit/);
    } finally {
      r.dispose();
    }
  });

  // the orchestrator's exception is an allow rule: it runs outside the sandbox, headless; its siblings run in the sandbox and fail
  it("codex: the orchestrator's git stash push runs headless; git stash pop cannot touch .git", async () => {
    const tree = await emittedTree("codex");
    const r = await run({
      tree,
      setup: (p) => {
        gitScene(p);
        fs.writeFileSync(path.join(p, "src", "wip.ts"), "export const wip = 1;\n");
      },
      script: (p) => [{ name: "main", steps: [shell(p, "git stash push -m pre-run"), shell(p, "git stash pop")] }],
    });
    try {
      const why = explain(r);
      ranToEnd(r, "main", 2, why);
      expect(results(r), why).toMatch(/Saved working directory and index state On \S+: pre-run/);
      expect(git(r.env.project, "stash", "list"), why).toMatch(/pre-run/); // the pop did not happen
    } finally {
      r.dispose();
    }
  });

  // The guard (.codex/hooks/harness-guard.cjs, a PreToolUse hook; trusted here as a team does once with /hooks):
  // Codex names the spawned agent's role (agent_type) in every hook input, so jade is bound per call.
  it("codex: guard refuses a spawned jade writing tests/ and running git commit and git push, allows its src/ write and npm test", async () => {
    const tree = await emittedTree("codex");
    const pkg = JSON.stringify({ name: "scene", private: true, type: "module", scripts: { test: "node --test tests/" } }) + "\n";
    const r = await run({
      tree,
      args: ["--dangerously-bypass-hook-trust"],
      files: { ...folders, "package.json": pkg, "tests/a.test.mjs": 'import { test } from "node:test";\ntest("a", () => {});\n' },
      setup: (p) => gitScene(p),
      script: (p) => [
        {
          name: "jade",
          when: "You are Jade",
          steps: [
            patch(p, "src/guarded.ts"),
            shell(p, "npm test"),
            patch(p, "tests/guarded.test.ts"),
            shell(p, "echo x > tests/redirected.txt"),
            shell(p, "git commit -m x"),
            shell(p, "git push origin HEAD:main"),
          ],
        },
        orchestrate("jade"),
      ],
    });
    try {
      const why = explain(r);
      ranToEnd(r, "jade", 6, why);
      const t = r.stub.toolResultTexts();
      // allowed: the src/ patch and npm test ran
      expect(read(r, "src/guarded.ts"), why).toBe("patched\n");
      expect(results(r), why).toMatch(/# pass 1/);
      // refused by the guard before Codex ran them, with its reason
      expect(r.exists("tests/guarded.test.ts"), why).toBe(false);
      expect(r.exists("tests/redirected.txt"), why).toBe(false);
      expect(t.some((x) => /blocked by PreToolUse hook: harness guard: jade may not write tests\/guarded\.test\.ts/.test(x)), why).toBe(true);
      expect(t.some((x) => /blocked by PreToolUse hook: harness guard: jade may not write tests\/redirected\.txt/.test(x)), why).toBe(true);
      expect(t.some((x) => /blocked by PreToolUse hook: harness guard: jade may not run "git commit -m x"/.test(x)), why).toBe(true);
      expect(t.some((x) => /blocked by PreToolUse hook: harness guard: jade may not run "git push origin HEAD:main"/.test(x)), why).toBe(true);
      expect(gitState(r.env.project), why).toEqual({ commits: 1, originRefs: "" });
    } finally {
      r.dispose();
    }
  });

  // code mode (`exec`, JavaScript calling nested tools): the outer exec fires no hook; each nested exec_command does, as Bash with the agent_type
  it("codex: guard binds the tools a spawned jade calls from code-mode exec", async () => {
    const tree = await emittedTree("codex");
    const code = (cmd: string) => (req: ModelRequest): Step =>
      req.tools.includes("exec") ? { tool: "exec", input: { input: `const r = await tools.exec_command({ cmd: ${JSON.stringify(cmd)} }); text(JSON.stringify(r));` } } : { text: "code mode is not offered" };
    const r = await run({
      tree,
      args: ["--dangerously-bypass-hook-trust", "--enable", "code_mode"],
      script: () => [{ name: "jade", when: "You are Jade", steps: [code("echo in > src/code-mode.txt"), code("echo out > tests/code-mode.txt")] }, orchestrate("jade")],
    });
    try {
      const why = explain(r);
      ranToEnd(r, "jade", 2, why);
      expect(requestsOf(r, "jade")[0]?.tools, why).toContain("exec");
      expect(r.exists("src/code-mode.txt"), why).toBe(true);
      expect(r.exists("tests/code-mode.txt"), why).toBe(false);
      expect(results(r), why).toMatch(/blocked by PreToolUse hook: harness guard: jade may not write tests\/code-mode\.txt/);
    } finally {
      r.dispose();
    }
  });

  // scope pipeline: the orchestrator's and an ordinary session's calls carry no agent_type, so the guard leaves them to Codex
  it("codex: guard leaves an ordinary session's writes to tests/ and its npm test to Codex", async () => {
    const tree = await emittedTree("codex");
    const pkg = JSON.stringify({ name: "scene", private: true, type: "module", scripts: { test: "node --test tests/" } }) + "\n";
    const r = await run({
      tree,
      args: ["--dangerously-bypass-hook-trust"],
      files: { ...folders, "package.json": pkg, "tests/a.test.mjs": 'import { test } from "node:test";\ntest("a", () => {});\n' },
      script: (p) => [{ name: "main", steps: [patch(p, "tests/ordinary.test.ts"), shell(p, "echo ok > tests/ordinary.txt"), shell(p, "npm test")] }],
    });
    try {
      const why = explain(r);
      ranToEnd(r, "main", 3, why);
      expect(r.exists("tests/ordinary.test.ts"), why).toBe(true);
      expect(r.exists("tests/ordinary.txt"), why).toBe(true);
      expect(results(r), why).toMatch(/# pass 1/);
      expect(results(r), why).not.toContain("harness guard");
    } finally {
      r.dispose();
    }
  });

  it("codex: a spawned agent cannot spawn (max_depth = 1)", async () => {
    const tree = await emittedTree("codex");
    const r = await run({
      tree,
      script: (p) => [
        { name: "mica", when: "You are Mica", steps: [shell(p, "echo nested > tests/nested.txt")] },
        {
          name: "jade",
          when: "You are Jade",
          steps: [{ tool: "spawn_agent", namespace: "multi_agent_v1", input: { message: "Write the tests.", agent_type: "mica", fork_turns: "none" } }, shell(p, "echo after > src/after.txt")],
        },
        orchestrate("jade"),
      ],
    });
    try {
      const why = explain(r);
      ranToEnd(r, "jade", 2, why);
      expect(requestsOf(r, "main")[0]?.tools, `the orchestrator session is not offered spawn_agent\n${why}`).toContain("spawn_agent");
      for (const q of requestsOf(r, "jade")) expect(q.tools, why).not.toContain("spawn_agent");
      expect(r.stub.log.some((l) => l.conversation === "mica"), `jade started mica\n${why}`).toBe(false);
      expect(r.exists("tests/nested.txt"), why).toBe(false);
      expect(r.exists("src/after.txt"), why).toBe(true);
    } finally {
      r.dispose();
    }
  });
});

// ---------------------------------------------------------------- OpenCode

// Runs once adapters/index.ts registers opencode (until then there is no emitted OpenCode tree).
// The orchestrator is the primary agent named after the pipeline (.opencode/agents/<pipeline>.md).
describe.runIf(REGISTERED_HOSTS.includes("opencode")).concurrent("opencode: the emitted .opencode/ tree is enforced", () => {
  const ocWrite = (p: string, rel: string): Step => ({ tool: "write", input: { filePath: path.join(p, rel), content: `// written by the scripted model: ${rel}\n` } });
  const ocRead = (p: string, rel: string): Step => ({ tool: "read", input: { filePath: path.join(p, rel) } });
  const ocEdit = (p: string, rel: string): Step => ({ tool: "edit", input: { filePath: path.join(p, rel), oldString: "original", newString: "edited" } });
  const ocBash = (command: string): Step => ({ tool: "bash", input: { command, description: "scripted" } });
  /** the primary agent whose file says it orchestrates (mode: primary, description "Orchestrator of …") */
  const orchestrator = (tree: string): string => {
    const dir = path.join(tree, ".opencode", "agents");
    const hit = fs.readdirSync(dir).find((f) => /^mode: primary$/m.test(fs.readFileSync(path.join(dir, f), "utf8")) && /^description: "?Orchestrator of/m.test(fs.readFileSync(path.join(dir, f), "utf8")));
    expect(hit, `no orchestrator agent (mode: primary, "Orchestrator of …") in ${dir}`).toBeDefined();
    return hit!.replace(/\.md$/, "");
  };
  const delegate = (role: string, marker: string, steps: Conversation["steps"]): Conversation[] => [
    { name: role, when: marker, steps },
    { name: "main", steps: [{ tool: "task", input: { description: `run ${role}`, prompt: `Do the ${role} stage.`, subagent_type: role } }] },
  ];
  const run = async (o: Omit<Parameters<typeof runOpenCodeScripted>[0], "bin" | "args">) =>
    runOpenCodeScripted({ bin: hostBin("opencode"), timeoutMs: 120_000, args: ["--agent", orchestrator(o.tree)], ...o });

  it("opencode: subagent jade cannot edit tests/, may edit src/", async () => {
    const tree = await emittedTree("opencode");
    const r = await run({
      tree,
      files: { "tests/x.test.ts": "export const t = 'original';\n", "src/x.ts": "export const x = 'original';\n" },
      script: (p) =>
        delegate("jade", "You are Jade", [
          ocRead(p, "tests/x.test.ts"),
          ocEdit(p, "tests/x.test.ts"),
          ocRead(p, "src/x.ts"),
          ocEdit(p, "src/x.ts"),
          ocWrite(p, "tests/y.test.ts"),
          ocWrite(p, "src/y.test.ts"), // inside jade's write scope, but a never-write glob (**/*.test.*)
        ]),
    });
    try {
      const why = explain(r);
      ranToEnd(r, "jade", 6, why);
      expect(read(r, "tests/x.test.ts"), why).toBe("export const t = 'original';\n");
      expect(r.exists("tests/y.test.ts"), why).toBe(false);
      expect(r.exists("src/y.test.ts"), why).toBe(false);
      expect(read(r, "src/x.ts"), `jade could not edit src/ at all\n${why}`).toBe("export const x = 'edited';\n");
      expect(results(r), why).toMatch(/prevents you from using this specific tool call[\s\S]*"permission":"edit"/);
    } finally {
      r.dispose();
    }
  });

  // policies.scope: pipeline: opencode.json sets no permission, so the built-in agent of an ordinary session keeps
  // OpenCode's defaults, while jade (the existing tests) stays bound by its own agent map.
  it("opencode: an ordinary session (built-in build agent) writes src/ and tests/", async () => {
    const tree = await emittedTree("opencode");
    const r = await runOpenCodeScripted({
      bin: hostBin("opencode"),
      tree,
      timeoutMs: 120_000,
      script: (p) => [{ name: "main", steps: [ocWrite(p, "src/ordinary.ts"), ocWrite(p, "tests/ordinary.test.ts"), ocBash("npm --version")] }],
    });
    try {
      const why = explain(r);
      ranToEnd(r, "main", 3, why);
      expect(r.exists("src/ordinary.ts"), why).toBe(true);
      expect(r.exists("tests/ordinary.test.ts"), why).toBe(true);
      expect(results(r), why).not.toMatch(/prevents you from using this specific tool call/);
    } finally {
      r.dispose();
    }
  });

  it("opencode: git push and git commit are denied for subagent jade", async () => {
    const tree = await emittedTree("opencode");
    const r = await run({
      tree,
      files: { "src/x.ts": "export const x = 1;\n" },
      setup: (p) => gitScene(p),
      script: () => delegate("jade", "You are Jade", [ocBash("git commit -m x"), ocBash("git push origin HEAD:main"), ocBash("git status --short")]),
    });
    try {
      const why = explain(r);
      ranToEnd(r, "jade", 3, why);
      expect(gitState(r.env.project), why).toEqual({ commits: 1, originRefs: "" });
      const res = results(r);
      expect(res, why).toMatch(/"permission":"bash","pattern":"git commit \*","action":"deny"/);
      expect(res, why).toMatch(/"permission":"bash","pattern":"git push \*","action":"deny"/);
      expect(res, why).toMatch(/A {2}src\/staged\.ts/); // an allowed git command ran
    } finally {
      r.dispose();
    }
  });

  // NOT a proof (OpenCode's max-turns is not enforced): records what OpenCode 1.18.33 does with the emitted
  // `steps:` field. From the cap on, it appends its "CRITICAL - MAXIMUM STEPS REACHED ... Tools are disabled"
  // message to each request but still offers the tools (tool_choice auto) and runs the calls, so a model that
  // keeps calling tools is never stopped. When a newer pin really stops the agent this test fails: then turn it
  // into the proof and raise max-turns to native.
  it("opencode: steps only tells subagent jade to stop (tools stay offered and run past the cap)", async () => {
    const tree = await emittedTree("opencode");
    const emittedCap = fs.readFileSync(path.join(tree, ".opencode/agents/jade.md"), "utf8").split(/^---$/m)[1]?.match(/^steps: (\d+)$/m)?.[1];
    expect(Number(emittedCap), "the emitted .opencode/agents/jade.md front matter has no steps: N").toBeGreaterThan(3);
    const calls = 8;
    const r = await run({
      tree,
      files: { "src/x.ts": "export const x = 1;\n" },
      setup: (p) => {
        const f = path.join(p, ".opencode/agents/jade.md");
        fs.writeFileSync(f, fs.readFileSync(f, "utf8").replace(/^steps: \d+$/m, "steps: 3"));
      },
      script: (p) => delegate("jade", "You are Jade", Array.from({ length: calls }, () => ocRead(p, "src/x.ts"))),
    });
    try {
      const why = explain(r);
      const jade = requestsOf(r, "jade");
      const capped = jade.map((q) => /MAXIMUM STEPS REACHED/.test(JSON.stringify((q.body.messages as unknown[]).at(-1))));
      expect(capped.slice(0, 4), `OpenCode did not mark the 3rd request as the last step\n${why}`).toEqual([false, false, true, true]);
      for (const q of jade.slice(2)) expect({ tools: q.tools.length > 0, choice: q.body.tool_choice }, why).toEqual({ tools: true, choice: "auto" });
      ranToEnd(r, "jade", calls, why); // every scripted read ran: nothing stopped jade at 3
      const last = (jade.at(-1)?.body.messages ?? []) as { role?: string; content?: unknown }[];
      expect(last.filter((m) => m.role === "tool" && String(m.content).includes("export const x = 1;")).length, why).toBe(calls);
    } finally {
      r.dispose();
    }
  });

  it("opencode: subagent jade runs in its own session with its tools, model and temperature, and cannot use task", async () => {
    const tree = await emittedTree("opencode");
    const r = await run({
      tree,
      prompt: `${MAIN_ONLY}: go`,
      script: (p) => [
        { name: "mica", when: "You are Mica", steps: [ocWrite(p, "tests/nested.test.ts")] },
        ...delegate("jade", "You are Jade", [{ tool: "task", input: { description: "tests", prompt: "Write the tests.", subagent_type: "mica" } }, ocWrite(p, "src/after.ts")]),
      ],
    });
    try {
      const why = explain(r);
      ranToEnd(r, "jade", 2, why);
      expect(requestsOf(r, "main")[0]?.tools, `the orchestrator is not offered task\n${why}`).toContain("task");
      // roles/jade.md tools: read, grep, glob, edit, write, bash, todo
      for (const q of requestsOf(r, "jade")) expect([...q.tools].sort(), why).toEqual(["bash", "edit", "glob", "grep", "read", "todowrite", "write"]);
      for (const q of requestsOf(r, "jade")) expect(JSON.stringify(q.body.messages), `jade saw the orchestrator's conversation\n${why}`).not.toContain(MAIN_ONLY);
      // the agent file's model (its provider routed to the stub) and temperature reach the model request
      const fm = parseYaml(fs.readFileSync(path.join(tree, ".opencode/agents/jade.md"), "utf8").split(/^---$/m)[1] ?? "") as { model?: string; temperature?: number };
      expect(fm.model, "jade.md names no model").toMatch(/\//);
      for (const q of requestsOf(r, "jade")) expect({ model: q.body.model, temperature: q.body.temperature }, why).toEqual({ model: fm.model!.split("/").slice(1).join("/"), temperature: fm.temperature });
      expect(r.stub.log.some((l) => l.conversation === "mica"), `jade started mica\n${why}`).toBe(false);
      expect(r.exists("tests/nested.test.ts"), why).toBe(false);
      expect(r.exists("src/after.ts"), why).toBe(true);
    } finally {
      r.dispose();
    }
  });
});

// ---------------------------------------------------------------- Kilo

// Kilo 7.7.7 runs OpenCode's permission engine: the same probes as OpenCode's, against .kilo/, plus
// the happy path (allowed work done headless, with no prompt: `kilo run` has nobody to answer one).
describe.runIf(REGISTERED_HOSTS.includes("kilo")).concurrent("kilo: the emitted .kilo/ tree is enforced", () => {
  const kWrite = (p: string, rel: string): Step => ({ tool: "write", input: { filePath: path.join(p, rel), content: `// written by the scripted model: ${rel}\n` } });
  const kRead = (p: string, rel: string): Step => ({ tool: "read", input: { filePath: path.join(p, rel) } });
  const kEdit = (p: string, rel: string): Step => ({ tool: "edit", input: { filePath: path.join(p, rel), oldString: "original", newString: "edited" } });
  const kBash = (command: string): Step => ({ tool: "bash", input: { command, description: "scripted" } });
  const task = (role: string): Step => ({ tool: "task", input: { description: `run ${role}`, prompt: `Do the ${role} stage.`, subagent_type: role } });
  const orchestrator = (tree: string): string => {
    const dir = path.join(tree, ".kilo", "agents");
    const hit = fs.readdirSync(dir).find((f) => /^mode: primary$/m.test(fs.readFileSync(path.join(dir, f), "utf8")) && /^description: "?Orchestrator of/m.test(fs.readFileSync(path.join(dir, f), "utf8")));
    expect(hit, `no orchestrator agent (mode: primary, "Orchestrator of …") in ${dir}`).toBeDefined();
    return hit!.replace(/\.md$/, "");
  };
  const delegate = (role: string, marker: string, steps: Conversation["steps"]): Conversation[] => [
    { name: role, when: marker, steps },
    { name: "main", steps: [task(role)] },
  ];
  const run = async (o: Omit<Parameters<typeof runKiloScripted>[0], "bin" | "args">) =>
    runKiloScripted({ bin: hostBin("kilo"), timeoutMs: 200_000, args: ["--agent", orchestrator(o.tree)], ...o });
  const refused = /prevents you from using this specific tool call|rejected permission|permission.*denied/i;

  it("kilo: happy path: the orchestrator and jade, mica and quartz do their allowed work headless, with no prompt", async () => {
    const tree = await emittedTree("kilo");
    const r = await run({
      tree,
      files: { "package.json": JSON.stringify({ name: "scene", private: true, scripts: { test: "node -e \"console.log('SUITE-RAN')\"" } }), "src/x.ts": "export const x = 'original';\n" },
      script: (p) => [
        { name: "jade", when: "You are Jade", steps: [kRead(p, "src/x.ts"), kEdit(p, "src/x.ts"), kWrite(p, "src/feature.ts"), kBash("npm test")] },
        { name: "mica", when: "You are Mica", steps: [kWrite(p, "tests/feature.test.ts"), kBash("npm test")] },
        { name: "quartz", when: "You are Quartz", steps: [kBash("git status --short"), kWrite(p, ".pebble/verification.md")] },
        { name: "main", steps: [kBash("git status --porcelain --untracked-files=all"), task("mica"), task("jade"), task("quartz")] },
      ],
    });
    try {
      const why = explain(r);
      for (const [conv, n] of [["main", 4], ["jade", 4], ["mica", 2], ["quartz", 2]] as const) ranToEnd(r, conv, n, why);
      expect(read(r, "src/x.ts"), why).toBe("export const x = 'edited';\n");
      for (const f of ["src/feature.ts", "tests/feature.test.ts", ".pebble/verification.md"]) expect(r.exists(f), `${f} was not written\n${why}`).toBe(true);
      const res = results(r);
      expect(res.match(/SUITE-RAN/g)?.length, `npm test did not run for both jade and mica\n${why}`).toBe(2);
      expect(res, why).toMatch(/\?\? (src\/feature\.ts|tests\/)/); // quartz's git status ran and saw the work
      expect(res, `an allowed call was refused or asked\n${why}`).not.toMatch(refused);
      expect(r.result.timedOut, why).toBe(false);
    } finally {
      r.dispose();
    }
  });

  it("kilo: subagent jade cannot edit tests/, may edit src/", async () => {
    const tree = await emittedTree("kilo");
    const r = await run({
      tree,
      files: { "tests/x.test.ts": "export const t = 'original';\n", "src/x.ts": "export const x = 'original';\n" },
      script: (p) =>
        delegate("jade", "You are Jade", [
          kRead(p, "tests/x.test.ts"),
          kEdit(p, "tests/x.test.ts"),
          kRead(p, "src/x.ts"),
          kEdit(p, "src/x.ts"),
          kWrite(p, "tests/y.test.ts"),
          kWrite(p, "src/y.test.ts"), // inside jade's write scope, but a never-write glob (**/*.test.*)
          kWrite(p, ".kilo/agents/jade.md"), // the pipeline's never_write: an agent must not rewrite its own permissions
        ]),
    });
    try {
      const why = explain(r);
      ranToEnd(r, "jade", 7, why);
      expect(read(r, "tests/x.test.ts"), why).toBe("export const t = 'original';\n");
      expect(r.exists("tests/y.test.ts"), why).toBe(false);
      expect(r.exists("src/y.test.ts"), why).toBe(false);
      expect(read(r, ".kilo/agents/jade.md"), why).not.toContain("written by the scripted model");
      expect(read(r, "src/x.ts"), `jade could not edit src/ at all\n${why}`).toBe("export const x = 'edited';\n");
      expect(results(r), why).toMatch(/prevents you from using this specific tool call[\s\S]*"permission":"edit"/);
    } finally {
      r.dispose();
    }
  });

  it("kilo: git push and git commit are denied for subagent jade", async () => {
    const tree = await emittedTree("kilo");
    const r = await run({
      tree,
      files: { "src/x.ts": "export const x = 1;\n" },
      setup: (p) => gitScene(p),
      script: () => delegate("jade", "You are Jade", [kBash("git commit -m x"), kBash("git push origin HEAD:main"), kBash("git status --short")]),
    });
    try {
      const why = explain(r);
      ranToEnd(r, "jade", 3, why);
      expect(gitState(r.env.project), why).toEqual({ commits: 1, originRefs: "" });
      const res = results(r);
      expect(res, why).toMatch(/"permission":"bash","pattern":"git commit \*","action":"deny"/);
      expect(res, why).toMatch(/"permission":"bash","pattern":"git push \*","action":"deny"/);
      expect(res, why).toMatch(/A {2}src\/staged\.ts/); // an allowed git command ran
    } finally {
      r.dispose();
    }
  });

  // NOT a proof: what Kilo 7.7.7 does with `steps:` (the adapter records max-turns as instructed and
  // says so). When a newer pin really stops the agent at the cap this fails: then make it the proof.
  it("kilo: steps only tells subagent jade to stop (tools stay offered and run past the cap)", async () => {
    const tree = await emittedTree("kilo");
    const emittedCap = fs.readFileSync(path.join(tree, ".kilo/agents/jade.md"), "utf8").split(/^---$/m)[1]?.match(/^steps: (\d+)$/m)?.[1];
    expect(Number(emittedCap), "the emitted .kilo/agents/jade.md front matter has no steps: N").toBeGreaterThan(3);
    const calls = 6;
    const r = await run({
      tree,
      files: { "src/x.ts": "export const x = 1;\n" },
      setup: (p) => {
        const f = path.join(p, ".kilo/agents/jade.md");
        fs.writeFileSync(f, fs.readFileSync(f, "utf8").replace(/^steps: \d+$/m, "steps: 3"));
      },
      script: (p) => delegate("jade", "You are Jade", Array.from({ length: calls }, () => kRead(p, "src/x.ts"))),
    });
    try {
      const why = explain(r);
      const jade = requestsOf(r, "jade");
      const capped = jade.map((q) => /MAXIMUM STEPS REACHED/.test(JSON.stringify((q.body.messages as unknown[]).at(-1))));
      expect(capped.slice(0, 4), `Kilo did not mark the 3rd request as the last step\n${why}`).toEqual([false, false, true, true]);
      for (const q of jade.slice(2)) expect(q.tools.length > 0, why).toBe(true);
      ranToEnd(r, "jade", calls, why); // every scripted read ran: nothing stopped jade at 3
    } finally {
      r.dispose();
    }
  });

  it("kilo: subagent jade runs in its own session with its tools, model and temperature, and cannot use task", async () => {
    const tree = await emittedTree("kilo");
    const r = await run({
      tree,
      prompt: `${MAIN_ONLY}: go`,
      script: (p) => [
        { name: "mica", when: "You are Mica", steps: [kWrite(p, "tests/nested.test.ts")] },
        ...delegate("jade", "You are Jade", [task("mica"), kWrite(p, "src/after.ts")]),
      ],
    });
    try {
      const why = explain(r);
      ranToEnd(r, "jade", 2, why);
      expect(requestsOf(r, "main")[0]?.tools, `the orchestrator is not offered task\n${why}`).toContain("task");
      // roles/jade.md tools: read, grep, glob, edit, write, bash, todo (Kilo's own extra tools withheld by "*": deny)
      for (const q of requestsOf(r, "jade")) expect([...q.tools].sort(), why).toEqual(["bash", "edit", "glob", "grep", "read", "todowrite", "write"]);
      for (const q of requestsOf(r, "jade")) expect(JSON.stringify(q.body.messages), `jade saw the orchestrator's conversation\n${why}`).not.toContain(MAIN_ONLY);
      const fm = parseYaml(fs.readFileSync(path.join(tree, ".kilo/agents/jade.md"), "utf8").split(/^---$/m)[1] ?? "") as { model?: string; temperature?: number };
      expect(fm.model, "jade.md names no model").toMatch(/\//);
      for (const q of requestsOf(r, "jade")) expect({ model: q.body.model, temperature: q.body.temperature }, why).toEqual({ model: fm.model!.split("/").slice(1).join("/"), temperature: fm.temperature });
      expect(r.stub.log.some((l) => l.conversation === "mica"), `jade started mica\n${why}`).toBe(false);
      expect(r.exists("tests/nested.test.ts"), why).toBe(false);
      expect(r.exists("src/after.ts"), why).toBe(true);
    } finally {
      r.dispose();
    }
  });
});
