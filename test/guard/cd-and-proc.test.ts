// Third red team (r3), paths: where a command's folder and a written file land must be read the way
// the shell and the kernel read them, not the way the hook's own process would.
// - G3: bash's cd is logical (.. is taken off $PWD as spelled); the guard walked it physically.
// - G4: /proc/self, /proc/thread-self and /dev/fd name the process that opens them; the guard
//   resolved them in its own hook process.
// - a role's hook input with agent_id but no agent_type answered "none" (Claude Code shim).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PEBBLE_ROLES } from "../helpers/cli.js";
import { readRoles } from "../helpers/compile.js";
import { inProcess, payload } from "./helpers.js";

const pipeline = readRoles(PEBBLE_ROLES);
const decide = inProcess(pipeline);
const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "harness-cdproc-")));
const P = path.join(root, "proj");
for (const d of ["src/sub", "tests", ".pebble"]) fs.mkdirSync(path.join(P, d), { recursive: true });
fs.writeFileSync(path.join(P, "src/a.ts"), "export const a = 1;\n");
fs.writeFileSync(path.join(P, "package.json"), "{}\n");
// an in-project link from mica's folder into jade's, and links into /proc (one through another)
fs.symlinkSync("../src/sub", path.join(P, "tests/l"));
fs.symlinkSync("/proc/self/cwd/.pebble", path.join(P, ".pebble/p"));
fs.symlinkSync("p", path.join(P, ".pebble/q"));
fs.symlinkSync("/proc/self/cwd/src", path.join(P, "src/pl"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const shell = (as: string, command: string, cwd = P) => decide(JSON.stringify(payload({ tool: "Bash", input: { command }, role: as, cwd })), { CLAUDE_PROJECT_DIR: P }, as);
const write = (as: string, file: string) => decide(JSON.stringify(payload({ tool: "Write", input: { file_path: file, content: "x" }, role: as, cwd: P })), { CLAUDE_PROJECT_DIR: P }, as);

describe("G3: cd is read as bash reads it (logical), or refused", () => {
  it.each([
    ["cd ./tests/l/.. && echo evil > setup.ts", P],
    ["cd ./tests/l && cd .. && echo evil > setup.ts", P],
    // the host reports a folder spelled through the link: bash's $PWD is that spelling
    ["cd .. && echo evil > setup.ts", path.join(P, "tests/l")],
  ])("jade: %s (from %s) is not allowed", (command, cwd) => {
    expect(shell("jade", command, cwd).kind).not.toBe("allow");
  });

  it.each([
    "cd ./src && echo x > a.ts",
    "cd ./tests/l && echo x > b.ts", // lands in src/sub either way
    "cd ./src/sub/.. && echo x > a.ts",
    "cd ./src && cd ./sub && cd .. && echo x > a.ts",
  ])("jade: %s is allowed (logical and physical agree)", (command) => {
    expect(shell("jade", command)).toEqual({ kind: "allow" });
  });
});

describe("G4: a path through /proc or /dev is refused (the hook would resolve it as itself)", () => {
  // the hook runs in the project folder, as on the hosts: /proc/self/cwd is the project for it
  const was = process.cwd();
  beforeAll(() => process.chdir(P));
  afterAll(() => process.chdir(was));
  it.each([
    "/proc/self/cwd/.pebble/blueprint.md",
    "/proc/thread-self/cwd/.pebble/blueprint.md",
    `/proc/${process.pid}/cwd/.pebble/blueprint.md`,
    "/dev/fd/1",
    ".pebble/p/blueprint.md", // an in-project link into /proc/self
    ".pebble/q/blueprint.md", // a link to that link
  ])("slate may not Write %s", (file) => {
    const d = write("slate", file);
    expect(d.kind).toBe("deny");
  });

  it("a shell redirect through an in-project link into /proc is refused too", () => {
    expect(shell("jade", "echo x > src/pl/a.ts").kind).not.toBe("allow");
  });

  it("while a file in the role's scope, by name or through an in-project link, stays allowed", () => {
    expect(write("slate", ".pebble/blueprint.md")).toEqual({ kind: "allow" });
    expect(write("slate", path.join(P, ".pebble/blueprint.md"))).toEqual({ kind: "allow" });
    expect(write("jade", "tests/l/x.ts")).toEqual({ kind: "deny", reason: expect.stringContaining("tests/l/x.ts") }); // both names must be in scope (as before)
    expect(shell("jade", "cd ./tests/l && echo x > y.ts")).toEqual({ kind: "allow" });
  });
});

describe("a role's call with agent_id but no agent_type", () => {
  it.each(["jade", "@orchestrator", null])("is refused (fail closed) by the Claude Code hook installed for %s", (as) => {
    const p = payload({ tool: "Write", input: { file_path: "tests/x.ts", content: "x" }, role: "jade", cwd: P });
    delete p.agent_type;
    const d = decide(JSON.stringify(p), { CLAUDE_PROJECT_DIR: P }, as);
    expect(d.kind).toBe("deny");
    expect(d.reason).toMatch(/agent_type/);
  });
});
