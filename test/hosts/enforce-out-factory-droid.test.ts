// Factory Droid 0.225.2 enforcing what harness emits for roles/ (see enforce-out.test.ts for the method):
// the emitted tree in a scratch project, headless `droid exec --auto high` against the OpenAI Chat
// Completions stub (BYOK custom model, FACTORY_AIRGAP_ENABLED=1). The orchestrator's session is started
// by .factory/bin/pebble.sh, as AGENTS.md says; it starts a subagent role by running that role's
// launcher .factory/bin/<role>.sh with the Execute tool, as /pebble says. Test names are cited by
// adapters/factory-droid `proofs`.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { emittedTree, hostBin, REGISTERED_HOSTS } from "./helpers.js";
import { runDroidScripted, type DroidScriptedRun } from "./lib/factory-droid.js";
import type { Conversation, ModelRequest, Step, Stub } from "./lib/stubs.js";

const MAIN_ONLY = "MAIN-SESSION-ONLY-f4d9";
const LAUNCHER = ".factory/bin/pebble.sh";

function explain(r: DroidScriptedRun): string {
  const text = [
    `exit ${r.result.code} in ${r.result.durationMs} ms${r.result.timedOut ? " (TIMED OUT)" : ""}`,
    `stub requests: ${r.stub.log.map((l) => `${l.conversation ?? "-"}#${l.step}`).join(" ")}`,
    `tool results:\n  | ${r.stub.toolResultTexts().map((t) => t.slice(0, 300)).join("\n  | ")}`,
    `stdout: ${r.result.stdout.slice(-800)}`,
    `stderr: ${r.result.stderr.slice(-1500)}`,
  ].join("\n");
  if (process.env.HARNESS_HOSTS_VERBOSE) process.stderr.write(`--- ${r.env.root}\n${text}\n`);
  return text;
}
const requestsOf = (stub: Stub, conv: string): ModelRequest[] => stub.log.filter((l) => l.conversation === conv && l.request).map((l) => l.request!);
/** what the host answered to step i (0-based) of a conversation: the last tool message of the next request */
function answerTo(r: DroidScriptedRun, conv: string, i: number): string {
  const q = requestsOf(r.stub, conv).find((x) => x.toolResults === i + 1);
  const msgs = ((q?.body.messages ?? []) as { role?: string; content?: unknown }[]).filter((m) => m.role === "tool");
  const c = msgs.at(-1)?.content;
  return typeof c === "string" ? c : JSON.stringify(c ?? null);
}
const ranToEnd = (r: DroidScriptedRun, conv: string, steps: number, why: string) =>
  expect(r.stub.log.some((l) => l.conversation === conv && l.step === steps), `${conv} did not run its ${steps} step(s) to the end\n${why}`).toBe(true);
const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8", env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: cwd, GIT_CONFIG_NOSYSTEM: "1" } }).trim();

