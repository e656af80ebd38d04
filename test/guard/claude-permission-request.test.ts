// Claude Code 2.1.332 asks before a write into one of its protected folders (.claude/, .vscode/, …)
// whatever a PreToolUse hook said, and fires PermissionRequest first: the guard answers "allow" for
// exactly the writes it allows there, and gives no answer to anything else (Claude Code then asks as
// it would without the hook; headless -p refuses). Real-host proof: test/hosts/role-features.test.ts.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { GUARD_PATH, guardHooks, renderGuard } from "../../adapters/claude-code/guard.js";
import { readRoles } from "../helpers/compile.js";
import { ROOT } from "../helpers/cli.js";
import { guardEnv, payload, runGuard } from "./helpers.js";

const features = readRoles(path.join(ROOT, "test/fixtures/features"));
const pebble = readRoles(path.join(ROOT, "roles"));
const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "harness-permreq-")));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const P = path.join(root, "proj");
const script = path.join(P, GUARD_PATH);
fs.mkdirSync(path.dirname(script), { recursive: true });
fs.writeFileSync(script, renderGuard(features));

const ALLOW = { hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow" } } };
const asked = (tool: string, input: Record<string, unknown>, role: string | null = "writer", as: string | null = role) =>
  runGuard(script, { ...payload({ tool, input, cwd: P, ...(role ? { role } : {}) }), hook_event_name: "PermissionRequest", permission_suggestions: [] }, guardEnv(P), as);
const answer = (r: { stdout: string }) => (r.stdout.trim() ? JSON.parse(r.stdout) : null);

describe("the Claude Code guard on PermissionRequest", () => {
  it("answers allow for a write the role may make into a protected folder (Write, Edit, MultiEdit, relative or absolute)", async () => {
    for (const [tool, input] of [
      ["Write", { file_path: path.join(P, ".claude/state/notes/1.md"), content: "n" }],
      ["Edit", { file_path: path.join(P, ".claude/state/notes/1.md"), old_string: "n", new_string: "m" }],
      ["MultiEdit", { file_path: ".claude/state/notes/deep/2.md", edits: [] }],
    ] as const) {
      const r = await asked(tool, input);
      expect(r.code, `${tool} ${r.stderr}`).toBe(0);
      expect(answer(r), tool).toEqual(ALLOW);
    }
  });

  it("gives no answer where the guard would not allow: out of scope, enforcement files, other sessions, shell, unprotected paths", async () => {
    const none = [
      await asked("Write", { file_path: path.join(P, ".claude/settings.json"), content: "{}" }),
      await asked("Write", { file_path: path.join(P, ".claude/state/other.md"), content: "x" }), // not the writer's artifact
      await asked("Write", { file_path: path.join(P, ".claude/hooks/harness-guard.cjs"), content: "x" }),
      await asked("Write", { file_path: path.join(P, ".claude/state/notes/1.md"), content: "x" }, "releaser"), // another role
      await asked("Write", { file_path: path.join(P, ".claude/state/notes/1.md"), content: "x" }, null), // an unbound session
      await asked("Write", { file_path: path.join(P, ".claude/state/notes/../../settings.json"), content: "{}" }),
      await asked("Write", { file_path: path.join(root, "elsewhere/.claude/state/notes/1.md"), content: "x" }), // outside the project
      await asked("Bash", { command: "echo x > .claude/state/notes/1.md" }),
      await asked("WebFetch", { url: "https://example.com" }),
    ];
    for (const [i, r] of none.entries()) {
      expect(r.code, `case ${i}: ${r.stderr}`).toBe(0);
      expect(r.stdout, `case ${i}`).toBe("");
    }
  });

  it("refuses input it cannot read, as on PreToolUse (exit 2)", async () => {
    for (const bad of ["not json", "[]", JSON.stringify({ hook_event_name: "PermissionRequest", tool_name: "Write" }), JSON.stringify({ hook_event_name: "Stop" })]) {
      const r = await runGuard(script, bad, guardEnv(P), "writer");
      expect(r.code, bad).toBe(2);
      expect(r.stdout, bad).toBe("");
    }
  });

  it("is installed only where some role writes a protected folder (Pebble pays no extra hook)", () => {
    expect(Object.keys(guardHooks("writer", features))).toEqual(["PreToolUse", "PermissionRequest"]);
    const pr = (guardHooks("writer", features).PermissionRequest as { matcher: string; hooks: { onFailure?: string }[] }[])[0]!;
    expect(pr.matcher).toBe("Write|Edit|MultiEdit|NotebookEdit");
    expect(pr.hooks[0]!.onFailure).toBeUndefined(); // a failed hook gives no answer: Claude Code asks
    expect(Object.keys(guardHooks("jade", pebble))).toEqual(["PreToolUse"]);
  });
});
