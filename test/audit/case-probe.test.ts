// r8: the audit runs its git with core.ignoreCase as the disk folds case (r7), probed by whether .git
// and .GIT are one file. In a linked worktree .git is a file, and a stage's code could hard-link .GIT
// to it: a case-sensitive disk then read as folding, the audit's git took a new Tests/a.test.ts for the
// tracked tests/a.test.ts, and jade's stage passed with a test the runner picks up. The probe now uses
// a fresh random name.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { gitEnv, withRepo } from "./helpers.js";

describe("audit: the case-folding probe (r8)", () => {
  it("a .GIT hard-linked to a linked worktree's .git file does not make the disk read as folding case", () =>
    withRepo({ "src/a.ts": "a\n", "tests/a.test.ts": "t\n", ".gitignore": "node_modules/\n" }, (r) => {
      const wt = path.join(path.dirname(r.dir), "wt");
      const sh = (c: string, cwd = wt) => execFileSync("/bin/sh", ["-c", c], { cwd, env: { ...gitEnv, HOME: r.home }, encoding: "utf8" });
      sh("git worktree add -q ../wt", r.dir);
      const env = { CLAUDE_PROJECT_DIR: wt };
      expect(r.run("start", { hook_event_name: "SubagentStart", agent_id: "c1", agent_type: "jade" }, [], env).code).toBe(0);
      sh("ln .git .GIT && mkdir -p Tests && echo EVIL > Tests/a.test.ts");
      r.run("stop", { hook_event_name: "SubagentStop", agent_id: "c1", agent_type: "jade", stop_hook_active: false }, [], env);
      const rep = r.run("report", { hook_event_name: "PostToolUse", tool_name: "Agent", tool_input: { subagent_type: "jade" }, tool_response: { status: "completed", agentId: "c1", agentType: "jade" } }, [], env);
      expect(rep.code).toBe(2);
      expect(rep.stderr).toContain("Tests/a.test.ts (created; removed)");
      expect(fs.existsSync(path.join(wt, "Tests/a.test.ts"))).toBe(false);
      expect(rep.stderr).toContain(".GIT (created; removed)");
      expect(fs.existsSync(path.join(wt, ".GIT"))).toBe(false);
      expect(fs.readFileSync(path.join(wt, ".git"), "utf8")).toMatch(/^gitdir: /);
      expect(fs.readdirSync(wt).filter((n) => n.startsWith(".harness-case-"))).toEqual([]);
    }));

  // git refuses such a name on any disk ("invalid path"): the audit could not run, at every boundary
  // after it, until a human removed it
  it("a src/.GIT made in jade's scope is removed and fails the stage; the next stage's audit runs", () =>
    withRepo({ "src/a.ts": "a\n", "tests/a.test.ts": "t\n", ".gitignore": "node_modules/\n" }, (r) => {
      r.start("c2", "jade");
      r.put("src/.GIT", "x\n");
      r.put("src/b.ts", "b\n");
      r.stop("c2", "jade");
      const rep = r.report("c2");
      expect(rep.code).toBe(2);
      expect(rep.stderr).toContain("src/.GIT (created; removed)");
      expect(r.exists("src/.GIT")).toBe(false);
      expect(r.read("src/b.ts")).toBe("b\n");
      r.start("c3", "jade");
      r.put("src/c.ts", "c\n");
      r.stop("c3", "jade");
      expect(r.report("c3").code).toBe(0);
    }));
});
