// The Claude Code guard: the rendered script run with `node` on real PreToolUse payloads, and the
// same runtime in-process for the larger tables. Every subprocess case is also decided in-process
// and the two must agree, so the in-process tables speak for the script.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  GUARDED_TOOLS_MATCHER,
  GUARD_KILL_SWITCH_ENV,
  GUARD_KILL_SWITCH_FILE,
  GUARD_PATH,
  GUARD_PATH_GAPS,
  GUARD_SHELL_GAPS,
  commandPatternToRegExp,
  compileGuardPolicy,
  guardHookCommand,
  renderGuard,
} from "../../adapters/claude-code/guard.js";
import { GUARD_RUNTIME_SOURCE } from "../../adapters/claude-code/guard-runtime.js";
import { ROLES, pebble } from "./fixture.js";
import { type Decision, type Project, guardEnv, inProcess, makeProject, payload, runGuard, runProcess } from "./helpers.js";

const pipeline = pebble();
const decide = inProcess(pipeline);
let P: Project;

beforeAll(() => {
  P = makeProject(pipeline);
});
afterAll(() => P?.cleanup());

type Expect = "allow" | "block" | "ask";
interface Case {
  name: string;
  tool: string;
  input: (p: Project) => Record<string, unknown>;
  role?: string;
  subagent?: boolean;
  expect: Expect;
  reason?: RegExp;
  linked?: boolean; // run in the project whose folders link outside
}

const abs = (rel: string) => (p: Project) => path.join(p.dir, rel);

function writeCase(name: string, role: string | undefined, file: string | ((p: Project) => string), expectKind: Expect, reason?: RegExp, extra: Partial<Case> = {}): Case {
  return {
    name,
    tool: "Write",
    role,
    input: (p) => ({ file_path: typeof file === "function" ? file(p) : file, content: "hello\n" }),
    expect: expectKind,
    ...(reason ? { reason } : {}),
    ...extra,
  };
}
function bashCase(name: string, role: string | undefined, command: string, expectKind: Expect, reason?: RegExp, extra: Partial<Case> = {}): Case {
  return { name, tool: "Bash", role, input: () => ({ command, description: "run" }), expect: expectKind, ...(reason ? { reason } : {}), ...extra };
}

/** Run one case with node and in-process; both must agree. */
async function check(c: Case): Promise<{ code: number | null; stdout: string; stderr: string; inproc: Decision }> {
  const dir = c.linked ? P.linked : P.dir;
  const script = c.linked ? P.linkedScript : P.script;
  const input = payload({ tool: c.tool, input: c.input(P), cwd: dir, ...(c.role !== undefined ? { role: c.role } : {}), ...(c.subagent !== undefined ? { subagent: c.subagent } : {}) });
  const env = guardEnv(dir);
  const r = await runGuard(script, input, env);
  const inproc = decide(JSON.stringify(input), env);
  const label = `${c.name}: stderr=${r.stderr} stdout=${r.stdout}`;
  if (c.expect === "block") {
    expect(r.code, label).toBe(2);
    expect(r.stdout, label).toBe("");
    expect(r.stderr.endsWith("\n") && !r.stderr.slice(0, -1).includes("\n"), `one line: ${label}`).toBe(true);
    expect(r.stderr, label).toMatch(/^harness guard: /);
    if (c.reason) expect(r.stderr, label).toMatch(c.reason);
    expect(inproc.kind).toBe("block");
    expect(`${inproc.reason}\n`).toBe(r.stderr);
  } else if (c.expect === "ask") {
    expect(r.code, label).toBe(0);
    const out = JSON.parse(r.stdout) as { hookSpecificOutput: Record<string, string> };
    expect(out.hookSpecificOutput.hookEventName).toBe("PreToolUse");
    expect(out.hookSpecificOutput.permissionDecision).toBe("ask");
    if (c.reason) expect(out.hookSpecificOutput.permissionDecisionReason).toMatch(c.reason);
    expect(inproc).toEqual({ kind: "ask", reason: out.hookSpecificOutput.permissionDecisionReason });
  } else {
    expect(r.code, label).toBe(0);
    expect(r.stdout, label).toBe("");
    expect(r.stderr, label).toBe("");
    expect(inproc).toEqual({ kind: "allow" });
  }
  return { ...r, inproc };
}

// ---------------------------------------------------------------- role × situation, with node

interface RolePlan {
  ok: string;
  bad: string;
  badWhy: RegExp;
  cmd: string;
  cmdWhy: RegExp;
  shellWrite?: { command: string; why: RegExp };
  main?: boolean; // isolation main: runs as `claude --agent <id>` (agent_type, no agent_id)
}

