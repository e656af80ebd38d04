// The Claude Code guard: the rendered script on real PreToolUse payloads, and the same runtime
// in-process for the larger tables. The case tables run the script's own bytes in this process
// (script-vm.ts: what `node script` answers, without ~60 ms of process start per case); every
// fifth case also runs with `node`, and the two answers must be the same bytes, so the tables
// speak for the process too. Every case is also decided by the runtime alone, and the two must
// agree, so the in-process tables speak for the script.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GUARDED_TOOLS_MATCHER, GUARD_GAPS, GUARD_OFF_ENV, GUARD_PATH, ORCHESTRATOR, compileClaudePolicy, guardHookCommand, renderGuard } from "../../adapters/claude-code/guard.js";
import { ROLES, pebble } from "./fixture.js";
import { type Decision, type Project, guardEnv, inProcess, makeProject, payload, runGuard, runProcess, runUnderHost } from "./helpers.js";
import { runScriptInProcess } from "./script-vm.js";

const pipeline = pebble();
const decide = inProcess(pipeline);
let P: Project;

beforeAll(() => {
  P = makeProject(pipeline);
});
afterAll(() => P?.cleanup());

type Expect = "allow" | "deny" | "ask" | "none";
interface Case {
  name: string;
  tool: string;
  input: (p: Project) => Record<string, unknown>;
  /** agent_type in the input */
  role?: string;
  subagent?: boolean;
  /** the hook's argument: the role (front matter), ORCHESTRATOR, or none (settings.json) */
  as?: string | null;
  expect: Expect;
  reason?: RegExp;
  linked?: boolean;
}

const abs = (rel: string) => (p: Project) => path.join(p.dir, rel);

function writeCase(name: string, role: string | undefined, file: string | ((p: Project) => string), expectKind: Expect, reason?: RegExp, extra: Partial<Case> = {}): Case {
  return { name, tool: "Write", role, as: role ?? ORCHESTRATOR, input: (p) => ({ file_path: typeof file === "function" ? file(p) : file, content: "hello\n" }), expect: expectKind, ...(reason ? { reason } : {}), ...extra };
}
function bashCase(name: string, role: string | undefined, command: string, expectKind: Expect, reason?: RegExp, extra: Partial<Case> = {}): Case {
  return { name, tool: "Bash", role, as: role ?? ORCHESTRATOR, input: () => ({ command, description: "run" }), expect: expectKind, ...(reason ? { reason } : {}), ...extra };
}

/** Every PROCESS_EVERY-th case of the tables (in the order they are listed) also runs with `node`. */
const PROCESS_EVERY = 5;
let listed = 0;
const viaNode = () => listed++ % PROCESS_EVERY === 0;

/** The script's answer: in this process, and with `node` too when `node` is set; those two must be the same bytes. */
async function runCase(script: string, input: unknown, env: NodeJS.ProcessEnv, as: string | null | undefined, node: boolean) {
  const r = runScriptInProcess(script, input, env, as);
  if (node) expect(await runGuard(script, input, env, as), "node script gives what the script gives in-process").toEqual(r);
  return r;
}

/** Run one case (the script, and the runtime alone); both must agree. */
async function check(c: Case, node: boolean): Promise<void> {
  const dir = c.linked ? P.linked : P.dir;
  const script = c.linked ? P.linkedScript : P.script;
  const input = payload({ tool: c.tool, input: c.input(P), cwd: dir, ...(c.role !== undefined && !(c.subagent === false && c.as === c.role && c.role === undefined) ? { role: c.role } : {}), ...(c.subagent !== undefined ? { subagent: c.subagent } : {}) });
  const env = guardEnv(dir);
  const r = await runCase(script, input, env, c.as, node);
  const inproc = decide(JSON.stringify(input), env, c.as ?? null);
  const label = `${c.name}: stderr=${r.stderr} stdout=${r.stdout}`;
  if (c.expect === "deny") {
    expect(r.code, label).toBe(2);
    expect(r.stdout, label).toBe("");
    expect(r.stderr.endsWith("\n") && !r.stderr.slice(0, -1).includes("\n"), `one line: ${label}`).toBe(true);
    expect(r.stderr, label).toMatch(/^harness guard: /);
    if (c.reason) expect(r.stderr, label).toMatch(c.reason);
    expect(inproc.kind).toBe("deny");
    expect(`${inproc.reason}\n`).toBe(r.stderr);
  } else if (c.expect === "none") {
    expect(r.code, label).toBe(0);
    expect(r.stdout, label).toBe("");
    expect(inproc.kind).toBe("none");
  } else {
    expect(r.code, label).toBe(0);
    const out = JSON.parse(r.stdout) as { hookSpecificOutput: Record<string, string> };
    expect(out.hookSpecificOutput.hookEventName).toBe("PreToolUse");
    expect(out.hookSpecificOutput.permissionDecision, label).toBe(c.expect);
    if (c.reason) expect(out.hookSpecificOutput.permissionDecisionReason).toMatch(c.reason);
    expect(inproc.kind).toBe(c.expect);
    expect(inproc.reason).toBe(out.hookSpecificOutput.permissionDecisionReason);
  }
}

// ---------------------------------------------------------------- role × situation, with node

interface RolePlan {
  ok: string;
  bad: string;
  badWhy: RegExp;
  cmd: string;
  cmdWhy: RegExp;
  /** a command its rules allow: runs without asking */
  allowed?: string;
  shellWrite?: { command: string; why: RegExp };
  main?: boolean; // isolation main: runs as `claude --agent <id>` (agent_type, no agent_id) or /<id>
}

