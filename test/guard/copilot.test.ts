// The Copilot CLI shim of the guard (adapters/copilot/guard-runtime.ts) on the bundled roles (Pebble):
// Copilot 1.0.102's camelCase preToolUse input as measured on the real CLI, apply_patch's patch text,
// the role/agentType cross-check, and fail-closed handling of malformed input; in-process for the
// tables and properties, through `node` for the output format and the off switch. The real CLI
// honouring the answers: test/hosts/enforce-out-copilot.test.ts.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COPILOT_GUARD_CALL } from "../../adapters/copilot/guard-runtime.js";
import { GUARD_PATH, ORCHESTRATOR, compileCopilotPolicy, guardHooks, renderGuard, scopeFolders } from "../../adapters/copilot/guard.js";
import { GUARD_RUNTIME } from "../../src/adapter/guard/render.js";
import { PEBBLE_ROLES } from "../helpers/cli.js";
import { readRoles } from "../helpers/compile.js";
import type { Decision } from "./helpers.js";

const pipeline = readRoles(PEBBLE_ROLES);
const policy = compileCopilotPolicy(pipeline);
const rt = new Function("fs", "path", `${GUARD_RUNTIME}\n${COPILOT_GUARD_CALL}\nreturn { cpCall, cpDecide: guardDecidePaths, cpPatchPaths: guardPatchPaths };`)(fs, path) as {
  cpCall: (raw: string, env: Record<string, string | undefined>, as: string | null, sp: string | null) => unknown;
  cpDecide: (policy: unknown, parsed: unknown) => Decision;
  cpPatchPaths: (text: unknown) => { paths?: string[]; error?: string };
};

