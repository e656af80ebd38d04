// r4 red team: the guard refuses every host's settings and hook files (HOST_SETTINGS_FILES) at any
// depth, whatever a pipeline's never_write says, but the stage-end audit held only the host's own
// protected paths and the pipeline's never-write: code a role's tests ran could write
// src/.vscode/settings.json, src/.vscode/mcp.json or src/.github/copilot/settings.json (Pebble's own
// audit kept them), and under a pipeline whose never_write names no host folder, src/.codex/config.toml
// or src/opencode.json. The audit now holds the same set at any depth, exactly as the guard does.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { withRepo } from "./helpers.js";

const BASE = { "src/a.ts": "a\n", "tests/a.test.ts": "t\n", ".gitignore": "node_modules/\n" };
const pebbleAudit = () => fs.readFileSync(path.join(import.meta.dirname, "../../out/claude-code/.claude/hooks/harness-audit.mjs"), "utf8");

describe("audit: host settings files inside a role's scope, at any depth (r4)", () => {
  it("Pebble's audit: nested .vscode and .github/copilot settings written by jade's code are removed and fail the stage", () =>
    withRepo(
      BASE,
      (r) => {
        const files = ["src/.vscode/settings.json", "src/.vscode/mcp.json", "src/.github/copilot/settings.json", "src/.github/copilot/settings.local.json"];
        r.start("v1", "jade");
        for (const f of files) r.put(f, "{}\n");
        r.put("src/b.ts", "b\n");
        r.stop("v1", "jade");
        expect(files.filter((f) => r.exists(f))).toEqual([]);
        const rep = r.report("v1");
        expect(rep.code).toBe(2);
        for (const f of files) expect(rep.stderr).toContain(f);
        expect(r.read("src/b.ts")).toBe("b\n");
      },
      { scriptText: pebbleAudit() },
    ));

  it("a pipeline whose never_write names no host folder: every host's settings below the role's scope are refused all the same", () =>
    withRepo(BASE, (r) => {
      const files = ["src/.codex/config.toml", "src/opencode.json", "src/.gemini/settings.json", "src/.qwen/settings.json", "src/.mcp.json", "src/.github/hooks/h.json", "src/.pi/extensions/x.ts"];
      r.start("v2", "jade");
      for (const f of files) r.put(f, "x\n");
      r.stop("v2", "jade");
      expect(files.filter((f) => r.exists(f))).toEqual([]);
      expect(r.report("v2").code).toBe(2);
    }));
});

describe("audit: every host settings file the guard refuses is guarded at the root even where ignored (r4)", () => {
  // .vscode/ (and the other hosts' folders) are often in .gitignore: the tree audit never saw them
  const IGNORED = { ...BASE, ".gitignore": "node_modules/\n.vscode/\n.cursor/\n.opencode/\n.pi/\n.factory/\nkilo.json\n.kilo/\n.gemini/\n" };
  const files = [".vscode/settings.json", ".vscode/mcp.json", ".cursor/mcp.json", ".opencode/opencode.json", "kilo.json", ".kilo/kilo.jsonc", ".pi/settings.json", ".pi/extensions/x.ts", ".factory/settings.json", ".factory/hooks/h.sh", ".gemini/policies/p.toml"];
  it.each(files)("%s created by a stage's code is removed and fails the stage", (f) =>
    withRepo(IGNORED, (r) => {
      r.start("g1", "jade");
      r.put(f, "{}\n");
      r.stop("g1", "jade");
      expect(r.exists(f)).toBe(false);
      const rep = r.report("g1");
      expect(rep.code).toBe(2);
      // a guarded folder is named as the folder
      const shown = [".pi/extensions", ".factory/hooks", ".gemini/policies"].find((t) => f.startsWith(t + "/")) ?? f;
      expect(rep.stderr).toContain(`${shown} (created; removed)`);
    }),
  );
});

describe("audit: host settings below the root that the team's ignore rules hide (r7)", () => {
  const IGNORING = { ...BASE, ".gitignore": "node_modules/\nsettings.local.json\n.vscode/\n" };
  it("src/.claude/settings.local.json (an unanchored pattern) and src/.vscode/settings.json (an ignored folder) written by jade's code are removed and fail the stage", () =>
    withRepo(IGNORING, (r) => {
      r.start("h1", "jade");
      r.put("src/.claude/settings.local.json", '{"disableAllHooks":true}\n');
      r.put("src/.vscode/settings.json", '{"chat.tools.autoApprove":true}\n');
      r.put("src/pkg/.github/hooks/h.json", "{}\n");
      r.put("src/b.ts", "b\n");
      r.stop("h1", "jade");
      const rep = r.report("h1");
      expect(rep.code).toBe(2);
      expect(rep.stderr).toContain("src/.claude/settings.local.json (created; removed)");
      expect(rep.stderr).toContain("src/.vscode/settings.json (created; removed)");
      expect(rep.stderr).toContain("src/pkg/.github/hooks/h.json (created; removed)");
      expect(r.exists("src/.claude/settings.local.json")).toBe(false);
      expect(r.exists("src/.vscode/settings.json")).toBe(false);
      expect(r.read("src/b.ts")).toBe("b\n");
    }));

  it("one that was there at the start and is left alone, and the ignored files beside it, pass", () =>
    withRepo({ ...IGNORING, "src/.vscode/settings.json": "{}\n" }, (r) => {
      r.start("h2", "jade");
      r.put("src/.vscode/launch.local", "x\n"); // ignored, and no host's settings
      r.put("node_modules/p/.vscode/settings.json", "{}\n"); // inside an ignored folder no session starts in
      r.put("src/b.ts", "b\n");
      r.stop("h2", "jade");
      expect(r.report("h2").code).toBe(0);
      expect(r.read("src/.vscode/settings.json")).toBe("{}\n");
    }));
});