const NO_SHELL = /may not run shell commands \(its role has no shell tool\)/;
const PLANS: Record<string, RolePlan> = {
  flint: { ok: ".pebble/spec.md", bad: "src/a.ts", badWhy: /\(not in its write scope: \.pebble\/spec\.md\)/, cmd: "ls -la", cmdWhy: NO_SHELL, main: true },
  slate: {
    ok: ".pebble/blueprint.md",
    bad: ".pebble/spec.md",
    badWhy: /\(not in its write scope: \.pebble\/blueprint\.md\)/,
    cmd: "npm install left-pad",
    cmdWhy: /may not run "npm install left-pad" \(no shell rule of its role allows it; its allowed commands: git log \*, git diff \*, ls \*\)/,
    allowed: "git log --oneline -5",
    shellWrite: { command: "git log --oneline > src/a.ts", why: /may not write src\/a\.ts \(not in its write scope: \.pebble\/blueprint\.md\), in the command "git log --oneline > src\/a\.ts"/ },
  },
  mica: {
    ok: "tests/a.test.ts",
    bad: "src/a.ts",
    badWhy: /\(never-write: artifact code\)/,
    cmd: "npm publish --tag next",
    cmdWhy: /\(its shell rules deny npm publish \*\)/,
    allowed: "npx vitest run tests/a.test.ts",
    shellWrite: { command: "cat tests/a.test.ts > src/a.ts", why: /may not write src\/a\.ts \(never-write: artifact code\)/ },
  },
  jade: {
    ok: "src/feature/new.ts",
    bad: "tests/a.test.ts",
    badWhy: /\(never-write: artifact tests\)/,
    cmd: "npm publish",
    cmdWhy: /\(its shell rules deny npm publish \*\)/,
    allowed: "npm test",
    shellWrite: { command: "echo x > tests/a.test.ts", why: /^harness guard: jade may not write tests\/a\.test\.ts \(never-write: artifact tests\), in the command "echo x > tests\/a\.test\.ts"\. Report "blocked" instead\.\n$/ },
  },
  onyx: {
    ok: ".pebble/review.md",
    bad: "src/a.ts",
    badWhy: /\(not in its write scope: \.pebble\/review\.md\)/,
    cmd: "rm -rf src",
    cmdWhy: /no shell rule of its role allows it/,
    allowed: "git diff --stat",
    shellWrite: { command: "git diff > .pebble/spec.md", why: /may not write \.pebble\/spec\.md \(not in its write scope: \.pebble\/review\.md\)/ },
    main: true,
  },
  quartz: {
    ok: ".pebble/verification.md",
    bad: "src/a.ts",
    badWhy: /\(not in its write scope: \.pebble\/verification\.md\)/,
    cmd: "sed -i s/a/b/ src/a.ts",
    cmdWhy: /may not run "sed -i s\/a\/b\/ src\/a\.ts" \(no shell rule of its role allows it; its allowed commands: npm test \*\)/,
    allowed: "npm test -- --run",
    shellWrite: { command: "npm test -- --reporter=json > src/report.json", why: /may not write src\/report\.json \(not in its write scope/ },
  },
  coral: {
    ok: "infra/network/vpc.tf",
    bad: "src/a.ts",
    badWhy: /\(not in its write scope: infra\/\*\*, \.github\/workflows\/\*\*, Dockerfile\)/,
    cmd: "terraform apply -auto-approve",
    cmdWhy: /\(its shell rules deny terraform apply \*\)/,
    allowed: "docker build .",
    shellWrite: { command: "docker build . 2>&1 > tests/build.log", why: /may not write tests\/build\.log/ },
  },
  chalk: { ok: "docs/guide/intro.md", bad: "src/a.ts", badWhy: /\(not in its write scope: docs\/\*\*, README\.md\)/, cmd: "ls", cmdWhy: NO_SHELL },
};

function roleCases(id: string, plan: RolePlan): Case[] {
  const sub = { subagent: !plan.main };
  const git = (cmd: string): RegExp => (plan.cmdWhy === NO_SHELL ? NO_SHELL : new RegExp(`no pipeline agent may run ${cmd}`));
  const cases: Case[] = [
    writeCase(`${id} writes its own ${plan.ok}`, id, abs(plan.ok), "allow", undefined, sub),
    writeCase(`${id} writes ${plan.bad}`, id, abs(plan.bad), "deny", new RegExp(`^harness guard: ${id} may not write ${plan.bad.replace(/\./g, "\\.")} ` + plan.badWhy.source + `\\. Report "blocked" instead\\.\\n$`), sub),
    writeCase(`${id} writes .git/config`, id, abs(".git/config"), "deny", /\(never-write: \.git\/\*\* \(pipeline policy\)\)/, sub),
    writeCase(`${id} writes a nested .git/config`, id, abs("src/vendor/.git/config"), "deny", /\(never-write: \.git\/\*\* \(pipeline policy\)\)/, sub),
    writeCase(`${id} writes ../x`, id, "../x", "deny", /may not write \.\.\/x \(it is outside the project directory .*\)\. Report "blocked" instead\./, sub),
    writeCase(`${id} writes /etc/passwd`, id, "/etc/passwd", "deny", /may not write \/etc\/passwd \(it is outside the project directory/, sub),
    writeCase(`${id} writes its own path through a link out of the project`, id, (p) => path.join(p.linked, plan.ok), "deny", /\(it resolves to .*outside.*, outside the project\)/, { ...sub, linked: true }),
    bashCase(`${id} runs a forbidden command`, id, plan.cmd, "deny", plan.cmdWhy, sub),
    bashCase(`${id} runs git push`, id, "git push", "deny", git("git push"), sub),
    bashCase(`${id} runs git commit -m x`, id, "git commit -m x", "deny", git("git commit \\*"), sub),
    { name: `${id} starts an agent`, tool: "Agent", role: id, as: id, input: () => ({ description: "help", prompt: "do it", subagent_type: "jade", run_in_background: false }), expect: "deny", reason: new RegExp(`^harness guard: ${id} may not start agents \\(its role cannot spawn; refused "jade"\\)`), ...sub },
    { name: `${id} uses an MCP tool`, tool: "mcp__files__write_file", role: id, as: id, input: () => ({ path: "src/a.ts", content: "x" }), expect: "deny", reason: new RegExp(`^harness guard: ${id} may not use mcp__files__write_file: not a tool its role is given`), ...sub },
    { name: `${id} reads`, tool: "Read", role: id, as: id, input: abs2("tests/a.test.ts", (f) => ({ file_path: f })), expect: "none", ...sub },
  ];
  if (plan.allowed) cases.push(bashCase(`${id} runs ${plan.allowed} without asking`, id, plan.allowed, "allow", undefined, sub));
  if (plan.shellWrite) cases.push(bashCase(`${id} writes through the shell`, id, plan.shellWrite.command, "deny", plan.shellWrite.why, sub));
  return cases;
}

describe("every role, run with node", () => {
  it("covers every role of the fixture", () => {
    expect(Object.keys(PLANS).sort()).toEqual(ROLES.map((r) => r.id).sort());
  });
  for (const [id, plan] of Object.entries(PLANS)) {
    describe(id, () => {
      for (const c of roleCases(id, plan)) {
        const node = viaNode();
        it.concurrent(c.name, async () => void (await check(c, node)));
      }
    });
  }
});

function abs2(rel: string, f: (file: string) => Record<string, unknown>): (p: Project) => Record<string, unknown> {
  return (p) => f(path.join(p.dir, rel));
}

// ---------------------------------------------------------------- other situations, with node

const MORE: Case[] = [
  // write tool shapes
  { name: "Edit in scope", tool: "Edit", role: "jade", as: "jade", input: abs2("src/a.ts", (f) => ({ file_path: f, old_string: "x", new_string: "y" })), expect: "allow" },
  { name: "MultiEdit out of scope", tool: "MultiEdit", role: "jade", as: "jade", input: abs2("tests/a.test.ts", (f) => ({ file_path: f, edits: [] })), expect: "deny", reason: /never-write: artifact tests/ },
  { name: "NotebookEdit uses notebook_path", tool: "NotebookEdit", role: "mica", as: "mica", input: abs2("src/n.ipynb", (f) => ({ notebook_path: f, new_source: "1" })), expect: "deny", reason: /may not write src\/n\.ipynb \(never-write: artifact code\)/ },
  { name: "NotebookEdit in scope", tool: "NotebookEdit", role: "mica", as: "mica", input: abs2("tests/n.test.ipynb", (f) => ({ notebook_path: f, new_source: "1" })), expect: "allow" },
  { name: "unnormalized path that climbs out", tool: "Write", role: "jade", as: "jade", input: (p) => ({ file_path: `${p.dir}/src/../../outside/secret.txt`, content: "" }), expect: "deny", reason: /outside the project directory/ },
  { name: "unnormalized path that stays in", tool: "Write", role: "jade", as: "jade", input: (p) => ({ file_path: `${p.dir}/tests/../src/./x.ts`, content: "" }), expect: "allow" },
  // the kernel resolves a link before "..": src/out -> outside, so src/out/../x is outside/../x
  { name: "`..` after a symbolic link goes where the kernel goes", tool: "Write", role: "jade", as: "jade", input: (p) => ({ file_path: `${p.dir}/src/out/../src/x.ts`, content: "" }), expect: "deny", reason: /outside the project/ },
  writeCase("a link inside scope pointing out", "jade", abs("src/out/secret.txt"), "deny", /jade may not write src\/out\/secret\.txt \(it resolves to .*\/outside\/secret\.txt, outside the project\)/),
  writeCase("a dangling link", "jade", abs("src/dangling"), "deny", /goes through a dangling symbolic link/),
  writeCase("an in-project link into a never-write folder", "jade", abs("lib/t/new.test.ts"), "deny", /never-write: artifact tests/),
  writeCase("the project directory itself", "jade", (p) => p.dir, "deny", /is the project directory itself/),
  writeCase("a nested CLAUDE.md", "jade", abs("src/CLAUDE.md"), "deny", /never-write: CLAUDE\.md \(pipeline policy\)/),
  writeCase("the guard itself", "jade", abs(GUARD_PATH), "deny", /keeps the harness guard in place/),
  // the orchestrator (/pebble's front-matter hook)
  writeCase("orchestrator writes a main role's document", undefined, abs(".pebble/spec.md"), "allow"),
  writeCase("orchestrator writes the other main role's document", undefined, abs(".pebble/review.md"), "allow"),
  writeCase("orchestrator writes code", undefined, abs("src/a.ts"), "deny", /^harness guard: the orchestrator \(main thread\) may not write src\/a\.ts \(not in the main-thread write scope: \.pebble\/spec\.md, \.pebble\/review\.md\)\. Delegate it to jade, or report "blocked"\./),
  writeCase("orchestrator writes tests", undefined, abs("tests/b.test.ts"), "deny", /Delegate it to mica, or report "blocked"\./),
  writeCase("orchestrator writes .git", undefined, abs(".git/HEAD"), "deny", /never-write: \.git\/\*\* \(pipeline policy\)\)\. Report "blocked" instead\./),
  bashCase("orchestrator runs git push", undefined, "git push origin main", "deny", /the orchestrator \(main thread\) may not run "git push origin main" \(no pipeline agent may run git push \*\)/),
  bashCase("orchestrator runs its exception without asking", undefined, "git stash push -m wip", "allow"),
  bashCase("orchestrator runs a denied stash command", undefined, "git stash pop", "deny", /no pipeline agent may run git stash \*/),
  bashCase("orchestrator runs a role's allowed command without asking", undefined, "npm test", "allow"),
  bashCase("orchestrator runs anything else: the human decides", undefined, "node scripts/x.js", "ask", /not among the commands the pipeline runs/),
  bashCase("orchestrator runs something the guard cannot read: ask", undefined, "npm test $(echo x)", "ask", /cannot check exactly/),
  bashCase("orchestrator writes code through the shell", undefined, "echo x > src/a.ts", "deny", /Delegate it to jade/),
  { name: "orchestrator starts a pipeline role", tool: "Agent", as: ORCHESTRATOR, input: () => ({ description: "d", prompt: "p", subagent_type: "jade" }), expect: "allow" },
  { name: "orchestrator starts a role through the old Task name", tool: "Task", as: ORCHESTRATOR, input: () => ({ description: "d", prompt: "p", subagent_type: "quartz" }), expect: "allow" },
  { name: "orchestrator starts a built-in agent", tool: "Agent", as: ORCHESTRATOR, input: () => ({ description: "d", prompt: "p", subagent_type: "Explore" }), expect: "deny", reason: /may not start "Explore": it is not a role of pipeline/ },
  { name: "orchestrator starts an agent without subagent_type", tool: "Agent", as: ORCHESTRATOR, input: () => ({ description: "d", prompt: "p" }), expect: "deny", reason: /"general-purpose"/ },
  { name: "orchestrator uses an MCP tool: ask", tool: "mcp__github__merge_pull_request", as: ORCHESTRATOR, input: () => ({ n: 1 }), expect: "ask", reason: /a tool the guard does not model/ },
  // scope pipeline: nobody else is bound
  { name: "an ordinary session (no hook argument) is not bound", tool: "Write", as: null, input: abs2("tests/a.test.ts", (f) => ({ file_path: f, content: "" })), expect: "none" },
  { name: "a built-in agent is not bound", tool: "Bash", role: "Explore", as: null, input: () => ({ command: "git push" }), expect: "none" },
  // asks
  bashCase("jade asks before npm install", "jade", "npm install left-pad", "ask", /^harness guard: jade wants to run "npm install left-pad" \(its shell rules ask for npm install \*\)\.$/),
  bashCase("mica's default is ask", "mica", "curl -s https://example.com", "ask", /no shell rule of its role allows it; the default is ask/),
  bashCase("ask loses to a deny later in the command", "jade", "npm install x && git push", "deny", /no pipeline agent may run git push/),
  bashCase("allowed commands with harmless redirections pass", "quartz", "npm test -- --run 2>&1 > /dev/null", "allow"),
  bashCase("cd into the project, then an allowed command", "quartz", "cd ./src && npm test", "allow"),
  bashCase("an environment prefix is never allowed", "quartz", "CI=1 npm test", "deny", /sets an environment variable \(CI=\)/),
];

describe("more situations, run with node", () => {
  for (const c of MORE) {
    const node = viaNode();
    it.concurrent(c.name, async () => void (await check(c, node)));
  }
});

// ---------------------------------------------------------------- malformed input, with node

describe("malformed input fails closed", () => {
  const ok = () => payload({ tool: "Write", input: { file_path: path.join(P.dir, "src/a.ts"), content: "" }, role: "jade", cwd: P.dir });
  const bad: [string, () => unknown, RegExp, Record<string, string>?][] = [
    ["not JSON", () => "{tool_name: Write", /hook input is not JSON/],
    ["empty", () => "", /hook input is not JSON/],
    ["a JSON array", () => "[]", /not a JSON object/],
    ["JSON null", () => "null", /not a JSON object/],
    ["no tool_name", () => ({ ...ok(), tool_name: undefined }), /no tool_name/],
    ["tool_name not a string", () => ({ ...ok(), tool_name: 7 }), /no tool_name/],
    ["no tool_input", () => ({ ...ok(), tool_input: undefined }), /no tool_name or tool_input/],
    ["tool_input is a string", () => ({ ...ok(), tool_input: "src/a.ts" }), /no tool_name or tool_input/],
    ["no hook_event_name", () => ({ ...ok(), hook_event_name: undefined }), /expected a PreToolUse or PermissionRequest hook input/],
    ["another event", () => ({ ...ok(), hook_event_name: "PostToolUse" }), /expected a PreToolUse or PermissionRequest hook input/],
    ["Write without file_path", () => ({ ...ok(), tool_input: { content: "x" } }), /a write without a file path/],
    ["Write with a non-string file_path", () => ({ ...ok(), tool_input: { file_path: ["src/a.ts"] } }), /a write without a file path/],
    ["NotebookEdit without a path", () => ({ ...ok(), tool_name: "NotebookEdit", tool_input: {} }), /a write without a file path/],
    ["Bash without command", () => ({ ...ok(), tool_name: "Bash", tool_input: {} }), /Bash without a command string/],
    ["Bash with an empty command", () => ({ ...ok(), tool_name: "Bash", tool_input: { command: "  " } }), /it is empty/],
    ["agent_type a number", () => ({ ...ok(), agent_type: 3 }), /agent_type is not a string/],
    ["agent_id an object", () => ({ ...ok(), agent_id: {} }), /agent_id is not a string/],
    ["subagent_type a number", () => ({ ...ok(), tool_name: "Agent", tool_input: { subagent_type: 1 } }), /the agent to start is not named by a string/],
    ["project dir missing on disk", () => ok(), /cannot resolve the project directory/, { CLAUDE_PROJECT_DIR: "/nonexistent-harness-project" }],
    ["unparseable shell", () => ({ ...ok(), tool_name: "Bash", tool_input: { command: "rm 'unterminated" } }), /a single quote is not closed/],
  ];
  for (const [name, make, reason, envExtra] of bad) {
    const node = viaNode();
    it.concurrent(name, async () => {
      const input = make();
      const env = { ...guardEnv(P.dir), ...(envExtra ?? {}) };
      const r = await runCase(P.script, input, env, "jade", node);
      expect([0, 2], r.stderr).toContain(r.code);
      const text = r.code === 2 ? r.stderr : (JSON.parse(r.stdout) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } }).hookSpecificOutput.permissionDecisionReason;
      if (r.code === 0) expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe("ask");
      expect(text).toMatch(reason);
      expect(text.trimEnd().includes("\n")).toBe(false);
      const d = decide(typeof input === "string" ? input : JSON.stringify(input), env, "jade");
      expect(d.kind).toBe(r.code === 2 ? "deny" : "ask");
    });
  }

  it("without CLAUDE_PROJECT_DIR: the script's own location", async () => {
    const noDir = { ...ok(), cwd: undefined };
    const r = await runProcess(process.execPath, [P.script, "jade"], JSON.stringify(noDir), { PATH: process.env.PATH }, "/");
    expect(r.code, r.stderr).toBe(0);
    const bad = await runProcess(process.execPath, [P.script, "jade"], JSON.stringify({ ...noDir, tool_input: { file_path: path.join(P.dir, "tests/a.test.ts") } }), { PATH: process.env.PATH }, "/");
    expect(bad.code).toBe(2);
    expect(decide(JSON.stringify(noDir), {}, "jade")).toMatchObject({ kind: "deny", reason: expect.stringMatching(/no absolute project directory/) });
  });

  it("an internal error denies", async () => {
    const text = renderGuard(pipeline).replace(/^const POLICY = [^\n]*$/m, 'const POLICY = {"off":"HARNESS_GUARD_OFF","roles":{"jade":0},"kinds":[{"sh":{"a":[0]}}]};');
    const file = path.join(P.dir, ".claude/hooks/broken.cjs");
    fs.writeFileSync(file, text);
    const r = await runProcess(process.execPath, [file, "jade"], JSON.stringify(payload({ tool: "Bash", input: { command: "ls" }, role: "jade", cwd: P.dir })), guardEnv(P.dir));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^harness guard: internal error \(.*\); refusing \(fail closed\)\.\n$/);
  });
});

