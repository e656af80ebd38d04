// harness run checks, before each Claude Code session, that no settings file Claude Code reads
// switches the hooks off or reaches into the node they run with (issue 22: where no hook can run to
// notice, harness run checks before it starts, and refuses). Claude Code has no launcher to do it.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { claudeHooksOffProblem } from "../../adapters/claude-code/hooks-off.js";
import { claudeCode } from "../../adapters/claude-code/runner.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
function scene(): { project: string; home: string; env: NodeJS.ProcessEnv; put: (file: string, text: string) => string } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "harness-hooks-off-"));
  dirs.push(root);
  const project = path.join(root, "project");
  const home = path.join(root, "home");
  fs.mkdirSync(project);
  fs.mkdirSync(home);
  const put = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    return file;
  };
  return { project, home, env: { HOME: home }, put };
}

describe("harness run before a Claude Code session", () => {
  it("passes settings that leave the hooks alone, and no settings at all", () => {
    const s = scene();
    expect(claudeHooksOffProblem(s.project, s.env, s.home)).toBeNull();
    s.put(path.join(s.home, ".claude/settings.json"), JSON.stringify({ env: { ANTHROPIC_MODEL: "x" }, disableAllHooks: false, hooks: {} }));
    s.put(path.join(s.project, ".claude/settings.json"), JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: "command", command: "unset NODE_OPTIONS; node x" }] }] } }));
    expect(claudeHooksOffProblem(s.project, s.env, s.home)).toBeNull();
  });

  it("refuses disableAllHooks and an env PATH, NODE_OPTIONS or LD_PRELOAD, in the user's, the moved and the project's settings", () => {
    for (const [where, data, why] of [
      [".claude/settings.json", { disableAllHooks: true }, "it sets disableAllHooks"],
      [".claude/settings.json", { env: { node_options: "--require=/tmp/x.cjs" } }, "its env sets node_options"],
      ["moved/settings.json", { env: { PATH: "/tmp/fake:/usr/bin" } }, "its env sets PATH"],
      ["project/.claude/settings.local.json", { env: { LD_PRELOAD: "/tmp/x.so" } }, "its env sets LD_PRELOAD"],
    ] as const) {
      const s = scene();
      const base = where.startsWith("project/") ? path.dirname(s.project) : where.startsWith("moved/") ? path.dirname(s.home) : s.home;
      const file = s.put(path.join(base, where), JSON.stringify(data));
      const why2 = claudeHooksOffProblem(s.project, { ...s.env, CLAUDE_CONFIG_DIR: path.join(path.dirname(s.home), "moved") }, s.home);
      expect(why2).toContain(`refusing to start Claude Code: ${file} would switch off or alter the guard and audit hooks (${why}`);
    }
  });

  it("refuses a settings file it cannot read exactly (not JSON, or a FIFO), at once", () => {
    const s = scene();
    s.put(path.join(s.home, ".claude/settings.json"), "{ // a comment\n}");
    expect(claudeHooksOffProblem(s.project, s.env, s.home)).toContain("it does not parse as a JSON object");
    fs.rmSync(path.join(s.home, ".claude/settings.json"));
    execFileSync("mkfifo", [path.join(s.home, ".claude/settings.json")]);
    expect(claudeHooksOffProblem(s.project, s.env, s.home)).toContain("it is not a regular file");
  });

  it("the driver returns the refusal as the session's error without starting claude", async () => {
    const s = scene();
    s.put(path.join(s.project, ".claude/settings.local.json"), JSON.stringify({ disableAllHooks: true }));
    const r = await claudeCode.run({ role: "jade", prompt: "x", resume: null, cwd: s.project, write: [], neverWrite: [], signal: new AbortController().signal });
    expect(r).toMatchObject({ exit: null, session: null, error: expect.stringContaining("it sets disableAllHooks") });
  });
});
