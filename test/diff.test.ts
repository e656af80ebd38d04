import { describe, expect, it } from "vitest";
import { diffHosts, filesOfRole, normalizePrompt } from "../src/diff.js";
import { compileAll } from "./helpers/compile.js";
import { harness, MINI_ROLES, scratchProject } from "./helpers/cli.js";

describe("harness diff", () => {
  it("shows, per constraint, how each side realises it", async () => {
    const { pipeline, outputs } = await compileAll(MINI_ROLES, ["claude-code", "codex"]);
    const d = diffHosts(pipeline, outputs, "writer");
    expect(d.hosts).toEqual(["claude-code", "codex"]);
    const scope = d.roles[0]!.constraints.find((c) => c.constraint === "write-scope")!;
    expect(scope.sides["claude-code"]!.map((s) => s.level)).toEqual(["guard"]);
    expect(scope.sides.codex!.map((s) => s.level)).toContain("instructed");
    expect(scope.same).toBe(false);
    expect(d.roles[0]!.files).toEqual({ "claude-code": [".claude/agents/writer.md"], codex: [".codex/agents/writer.toml", ".codex/bin/writer.sh"] });
    expect(d.roles[0]!.prompt!.same).toBe(false);
    expect(d.sharedFiles["claude-code"]).toContain(".claude/settings.json");
    expect(d.sharedFiles["claude-code"]).not.toContain(".claude/agents/planner.md");
  });

  it("a host compared with itself shows no difference", async () => {
    const { pipeline, outputs } = await compileAll(MINI_ROLES, ["claude-code"]);
    const d = diffHosts(pipeline, [outputs[0]!, outputs[0]!]);
    expect(d.roles.every((r) => r.constraints.every((c) => c.same) && (r.prompt?.same ?? true))).toBe(true);
  });

  it("files of a role are matched by whole path segments, not substrings", () => {
    expect(filesOfRole([".claude/agents/jade.md", ".claude/agents/jaded.md", ".codex/skills/jade/SKILL.md", "x/jade.sh"], "jade")).toEqual([".claude/agents/jade.md", ".codex/skills/jade/SKILL.md", "x/jade.sh"]);
  });

  it("normalises host placeholder syntax before comparing prompts", () => {
    expect(normalizePrompt("for: $ARGUMENTS  \nok")).toBe("for: <request>\nok");
  });

  it("CLI: terminal table, --json with the same facts, usage errors exit 2", () => {
    const dir = scratchProject();
    const text = harness(["diff", "claude-code", "codex", "--role", "writer"], dir);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/≠ write-scope\s+claude-code\s+guard/);
    expect(text.stdout).toContain(".codex/bin/writer.sh");
    const json = harness(["diff", "claude-code", "codex", "--json"], dir);
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.stdout);
    expect(parsed.roles.map((r: { role: string }) => r.role)).toEqual(["planner", "writer", "checker", "(pipeline)"]);
    expect(harness(["diff", "claude-code"], dir).code).toBe(2);
    expect(harness(["diff", "claude-code", "nope"], dir).code).toBe(2);
    expect(harness(["diff", "claude-code", "codex", "--role", "nobody"], dir).stderr).toContain('no role "nobody"');
    const all = harness(["diff", "--all"], dir);
    expect(all.code).toBe(0);
    expect(all.stdout.split("\n")[0]).toMatch(/^role\s+constraint\s+claude-code/);
  });
});
