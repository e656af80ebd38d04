import { describe, expect, it } from "vitest";
import { diffHosts, filesOfRole, normalizePrompt } from "../src/diff.js";
import { compileAll } from "./helpers/compile.js";
import { harness, MINI_ROLES, PEBBLE_ROLES, scratchProject } from "./helpers/cli.js";

describe("harness diff", () => {
  it("shows, per constraint, how each side realises it", async () => {
    const { pipeline, outputs } = await compileAll(MINI_ROLES, ["claude-code", "codex"]);
    const d = diffHosts(pipeline, outputs, "writer");
    expect(d.hosts).toEqual(["claude-code", "codex"]);
    const scope = d.roles[0]!.constraints.find((c) => c.constraint === "write-scope")!;
    // two layers on Claude Code: the guard before each call, the stage-end audit as the boundary
    expect(scope.sides["claude-code"]!.map((s) => s.level)).toEqual(["guard", "audit"]);
    expect(scope.sides.codex!.map((s) => s.level)).toContain("audit");
    expect(scope.same).toBe(false);
    expect(d.roles[0]!.files).toEqual({ "claude-code": [".claude/agents/writer.md"], codex: [".codex/agents/writer.toml", ".codex/bin/writer.sh"] });
    expect(d.roles[0]!.prompt!.same).toBe(false);
    expect(d.sharedFiles["claude-code"]).toContain(".claude/settings.json");
    expect(d.sharedFiles["claude-code"]).not.toContain(".claude/agents/planner.md");
  });

  it("Pebble's Quartz: 'no code edits' is a guard plus a stage-end audit on Claude Code, and a guard plus a stage-end audit in an orchestrated Codex run", async () => {
    const { pipeline, outputs } = await compileAll(PEBBLE_ROLES, ["claude-code", "codex"]);
    const quartz = diffHosts(pipeline, outputs, "quartz").roles[0]!;
    const row = (c: string) => quartz.constraints.find((x) => x.constraint === c)!;
    expect(row("write-scope").sides["claude-code"]!.map((s) => s.level)).toEqual(["guard", "audit"]);
    expect(row("write-scope").sides["claude-code"]![0]).toEqual({ level: "guard", how: ".claude/hooks/harness-guard.cjs in .claude/agents/quartz.md front matter, and in settings.json on agent_type \"quartz\"" });
    expect(row("write-scope").sides["claude-code"]![1]!.how).toMatch(/^\.claude\/hooks\/harness-audit\.mjs: .*SubagentStop/);
    expect(row("write-scope").sides.codex!.map((s) => s.level)).toEqual(["guard", "audit", "native"]);
    expect(row("write-scope").sides.codex![0]!.how).toMatch(/^\.codex\/hooks\/harness-guard\.cjs \(PreToolUse in \.codex\/hooks\.json.*agent_type is "quartz"/);
    expect(row("write-scope").sides.codex![1]!.how).toMatch(/^\.codex\/hooks\/harness-audit\.mjs via \.codex\/hooks\.json .*SubagentStop/);
    expect(row("write-scope").sides.codex![2]!.how).toContain(".codex/bin/quartz.sh");
    expect(quartz.files).toEqual({ "claude-code": [".claude/agents/quartz.md"], codex: [".codex/agents/quartz.toml", ".codex/bin/quartz.sh"] });
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

  it("CLI: terminal table, --json with the same facts, usage errors exit 2", async () => {
    const dir = scratchProject();
    const text = await harness(["diff", "claude-code", "codex", "--role", "writer"], dir);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/≠ write-scope\s+claude-code\s+guard/);
    expect(text.stdout).toContain(".codex/bin/writer.sh");
    const json = await harness(["diff", "claude-code", "codex", "--json"], dir);
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.stdout);
    expect(parsed.roles.map((r: { role: string }) => r.role)).toEqual(["planner", "writer", "checker", "(pipeline)"]);
    expect((await harness(["diff", "claude-code"], dir)).code).toBe(2);
    expect((await harness(["diff", "claude-code", "nope"], dir)).code).toBe(2);
    expect((await harness(["diff", "claude-code", "codex", "--role", "nobody"], dir)).stderr).toContain('no role "nobody"');
    const all = await harness(["diff", "--all"], dir);
    expect(all.code).toBe(0);
    expect(all.stdout.split("\n")[0]).toMatch(/^role\s+constraint\s+claude-code/);
  });
});
