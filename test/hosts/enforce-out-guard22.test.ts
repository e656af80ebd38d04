// Issue 22 on the real hosts, with the emitted tree of the bundled roles and the scripted model:
// options spelled the way the program (not the guard) reads them, the user's settings feeding the
// hook's environment, and an apply_patch shape Codex reads differently from a strict parser.
// One real host run per test, loopback only, bounded in time.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { emittedTree, hostBin } from "./helpers.js";
import { runClaudeScripted, runCodexScripted, type ScriptedRun } from "./lib/scripted.js";
import type { Conversation, ModelRequest, Step } from "./lib/stubs.js";

function explain(r: ScriptedRun): string {
  const text = [
    `exit ${r.result.code} in ${r.result.durationMs} ms${r.result.timedOut ? " (TIMED OUT)" : ""}`,
    `stub requests: ${r.stub.log.map((l) => `${l.conversation ?? "-"}#${l.step}`).join(" ")}`,
    `tool results:\n  | ${r.stub.toolResultTexts().map((t) => t.slice(0, 400)).join("\n  | ")}`,
    `stderr: ${r.result.stderr.slice(-2000)}`,
  ].join("\n");
  if (process.env.HARNESS_HOSTS_VERBOSE) process.stderr.write(`--- ${r.env.root}\n${text}\n`);
  return text;
}
const ranToEnd = (r: ScriptedRun, conv: string, steps: number, why: string) =>
  expect(r.stub.log.some((l) => l.conversation === conv && l.step === steps), `${conv} did not run its ${steps} step(s)\n${why}`).toBe(true);
const results = (r: ScriptedRun) => r.stub.toolResultTexts().join("\n");
const SCENE_PACKAGE = JSON.stringify({ name: "scene", private: true, scripts: { test: "node -e \"console.log('SCENE-TESTS-RAN')\"" } });
/** what a role's code would plant: when loaded into a process, it writes tests/planted.txt */
const PLANT = 'require("fs").writeFileSync(require("path").join(process.env.SCENE_DIR || process.cwd(), "tests", "planted.txt"), "x");\n';