const NO_SHELL = /may not run shell commands \(its role has no shell tool\)/;
const PLANS: Record<string, RolePlan> = {
  flint: { ok: ".pebble/spec.md", bad: "src/a.ts", badWhy: /\(not in its write scope: \.pebble\/spec\.md\)/, cmd: "ls -la", cmdWhy: NO_SHELL, main: true },
  slate: {
    ok: ".pebble/blueprint.md",
    bad: ".pebble/spec.md",
    badWhy: /\(not in its write scope: \.pebble\/blueprint\.md\)/,
    cmd: "npm install left-pad",
    cmdWhy: /may not run "npm install left-pad" \(not among its allowed commands: git log \*, git diff \*, ls \*\)/,
    shellWrite: { command: "git log --oneline > src/a.ts", why: /may not write src\/a\.ts \(not in its write scope: \.pebble\/blueprint\.md\), in the command "git log --oneline > src\/a\.ts"/ },
  },
  mica: {
    ok: "tests/a.test.ts",
    bad: "src/a.ts",
    badWhy: /\(never-write: artifact code\)/,
    cmd: "npm publish --tag next",
    cmdWhy: /\(its shell rules deny npm publish \*\)/,
    shellWrite: { command: "cat tests/a.test.ts | tee src/a.ts", why: /may not write src\/a\.ts \(never-write: artifact code\)/ },
  },
  jade: {
    ok: "src/feature/new.ts",
    bad: "tests/a.test.ts",
    badWhy: /\(never-write: artifact tests\)/,
    cmd: "npm publish",
    cmdWhy: /\(its shell rules deny npm publish \*\)/,
    shellWrite: { command: "echo x > tests/a.test.ts", why: /^harness guard: jade may not write tests\/a\.test\.ts \(never-write: artifact tests\), in the command "echo x > tests\/a\.test\.ts"\. Report "blocked" instead\.\n$/ },
  },
  onyx: {
    ok: ".pebble/review.md",
    bad: "src/a.ts",
    badWhy: /\(not in its write scope: \.pebble\/review\.md\)/,
    cmd: "rm -rf src",
    cmdWhy: /not among its allowed commands/,
    shellWrite: { command: "git diff > .pebble/spec.md", why: /may not write \.pebble\/spec\.md \(not in its write scope: \.pebble\/review\.md\)/ },
    main: true,
  },
  quartz: {
    ok: ".pebble/verification.md",
    bad: "src/a.ts",
    badWhy: /\(not in its write scope: \.pebble\/verification\.md\)/,
    cmd: "sed -i s/a/b/ src/a.ts",
    cmdWhy: /may not run "sed -i s\/a\/b\/ src\/a\.ts" \(not among its allowed commands: npm test \*\)/,
    shellWrite: { command: "npm test -- --reporter=json > src/report.json", why: /may not write src\/report\.json \(not in its write scope/ },
  },
  coral: {
    ok: "infra/network/vpc.tf",
    bad: "src/a.ts",
    badWhy: /\(not in its write scope: infra\/\*\*, \.github\/workflows\/\*\*, Dockerfile\)/,
    cmd: "terraform apply -auto-approve",
    cmdWhy: /\(its shell rules deny terraform apply \*\)/,
    shellWrite: { command: "docker build . 2>&1 > tests/build.log", why: /may not write tests\/build\.log/ },
  },
  chalk: { ok: "docs/guide/intro.md", bad: "src/a.ts", badWhy: /\(not in its write scope: docs\/\*\*, README\.md\)/, cmd: "ls", cmdWhy: NO_SHELL },
};

function roleCases(id: string, plan: RolePlan): Case[] {
  const sub = { subagent: !plan.main };
  const git = (cmd: string): RegExp => (plan.cmdWhy === NO_SHELL ? NO_SHELL : new RegExp(`no pipeline agent may run ${cmd}`));
  const cases: Case[] = [
    writeCase(`${id} writes its own ${plan.ok}`, id, abs(plan.ok), "allow", undefined, sub),
    writeCase(`${id} writes ${plan.bad}`, id, abs(plan.bad), "block", new RegExp(`^harness guard: ${id} may not write ${plan.bad.replace(/\./g, "\\.")} ` + plan.badWhy.source + `\\. Report "blocked" instead\\.\\n$`), sub),
    writeCase(`${id} writes .git/config`, id, abs(".git/config"), "block", /\(never-write: \.git\/\*\* \(pipeline policy\)\)/, sub),
    writeCase(`${id} writes ../x`, id, "../x", "block", /may not write \.\.\/x \(it is outside the project directory .*\)\. Report "blocked" instead\./, sub),
    writeCase(`${id} writes /etc/passwd`, id, "/etc/passwd", "block", /may not write \/etc\/passwd \(it is outside the project directory/, sub),
    writeCase(`${id} writes its own path through a link out of the project`, id, (p) => path.join(p.linked, plan.ok), "block", /\(it resolves through a symbolic link to .*outside.*, outside the project\)/, { ...sub, linked: true }),
    bashCase(`${id} runs a forbidden command`, id, plan.cmd, "block", plan.cmdWhy, sub),
    bashCase(`${id} runs git push`, id, "git push", "block", git("git push"), sub),
    bashCase(`${id} runs git commit -m x`, id, "git commit -m x", "block", git("git commit \\*"), sub),
    {
      name: `${id} starts an agent`,
      tool: "Agent",
      role: id,
      input: () => ({ description: "help", prompt: "do it", subagent_type: "jade", run_in_background: false }),
      expect: "block",
      reason: new RegExp(`^harness guard: ${id} may not start agents \\(its role cannot spawn; refused "jade"\\)`),
      ...sub,
    },
  ];
  if (plan.shellWrite) cases.push(bashCase(`${id} writes through the shell`, id, plan.shellWrite.command, "block", plan.shellWrite.why, sub));
  return cases;
}

describe("every role, run with node", () => {
  it("covers every role of the fixture", () => {
    expect(Object.keys(PLANS).sort()).toEqual(ROLES.map((r) => r.id).sort());
  });
  for (const [id, plan] of Object.entries(PLANS)) {
    describe(id, () => {
      for (const c of roleCases(id, plan)) it.concurrent(c.name, async () => void (await check(c)));
    });
  }
});

// ---------------------------------------------------------------- other situations, with node

const MORE: Case[] = [
  // write tool shapes
  { name: "Edit in scope", tool: "Edit", role: "jade", input: abs2("src/a.ts", (f) => ({ file_path: f, old_string: "x", new_string: "y" })), expect: "allow" },
  { name: "MultiEdit out of scope", tool: "MultiEdit", role: "jade", input: abs2("tests/a.test.ts", (f) => ({ file_path: f, edits: [{ old_string: "x", new_string: "y" }] })), expect: "block", reason: /never-write: artifact tests/ },
  { name: "NotebookEdit uses notebook_path", tool: "NotebookEdit", role: "mica", input: abs2("src/n.ipynb", (f) => ({ notebook_path: f, new_source: "1" })), expect: "block", reason: /may not write src\/n\.ipynb \(never-write: artifact code\)/ },
  { name: "NotebookEdit in scope", tool: "NotebookEdit", role: "mica", input: abs2("tests/n.test.ipynb", (f) => ({ notebook_path: f, new_source: "1" })), expect: "allow" },
  { name: "unnormalized path that climbs out", tool: "Write", role: "jade", input: (p) => ({ file_path: `${p.dir}/src/../../outside/secret.txt`, content: "" }), expect: "block", reason: /outside the project directory/ },
  { name: "unnormalized path that stays in", tool: "Write", role: "jade", input: (p) => ({ file_path: `${p.dir}/tests/../src/./x.ts`, content: "" }), expect: "allow" },
  writeCase("a link inside scope pointing out", "jade", abs("src/out/secret.txt"), "block", /jade may not write src\/out\/secret\.txt \(it resolves through a symbolic link to .*\/outside\/secret\.txt, outside the project\)/),
  writeCase("a dangling link", "jade", abs("src/dangling"), "block", /goes through a dangling symbolic link/),
  writeCase("an in-project link into a never-write folder", "jade", abs("lib/t/new.test.ts"), "block", /never-write: artifact tests/),
  writeCase("the project directory itself", "jade", (p) => p.dir, "block", /is the project directory itself/),
  // main thread (no agent_type): the orchestrator
  writeCase("orchestrator writes a main role's document", undefined, abs(".pebble/spec.md"), "allow"),
  writeCase("orchestrator writes the other main role's document", undefined, abs(".pebble/review.md"), "allow"),
  writeCase("orchestrator writes code", undefined, abs("src/a.ts"), "block", /^harness guard: the orchestrator \(main thread\) may not write src\/a\.ts \(not in the main-thread write scope: \.pebble\/spec\.md, \.pebble\/review\.md\)\. Delegate it to jade, or report "blocked"\.\n$/),
  writeCase("orchestrator writes tests", undefined, abs("tests/b.test.ts"), "block", /Delegate it to mica, or report "blocked"\./),
  writeCase("orchestrator writes .git", undefined, abs(".git/HEAD"), "block", /never-write: \.git\/\*\* \(pipeline policy\)\)\. Report "blocked" instead\./),
  bashCase("orchestrator runs git push", undefined, "git push origin main", "block", /the orchestrator \(main thread\) may not run "git push origin main" \(no pipeline agent may run git push \*\)/),
  bashCase("orchestrator runs an orchestrator_shell command", undefined, "git stash push -m wip", "allow"),
  bashCase("orchestrator runs a denied stash command", undefined, "git stash pop", "block", /no pipeline agent may run git stash \*/),
  bashCase("orchestrator runs anything else (settings.json decides)", undefined, "npm test && ls -la | head -5", "allow"),
  bashCase("orchestrator writes code through the shell", undefined, "echo x > src/a.ts", "block", /Delegate it to jade/),
  { name: "orchestrator starts a pipeline role", tool: "Agent", input: () => ({ description: "d", prompt: "p", subagent_type: "jade" }), expect: "allow" },
  { name: "orchestrator starts a role through the old Task name", tool: "Task", input: () => ({ description: "d", prompt: "p", subagent_type: "quartz" }), expect: "allow" },
  { name: "orchestrator starts a built-in agent", tool: "Agent", input: () => ({ description: "d", prompt: "p", subagent_type: "Explore" }), expect: "block", reason: /may not start "Explore": it is not a role of pipeline pebble \(nested agents are off\)\. Start one of: chalk, coral, flint, jade, mica, onyx, quartz, slate\./ },
  { name: "orchestrator starts an agent without subagent_type", tool: "Agent", input: () => ({ description: "d", prompt: "p" }), expect: "block", reason: /"general-purpose"/ },
  // built-in / foreign agents
  writeCase("Explore writes", "Explore", abs("src/a.ts"), "block", /^harness guard: agent "Explore" is not a role of pipeline pebble, so it may not write files here/),
  bashCase("general-purpose runs ls", "general-purpose", "ls", "block", /agent "general-purpose" is not a role of pipeline pebble, so it may not run shell commands/),
  { name: "Plan starts an agent", tool: "Agent", role: "Plan", input: () => ({ subagent_type: "jade" }), expect: "block", reason: /agent "Plan" is not a role/ },
  // asks
  bashCase("jade asks before npm install", "jade", "npm install left-pad", "ask", /^harness guard: jade wants to run "npm install left-pad" \(its shell rules ask for npm install \*\)$/),
  bashCase("mica's default is ask", "mica", "curl -s https://example.com", "ask", /no shell rule of its role names it; the default is ask/),
  bashCase("ask loses to a block later in the command", "jade", "npm install x && git push", "block", /no pipeline agent may run git push/),
  bashCase("allowed commands pass", "quartz", "npm test -- --run 2>&1 > /dev/null", "allow"),
  bashCase("cd then an allowed command", "quartz", "cd src && npm test", "allow"),
  // tools the guard does not rule
  { name: "Read is not ruled", tool: "Read", role: "jade", input: abs2("tests/a.test.ts", (f) => ({ file_path: f })), expect: "allow" },
  { name: "TodoWrite is not ruled (unanchored matchers)", tool: "TodoWrite", role: "Explore", input: () => ({ todos: [] }), expect: "allow" },
];
function abs2(rel: string, f: (file: string) => Record<string, unknown>): (p: Project) => Record<string, unknown> {
  return (p) => f(path.join(p.dir, rel));
}

describe("more situations, run with node", () => {
  for (const c of MORE) it.concurrent(c.name, async () => void (await check(c)));
});

// ---------------------------------------------------------------- malformed input, with node

describe("malformed input fails closed", () => {
  const ok = () => payload({ tool: "Write", input: { file_path: path.join(P.dir, "src/a.ts"), content: "" }, role: "jade", cwd: P.dir });
  const bad: [string, () => unknown, RegExp, Record<string, string>?][] = [
    ["not JSON", () => "{tool_name: Write", /hook input is not JSON/],
    ["empty", () => "", /empty hook input/],
    ["whitespace", () => "  \n", /empty hook input/],
    ["a JSON array", () => "[]", /not a JSON object/],
    ["JSON null", () => "null", /not a JSON object/],
    ["no tool_name", () => ({ ...ok(), tool_name: undefined }), /no tool_name/],
    ["tool_name not a string", () => ({ ...ok(), tool_name: 7 }), /no tool_name/],
    ["no tool_input", () => ({ ...ok(), tool_input: undefined }), /no tool_input object/],
    ["tool_input is a string", () => ({ ...ok(), tool_input: "src/a.ts" }), /no tool_input object/],
    ["no hook_event_name", () => ({ ...ok(), hook_event_name: undefined }), /expected hook_event_name "PreToolUse", got nothing/],
    ["another event", () => ({ ...ok(), hook_event_name: "PostToolUse" }), /got "PostToolUse"/],
    ["Write without file_path", () => ({ ...ok(), tool_input: { content: "x" } }), /Write call without file_path/],
    ["Write with a non-string file_path", () => ({ ...ok(), tool_input: { file_path: ["src/a.ts"] } }), /Write call without file_path/],
    ["NotebookEdit without a path", () => ({ ...ok(), tool_name: "NotebookEdit", tool_input: {} }), /NotebookEdit call without notebook_path/],
    ["Bash without command", () => ({ ...ok(), tool_name: "Bash", tool_input: {} }), /Bash call without a command string/],
    ["Bash with an empty command", () => ({ ...ok(), tool_name: "Bash", tool_input: { command: "  " } }), /Bash call without a command string/],
    ["agent_type a number", () => ({ ...ok(), agent_type: 3 }), /agent_type is not a non-empty string/],
    ["agent_type empty", () => ({ ...ok(), agent_type: "" }), /agent_type is not a non-empty string/],
    ["agent_id an object", () => ({ ...ok(), agent_id: {} }), /agent_id is not a string/],
    ["agent_id without agent_type", () => ({ ...ok(), agent_type: undefined }), /an unnamed subagent is not a role/],
    ["subagent_type a number", () => ({ ...ok(), agent_type: undefined, agent_id: undefined, tool_name: "Agent", tool_input: { subagent_type: 1 } }), /subagent_type is not a string/],
    ["relative cwd and no project dir", () => ({ ...ok(), cwd: "proj" }), /the input cwd is not an absolute path/, { CLAUDE_PROJECT_DIR: "" }],
    ["relative cwd", () => ({ ...ok(), cwd: "sub" }), /the input cwd is not an absolute path/],
    ["project dir missing on disk", () => ok(), /cannot resolve the project directory/, { CLAUDE_PROJECT_DIR: "/nonexistent-harness-project" }],
    ["unparseable shell", () => ({ ...ok(), tool_name: "Bash", tool_input: { command: "echo 'unterminated" } }), /the guard could not read it \(a single quote is not closed\)/],
    ["unknown role name", () => ({ ...ok(), agent_type: "obsidian" }), /agent "obsidian" is not a role of pipeline pebble/],
    ["__proto__ as a role", () => ({ ...ok(), agent_type: "__proto__" }), /agent "__proto__" is not a role/],
  ];
  for (const [name, make, reason, envExtra] of bad) {
    it.concurrent(name, async () => {
      const input = make();
      const env = { ...guardEnv(P.dir), ...(envExtra ?? {}) };
      const r = await runGuard(P.script, input, env);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(reason);
      expect(r.stderr.trimEnd().includes("\n")).toBe(false);
      const d = decide(typeof input === "string" ? input : JSON.stringify(input), env);
      expect(d.kind).toBe("block");
    });
  }

  it("without CLAUDE_PROJECT_DIR: the script's own location, else the input cwd, else a block", async () => {
    const noDir = () => ({ ...ok(), cwd: undefined });
    // the script knows it lives in <project>/.claude/hooks/
    const r = await runProcess(process.execPath, [P.script], JSON.stringify(noDir()), { PATH: process.env.PATH }, "/");
    expect(r.code, r.stderr).toBe(0);
    const bad = await runProcess(process.execPath, [P.script], JSON.stringify({ ...noDir(), tool_input: { file_path: path.join(P.dir, "tests/a.test.ts") } }), { PATH: process.env.PATH }, "/");
    expect(bad.code).toBe(2);
    // in-process there is no script location
    expect(decide(JSON.stringify(noDir()), {})).toMatchObject({ kind: "block", reason: expect.stringMatching(/no absolute project directory/) });
    expect(decide(JSON.stringify(ok()), {}).kind).toBe("allow"); // falls back to the input cwd
  });

  it("stdin closed without data blocks", async () => {
    const r = await runProcess(process.execPath, [P.script], "", guardEnv(P.dir));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/empty hook input/);
  });

  it("an internal error blocks", () => {
    // a policy the runtime cannot use: the exception is turned into a block
    const policy = compileGuardPolicy(pipeline) as unknown as { roles: unknown };
    const broken = { ...policy, roles: null };
    const factory = new Function("fs", "path", `${GUARD_RUNTIME_SOURCE}\nreturn decide;`) as (f: unknown, p: unknown) => (a: unknown, b: string, c: unknown) => Decision;
    const d = factory(fs, path)(broken, JSON.stringify(payload({ tool: "Bash", input: { command: "ls" }, role: "jade", cwd: P.dir })), { CLAUDE_PROJECT_DIR: P.dir });
    expect(d.kind).toBe("block");
    expect(d.reason).toMatch(/^harness guard: internal error \(.*\); refusing \(fail closed\)\.$/);
  });
});