const create = (abs: string): Step => ({ tool: "Create", input: { file_path: abs, content: `// written by the scripted model: ${path.basename(abs)}\n` } });
const read = (abs: string): Step => ({ tool: "Read", input: { file_path: abs } });
const sh = (command: string): Step => ({ tool: "Execute", input: { command, summary: "Run a scripted step", riskLevel: "low", riskLevelReason: "scripted test step", timeout: 120 } });
const task = (role: string): Step => ({ tool: "Task", input: { subagent_type: role, description: `run ${role}`, prompt: `Do the ${role} stage.` } });
/** the orchestrator calling `before`, then starting one role through its launcher */
const delegate = (role: string, marker: string, steps: Conversation["steps"], before: Conversation["steps"] = []): Conversation[] => [
  { name: role, when: marker, steps },
  { name: "main", steps: [...before, sh(`.factory/bin/${role}.sh 'Do the ${role} stage.'`)] },
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

describe.runIf(REGISTERED_HOSTS.includes("factory-droid")).concurrent("factory-droid: the emitted .factory/ tree is enforced", () => {
  const run = async (o: Omit<Parameters<typeof runDroidScripted>[0], "bin" | "tree">) =>
    runDroidScripted({ bin: hostBin("factory-droid"), tree: await emittedTree("factory-droid"), prompt: `${MAIN_ONLY}: go`, timeoutMs: 150_000, ...o });

  it("factory-droid: role launcher runs jade in its own droid exec with exactly its tools and prompt", async () => {
    const r = await run({ launcher: LAUNCHER, files: { "docs/a.md": "# a\n" }, script: (p) => delegate("jade", "You are Jade", [read(path.join(p, "docs/a.md"))]) });
    try {
      const why = explain(r);
      ranToEnd(r, "jade", 1, why);
      const reqs = requestsOf(r.stub, "jade");
      expect(reqs.length, why).toBeGreaterThan(0);
      for (const q of reqs) {
        expect([...q.tools].sort(), why).toEqual(["Create", "Edit", "Execute", "Glob", "Grep", "Read"]);
        expect(JSON.stringify(q.body.messages), `jade saw the orchestrator's conversation\n${why}`).not.toContain(MAIN_ONLY);
        expect(JSON.stringify(q.body.messages), `jade did not get its brief\n${why}`).toContain("Do the jade stage.");
      }
      // the orchestrator has Task and the rest: jade's narrower list is its launcher's, not the session's
      expect(requestsOf(r.stub, "main")[0]?.tools, why).toContain("Task");
      // jade's report reaches the orchestrator as the launcher's output
      expect(answerTo(r, "main", 0), why).toContain("jade-DONE");
    } finally {
      r.dispose();
    }
  });

  it("factory-droid: guard refuses jade writing tests/ and lets it write src/", async () => {
    const r = await run({
      launcher: LAUNCHER,
      files: { "src/.keep": "" },
      script: (p) =>
        delegate(
          "jade",
          "You are Jade",
          [create(path.join(p, "src/x.ts")), create(path.join(p, "tests/x.test.ts")), create(path.join(p, "docs/jade.md")), create(path.join(p, ".factory/settings.json")), create(path.join(p, "src/../docs/up.md"))],
          [create(path.join(p, ".pebble/spec.md")), create(path.join(p, "src/main.ts")), create(path.join(p, ".factory/bin/jade.sh"))],
        ),
    });
    try {
      const why = explain(r);
      ranToEnd(r, "jade", 5, why);
      ranToEnd(r, "main", 4, why);
      expect(r.exists("src/x.ts"), `jade could not write its own scope\n${why}`).toBe(true);
      expect(r.exists(".pebble/spec.md"), `the orchestrator could not write Flint's spec\n${why}`).toBe(true);
      for (const f of ["tests/x.test.ts", "docs/jade.md", "docs/up.md", "src/main.ts"]) expect(r.exists(f), `${f} was written\n${why}`).toBe(false);
      expect(fs.readFileSync(path.join(r.env.project, ".factory/settings.json"), "utf8"), why).not.toContain("scripted model");
      expect(fs.readFileSync(path.join(r.env.project, ".factory/bin/jade.sh"), "utf8"), why).not.toContain("scripted model");
      expect(answerTo(r, "jade", 1), why).toMatch(/harness guard: jade may not write tests\/x\.test\.ts \(never-write/);
      expect(answerTo(r, "jade", 2), why).toMatch(/harness guard: jade may not write docs\/jade\.md/);
      expect(answerTo(r, "jade", 3), why).toMatch(/harness guard: jade may not write \.factory\/settings\.json/);
      expect(answerTo(r, "main", 1), why).toMatch(/harness guard: the orchestrator \(main thread\) may not write src\/main\.ts/);
      expect(answerTo(r, "main", 2), why).toMatch(/harness guard: the orchestrator \(main thread\) may not write \.factory\/bin\/jade\.sh/);
    } finally {
      r.dispose();
    }
  });

  it("factory-droid: guard refuses git commit and git push for jade and runs its npm test", async () => {
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

  it("factory-droid: Task is refused in pipeline sessions, and an ordinary session is unbound", async () => {
    // the orchestrator: Task refused; jade: Task and another role's launcher refused
    const bound = await run({
      launcher: LAUNCHER,
      script: () => delegate("jade", "You are Jade", [task("chalk"), sh(".factory/bin/chalk.sh 'Do the docs.'")], [task("jade")]),
    });
    // an ordinary session (plain droid exec) and its Task subagent: nothing of the pipeline binds them
    const ordinary = await run({
      ...scene,
      files: { ...scene.files, ".factory/droids/helper.md": "---\nname: helper\ndescription: a droid of the people in the repo\nmodel: inherit\ntools: [\"Read\", \"Create\", \"Execute\"]\n---\nYou are HELPER-DROID-MARK.\n" },
      script: (p) => [
        { name: "helper", when: "HELPER-DROID-MARK", steps: [create(path.join(p, "tests/helper.test.ts"))] },
        { name: "main", steps: [create(path.join(p, "tests/x.test.ts")), sh("git commit -m ordinary"), task("helper")] },
      ],
    });
    try {
      const why = explain(bound);
      ranToEnd(bound, "jade", 2, why);
      expect(answerTo(bound, "main", 0), why).toMatch(/harness guard: the orchestrator may not start droids with Task/);
      expect(answerTo(bound, "jade", 0), why).toMatch(/harness guard: jade may not start droids with Task/);
      expect(answerTo(bound, "jade", 1), why).toMatch(/harness guard: jade may not start agents/);
      expect(requestsOf(bound.stub, "chalk").length, `chalk was started\n${why}`).toBe(0);
      const whyO = explain(ordinary);
      ranToEnd(ordinary, "helper", 1, whyO);
      expect(ordinary.exists("tests/x.test.ts"), `an ordinary session's write was refused\n${whyO}`).toBe(true);
      expect(ordinary.exists("tests/helper.test.ts"), `an ordinary session's Task droid was refused\n${whyO}`).toBe(true);
      expect(Number(git(ordinary.env.project, "rev-list", "--count", "HEAD")), `an ordinary session's commit was refused\n${whyO}`).toBe(2);
      expect(ordinary.stub.toolResultTexts().join("\n"), whyO).not.toMatch(/harness guard/);
    } finally {
      bound.dispose();
      ordinary.dispose();
    }
  });

  it("factory-droid: a session that names a role without its launcher is refused, and settings cannot switch the guard off", async () => {
    // HARNESS_ROLE in droid's own environment, but no launcher is its parent (what a Task subagent of a
    // pipeline session inherits); HARNESS_GUARD_OFF written into the project's and the user's settings
    const r = await run({
      env: { HARNESS_ROLE: "jade", HARNESS_LAUNCH: "1" },
      setup: (p, env) => {
        const s = path.join(p, ".factory/settings.json");
        fs.writeFileSync(s, JSON.stringify({ ...JSON.parse(fs.readFileSync(s, "utf8")), env: { HARNESS_GUARD_OFF: "1" } }));
        fs.mkdirSync(path.join(env.home, ".factory"), { recursive: true });
        fs.writeFileSync(path.join(env.home, ".factory/settings.json"), JSON.stringify({ env: { HARNESS_GUARD_OFF: "1" } }));
      },
      script: (p) => [{ name: "main", steps: [create(path.join(p, "src/y.ts")), read(path.join(p, "package.json"))] }],
      files: { "package.json": "{}" },
    });
    try {
      const why = explain(r);
      ranToEnd(r, "main", 2, why);
      expect(r.exists("src/y.ts"), why).toBe(false);
      expect(answerTo(r, "main", 0), why).toMatch(/harness guard: this is a Task subagent of a pebble session, which no launcher started/);
    } finally {
      r.dispose();
    }
  });
});