// ---------------------------------------------------------------- off switch

describe("off switch: the launching session's environment only", () => {
  // the host started with the environment the hook gets: the switch came from the person who started it
  const onHost = (env: NodeJS.ProcessEnv, hostEnv: NodeJS.ProcessEnv = env) => runUnderHost(P.script, forbidden(), env, "jade", hostEnv);
  const forbidden = () => payload({ tool: "Write", input: { file_path: path.join(P.dir, "tests/a.test.ts"), content: "" }, role: "jade", cwd: P.dir });

  it.concurrent.each(["1", "true", "YES", "on"])(`${GUARD_OFF_ENV}=%s lets everything through with a notice`, async (v) => {
    const r = await onHost(guardEnv(P.dir, { [GUARD_OFF_ENV]: v }));
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(new RegExp(`^harness guard: OFF \\(${GUARD_OFF_ENV} is set in the environment Claude Code started with\\); pipeline limits are not enforced\\n$`));
  });

  it.concurrent.each(["0", "", "no"])(`${GUARD_OFF_ENV}=%j does not switch it off`, async (v) => {
    const r = await onHost(guardEnv(P.dir, { [GUARD_OFF_ENV]: v }));
    expect(r.code).toBe(2);
  });

  it("a switch the host did not start with does not count (a settings file's env, however it spells the key)", async () => {
    const env = guardEnv(P.dir, { [GUARD_OFF_ENV]: "1" });
    expect((await onHost(env, guardEnv(P.dir))).code, "put in by the host after it started (its settings' env)").toBe(2);
    expect((await runGuard(P.script, forbidden(), env, "jade")).code, "no host started with it").toBe(2);
    const home = fs.mkdtempSync(path.join(P.dir, "..", "harness-home-"));
    try {
      fs.mkdirSync(path.join(home, ".claude"));
      const envHome = guardEnv(P.dir, { [GUARD_OFF_ENV]: "1", HOME: home });
      fs.writeFileSync(path.join(home, ".claude", "settings.json"), '{"env":{"HARNESS_GUARD_\\u004fFF":"1"}}');
      expect((await onHost(envHome)).code, "a JSON escape of the key").toBe(2);
      fs.writeFileSync(path.join(home, ".claude", "settings.json"), '{"env":{"harness_guard_off":"1"}}');
      expect((await onHost(envHome)).code, "another case").toBe(2);
      fs.writeFileSync(path.join(home, ".claude", "settings.json"), "{not json");
      expect((await onHost(envHome)).code, "a file that does not parse").toBe(2);
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  it("a settings file that sets it does not count: only the environment Claude Code was started with", async () => {
    const home = fs.mkdtempSync(path.join(P.dir, "..", "harness-home-"));
    const settings = JSON.stringify({ env: { [GUARD_OFF_ENV]: "1" } });
    try {
      const clean = await onHost(guardEnv(P.dir, { [GUARD_OFF_ENV]: "1", HOME: home }));
      expect(clean.code, "the switch itself still works with no settings file naming it").toBe(0);
      // code run by an allowed test command could write the user's settings, outside the project
      fs.mkdirSync(path.join(home, ".claude"));
      fs.writeFileSync(path.join(home, ".claude", "settings.json"), settings);
      expect((await onHost(guardEnv(P.dir, { [GUARD_OFF_ENV]: "1", HOME: home }))).code).toBe(2);
      const config = path.join(home, "config");
      fs.mkdirSync(config);
      fs.writeFileSync(path.join(config, "settings.json"), settings);
      expect((await onHost(guardEnv(P.dir, { [GUARD_OFF_ENV]: "1", HOME: P.dir, CLAUDE_CONFIG_DIR: config }))).code).toBe(2);
      fs.writeFileSync(path.join(P.dir, ".claude", "settings.local.json"), settings);
      try {
        expect((await onHost(guardEnv(P.dir, { [GUARD_OFF_ENV]: "1", HOME: path.join(home, "none") }))).code).toBe(2);
      } finally {
        fs.rmSync(path.join(P.dir, ".claude", "settings.local.json"));
      }
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  it("a settings file that is a FIFO neither holds the hook (some hosts let a call through on a hook timeout) nor counts (second red team)", () => {
    const home = fs.mkdtempSync(path.join(P.dir, "..", "harness-home-"));
    try {
      fs.mkdirSync(path.join(home, ".claude"));
      execFileSync("mkfifo", [path.join(home, ".claude", "settings.json")]);
      const env = guardEnv(P.dir, { [GUARD_OFF_ENV]: "1", HOME: home });
      const input = JSON.stringify(forbidden());
      // no host started with the switch: the guard reads no settings file at all
      const alone = spawnSync(process.execPath, [P.script, "jade"], { input, env, cwd: P.dir, timeout: 8000 });
      expect([alone.status, alone.signal], "no host started with it").toEqual([2, null]);
      // a host started with it: the FIFO is not a settings file the switch can be checked against
      const host = `const r = require("child_process").spawnSync(process.execPath, [process.argv[1], "jade"], { input: require("fs").readFileSync(0), stdio: ["pipe", "inherit", "inherit"] }); process.exit(r.status === null ? 1 : r.status);`;
      const started = spawnSync(process.execPath, ["-e", host, P.script], { input, env, cwd: P.dir, timeout: 8000 });
      expect([started.status, started.signal], "started with it, a FIFO for settings").toEqual([2, null]);
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  it("no file in the project switches it off (the old .claude/hooks/harness-guard.off included)", async () => {
    for (const f of [".claude/hooks/harness-guard.off", "harness-guard.off", ".harness-guard-off", "src/.claude/hooks/harness-guard.off"]) {
      const file = path.join(P.dir, f);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, "");
      try {
        expect((await runGuard(P.script, forbidden(), guardEnv(P.dir), "jade")).code, f).toBe(2);
      } finally {
        fs.rmSync(file);
      }
    }
  });

  it("nobody may write the guard, its wiring or anything under .claude/", () => {
    const broad = inProcess(pebble({ neverWrite: [] }, ROLES.map((r) => (r.id === "jade" ? { ...r, write: ["**"], neverWrite: [] } : r))));
    for (const target of [GUARD_PATH, ".claude/hooks/harness-guard.off", ".claude/settings.json", ".claude/settings.local.json", ".claude/agents/jade.md", ".claude/commands/pebble.md", "src/.claude/settings.json"]) {
      const w = broad(JSON.stringify(payload({ tool: "Write", input: { file_path: path.join(P.dir, target), content: "" }, role: "jade", cwd: P.dir })), { CLAUDE_PROJECT_DIR: P.dir }, "jade");
      expect(w, target).toMatchObject({ kind: "deny", reason: expect.stringMatching(/keeps the harness guard in place/) });
      const sh = broad(JSON.stringify(payload({ tool: "Bash", input: { command: `echo x > ${target}` }, role: "jade", cwd: P.dir })), { CLAUDE_PROJECT_DIR: P.dir }, "jade");
      expect(sh.kind, target).toBe("deny");
    }
    const ok = broad(JSON.stringify(payload({ tool: "Write", input: { file_path: path.join(P.dir, "anything/x.md"), content: "" }, role: "jade", cwd: P.dir })), { CLAUDE_PROJECT_DIR: P.dir }, "jade");
    expect(ok.kind).toBe("allow");
  });
});

// ---------------------------------------------------------------- the hook command

describe("guardHookCommand", () => {
  const sh = (as: string | undefined, env: NodeJS.ProcessEnv, input: string) => runProcess("/bin/sh", ["-c", guardHookCommand(as)], input, env, P.dir);
  const nodeDir = path.dirname(process.execPath);
  const forbidden = () => JSON.stringify(payload({ tool: "Write", input: { file_path: path.join(P.dir, "tests/a.test.ts"), content: "" }, role: "jade", cwd: P.dir }));
  const allowed = () => JSON.stringify(payload({ tool: "Write", input: { file_path: path.join(P.dir, "src/a.ts"), content: "" }, role: "jade", cwd: P.dir }));

  it("quotes the project dir, names the script and passes who it is for", () => {
    expect(guardHookCommand("jade")).toContain(`"$harness_node" "$CLAUDE_PROJECT_DIR/${GUARD_PATH}" jade;`);
    expect(guardHookCommand(ORCHESTRATOR)).toContain(`"$harness_node" "$CLAUDE_PROJECT_DIR/${GUARD_PATH}" @orchestrator;`);
    expect(guardHookCommand()).toContain(`"$harness_node" "$CLAUDE_PROJECT_DIR/${GUARD_PATH}";`);
  });
  it.concurrent("passes exit 0 and 2 through", async () => {
    const env = { PATH: `${nodeDir}:/usr/bin:/bin`, CLAUDE_PROJECT_DIR: P.dir };
    const ok = await sh("jade", env, allowed());
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout).hookSpecificOutput.permissionDecision).toBe("allow");
    const r = await sh("jade", env, forbidden());
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/jade may not write tests\/a\.test\.ts/);
  });
  it.concurrent("blocks with one clear line when node is missing", async () => {
    const r = await sh("jade", { PATH: "/nonexistent-harness-bin", CLAUDE_PROJECT_DIR: P.dir }, allowed());
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^harness guard: node is not on PATH, so the pipeline guard cannot run; blocking \(fail closed\)\./);
    expect(r.stderr.trimEnd().includes("\n")).toBe(false);
  });
  it.concurrent("turns a crash or a missing script into a block", async () => {
    const env = { PATH: `${nodeDir}:/usr/bin:/bin`, CLAUDE_PROJECT_DIR: path.join(P.root, "no-such-project") };
    const r = await sh("jade", env, allowed());
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/harness guard: the guard script failed \(exit 1\); blocking \(fail closed\)\./);
  });
  it.concurrent("copes with a project path containing spaces and quotes", async () => {
    const odd = path.join(P.root, `my "odd" project $x`);
    fs.mkdirSync(path.join(odd, path.dirname(GUARD_PATH)), { recursive: true });
    fs.writeFileSync(path.join(odd, GUARD_PATH), renderGuard(pipeline));
    const env = { PATH: `${nodeDir}:/usr/bin:/bin`, CLAUDE_PROJECT_DIR: odd };
    const input = JSON.stringify(payload({ tool: "Write", input: { file_path: path.join(odd, "src/a.ts"), content: "" }, role: "jade", cwd: odd }));
    expect((await sh("jade", env, input)).code).toBe(0);
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
    const imports = [...text.matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1]);
    expect(imports).toEqual(["node:fs", "node:path"]);
    expect(text).not.toMatch(/^import /m);
    const file = path.join(P.root, "check.cjs");
    fs.writeFileSync(file, text);
    execFileSync(process.execPath, ["--check", file]);
  });

  it("documents the off switch and the gaps in its header, and no file switch", () => {
    const header = text.slice(0, text.indexOf('"use strict"'));
    expect(header).toContain(`${GUARD_OFF_ENV}=1`);
    expect(header).not.toMatch(/harness-guard\.off/);
    for (const gap of GUARD_GAPS) expect(header).toContain(gap);
  });

  it("stores the policy once: shared glob and pattern tables, roles hold indices", () => {
    const json = /^const POLICY = JSON\.parse\(([^\n]*)\);$/m.exec(text)?.[1];
    const policy = JSON.parse(JSON.parse(json!));
    expect(policy).toEqual(JSON.parse(JSON.stringify(compileClaudePolicy(pipeline))));
    expect(Object.keys(policy)).toEqual([...Object.keys(policy)].sort());
    const jade = policy.kinds[policy.roles.jade];
    expect(jade.w.map((k: number) => policy.globs[k].g)).toEqual(["src/**", "lib/**", "app/**"]);
    // the pipeline never-write list is not repeated per role
    expect(jade.n.map((k: number) => policy.globs[k].g)).toEqual(["test/**", "tests/**", "**/__tests__/**", "**/*.test.*", "**/*.spec.*"]);
    expect(policy.never.map((k: number) => policy.globs[k].g)).toEqual([".git/**", "**/.git/**", "CLAUDE.md", "**/CLAUDE.md"]);
    // and the pipeline shell_deny neither
    expect(jade.sh.d.map((k: number) => policy.pats[k])).toEqual(["npm publish *"]);
    expect(new Set(policy.pats).size).toBe(policy.pats.length);
  });

  it("never splices user strings into code", async () => {
    const evil = `x"; process.exit(0); //\u2028*/ \${1}\``;
    const hostile = pebble(
      { shellDeny: [...pebble().policies.shellDeny, evil] },
      ROLES.map((r) => (r.id === "jade" ? { ...r, write: [...r.write, `weird/${evil}/**`], title: evil, body: evil } : r)),
    );
    const evilText = renderGuard({ ...hostile, name: evil, title: evil, description: evil });
    // the name appears in header comments: one line each, no line terminator that could end them
    const header = evilText.slice(0, evilText.indexOf('"use strict"'));
    expect(header).not.toMatch(/[\u2028\u2029\r]/);
    const code = evilText.replace(/^const POLICY = [^\n]*;$/m, "").replace(/^\/\/[^\n]*$/gm, "");
    expect(code).not.toContain("process.exit(0); //");
    const dir = path.join(P.root, "evil");
    fs.mkdirSync(path.join(dir, path.dirname(GUARD_PATH)), { recursive: true });
    fs.writeFileSync(path.join(dir, GUARD_PATH), evilText);
    const input = payload({ tool: "Write", input: { file_path: path.join(dir, "tests/a.test.ts"), content: "" }, role: "jade", cwd: dir });
    expect((await runGuard(path.join(dir, GUARD_PATH), input, guardEnv(dir), "jade")).code).toBe(2);
  });

  it("matches every tool (MCP tools included)", () => {
    expect(GUARDED_TOOLS_MATCHER).toBe("*");
  });
});

// ---------------------------------------------------------------- properties

describe("properties", () => {
  const seg = fc.stringMatching(/^[A-Za-z0-9._-]{1,12}$/).filter((s) => s !== "." && s !== "..");
  const rel = fc.array(seg, { minLength: 1, maxLength: 5 }).map((a) => a.join("/"));
  const roleIds = ROLES.map((r) => r.id);
  const env = () => ({ CLAUDE_PROJECT_DIR: P.dir });

  it("no role and not the orchestrator may write under a never-write glob, at any depth", () => {
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
        const d = decide(JSON.stringify(payload({ tool: "Write", input: { file_path: file, content: "" }, role: "jade", cwd: P.dir })), env(), "jade");
        return d.kind === "deny" && /never-write: artifact tests/.test(d.reason ?? "");
      }),
      { numRuns: 300 },
    );
    const who = fc.constantFrom<string>(...roleIds, ORCHESTRATOR);
    fc.assert(
      fc.property(rel, fc.option(rel, { nil: undefined }), who, (p, below, as) => {
        const dotgit = below ? `src/${below}/.git/${p}` : `.git/${p}`;
        for (const file of [dotgit, `${P.dir}/${dotgit}`, `${P.dir}/src/../${dotgit}`]) {
          const role = as === ORCHESTRATOR ? {} : { role: as };
          const d = decide(JSON.stringify(payload({ tool: "Edit", input: { file_path: file }, ...role, cwd: P.dir })), env(), as);
          if (d.kind !== "deny") return false;
          const viaShell = decide(JSON.stringify(payload({ tool: "Bash", input: { command: `echo x >> '${dotgit}'` }, ...role, cwd: P.dir })), env(), as);
          if (viaShell.kind !== "deny") return false;
        }
        return true;
      }),
      { numRuns: 200 },
    );
  });

  it("random path strings and commands never crash the decision and never allow what cannot be read", () => {
    const anyAs = fc.constantFrom<string | null>(...roleIds, ORCHESTRATOR, null);
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 80 }), anyAs, fc.constantFrom("Write", "Edit", "NotebookEdit", "Bash"), (s, as, tool) => {
        const input = tool === "Bash" ? { command: s } : tool === "NotebookEdit" ? { notebook_path: s } : { file_path: s };
        const d = decide(JSON.stringify(payload({ tool, input, cwd: P.dir })), env(), as);
        return ["allow", "ask", "deny", "none"].includes(d.kind) && !(d.reason ?? "").includes("internal error");
      }),
      { numRuns: 1500 },
    );
    // shell-ish noise: anything with an expansion, a glob, a subshell or a background job is never allowed.
    // The oracle reads quotes left to right as sh does: inside '…' a backslash is literal ('}\' is
    // the word }\), a backslash outside quotes escapes one character, and inside "…" a backslash
    // escapes only $ ` " \ or a newline ("}\a" is the word }\a) while an unescaped $ or ` still
    // expands, so those two are kept. Unclosed quotes are left as written.
    const quotedAway = (s: string): string => {
      let out = "";
      for (let i = 0; i < s.length; i++) {
        const c = s[i]!;
        if (c === "\\") {
          out += "q";
          i++;
        } else if (c === "'" && s.indexOf("'", i + 1) > i) {
          out += "q";
          i = s.indexOf("'", i + 1);
        } else if (c === '"') {
          let inner = "";
          let j = i + 1;
          for (; j < s.length && s[j] !== '"'; j++) {
            if (s[j] === "\\" && j + 1 < s.length && "$`\"\\\n".includes(s[j + 1]!)) {
              inner += "q";
              j++;
            } else inner += s[j] === "$" || s[j] === "`" ? s[j] : "q";
          }
          if (j >= s.length) out += c;
          else {
            out += inner === "" ? "q" : inner; // "" is an empty word part: ""~ is the word ~, unexpanded
            i = j;
          }
        } else out += c;
      }
      return out;
    };
    const shellChar = fc.constantFrom(..."ab /.$`'\"\\()|&;<>{}*?[]~#=\n-0123".split(""));
    fc.assert(
      fc.property(fc.array(shellChar, { maxLength: 60 }).map((a) => a.join("")), anyAs, (cmd, as) => {
        const d = decide(JSON.stringify(payload({ tool: "Bash", input: { command: `ls ${cmd}` }, cwd: P.dir })), env(), as);
        if (!["allow", "ask", "deny", "none"].includes(d.kind) || (d.reason ?? "").includes("internal error")) return false;
        const unquoted = quotedAway(cmd);
        if (d.kind === "allow" && (/[$`(){}*?[]/.test(unquoted) || /(^|[\s=:])~/.test(unquoted))) return false;
        return true;
      }),
      { numRuns: 1500, examples: [["'}\\'", "coral"], ['"}\\a"', "coral"], ['"\\\\$(x)"', "jade"], ['"\\$(x)"', "jade"]] },
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
    const results = await Promise.all(samples.map((s) => runGuard(P.script, s, guardEnv(P.dir), "jade")));
    for (const r of results) {
      expect([0, 2]).toContain(r.code);
      expect(r.stderr).not.toMatch(/internal error/);
    }
  });
});

// scope pipeline's settings.json layer: the guard with no argument binds a pipeline role by agent_type
// only (front-matter hooks do not fire in some builds, claude-code#95650); nothing else is bound by it
describe("settings.json layer (scope pipeline, no argument)", () => {
  const w = (rel: string, role?: string, subagent?: boolean) => JSON.stringify(payload({ tool: "Write", input: { file_path: path.join(P.dir, rel), content: "x" }, cwd: P.dir, ...(role !== undefined ? { role } : {}), ...(subagent !== undefined ? { subagent } : {}) }));
  const env = () => ({ CLAUDE_PROJECT_DIR: P.dir });
  it("a role subagent is bound as its role", () => {
    expect(decide(w("tests/x.test.ts", "jade"), env(), null).kind).toBe("deny");
    expect(decide(w("src/x.ts", "jade"), env(), null).kind).toBe("allow");
  });
  it("the main thread and a non-role agent get no opinion", () => {
    expect(decide(w("tests/x.test.ts"), env(), null).kind).toBe("none");
    expect(decide(w("tests/x.test.ts", "general-purpose"), env(), null).kind).toBe("none");
  });
  it("a subagent that names no agent_type is refused: it could be any role (r3; Claude Code names every subagent's type)", () => {
    expect(decide(JSON.stringify({ ...JSON.parse(w("tests/x.test.ts")), agent_id: "a1" }), env(), null).kind).toBe("deny");
  });
});