// ---------------------------------------------------------------- kill switch

describe("kill switch", () => {
  const forbidden = () => payload({ tool: "Write", input: { file_path: path.join(P.dir, "tests/a.test.ts"), content: "" }, role: "jade", cwd: P.dir });

  it.concurrent.each(["1", "true", "YES", "on"])(`${GUARD_KILL_SWITCH_ENV}=%s lets everything through with a notice`, async (v) => {
    const r = await runGuard(P.script, forbidden(), guardEnv(P.dir, { [GUARD_KILL_SWITCH_ENV]: v }));
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(new RegExp(`^harness guard: OFF \\(${GUARD_KILL_SWITCH_ENV} is set\\); pipeline limits are not enforced\\n$`));
  });

  it.concurrent.each(["0", "", "no"])(`${GUARD_KILL_SWITCH_ENV}=%j does not switch it off`, async (v) => {
    const r = await runGuard(P.script, forbidden(), guardEnv(P.dir, { [GUARD_KILL_SWITCH_ENV]: v }));
    expect(r.code).toBe(2);
  });

  it("the env switch works before the input is read (broken input)", async () => {
    const r = await runGuard(P.script, "not json", guardEnv(P.dir, { [GUARD_KILL_SWITCH_ENV]: "1" }));
    expect(r.code).toBe(0);
    expect(decide("not json", { [GUARD_KILL_SWITCH_ENV]: "1" }).kind).toBe("off");
  });

  it("the switch file works, also with broken input, and only while it exists", async () => {
    const file = path.join(P.dir, GUARD_KILL_SWITCH_FILE);
    fs.writeFileSync(file, "");
    try {
      const r = await runGuard(P.script, forbidden(), guardEnv(P.dir));
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/^harness guard: OFF \(.*harness-guard\.off exists\); pipeline limits are not enforced\n$/);
      const broken = await runGuard(P.script, "{", guardEnv(P.dir));
      expect(broken.code).toBe(0);
      // without CLAUDE_PROJECT_DIR the script's own location finds the project root
      const env = guardEnv(P.dir);
      delete env.CLAUDE_PROJECT_DIR;
      expect((await runProcess(process.execPath, [P.script], JSON.stringify(forbidden()), env, "/")).code).toBe(0);
      expect(decide(JSON.stringify(forbidden()), env as Record<string, string>, P.dir).kind).toBe("off");
      expect(decide(JSON.stringify(forbidden()), env as Record<string, string>).kind).toBe("block"); // the input cwd does not count
    } finally {
      fs.rmSync(file);
    }
    const after = await runGuard(P.script, forbidden(), guardEnv(P.dir));
    expect(after.code).toBe(2);
  });

  it("a switch file below the project root (where an agent could cd and write) does not count", async () => {
    const planted = path.join(P.dir, "src", GUARD_KILL_SWITCH_FILE);
    fs.mkdirSync(path.dirname(planted), { recursive: true });
    fs.writeFileSync(planted, "");
    try {
      const input = payload({ tool: "Write", input: { file_path: path.join(P.dir, "tests/a.test.ts"), content: "" }, role: "jade", cwd: path.join(P.dir, "src") });
      const r = await runProcess(process.execPath, [P.script], JSON.stringify(input), guardEnv(P.dir), path.join(P.dir, "src"));
      expect(r.code).toBe(2);
    } finally {
      fs.rmSync(path.join(P.dir, "src", ".claude"), { recursive: true });
    }
  });

  it("no role, and not the orchestrator, may create the switch file or touch the guard", () => {
    const broad = inProcess(pebble({}, ROLES.map((r) => (r.id === "jade" ? { ...r, write: ["**"], neverWrite: [] } : r))));
    for (const role of ["jade", undefined]) {
      for (const target of [GUARD_KILL_SWITCH_FILE, GUARD_PATH, ".claude/settings.json", ".claude/settings.local.json"]) {
        const w = broad(JSON.stringify(payload({ tool: "Write", input: { file_path: path.join(P.dir, target), content: "" }, ...(role ? { role } : {}), cwd: P.dir })), { CLAUDE_PROJECT_DIR: P.dir });
        expect(w, `${role} ${target}`).toMatchObject({ kind: "block", reason: expect.stringMatching(/\(protects the harness guard\)/) });
      }
      const sh = broad(JSON.stringify(payload({ tool: "Bash", input: { command: `touch ${GUARD_KILL_SWITCH_FILE}` }, ...(role ? { role } : {}), cwd: P.dir })), { CLAUDE_PROJECT_DIR: P.dir });
      expect(sh.kind).toBe("block");
    }
    // and jade with "**" may write elsewhere
    const ok = broad(JSON.stringify(payload({ tool: "Write", input: { file_path: path.join(P.dir, "anything/x.md"), content: "" }, role: "jade", cwd: P.dir })), { CLAUDE_PROJECT_DIR: P.dir });
    expect(ok.kind).toBe("allow");
  });
});

