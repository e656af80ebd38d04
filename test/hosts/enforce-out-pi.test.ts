// Pi 0.73.1 enforcing what harness emits for roles/ (see enforce-out.test.ts for the method): the
// emitted tree in a scratch project, headless `pi --mode json -p` on the OpenAI Chat Completions stub.
// Subagent roles are reached through the extension's harness_subagent tool, as /pebble does (each
// runs in a child pi, whose requests the stub tells apart by the role's prompt); the orchestrator's
// session is started by the pipeline's launcher .pi/bin/pebble.sh, as AGENTS.md says. Test names are
// cited by adapters/pi `proofs`.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { emittedTree, hostBin, REGISTERED_HOSTS } from "./helpers.js";
import { runPiScripted, type PiScriptedRun } from "./lib/pi.js";
import type { Conversation, ModelRequest, Step, Stub } from "./lib/stubs.js";

const MAIN_ONLY = "MAIN-SESSION-ONLY-p4i9";
const LAUNCHER = ".pi/bin/pebble.sh";

function explain(r: PiScriptedRun): string {
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
function answerTo(r: PiScriptedRun, conv: string, i: number): string {
  const q = requestsOf(r.stub, conv).find((x) => x.toolResults === i + 1);
  const msgs = ((q?.body.messages ?? []) as { role?: string; content?: unknown }[]).filter((m) => m.role === "tool");
  const c = msgs.at(-1)?.content;
  if (typeof c === "string") return c;
  return Array.isArray(c) ? c.map((x) => (x && typeof x === "object" && "text" in x ? String((x as { text: unknown }).text) : JSON.stringify(x))).join("\n") : JSON.stringify(c ?? null);
}
const ranToEnd = (r: PiScriptedRun, conv: string, steps: number, why: string) =>
  expect(r.stub.log.some((l) => l.conversation === conv && l.step === steps), `${conv} did not run its ${steps} step(s) to the end\n${why}`).toBe(true);
const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8", env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: cwd, GIT_CONFIG_NOSYSTEM: "1" } }).trim();

const write = (p: string): Step => ({ tool: "write", input: { path: p, content: `// written by the scripted model: ${path.basename(p)}\n` } });
const read = (p: string): Step => ({ tool: "read", input: { path: p } });
const sh = (command: string): Step => ({ tool: "bash", input: { command } });
const agent = (role: string): Step => ({ tool: "harness_subagent", input: { agent: role, task: `Do the ${role} stage.` } });
/** the main session calling `before`, then delegating to one role */
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

describe.runIf(REGISTERED_HOSTS.includes("pi")).concurrent("pi: the emitted .pi/ tree is enforced", () => {
  const run = async (o: Omit<Parameters<typeof runPiScripted>[0], "bin" | "tree">) =>
    runPiScripted({ bin: hostBin("pi"), tree: await emittedTree("pi"), prompt: `${MAIN_ONLY}: go`, timeoutMs: 150_000, ...o });

  it("pi: role chalk runs in its own pi process with exactly its tools and its own context", async () => {
    const r = await run({ files: { "docs/a.md": "# a\n" }, script: () => delegate("chalk", "You are Chalk", [read("docs/a.md"), agent("jade"), sh("echo hi")]) });
    try {
      const why = explain(r);
      ranToEnd(r, "chalk", 3, why);
      const reqs = requestsOf(r.stub, "chalk");
      expect(reqs.length, why).toBeGreaterThan(0);
      for (const q of reqs) {
        expect([...q.tools].sort(), why).toEqual(["edit", "find", "grep", "read", "write"]);
        expect(JSON.stringify(q.body.messages), `chalk saw the main session's conversation\n${why}`).not.toContain(MAIN_ONLY);
        expect(q.body.model, `chalk's child runs on the session's model\n${why}`).toBe("stub-model");
      }
      expect(answerTo(r, "chalk", 0), why).toContain("# a");
      // no spawn tool and no shell in the child: Pi itself does not know them
      expect(answerTo(r, "chalk", 1), why).toMatch(/harness_subagent.*not found|not found.*harness_subagent/i);
      expect(answerTo(r, "chalk", 2), why).toMatch(/bash.*not found|not found.*bash/i);
      // the main session has the spawn tool: the child's lack of it is its role's, not the session's
      expect(requestsOf(r.stub, "main")[0]?.tools, why).toContain("harness_subagent");
      expect(answerTo(r, "main", 0), `the role's report did not come back\n${why}`).toContain("chalk-DONE");
    } finally {
      r.dispose();
    }
  });

  it("pi: the extension refuses jade writing tests/ and lets it write src/", async () => {
    const r = await run({
      launcher: LAUNCHER,
      files: { "src/.keep": "" },
      script: (p) =>
        delegate(
          "jade",
          "You are Jade",
          [write("src/x.ts"), write("tests/x.test.ts"), write("docs/jade.md"), write(".pi/extensions/harness-guard.js"), write("src/../docs/up.md"), write("@tests/at.test.ts"), write(path.join(p, "src/abs.ts"))],
          [write(".pebble/spec.md"), write("src/main.ts"), write("AGENTS.md"), write(".pi/agents/jade.md")],
        ),
    });
    try {
      const why = explain(r);
      ranToEnd(r, "jade", 7, why);
      ranToEnd(r, "main", 5, why);
      expect(r.exists("src/x.ts"), `jade could not write its own scope\n${why}`).toBe(true);
      expect(r.exists("src/abs.ts"), `jade could not write its own scope by an absolute path\n${why}`).toBe(true);
      expect(r.exists(".pebble/spec.md"), `the orchestrator could not write Flint's spec\n${why}`).toBe(true);
      for (const f of ["tests/x.test.ts", "tests/at.test.ts", "@tests/at.test.ts", "docs/jade.md", "docs/up.md", "src/main.ts"]) expect(r.exists(f), `${f} was written\n${why}`).toBe(false);
      for (const f of [".pi/extensions/harness-guard.js", "AGENTS.md", ".pi/agents/jade.md"]) expect(fs.readFileSync(path.join(r.env.project, f), "utf8"), why).not.toContain("scripted model");
      expect(answerTo(r, "jade", 1), why).toMatch(/harness guard: jade may not write tests\/x\.test\.ts \(never-write/);
      expect(answerTo(r, "jade", 2), why).toMatch(/harness guard: jade may not write docs\/jade\.md/);
      expect(answerTo(r, "jade", 3), why).toMatch(/harness guard: jade may not write \.pi\/extensions\/harness-guard\.js/);
      expect(answerTo(r, "jade", 5), why).toMatch(/harness guard: jade may not write tests\/at\.test\.ts/);
      expect(answerTo(r, "main", 1), why).toMatch(/harness guard: the orchestrator \(main thread\) may not write src\/main\.ts/);
      expect(answerTo(r, "main", 2), why).toMatch(/harness guard: the orchestrator \(main thread\) may not write AGENTS\.md/);
      expect(answerTo(r, "main", 3), why).toMatch(/harness guard: the orchestrator \(main thread\) may not write \.pi\/agents\/jade\.md/);
    } finally {
      r.dispose();
    }
  });

  it("pi: the extension refuses git commit and git push for jade and runs its npm test", async () => {
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

  it("pi: an ordinary session is unbound and the roles it starts stay guarded", async () => {
    const r = await run({
      ...scene,
      script: () => delegate("jade", "You are Jade", [write("tests/x.test.ts"), write("src/y.ts")], [write("src/main.ts"), sh("git commit -m ordinary")]),
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

  it("pi: a process named for no role is refused every call, and the off switch in the environment Pi starts with turns the guard off", async () => {
    const r = await run({ env: { HARNESS_PI_ROLE: "nobody" }, files: { "src/.keep": "" }, script: [{ name: "main", steps: [write("src/a.ts"), read("src/.keep")] }] });
    try {
      const why = explain(r);
      ranToEnd(r, "main", 2, why);
      expect(r.exists("src/a.ts"), why).toBe(false);
      expect(answerTo(r, "main", 0), why).toMatch(/harness guard: HARNESS_PI_ROLE names no role of pipeline pebble/);
      expect(answerTo(r, "main", 1), why).toMatch(/harness guard: HARNESS_PI_ROLE names no role/);
    } finally {
      r.dispose();
    }
    const off = await run({ env: { HARNESS_PI_ROLE: "jade", HARNESS_GUARD_OFF: "1" }, files: { "src/.keep": "" }, script: [{ name: "main", steps: [write("tests/off.test.ts")] }] });
    try {
      const why = explain(off);
      ranToEnd(off, "main", 1, why);
      expect(off.exists("tests/off.test.ts"), `the off switch given by the human did not switch the guard off\n${why}`).toBe(true);
    } finally {
      off.dispose();
    }
  });

  it("pi: a role started by Pi's example subagent extension is bound by its prompt", async () => {
    // the package's own examples/extensions/subagent, installed in the project as its README says
    const example = path.join(path.dirname(path.dirname(fs.realpathSync(hostBin("pi")))), "examples", "extensions", "subagent");
    const r = await run({
      ...scene,
      setup: (p) => {
        scene.setup(p);
        fs.mkdirSync(path.join(p, ".pi", "extensions", "subagent"), { recursive: true });
        for (const f of ["index.ts", "agents.ts"]) fs.copyFileSync(path.join(example, f), path.join(p, ".pi", "extensions", "subagent", f));
      },
      script: [
        { name: "jade", when: "You are Jade", steps: [write("tests/x.test.ts"), write("src/y.ts"), sh("git commit -m x")] },
        { name: "main", steps: [{ tool: "subagent", input: { agent: "jade", task: "Do the jade stage.", agentScope: "project" } }] },
      ],
    });
    try {
      const why = explain(r);
      ranToEnd(r, "jade", 3, why);
      expect(r.exists("tests/x.test.ts"), `the example extension's jade wrote tests/\n${why}`).toBe(false);
      expect(r.exists("src/y.ts"), why).toBe(true);
      expect(answerTo(r, "jade", 0), why).toMatch(/harness guard: jade may not write tests\/x\.test\.ts/);
      expect(answerTo(r, "jade", 2), why).toMatch(/harness guard: jade may not run "git commit -m x"/);
    } finally {
      r.dispose();
    }
  });

  it("pi: the extension stops role jade at its max_turns", async () => {
    const steps = 50;
    const files = Object.fromEntries(Array.from({ length: steps }, (_, i) => [`src/f${i}.ts`, `export const f${i} = ${i};\n`]));
    const r = await run({ files, script: () => delegate("jade", "You are Jade", Array.from({ length: steps }, (_, i) => read(`src/f${i}.ts`))) });
    try {
      const why = explain(r);
      const n = requestsOf(r.stub, "jade").length;
      expect(n, `jade made no request\n${why}`).toBeGreaterThan(0);
      expect(n, `jade ran past max_turns 40 (${n} model requests)\n${why}`).toBeLessThanOrEqual(41);
      expect(n, `jade stopped before its cap (${n} model requests): something else ended it\n${why}`).toBeGreaterThanOrEqual(39);
      expect(r.stub.log.some((l) => l.conversation === "jade" && l.step >= steps), why).toBe(false);
    } finally {
      r.dispose();
    }
  });
});
