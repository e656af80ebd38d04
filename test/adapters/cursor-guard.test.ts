// The Cursor hook guard: .cursor/hooks.json parsed back, and the generated script run in-process
// and with `node` (and through its hooks.json command with `sh`) on inputs shaped like Cursor's hooks documentation
// (https://cursor.com/docs/hooks, published 2026-08-24). Cursor has no installable CLI, so nothing
// here proves what Cursor does with the answers: these tests pin what the guard answers.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CursorAdapter } from "../../adapters/cursor/index.js";
import { GUARD_EVENTS, GUARD_PATH, HOOKS_PATH, guardHookCommand, hooksJson } from "../../adapters/cursor/guard.js";
import { CURSOR_GUARD_CALL, CURSOR_GUARD_MAIN } from "../../adapters/cursor/guard-runtime.js";
import { compileHost } from "../../src/compile.js";
import type { PipelineIR } from "../../src/ir/types.js";
import { MINI_ROLES, PEBBLE_ROLES } from "../helpers/cli.js";
import { readRoles } from "../helpers/compile.js";
import { runProcess, type RunResult } from "../guard/helpers.js";
import { runScript } from "../guard/script-vm.js";

const pebble = readRoles(PEBBLE_ROLES);
const repository: PipelineIR = { ...pebble, policies: { ...pebble.policies, scope: "repository" } };
const out = compileHost(repository, CursorAdapter);
const file = (p: string) => out.files.find((f) => f.path === p);