let root: string;
let P: string;
beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "harness-cpguard-")));
  P = path.join(root, "proj");
  for (const f of ["src/a.ts", "tests/a.test.ts", ".pebble/spec.md", "package.json"]) {
    fs.mkdirSync(path.dirname(path.join(P, f)), { recursive: true });
    fs.writeFileSync(path.join(P, f), "x\n");
  }
  fs.mkdirSync(path.join(P, path.dirname(GUARD_PATH)), { recursive: true });
  fs.writeFileSync(path.join(P, GUARD_PATH), renderGuard(pipeline));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** A preToolUse input as Copilot 1.0.102 sends it (a subagent's carries agentId, agentType, parentAgentId). */
function input(tool: string, args: unknown, sub?: string): Record<string, unknown> {
  return { sessionId: "s-1", timestamp: 1796065374474, cwd: P, toolName: tool, toolArgs: args, ...(sub ? { agentId: "a-1", agentType: sub, parentAgentId: "s-0" } : {}) };
}
function decide(as: string, raw: string | Record<string, unknown>): Decision {
  const parsed = rt.cpCall(typeof raw === "string" ? raw : JSON.stringify(raw), { COPILOT_PROJECT_DIR: P }, as, null);
  if (typeof parsed === "string") return { kind: "deny", reason: `harness guard: ${parsed}; refusing (fail closed).` };
  return rt.cpDecide(policy, parsed);
}

describe("Copilot guard: decisions on the measured input", () => {
  const cases: [string, string, Record<string, unknown>, Decision["kind"]][] = [
    ["jade writes src/ (create)", "jade", input("create", { path: "SRC/x.ts", file_text: "x" }, "jade"), "allow"],
    ["jade edits src/a.ts", "jade", input("edit", { path: "SRC/a.ts", old_str: "x", new_str: "y" }), "allow"],
    ["jade writes tests/", "jade", input("create", { path: "SRC/../tests/b.test.ts", file_text: "x" }, "jade"), "deny"],
    ["jade writes a test file in src/", "jade", input("create", { path: "SRC/b.test.ts", file_text: "x" }), "deny"],
    ["jade writes the guard", "jade", input("create", { path: `P/${GUARD_PATH}`, file_text: "x" }), "deny"],
    ["jade writes an agent file", "jade", input("create", { path: "P/.github/agents/evil.agent.md", file_text: "x" }), "deny"],
    ["jade runs npm test", "jade", input("bash", { command: "npm test", description: "t", mode: "sync", initial_wait: 30 }, "jade"), "allow"],
    ["jade runs git commit", "jade", input("bash", { command: "git commit -m x" }, "jade"), "deny"],
    ["jade runs git push", "jade", input("bash", { command: "git push origin HEAD:main" }), "deny"],
    ["jade starts an agent", "jade", input("task", { agent_type: "mica", prompt: "x" }, "jade"), "deny"],
    ["jade reads", "jade", input("view", { path: "P/src/a.ts" }, "jade"), "none"],
    ["jade uses sql (SQLite can write files)", "jade", input("sql", { query: "ATTACH 'x' AS y" }), "deny"],
    ["jade uses an MCP tool", "jade", input("github-mcp-server-create_issue", {}), "deny"],
    ["jade sends input to a shell", "jade", input("write_bash", { shellId: "0", input: "git push\n" }), "deny"],
    ["flint (no shell) runs a command", "flint", input("bash", { command: "ls" }), "deny"],
    // third red team (r3): a subagent's call that names no type could be any role's: refused, never "none"
    ["a subagent's write with agentId but no agentType (orchestrator's hook)", ORCHESTRATOR, { ...input("create", { path: "P/tests/x.ts", file_text: "x" }), agentId: "a-1", parentAgentId: "s-0" }, "deny"],
    ["a subagent's write with agentId but no agentType (jade's hook)", "jade", { ...input("create", { path: "P/tests/x.ts", file_text: "x" }), agentId: "a-1" }, "deny"],
    ["flint writes its spec", "flint", input("create", { path: "P/.pebble/spec.md", file_text: "x" }), "allow"],
    ["onyx writes src/", "onyx", input("create", { path: "P/src/x.ts", file_text: "x" }), "deny"],
    ["onyx runs an allowed command", "onyx", input("bash", { command: "git diff --stat" }), "allow"],
    ["onyx runs an unlisted command (default deny)", "onyx", input("bash", { command: "npm install left-pad" }), "deny"],
    ["the orchestrator starts a role", ORCHESTRATOR, input("task", { agent_type: "jade", mode: "sync" }), "allow"],
    ["the orchestrator starts a built-in agent", ORCHESTRATOR, input("task", { agent_type: "explore" }), "deny"],
    ["the orchestrator starts an unnamed agent", ORCHESTRATOR, input("task", { prompt: "x" }), "deny"],
    ["the orchestrator stashes", ORCHESTRATOR, input("bash", { command: "git stash push -m x" }), "allow"],
    ["the orchestrator runs a pipeline step", ORCHESTRATOR, input("bash", { command: "git status --porcelain --untracked-files=all" }), "allow"],
    ["the orchestrator pops the stash", ORCHESTRATOR, input("bash", { command: "git stash pop" }), "deny"],
    // main-session roles run as their own sessions on Copilot: the orchestrator writes none of their files
    ["the orchestrator writes the spec", ORCHESTRATOR, input("create", { path: "P/.pebble/spec.md", file_text: "x" }), "deny"],
    ["toolArgs as a JSON string (GitHub's docs)", ORCHESTRATOR, input("bash", JSON.stringify({ command: "git push" })), "deny"],
    // Copilot's create tool does not make folders: the orchestrator makes the roles' artifact folders, exactly
    ["the orchestrator makes .pebble", ORCHESTRATOR, input("bash", { command: "mkdir -p .pebble" }), "allow"],
    ["the orchestrator makes .github/workflows", ORCHESTRATOR, input("bash", { command: "mkdir -p .github/workflows" }), "allow"],
    ["the orchestrator makes .github/hooks", ORCHESTRATOR, input("bash", { command: "mkdir -p .github/hooks" }), "ask"],
    ["the orchestrator makes a folder outside", ORCHESTRATOR, input("bash", { command: "mkdir -p /tmp/x" }), "ask"],
    ["the orchestrator makes two folders at once", ORCHESTRATOR, input("bash", { command: "mkdir -p src tests" }), "ask"],
  ];
  // one pass: a second one replaced the "P/" inside the project path itself when the temporary
  // folder's random name ended in P (1 run in 62), and the two SRC/ cases failed
  const fill = (o: Record<string, unknown>) => JSON.parse(JSON.stringify(o).replace(/SRC\/|P\//g, (m) => (m === "SRC/" ? `${P}/src/` : `${P}/`))) as Record<string, unknown>;
  for (const [what, as, raw, kind] of cases) it(`${what}: ${kind}`, () => expect(decide(as, fill(raw)).kind).toBe(kind));

  it("a refusal names the rule", () => {
    expect(decide("jade", input("create", { path: `${P}/tests/x.test.ts`, file_text: "x" })).reason).toMatch(/^harness guard: jade may not write tests\/x\.test\.ts \(never-write: artifact tests\)/);
  });
});

describe("Copilot guard: the folders a write scope names", () => {
  it("literal heads only", () => {
    expect(scopeFolders([".pebble/spec.md", "docs/**", ".github/workflows/**", "packages/*/src/**", "**/*.test.*", "Dockerfile", "docker-compose*.yml", "../x/**", "a//b/**"])).toEqual([".github/workflows", ".pebble", "docs", "packages"]);
    // the allowance is exact text: a folder the shell would split or expand, or mkdir read as an option, gets none
    expect(scopeFolders(["my docs/**", "a'b/x.md", "$HOME/x/**", "out/-rf/**", "ok-dir/x.md"])).toEqual(["ok-dir"]);
  });
});

describe("Copilot guard: apply_patch (toolArgs is the patch text)", () => {
  const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch", ""].join("\n");
  it("checks every file a patch adds, updates, deletes or moves to", () => {
    expect(rt.cpPatchPaths(patch("*** Add File: src/x.ts", "+a", "*** Update File: src/a.ts", "@@", "-x", "+y", "*** Move to: src/b.ts", "*** Delete File: src/c.ts"))).toEqual({ paths: ["src/x.ts", "src/a.ts", "src/b.ts", "src/c.ts"] });
    expect(decide("jade", input("apply_patch", patch(`*** Add File: ${P}/src/x.ts`, "+a")))).toEqual({ kind: "allow" });
    expect(decide("jade", input("apply_patch", patch("*** Update File: src/a.ts", "@@", "-x", "+y", "*** Move to: tests/a2.test.ts"))).kind).toBe("deny");
    expect(decide("jade", input("apply_patch", patch("*** Add File: src/x.ts", "+a", "*** Delete File: tests/a.test.ts"))).kind).toBe("deny");
  });
  // Copilot's patch parser is not published: a hunk line that would read as a directive once its
  // marker or white space is stripped is refused (issue 22), not guessed to be content
  it("a hunk line that looks like a directive cannot hide a file: the patch is refused", () => {
    for (const hidden of ["+*** Add File: tests/evil.test.ts", " *** Add File: tests/evil.test.ts", "-\t*** update file: tests/a.test.ts"])
      expect(decide("jade", input("apply_patch", patch("*** Add File: src/x.ts", hidden))).kind, hidden).toBe("deny");
    expect(fs.existsSync(path.join(P, "tests/evil.test.ts"))).toBe(false);
  });
  const refused: [string, unknown][] = [
    ["no Begin Patch", "*** Add File: src/x.ts\n+a\n"],
    ["no file", patch()],
    ["an unknown directive", patch("*** Add File: src/x.ts", "+a", "*** Rename File: tests/a.test.ts")],
    ["a file name with spaces around it", patch("*** Add File:  src/x.ts", "+a")],
    ["carriage returns", patch("*** Add File: src/x.ts", "+a").replace(/\n/g, "\r\n")],
    ["an object instead of the text", { input: patch("*** Add File: src/x.ts", "+a") }],
  ];
  for (const [what, args] of refused) it(`refuses a patch with ${what}`, () => expect(decide("jade", input("apply_patch", args)).kind).toBe("deny"));
});

describe("Copilot guard: malformed input fails closed", () => {
  const bad: [string, string | Record<string, unknown>][] = [
    ["not JSON", "{toolName: bash"],
    ["an array", "[]"],
    ["null", "null"],
    ["no toolName", { cwd: "/x", toolArgs: { command: "ls" } }],
    ["an empty toolName", input("", { command: "ls" })],
    ["Claude's PascalCase shape", { hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" }, cwd: "/x" }],
    ["agentType not a string", { ...input("view", { path: "x" }), agentType: 7 }],
    ["cwd not a string", { ...input("view", { path: "x" }), cwd: ["/"] }],
    ["toolArgs a string that is not JSON", input("bash", "git push")],
    ["toolArgs an array", input("bash", ["git", "push"])],
    ["bash without a command", input("bash", { description: "x" })],
    ["bash with a non-string command", input("bash", { command: ["git", "push"] })],
    ["a write without a path", input("create", { file_text: "x" })],
    ["a call of another agent", input("create", { path: "/x/src/a.ts", file_text: "x" }, "mica")],
  ];
  for (const [what, raw] of bad) it(`${what}: deny`, () => expect(decide("jade", raw).kind).toBe("deny"));

  it("property: no input the shim cannot model is allowed (random JSON values, random toolArgs)", () => {
    const tools = ["create", "edit", "str_replace_editor", "apply_patch", "bash", "task", "sql", "write_bash", "mcp__x"];
    fc.assert(
      fc.property(fc.constantFrom(...tools), fc.jsonValue(), fc.option(fc.string(), { nil: undefined }), (tool, args, agentType) => {
        const raw = { cwd: P, toolName: tool, toolArgs: args, ...(agentType === undefined ? {} : { agentType }) };
        const d = decide("flint", raw);
        // flint has no shell and may write only .pebble/spec.md: an allow must be exactly that write
        if (d.kind === "allow") {
          const p = typeof args === "object" && args && !Array.isArray(args) ? (args as Record<string, unknown>).path : undefined;
          expect(["create", "edit", "str_replace_editor"]).toContain(tool);
          expect(typeof p === "string" && path.resolve(P, p) === path.join(P, ".pebble/spec.md")).toBe(true);
        }
      }),
      { numRuns: 400 },
    );
  });
});

describe("Copilot guard script, through node", () => {
  const run = (as: string, raw: string, env: Record<string, string> = {}) =>
    spawnSync(process.execPath, [path.join(P, GUARD_PATH), as], { input: raw, encoding: "utf8", cwd: P, env: { PATH: process.env.PATH ?? "", HOME: path.join(root, "home"), COPILOT_PROJECT_DIR: P, ...env } });

  it("answers in Copilot's format: permissionDecision on stdout, exit 0; no output for reads", () => {
    const allow = run("jade", JSON.stringify(input("create", { path: `${P}/src/n.ts`, file_text: "x" }, "jade")));
    expect([allow.status, JSON.parse(allow.stdout)]).toEqual([0, { permissionDecision: "allow" }]);
    const deny = run("jade", JSON.stringify(input("bash", { command: "git push" }, "jade")));
    expect(deny.status).toBe(0);
    expect(JSON.parse(deny.stdout)).toMatchObject({ permissionDecision: "deny", permissionDecisionReason: expect.stringMatching(/^harness guard: jade may not run "git push"/) });
    const ask = run("jade", JSON.stringify(input("bash", { command: "echo $HOME" }, "jade")));
    expect(JSON.parse(ask.stdout)).toMatchObject({ permissionDecision: "ask" });
    const read = run("jade", JSON.stringify(input("view", { path: `${P}/src/a.ts` })));
    expect([read.status, read.stdout]).toEqual([0, ""]);
  });

  it("malformed input and an empty stdin are refused", () => {
    for (const raw of ["", "not json", "{}"]) {
      const r = run("jade", raw);
      expect(r.status).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ permissionDecision: "deny" });
    }
  });

  it("the off switch counts only from the environment, not while a Copilot settings file names it", () => {
    const raw = JSON.stringify(input("bash", { command: "git push" }, "jade"));
    const env = { PATH: process.env.PATH ?? "", HOME: path.join(root, "home"), COPILOT_PROJECT_DIR: P, HARNESS_GUARD_OFF: "1" };
    const onHost = () => spawnSync(process.execPath, ["-e", `process.exit(require("child_process").spawnSync("/bin/sh", ["-c", process.argv[1]], { input: ${JSON.stringify(raw)}, stdio: ["pipe", "inherit", "inherit"] }).status)`, `${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(P, GUARD_PATH))} jade; exit $?`], { encoding: "utf8", cwd: P, env });
    expect(onHost().stdout, "the host started with the switch").toBe("");
    expect(JSON.parse(run("jade", raw, { HARNESS_GUARD_OFF: "1" }).stdout), "not started with it: put in after (settings env)").toMatchObject({ permissionDecision: "deny" });
    const home = path.join(root, "home", ".copilot");
    fs.mkdirSync(home, { recursive: true });
    fs.writeFileSync(path.join(home, "settings.json"), JSON.stringify({ env: { HARNESS_GUARD_OFF: "1" } }));
    try {
      expect(JSON.parse(onHost().stdout)).toMatchObject({ permissionDecision: "deny" });
    } finally {
      fs.rmSync(path.join(home, "settings.json"));
    }
  });

  it("the hook command fails closed when the script is missing or node is not on PATH", () => {
    const bash = (guardHooks("jade").preToolUse as { bash: string }[])[0]!.bash;
    const missing = spawnSync("/bin/sh", ["-c", bash], { input: "{}", encoding: "utf8", env: { PATH: process.env.PATH ?? "", COPILOT_PROJECT_DIR: path.join(root, "nowhere") } });
    expect(missing.status).toBe(2);
    const noNode = spawnSync("/bin/sh", ["-c", bash], { input: "{}", encoding: "utf8", env: { PATH: "/nonexistent", COPILOT_PROJECT_DIR: P } });
    expect(noNode.status).toBe(2);
    expect(noNode.stderr).toMatch(/node is not on PATH/);
  });
});