// ---------------------------------------------------------------- the settings.json command

describe("guardHookCommand", () => {
  const cmd = guardHookCommand();
  const sh = (env: NodeJS.ProcessEnv, input: string) => runProcess("/bin/sh", ["-c", cmd], input, env, P.dir);
  const nodeDir = path.dirname(process.execPath);
  const forbidden = () => JSON.stringify(payload({ tool: "Write", input: { file_path: path.join(P.dir, "tests/a.test.ts"), content: "" }, role: "jade", cwd: P.dir }));
  const allowed = () => JSON.stringify(payload({ tool: "Write", input: { file_path: path.join(P.dir, "src/a.ts"), content: "" }, role: "jade", cwd: P.dir }));

  it("quotes the project dir and names the script", () => {
    expect(cmd).toContain(`node "$CLAUDE_PROJECT_DIR/${GUARD_PATH}"`);
  });
  it.concurrent("passes exit 0 and 2 through", async () => {
    const env = { PATH: `${nodeDir}:/usr/bin:/bin`, CLAUDE_PROJECT_DIR: P.dir };
    expect((await sh(env, allowed())).code).toBe(0);
    const r = await sh(env, forbidden());
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/jade may not write tests\/a\.test\.ts/);
  });
  it.concurrent("passes the ask JSON through", async () => {
    const env = { PATH: `${nodeDir}:/usr/bin:/bin`, CLAUDE_PROJECT_DIR: P.dir };
    const r = await sh(env, JSON.stringify(payload({ tool: "Bash", input: { command: "npm install x" }, role: "jade", cwd: P.dir })));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe("ask");
  });
  it.concurrent("blocks with one clear line when node is missing", async () => {
    const r = await sh({ PATH: "/nonexistent-harness-bin", CLAUDE_PROJECT_DIR: P.dir }, allowed());
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^harness guard: node is not on PATH, so the pipeline guard cannot run; blocking \(fail closed\)\./);
    expect(r.stderr.trimEnd().includes("\n")).toBe(false);
  });
  it.concurrent("turns a crash or a missing script into a block", async () => {
    const env = { PATH: `${nodeDir}:/usr/bin:/bin`, CLAUDE_PROJECT_DIR: path.join(P.root, "no-such-project") };
    const r = await sh(env, allowed());
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/harness guard: the guard script failed \(exit 1\); blocking \(fail closed\)\./);
  });
  it.concurrent("copes with a project path containing spaces and quotes", async () => {
    const odd = path.join(P.root, `my "odd" project $x`);
    fs.mkdirSync(path.join(odd, path.dirname(GUARD_PATH)), { recursive: true });
    fs.writeFileSync(path.join(odd, GUARD_PATH), renderGuard(pipeline));
    const env = { PATH: `${nodeDir}:/usr/bin:/bin`, CLAUDE_PROJECT_DIR: odd };
    const input = JSON.stringify(payload({ tool: "Write", input: { file_path: path.join(odd, "src/a.ts"), content: "" }, role: "jade", cwd: odd }));
    expect((await sh(env, input)).code).toBe(0);
  });
});