let root: string;
let dir: string;
let script: string;
beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "harness-cursor-guard-")));
  dir = path.join(root, "proj");
  const put = (rel: string, text = "x\n") => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  };
  for (const f of ["src/a.ts", "tests/a.test.ts", ".pebble/spec.md", ".git/config", "docs/guide.md", "solo/only.ts", HOOKS_PATH]) put(f);
  fs.mkdirSync(path.join(dir, "build"), { recursive: true });
  put(GUARD_PATH, file(GUARD_PATH)!.content);
  script = path.join(dir, GUARD_PATH);
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** What Cursor passes every hook (the docs' common schema), plus the event's own fields. */
function input(event: string, fields: Record<string, unknown>): Record<string, unknown> {
  return {
    conversation_id: "c0ffee00-1111-4222-8333-444455556666",
    generation_id: "9e1d2c3b-aaaa-4bbb-8ccc-ddddeeeeffff",
    model: "claude-sonnet-4",
    hook_event_name: event,
    cursor_version: "2.6.0",
    workspace_roots: [dir],
    user_email: null,
    transcript_path: null,
    ...fields,
  };
}
const env = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({ PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: os.homedir(), CURSOR_PROJECT_DIR: dir, CLAUDE_PROJECT_DIR: dir, ...extra });
/**
 * The script's answer: its own bytes run in this process (test/guard/script-vm.ts, no ~60 ms process
 * start per call); every fourth call also with `node`, and the two must be the same bytes.
 */
let calls = 0;
const run = async (event: string, payload: unknown, extra: Record<string, string> = {}): Promise<RunResult> => {
  const text = typeof payload === "string" ? payload : JSON.stringify(payload);
  const r = runScript(script, [event], text, env(extra), dir);
  if (calls++ % 4 === 0) expect(await runProcess(process.execPath, [script, event], text, env(extra), dir), "node script gives what the script gives in-process").toEqual(r);
  return r;
};
const tool = (name: string, ti: Record<string, unknown>) => input("preToolUse", { tool_name: name, tool_input: ti, tool_use_id: "tu-1", cwd: dir, agent_message: "" });
/** cwd null: the field is left out */
const shell = (command: string, cwd: string | null = dir) => input("beforeShellExecution", { command, ...(cwd === null ? {} : { cwd }), sandbox: false });

type Want = "allow" | "ask" | "deny" | "none";
function expectAnswer(r: RunResult, want: Want, reason?: RegExp): void {
  const label = `stdout=${r.stdout} stderr=${r.stderr}`;
  expect(r.stdout.endsWith("\n") && !r.stdout.slice(0, -1).includes("\n"), `one JSON line: ${label}`).toBe(true);
  const o = JSON.parse(r.stdout) as Record<string, string>;
  if (want === "deny") {
    expect(r.code, label).toBe(2);
    expect(o.permission, label).toBe("deny");
    expect(o.user_message, label).toMatch(/^harness guard: /);
    expect(r.stderr, label).toBe(`${o.user_message}\n`);
    if (reason) expect(o.user_message, label).toMatch(reason);
    return;
  }
  expect(r.code, label).toBe(0);
  expect(r.stderr, label).toBe("");
  if (want === "none") return expect(o, label).toEqual({});
  expect(o.permission, label).toBe(want);
  if (want === "allow") expect(Object.keys(o), label).toEqual(["permission"]);
  if (want === "ask") {
    expect(o.agent_message, label).toMatch(/^harness guard: /);
    if (reason) expect(o.agent_message, label).toMatch(reason);
  }
}

describe("cursor guard: files", () => {
  it("policies.scope pipeline (the default) emits no hook: Cursor cannot tell a run from an ordinary chat", () => {
    const plain = compileHost(pebble, CursorAdapter);
    expect(plain.files.find((f) => f.path === HOOKS_PATH)).toBeUndefined();
    expect(plain.files.find((f) => f.path === GUARD_PATH)).toBeUndefined();
    expect(plain.files.find((f) => f.path === "MAPPING.md")!.content).toMatch(/no hook guard: Cursor's project hooks run for every chat/);
  });

  it(".cursor/hooks.json parses back to version 1 with one fail-closed entry per guarded event, merged on install", () => {
    const f = file(HOOKS_PATH)!;
    const data = JSON.parse(f.content) as { version: number; hooks: Record<string, Record<string, unknown>[]> };
    expect(data).toEqual(hooksJson());
    expect(data.version).toBe(1);
    expect(Object.keys(data.hooks).sort()).toEqual([...GUARD_EVENTS].sort());
    for (const event of GUARD_EVENTS) {
      expect(data.hooks[event]).toHaveLength(1);
      const entry = data.hooks[event]![0]!;
      expect(Object.keys(entry).sort()).toEqual(["command", "failClosed", "timeout"]); // no matcher: every tool
      expect(entry.failClosed).toBe(true);
      expect(entry.timeout).toBe(10);
      expect(entry.command).toBe(guardHookCommand(event));
      expect(entry.command).toContain(`"$harness_node" ${GUARD_PATH} ${event};`);
    }
    const declared = CursorAdapter.lower(repository).files.find((x) => x.path === HOOKS_PATH)!;
    expect(declared.install).toEqual({ mode: "merge" });
    expect(CursorAdapter.lower(repository).files.find((x) => x.path === GUARD_PATH)).toMatchObject({ kind: "text", executable: true });
  });

  it("MAPPING.md names the hook guard as defence in depth and claims no guard level", () => {
    const mapping = file("MAPPING.md")!.content;
    expect(mapping).toContain("not proven on the real host");
    expect(mapping).toMatch(/hook guard: generated as defence in depth and not proven on the real host/);
    expect(out.fidelity.filter((r) => r.level === "guard" || r.level === "audit")).toEqual([]);
    for (const c of ["write-scope", "shell", "git-deny", "spawn"] as const)
      for (const r of out.fidelity.filter((x) => x.constraint === c && x.role !== null && x.level !== "native")) {
        expect(r.level, `${r.role} ${c}`).toBe("instructed");
        expect(r.how, `${r.role} ${c}`).toContain("harness-guard.cjs (defence in depth, not proven on the real host)");
      }
  });

  it("the script is dependency-free CommonJS with the policy inline", () => {
    const text = file(GUARD_PATH)!.content;
    expect(text).not.toMatch(/require\("(?!node:(fs|path)")/);
    expect(text).toContain("const POLICY = JSON.parse(");
  });

  it("the shim reads no off switch and no environment but CURSOR_PROJECT_DIR", () => {
    const shim = `${CURSOR_GUARD_CALL}\n${CURSOR_GUARD_MAIN}`;
    expect(shim).not.toContain("POLICY.off");
    expect([...shim.matchAll(/env\.([A-Z_]+)|process\.env\[/g)].map((m) => m[0])).toEqual(["env.CURSOR_PROJECT_DIR", "env.CURSOR_PROJECT_DIR"]);
  });

  it("compiles for another pipeline too (mini), with the same four events", () => {
    const mini = readRoles(MINI_ROLES);
    const o = compileHost({ ...mini, policies: { ...mini.policies, scope: "repository" } }, CursorAdapter);
    expect(JSON.parse(o.files.find((f) => f.path === HOOKS_PATH)!.content)).toEqual(hooksJson());
    expect(o.files.find((f) => f.path === GUARD_PATH)!.content).toContain('"pipeline\\":\\"zine\\"');
  });
});

describe("cursor guard: a role's allowed work passes", () => {
  it.each([
    ["Write in a role's scope (absolute path)", () => tool("Write", { file_path: path.join(dir, "src/a.ts"), contents: "x" })],
    ["Write in a role's scope (relative path, from cwd)", () => tool("Write", { path: "src/new.ts", contents: "x" })],
    ["StrReplace on a test file (Mica's scope)", () => tool("StrReplace", { path: path.join(dir, "tests/a.test.ts"), old_string: "x", new_string: "y" })],
    ["Write of the spec (Flint's artifact)", () => tool("Write", { file_path: path.join(dir, ".pebble/spec.md"), contents: "x" })],
    ["Delete of a file in scope", () => tool("Delete", { path: path.join(dir, "src/a.ts") })],
    ["MultiEdit with text edits and a flag", () => tool("MultiEdit", { file_path: path.join(dir, "src/a.ts"), edits: [{ old_string: "a", new_string: "b", replace_all: true }], should_create_file: false })],
  ])("preToolUse: %s → allow", async (_n, make) => expectAnswer(await run("preToolUse", make()), "allow"));

  it.each(["npm test", "npx vitest run test/a.test.ts", "git status", "git diff --stat", "git stash push", "ls src", "npm run lint --if-present"])("beforeShellExecution %j → allow", async (command) =>
    expectAnswer(await run("beforeShellExecution", shell(command)), "allow"),
  );

  it("preToolUse Shell with an allowed command → allow; read-only tools and Task → no opinion (subagentStart decides Task)", async () => {
    expectAnswer(await run("preToolUse", tool("Shell", { command: "npm test", working_directory: dir })), "allow");
    for (const [name, ti] of [
      ["Read", { path: path.join(dir, ".git/config") }],
      ["Grep", { pattern: "x" }],
      ["Task", { subagent_type: "anything" }],
    ] as const)
      expectAnswer(await run("preToolUse", tool(name, ti)), "none");
  });

  it("subagentStart of a pipeline role → allow", async () => {
    expectAnswer(await run("subagentStart", input("subagentStart", { subagent_id: "s-1", subagent_type: "jade", task: "implement", parent_conversation_id: "c-1", tool_call_id: "tc-1", subagent_model: "m", is_parallel_worker: false })), "allow");
  });
});

describe("cursor guard: refusals", () => {
  it.each([
    ["a write outside every role's scope", () => tool("Write", { file_path: path.join(dir, "solo/only.ts") }), /not in the main-thread write scope/],
    ["a write to .git", () => tool("Write", { file_path: path.join(dir, ".git/config") }), /never-write/],
    ["a write to the hooks file", () => tool("StrReplace", { path: path.join(dir, HOOKS_PATH), old_string: "a", new_string: "b" }), /keeps the harness guard in place|never-write/],
    ["a write to the guard script", () => tool("Write", { file_path: path.join(dir, GUARD_PATH) }), /never-write/],
    ["a write to Claude Code's settings (Cursor loads its hooks)", () => tool("Write", { file_path: path.join(dir, ".claude/settings.json") }), /never-write/],
    ["a write outside the project", () => tool("Write", { file_path: path.join(root, "elsewhere.ts") }), /outside the project/],
    ["a Delete of a folder", () => tool("Delete", { path: path.join(dir, "build") }), /folder/],
    ["a tool the guard does not know", () => tool("ApplyPatch", { patch: "*** Begin Patch" }), /does not model.*cannot ask/],
    ["an MCP tool (preToolUse cannot ask)", () => tool("MCP:db_query", { sql: "drop table x" }), /MCP tool db_query.*cannot ask/],
    ["a write whose input names a second path", () => tool("Write", { file_path: path.join(dir, "src/a.ts"), new_path: path.join(dir, ".git/hooks/pre-commit") }), /"new_path" besides the path/],
    ["an edit carrying a patch", () => tool("Edit", { path: path.join(dir, "src/a.ts"), applyPatch: { patchContent: "*** Update File: .cursor/hooks.json" } }), /"applyPatch" besides the path/],
    ["a nested path in a write's edits", () => tool("MultiEdit", { file_path: path.join(dir, "src/a.ts"), edits: [{ file_path: path.join(dir, ".git/config"), old_string: "a", new_string: "b" }] }), /"file_path" besides the path/],
  ])("preToolUse: %s → deny", async (_n, make, reason) => expectAnswer(await run("preToolUse", make()), "deny", reason));

  it("the reason names a Cursor agent, not the orchestrator, since Cursor does not say which role calls", async () => {
    const r = await run("preToolUse", tool("Write", { file_path: path.join(dir, "solo/only.ts") }));
    expect(r.stderr).toContain("a Cursor agent in this repository");
    expect(r.stderr).not.toContain("orchestrator (main thread)");
  });

  it.each([
    ["git commit -m wip", /git commit/],
    ["git push origin main", /git push/],
    ["git push", /git push/],
    ["git reset --hard HEAD~1", /git reset/],
    ["git checkout -b x", /git checkout/],
    ["echo x > .cursor/hooks.json", /never-write|keeps the harness guard/],
    ["cd src && git commit -am x", /git commit/],
  ])("beforeShellExecution %j → deny", async (command, reason) => expectAnswer(await run("beforeShellExecution", shell(command)), "deny", reason));

  it("a shell_deny command behind a wrapper (sudo) is never allowed: the shared runtime asks, as it does for Claude Code's orchestrator", async () => {
    expectAnswer(await run("beforeShellExecution", shell("sudo rm -rf /")), "ask", /sudo runs another command/);
    expectAnswer(await run("preToolUse", tool("Shell", { command: "sudo rm -rf /", working_directory: dir })), "none");
  });

  it("preToolUse Shell refuses git commit and push too (either hook blocks)", async () => {
    expectAnswer(await run("preToolUse", tool("Shell", { command: "git commit -m x", working_directory: dir })), "deny", /git commit/);
    expectAnswer(await run("preToolUse", tool("Shell", { command: "git push --force", working_directory: dir })), "deny", /git push/);
  });

  it("commands no rule allows, or that it cannot read exactly, are asked in beforeShellExecution and left to it by preToolUse", async () => {
    for (const command of ["rm -rf build", "curl https://example.com", "echo $HOME > notes.txt", "make deploy"]) {
      expectAnswer(await run("beforeShellExecution", shell(command)), "ask");
      expectAnswer(await run("preToolUse", tool("Shell", { command, working_directory: dir })), "none");
    }
  });

  it("an MCP tool is asked (the guard cannot model it)", async () => {
    expectAnswer(await run("beforeMCPExecution", input("beforeMCPExecution", { tool_name: "db_query", tool_input: '{"sql":"select 1"}', command: "npx mcp-db" })), "ask", /MCP tool db_query/);
  });

  it.each(["explore", "generalPurpose", "shell", "code-reviewer"])("subagentStart of %j (not a pipeline role, nested agents off) → deny", async (type) => {
    const r = await run("subagentStart", input("subagentStart", { subagent_id: "s-2", subagent_type: type, task: "look around", parent_conversation_id: "c-1" }));
    expectAnswer(r, "deny", /not a role of pipeline pebble/);
    expect(Object.keys(JSON.parse(r.stdout)).sort()).toEqual(["permission", "user_message"]); // subagentStart's documented output
  });
});

describe("cursor guard: malformed or unknown input fails closed", () => {
  it.each([
    ["not JSON", "preToolUse", "{not json"],
    ["empty input", "preToolUse", ""],
    ["an array", "preToolUse", "[]"],
    ["another event's input", "preToolUse", JSON.stringify(shell("npm test"))],
    ["no hook_event_name", "beforeShellExecution", JSON.stringify({ command: "npm test", cwd: "/" })],
    ["an event the script is not wired for", "stop", JSON.stringify(input("stop", { status: "completed", loop_count: 0 }))],
    ["a tool_input that is a string", "preToolUse", JSON.stringify(input("preToolUse", { tool_name: "Write", tool_input: "{}", cwd: "/" }))],
    ["a write naming no path", "preToolUse", JSON.stringify({ ...input("preToolUse", {}), tool_name: "Write", tool_input: { contents: "x" }, cwd: "/" })],
    ["a write naming two different paths", "preToolUse", JSON.stringify({ ...input("preToolUse", {}), tool_name: "Write", tool_input: { file_path: "/a", path: "/b" }, cwd: "/" })],
    ["a path that is not a string", "preToolUse", JSON.stringify({ ...input("preToolUse", {}), tool_name: "Edit", tool_input: { path: ["src/a.ts"] }, cwd: "/" })],
    ["a relative path with no cwd", "preToolUse", JSON.stringify({ ...input("preToolUse", {}), tool_name: "Write", tool_input: { path: "src/a.ts" } })],
    ["a shell command with no cwd", "beforeShellExecution", "SHELL_NO_CWD"],
    ["a shell command with an empty cwd", "beforeShellExecution", "SHELL_EMPTY_CWD"],
    ["a subagentStart with no subagent_type", "subagentStart", JSON.stringify({ ...input("subagentStart", {}), task: "x" })],
  ])("%s → deny", async (_n, event, raw) => {
    const text = raw === "SHELL_NO_CWD" ? JSON.stringify(shell("npm test", null)) : raw === "SHELL_EMPTY_CWD" ? JSON.stringify(shell("npm test", "")) : raw;
    expectAnswer(await run(event, text), "deny", /fail closed/);
  });

  it("a script moved out of .cursor/hooks/ with no CURSOR_PROJECT_DIR has no project: deny", async () => {
    const moved = path.join(root, "moved.cjs");
    fs.copyFileSync(script, moved);
    const r = await runProcess(process.execPath, [moved, "preToolUse"], JSON.stringify(tool("Write", { file_path: path.join(dir, "src/a.ts") })), { PATH: process.env.PATH ?? "/usr/bin:/bin" }, dir);
    expectAnswer(r, "deny", /project directory/);
  });
});

describe("cursor guard: outside a pipeline run (policies.scope repository binds every session)", () => {
  it("an ordinary chat is held to the same limits: Cursor's input cannot tell it from a run", async () => {
    const ordinary = { ...tool("Write", { file_path: path.join(dir, "solo/only.ts") }), conversation_id: "an-ordinary-chat", transcript_path: "/tmp/ordinary.txt" };
    expectAnswer(await run("preToolUse", ordinary), "deny");
    expectAnswer(await run("beforeShellExecution", { ...shell("git commit -m x"), conversation_id: "an-ordinary-chat" }), "deny", /git commit/);
  });

  it("no environment variable switches it off (Cursor hands sessionStart output to hooks as environment)", async () => {
    expectAnswer(await run("beforeShellExecution", shell("git push"), { HARNESS_GUARD_OFF: "1" }), "deny", /git push/);
  });
});

describe("cursor guard: the hooks.json command", () => {
  const sh = (event: string, payload: unknown, pathVar: string): RunResult => {
    try {
      const stdout = execFileSync("/bin/sh", ["-c", guardHookCommand(event)], { cwd: dir, input: JSON.stringify(payload), env: { ...env(), PATH: pathVar }, stdio: ["pipe", "pipe", "pipe"] }).toString();
      return { code: 0, stdout, stderr: "" };
    } catch (e) {
      const err = e as { status: number; stdout: Buffer; stderr: Buffer };
      return { code: err.status, stdout: err.stdout.toString(), stderr: err.stderr.toString() };
    }
  };
  const nodeDir = path.dirname(process.execPath);

  it("runs the script from the project root and passes its answer and exit code through", () => {
    expectAnswer(sh("beforeShellExecution", shell("npm test"), `${nodeDir}:/usr/bin:/bin`), "allow");
    expectAnswer(sh("beforeShellExecution", shell("git push"), `${nodeDir}:/usr/bin:/bin`), "deny", /git push/);
  });

  it("blocks (exit 2, one line) when node is not on PATH", () => {
    const empty = fs.mkdtempSync(path.join(root, "nopath-"));
    const r = sh("preToolUse", tool("Write", { file_path: path.join(dir, "src/a.ts") }), empty);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^harness guard: node is not on PATH.*fail closed/);
  });
});