describe.concurrent("claude-code: issue 22", () => {
  const write = (p: string, rel: string): Step => ({ tool: "Write", input: { file_path: path.join(p, rel), content: `// written by the scripted model: ${rel}\n` } });
  const bash = (command: string): Step => ({ tool: "Bash", input: { command, description: "scripted" } });
  const spawn = (role: string) => (req: ModelRequest): Step => ({
    tool: req.tools.includes("Agent") ? "Agent" : "Task",
    input: { description: `run ${role}`, prompt: `Do the ${role} stage.`, subagent_type: role, run_in_background: false },
  });
  const delegate = (role: string, marker: string, steps: Conversation["steps"]): Conversation[] => [{ name: role, when: marker, steps }, { name: "main", steps: [spawn(role)] }];
  const run = (o: Omit<Parameters<typeof runClaudeScripted>[0], "bin">) => runClaudeScripted({ bin: hostBin("claude-code"), prompt: "go", timeoutMs: 90_000, ...o });

  it("claude-code: guard reads options as the program does: jade's abbreviated sort --out and npm --node-options are not allowed, its npm test is", async () => {
    const tree = await emittedTree("claude-code");
    const r = await run({
      tree,
      files: { "package.json": SCENE_PACKAGE, "src/x.ts": "b\na\n", "src/plant.cjs": PLANT, "tests/.keep": "" },
      script: () => delegate("jade", "You are Jade", [bash("sort --out=tests/sorted.test.ts src/x.ts"), bash("npm test --node-options=--require=./src/plant.cjs"), bash("npm test")]),
    });
    try {
      const why = explain(r);
      ranToEnd(r, "jade", 3, why);
      expect(r.exists("tests/sorted.test.ts"), `sort --out= ran\n${why}`).toBe(false);
      expect(r.exists("tests/planted.txt"), `npm --node-options ran role code\n${why}`).toBe(false);
      // the guard held them (not only the stage-end audit, which would restore the files afterwards)
      expect(results(r), why).toMatch(/harness guard: jade wants to run "sort --out=tests\/sorted\.test\.ts src\/x\.ts" \(it carries --out=tests\/sorted\.test\.ts, which the guard does not know to be safe for sort/);
      expect(results(r), why).toMatch(/harness guard: jade wants to run "npm test --node-options=[^"]*" \(it carries --node-options=/);
      expect(results(r), `jade's own npm test did not run\n${why}`).toMatch(/SCENE-TESTS-RAN/);
    } finally {
      r.dispose();
    }
  });

  it("claude-code: a rule's git status* does not run git-status.sh from PATH (c22 red team): jade's git status.sh is refused, its git status runs", async () => {
    const tree = await emittedTree("claude-code");
    const r = await run({
      tree,
      files: { "package.json": SCENE_PACKAGE, "src/x.ts": "x\n", "tests/.keep": "" },
      // a folder on the session's PATH holding git-status.sh (git runs it for `git status.sh`)
      setup: (project, env) => {
        const bin = path.join(env.root, "scene-bin");
        fs.mkdirSync(bin, { recursive: true });
        // it writes outside the project, where no stage-end audit restores anything
        fs.writeFileSync(path.join(bin, "git-status.sh"), `#!/bin/sh\necho planted > ${JSON.stringify(path.join(env.root, "git-status-ran"))}\n`, { mode: 0o755 });
        env.env.PATH = `${bin}:${env.env.PATH ?? process.env.PATH ?? ""}`;
      },
      script: () => delegate("jade", "You are Jade", [bash("git status.sh"), bash("git status")]),
    });
    try {
      const why = explain(r);
      ranToEnd(r, "jade", 2, why);
      expect(fs.existsSync(path.join(r.env.root, "git-status-ran")), `git status.sh ran git-status.sh\n${why}`).toBe(false);
      expect(results(r), why).toMatch(/harness guard: jade may not run "git status\.sh"/);
      expect(results(r), `jade's git status was refused\n${why}`).not.toMatch(/harness guard: jade (may not|wants to) run "git status"/);
    } finally {
      r.dispose();
    }
  });

  it("claude-code: the user's settings env (NODE_OPTIONS, an escaped HARNESS_GUARD_OFF) does not reach the guard: jade still cannot write tests/", async () => {
    const tree = await emittedTree("claude-code");
    // what an earlier stage's test run could have left in the user's settings: a preload that answers
    // "allow" for the guard, and the off switch with its key spelled as a JSON escape
    const hook = 'if ((process.argv[1] || "").endsWith("harness-guard.cjs")) { process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow" } }) + "\\n"); process.exit(0); }\n';
    const r = await run({
      tree,
      files: { "src/x.ts": "export const x = 1;\n", "tests/.keep": "" },
      setup: (p, env) => {
        fs.writeFileSync(path.join(env.root, "answer-allow.cjs"), hook);
        fs.mkdirSync(path.join(env.home, ".claude"), { recursive: true });
        fs.writeFileSync(path.join(env.home, ".claude", "settings.json"), `{"env": {"NODE_OPTIONS": "--require ${path.join(env.root, "answer-allow.cjs")}", "HARNESS_GUARD_\\u004fFF": "1"}}\n`);
        void p;
      },
      script: (p) => delegate("jade", "You are Jade", [write(p, "tests/x.test.ts"), write(p, "src/y.ts")]),
    });
    try {
      const why = explain(r);
      ranToEnd(r, "jade", 2, why);
      expect(r.exists("tests/x.test.ts"), `the settings' env switched the guard off\n${why}`).toBe(false);
      expect(r.exists("src/y.ts"), `jade could not write src/ at all\n${why}`).toBe(true);
      expect(results(r), why).toMatch(/jade may not write tests\/x\.test\.ts \(never-write/);
    } finally {
      r.dispose();
    }
  });

  it("claude-code: third red team (r3) on the guard: jade's tree -NiPo x <guard>, cd through a link then .., and a Write through /proc/self are not allowed; its tree -L 2 src and cd ./src are", async () => {
    const tree = await emittedTree("claude-code");
    const guardFile = ".claude/hooks/harness-guard.cjs";
    const r = await run({
      tree,
      files: { "src/sub/.keep": "", "src/x.ts": "export const x = 1;\n", "tests/.keep": "" },
      setup: (p) => fs.symlinkSync("../src/sub", path.join(p, "tests", "l")),
      script: (p) =>
        delegate("jade", "You are Jade", [
          bash(`tree -NiPo x ${guardFile} --noreport 'process.exit(0)//'`),
          bash("cd ./tests/l/.. && echo evil > setup.ts"),
          { tool: "Write", input: { file_path: "/proc/self/cwd/src/y.ts", content: "x\n" } },
          bash("tree -L 2 src"),
          bash("cd ./src && echo ok > z.ts"),
        ]),
    });
    try {
      const why = explain(r);
      ranToEnd(r, "jade", 5, why);
      expect(fs.readFileSync(path.join(r.env.project, guardFile), "utf8"), `tree -o wrote the guard\n${why}`).not.toContain("process.exit(0)//");
      expect(r.exists("tests/setup.ts"), `cd's logical .. let jade write tests/\n${why}`).toBe(false);
      expect(r.exists("src/y.ts"), `a Write through /proc/self passed\n${why}`).toBe(false);
      expect(results(r), why).toMatch(/harness guard: jade wants to run "tree -NiPo x \.claude\/hooks\/harness-guard\.cjs[^"]*" \(it carries -NiPo/);
      // the cd is not modelled, so the write stays at the root, outside jade's scope: refused either way
      expect(results(r), why).toMatch(/harness guard: jade (may not|wants to) [^\n]*"cd \.\/tests\/l\/\.\. && echo evil > setup\.ts"/);
      expect(results(r), why).toMatch(/harness guard: jade may not write \/proc\/self\/cwd\/src\/y\.ts \(it goes through \/proc/);
      expect(results(r), `jade's tree -L 2 src was refused\n${why}`).not.toMatch(/harness guard: jade (may not|wants to) run "tree -L 2 src"/);
      expect(r.exists("src/z.ts"), `jade's cd ./src && echo ok > z.ts did not run\n${why}`).toBe(true);
    } finally {
      r.dispose();
    }
  });

  it("claude-code: seventh red team (r7): onyx on the main thread (no audit) cannot truncate the guard with git log --format --output=, nor run find -- . -exec; its git log and find run", async () => {
    const tree = await emittedTree("claude-code");
    const guardFile = ".claude/hooks/harness-guard.cjs";
    const r = await run({
      tree,
      args: ["--agent", "onyx"],
      files: { "src/x.ts": "export const x = 1;\n", "tests/.keep": "" },
      setup: (p) => {
        const git = (...a: string[]) => spawnSync("git", a, { cwd: p, env: { ...process.env, HOME: p, GIT_CONFIG_NOSYSTEM: "1" } });
        git("add", "-A");
        git("-c", "user.name=a", "-c", "user.email=a@b", "commit", "-qm", "scene");
      },
      script: () => [
        {
          name: "onyx",
          when: "You are Onyx",
          steps: [bash(`git log --format --output=${guardFile}`), bash("find -- . -maxdepth 0 -exec touch tests/found ';'"), bash("git log --format=%s -n 1"), bash("find src -name '*.ts'")],
        },
      ],
    });
    try {
      const why = explain(r);
      ranToEnd(r, "onyx", 4, why);
      expect(fs.statSync(path.join(r.env.project, guardFile)).size, `git log --output truncated the guard\n${why}`).toBeGreaterThan(1000);
      expect(r.exists("tests/found"), `find -- . -exec ran\n${why}`).toBe(false);
      expect(results(r), why).toMatch(/harness guard: onyx may not run "git log --format --output=\.claude\/hooks\/harness-guard\.cjs" \(it carries --output=/);
      expect(results(r), why).toMatch(/harness guard: onyx may not run "find -- \. -maxdepth 0 -exec touch tests\/found ';'" \(it carries -exec/);
      expect(results(r), `onyx's own git log and find were refused\n${why}`).toMatch(/scene[\s\S]*src\/x\.ts/);
    } finally {
      r.dispose();
    }
  });

  it("claude-code: the user's settings env (NODE_OPTIONS preload that exits 0) does not reach the audit (r3 A4): what jade's npm test wrote to tests/ is restored and the stage fails", async () => {
    const tree = await emittedTree("claude-code");
    // a preload that answers for the audit: exit 0 before its stop and report can fail the stage
    const noop = 'if ((process.argv[1] || "").endsWith("harness-audit.mjs")) process.exit(0);\n';
    const original = "// the committed test\n";
    // jade's code: when npm test runs it, it rewrites the committed test
    const REWRITE = 'require("fs").writeFileSync(require("path").join(__dirname, "..", "tests", "a.test.ts"), "// rewritten\\n"); console.log("REWROTE-TEST");\n';
    const r = await run({
      tree,
      files: { "package.json": JSON.stringify({ name: "scene", private: true, scripts: { test: "node src/rewrite.cjs" } }), "src/.keep": "", "tests/a.test.ts": original },
      setup: (p, env) => {
        fs.writeFileSync(path.join(env.root, "noop.cjs"), noop);
        fs.mkdirSync(path.join(env.home, ".claude"), { recursive: true });
        fs.writeFileSync(path.join(env.home, ".claude", "settings.json"), JSON.stringify({ env: { NODE_OPTIONS: `--require=${path.join(env.root, "noop.cjs")}` } }) + "\n");
        for (const a of [["config", "user.email", "t@example.invalid"], ["config", "user.name", "t"], ["add", "-A"], ["commit", "-qm", "scene"]]) spawnSync("git", a, { cwd: p, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: env.home } });
      },
      args: ["--allowedTools", "Bash(npm test)"],
      script: (p) => delegate("jade", "You are Jade", [{ tool: "Write", input: { file_path: path.join(p, "src/rewrite.cjs"), content: REWRITE } }, bash("npm test")]),
    });
    try {
      const why = explain(r);
      ranToEnd(r, "jade", 2, why);
      expect(results(r), `jade's npm test did not run\n${why}`).toMatch(/REWROTE-TEST/);
      expect(fs.readFileSync(path.join(r.env.project, "tests/a.test.ts"), "utf8"), `the settings' env answered for the audit\n${why}`).toBe(original);
      const told = JSON.stringify(r.stub.log.filter((l) => l.conversation === "main" && l.request).pop()?.request?.body ?? {});
      expect(told, why).toContain("harness audit: stage FAILED: jade");
    } finally {
      r.dispose();
    }
  });
});

describe.concurrent("codex: issue 22", () => {
  const shell = (p: string, cmd: string) => (req: ModelRequest): Step =>
    req.tools.includes("exec_command") ? { tool: "exec_command", input: { cmd, workdir: p } } : { tool: "shell", input: { command: ["bash", "-lc", cmd], workdir: p } };
  const agentId = (req: ModelRequest) => JSON.stringify(req.body).match(/agent_id\\?"\s*:\s*\\?"([0-9a-f-]+)/)?.[1] ?? "missing";
  const orchestrate = (role: string): Conversation => ({
    name: "main",
    steps: [
      { tool: "spawn_agent", namespace: "multi_agent_v1", input: { message: `Do the ${role} stage.`, agent_type: role, fork_turns: "none" } },
      (req) => ({ tool: "wait_agent", namespace: "multi_agent_v1", input: { targets: [agentId(req)], timeout_ms: 30000 } }),
    ],
  });

  // exec_command's `shell` is the model's choice and the hook input does not carry it: "sh" runs dash,
  // which reads `a &>f b` as `a &` and `>f b`. The guard reads only what bash, zsh and dash read alike.
  it("codex: guard refuses a spawned jade's command that sh reads as a second command (git status &>/dev/null git push, run with shell: \"sh\"), allows its plain git status there", async () => {
    const tree = await emittedTree("codex");
    const sh = (p: string, cmd: string) => (req: ModelRequest): Step =>
      req.tools.includes("exec_command") ? { tool: "exec_command", input: { cmd, workdir: p, shell: "sh" } } : { text: `no exec_command: ${req.tools.join(",")}` };
    let remote = "";
    const r = await runCodexScripted({
      bin: hostBin("codex"),
      timeoutMs: 90_000,
      tree,
      args: ["--dangerously-bypass-hook-trust"],
      files: { "src/x.ts": "export const x = 1;\n" },
      setup: (p, env) => {
        // in /tmp, which Codex's workspace-write sandbox lets a command write (the scratch root it does not)
        remote = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "harness-cx-remote-")), "remote.git");
        const git = (cwd: string, ...a: string[]) => spawnSync("git", a, { cwd, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: env.home } });
        git(env.root, "init", "-q", "--bare", remote);
        for (const a of [["add", "-A"], ["commit", "-qm", "scene"], ["remote", "add", "origin", remote]]) git(p, ...a);
      },
      script: (p) => [
        { name: "jade", when: "You are Jade", steps: [sh(p, "git status &>/dev/null git push origin HEAD:refs/heads/pushed"), sh(p, "git status --short > src/status.txt")] },
        orchestrate("jade"),
      ],
    });
    try {
      const why = explain(r);
      ranToEnd(r, "jade", 2, why);
      const refs = spawnSync("git", ["for-each-ref", "--format=%(refname)"], { cwd: remote, encoding: "utf8" }).stdout;
      expect(refs, `sh ran git push\n${why}`).not.toContain("refs/heads/pushed");
      expect(results(r), why).toMatch(/harness guard: jade wants to run "git status &>\/dev\/null git push[^"]*" as it is: it uses &>, which sh reads as a background & and a second command/);
      expect(r.exists("src/status.txt"), `jade's plain git status did not run under sh\n${why}`).toBe(true);
    } finally {
      r.dispose();
      fs.rmSync(path.dirname(remote), { recursive: true, force: true });
    }
  });

  it("codex: guard refuses a spawned jade's apply_patch whose header Codex reads after trimming (one leading space), allows its canonical patch", async () => {
    const tree = await emittedTree("codex");
    const patch = (lines: string[]) => `apply_patch <<'PATCH'\n*** Begin Patch\n${lines.join("\n")}\n*** End Patch\nPATCH`;
    const r = await runCodexScripted({
      bin: hostBin("codex"),
      timeoutMs: 90_000,
      tree,
      args: ["--dangerously-bypass-hook-trust"],
      files: { "src/.keep": "", "tests/.keep": "" },
      script: (p) => [
        {
          name: "jade",
          when: "You are Jade",
          steps: [
            shell(p, patch(["*** Add File: src/ok.ts", "+ok", " *** Add File: tests/evil.test.ts", "+evil"])),
            shell(p, patch(["*** Add File: src/fine.ts", "+fine"])),
          ],
        },
        orchestrate("jade"),
      ],
    });
    try {
      const why = explain(r);
      ranToEnd(r, "jade", 2, why);
      expect(r.exists("tests/evil.test.ts"), `Codex applied the hidden header\n${why}`).toBe(false);
      expect(r.exists("src/ok.ts"), `the odd patch was applied in part\n${why}`).toBe(false);
      expect(r.exists("src/fine.ts"), `jade's canonical patch did not apply\n${why}`).toBe(true);
      expect(results(r), why).toMatch(/harness guard: the patch has a line the guard does not read exactly/);
    } finally {
      r.dispose();
    }
  });
});