// ---------------------------------------------------------------- the rendered text

describe("renderGuard", () => {
  const text = renderGuard(pipeline);

  it("is deterministic and ends with one newline", () => {
    expect(renderGuard(pebble())).toBe(text);
    expect(renderGuard(pebble({}, [...ROLES].reverse()))).toBe(text); // role order does not matter
    expect(text.endsWith("\n") && !text.endsWith("\n\n")).toBe(true);
    expect(text).not.toMatch(/\r/);
  });

  it("imports only node: builtins and parses as a module", () => {
    const imports = [...text.matchAll(/^import .* from "([^"]+)";$/gm)].map((m) => m[1]);
    expect(imports).toEqual(["node:fs", "node:path", "node:url"]);
    expect(text).not.toMatch(/\brequire\(/);
    const file = path.join(P.root, "check.mjs");
    fs.writeFileSync(file, text);
    execFileSync(process.execPath, ["--check", file]);
  });

  it("documents the kill switch and the gaps in its header", () => {
    const header = text.slice(0, text.indexOf("import "));
    expect(header).toContain(`${GUARD_KILL_SWITCH_ENV}=1`);
    expect(header).toContain(GUARD_KILL_SWITCH_FILE);
    for (const gap of [...GUARD_SHELL_GAPS, ...GUARD_PATH_GAPS]) expect(header).toContain(gap);
    expect(header).toContain("instruction-only");
  });

  it("embeds the policy as sorted JSON with compiled expressions", () => {
    const json = /^const POLICY = (\{[\s\S]*?\n\});$/m.exec(text)?.[1];
    expect(json).toBeDefined();
    const policy = JSON.parse(json!);
    expect(policy).toEqual(JSON.parse(JSON.stringify(compileGuardPolicy(pipeline))));
    expect(Object.keys(policy)).toEqual([...Object.keys(policy)].sort());
    expect(policy.mainRoles).toEqual(["flint", "onyx"]);
    const jade = policy.roles.find((r: { id: string }) => r.id === "jade");
    expect(jade.write.map((g: { glob: string }) => g.glob)).toEqual(["src/**", "lib/**", "app/**"]);
    expect(new RegExp(jade.write[0].re).test("src/a/b.ts")).toBe(true);
    expect(new RegExp(jade.neverWrite[3].re).test("src/x.test.ts")).toBe(true);
    expect(new RegExp(jade.neverWrite[3].re).test(".hidden/x.test.ts")).toBe(true); // dot: true
  });

  it("never splices user strings into code", async () => {
    const evil = `x"; process.exit(0); //\u2028*/ \${1}\``;
    const hostile = pebble(
      { shellDeny: [...pebble().policies.shellDeny, evil] },
      ROLES.map((r) => (r.id === "jade" ? { ...r, write: [...r.write, `weird/${evil}/**`], title: evil, body: evil } : r)),
    );
    const evilText = renderGuard({ ...hostile, name: evil, title: evil, description: evil });
    const code = evilText.replace(/^const POLICY = \{[\s\S]*?\n\};$/m, "");
    expect(code).not.toContain("process.exit(0); //");
    const dir = path.join(P.root, "evil");
    fs.mkdirSync(path.join(dir, path.dirname(GUARD_PATH)), { recursive: true });
    fs.writeFileSync(path.join(dir, GUARD_PATH), evilText);
    const input = payload({ tool: "Write", input: { file_path: path.join(dir, "tests/a.test.ts"), content: "" }, role: "jade", cwd: dir });
    const r = await runGuard(path.join(dir, GUARD_PATH), input, guardEnv(dir));
    expect(r.code).toBe(2);
    const shell = await runGuard(path.join(dir, GUARD_PATH), payload({ tool: "Bash", input: { command: evil }, role: "jade", cwd: dir }), guardEnv(dir));
    expect(shell.code).toBe(2);
  });

  it("exports the hook wiring constants", () => {
    expect(GUARD_PATH).toBe(".claude/hooks/harness-guard.mjs");
    expect(GUARDED_TOOLS_MATCHER).toBe("Write|Edit|MultiEdit|NotebookEdit|Bash|Agent|Task");
    expect(GUARD_SHELL_GAPS.length).toBeGreaterThan(3);
  });
});

describe("commandPatternToRegExp", () => {
  const m = (pattern: string, cmd: string) => new RegExp(commandPatternToRegExp(pattern)).test(cmd);
  it("treats a trailing ' *' as optional arguments, with a word boundary", () => {
    expect(m("git push *", "git push")).toBe(true);
    expect(m("git push *", "git push origin main")).toBe(true);
    expect(m("git push *", "git pushx")).toBe(false);
    expect(m("ls *", "lsof")).toBe(false);
  });
  it("escapes everything but *", () => {
    expect(m("git reset --hard*", "git reset --hard HEAD~1")).toBe(true);
    expect(m("a.b (c) [d] $e ^f|g+h?", "a.b (c) [d] $e ^f|g+h?")).toBe(true);
    expect(m("a.b", "axb")).toBe(false);
    expect(m("npm test", "npm test --watch")).toBe(false);
    expect(m("npm * --force", "npm install x --force")).toBe(true);
  });
});

// ---------------------------------------------------------------- properties

describe("properties", () => {
  const seg = fc.stringMatching(/^[A-Za-z0-9._-]{1,12}$/).filter((s) => s !== "." && s !== "..");
  const rel = fc.array(seg, { minLength: 1, maxLength: 5 }).map((a) => a.join("/"));
  const roleIds = ROLES.map((r) => r.id);

  it("no role and not the orchestrator may write under a never-write glob", () => {
    const jadeNever = fc.oneof(
      rel.map((r) => `tests/${r}`),
      rel.map((r) => `test/${r}`),
      fc.tuple(rel, seg).map(([d, f]) => `src/${d}/__tests__/${f}`),
      fc.tuple(rel, seg, fc.constantFrom("ts", "js", "tsx")).map(([d, f, e]) => `src/${d}/${f}.test.${e}`),
      fc.tuple(rel, seg).map(([d, f]) => `lib/${d}/${f}.spec.js`),
    );
    fc.assert(
      fc.property(jadeNever, fc.boolean(), (p, absolute) => {
        const file = absolute ? path.join(P.dir, p) : p;
        const d = decide(JSON.stringify(payload({ tool: "Write", input: { file_path: file, content: "" }, role: "jade", cwd: P.dir })), { CLAUDE_PROJECT_DIR: P.dir });
        return d.kind === "block" && /never-write: artifact tests/.test(d.reason ?? "");
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(rel, fc.option(fc.constantFrom(...roleIds), { nil: undefined }), (p, role) => {
        for (const file of [`.git/${p}`, `${P.dir}/.git/${p}`, `${P.dir}/src/../.git/${p}`]) {
          const d = decide(JSON.stringify(payload({ tool: "Edit", input: { file_path: file }, ...(role ? { role } : {}), cwd: P.dir })), { CLAUDE_PROJECT_DIR: P.dir });
          if (d.kind !== "block") return false;
          const viaShell = decide(JSON.stringify(payload({ tool: "Bash", input: { command: `echo x >> '.git/${p}'` }, ...(role ? { role } : {}), cwd: P.dir })), { CLAUDE_PROJECT_DIR: P.dir });
          if (viaShell.kind !== "block") return false;
        }
        return true;
      }),
      { numRuns: 200 },
    );
  });

  it("random path strings and commands never crash the decision", () => {
    const anyRole = fc.option(fc.constantFrom(...roleIds, "Explore"), { nil: undefined });
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 80 }), anyRole, fc.constantFrom("Write", "Edit", "NotebookEdit", "Bash"), (s, role, tool) => {
        const input = tool === "Bash" ? { command: s } : tool === "NotebookEdit" ? { notebook_path: s } : { file_path: s };
        const d = decide(JSON.stringify(payload({ tool, input, ...(role ? { role } : {}), cwd: P.dir })), { CLAUDE_PROJECT_DIR: P.dir });
        return ["allow", "ask", "block"].includes(d.kind) && !(d.reason ?? "").startsWith("harness guard: internal error");
      }),
      { numRuns: 1500 },
    );
    // shell-ish noise
    const shellChar = fc.constantFrom(..."ab /.$`'\"\\()|&;<>{}*?[]~#=\n-0123".split(""));
    fc.assert(
      fc.property(fc.array(shellChar, { maxLength: 60 }).map((a) => a.join("")), anyRole, (cmd, role) => {
        const d = decide(JSON.stringify(payload({ tool: "Bash", input: { command: cmd }, ...(role ? { role } : {}), cwd: P.dir })), { CLAUDE_PROJECT_DIR: P.dir });
        return ["allow", "ask", "block"].includes(d.kind) && !(d.reason ?? "").startsWith("harness guard: internal error");
      }),
      { numRuns: 1500 },
    );
  });

  it("the script exits 0 or 2 and nothing else on random input", async () => {
    const samples = fc.sample(
      fc.oneof(
        fc.string({ unit: "binary", maxLength: 60 }),
        fc.string({ maxLength: 60 }).map((s) => JSON.stringify(payload({ tool: "Write", input: { file_path: s }, role: "jade", cwd: P.dir }))),
        fc.string({ maxLength: 60 }).map((s) => JSON.stringify(payload({ tool: "Bash", input: { command: s }, role: "mica", cwd: P.dir }))),
        fc.jsonValue().map((v) => JSON.stringify(v)),
      ),
      { numRuns: 24, seed: 4242 },
    );
    const results = await Promise.all(samples.map((s) => runGuard(P.script, s, guardEnv(P.dir))));
    for (const r of results) {
      expect([0, 2]).toContain(r.code);
      expect(r.stderr).not.toMatch(/internal error/);
    }
  });
});
