// Parse back everything the Claude Code adapter emits and compare it with the IR.
import { parse as parseYaml } from "yaml";
import { describe, expect, it } from "vitest";
import { ClaudeCodeAdapter } from "../../adapters/claude-code/index.js";
import { compileHost } from "../../src/compile.js";
import type { PipelineIR } from "../../src/ir/types.js";
import { MINI_ROLES, PEBBLE_ROLES } from "../helpers/cli.js";
import { readRoles } from "../helpers/compile.js";
import { splitFrontMatter } from "../helpers/markdown.js";

// Claude Code 2.1.332 agent front-matter keys (hosts note §2.2): anything else is warned about.
const AGENT_KEYS = new Set(["name", "description", "tools", "disallowedTools", "model", "permissionMode", "maxTurns", "effort", "skills", "mcpServers", "hooks", "memory", "isolation", "background", "color", "initialPrompt", "omitClaudeMd"]);
const CLAUDE_TOOL_NAMES = new Set(["Agent", "Task", "Bash", "Edit", "Write", "Read", "Glob", "Grep", "NotebookEdit", "WebFetch", "WebSearch", "TodoWrite", "Skill", "AskUserQuestion"]);

describe.each([
  ["pebble", PEBBLE_ROLES],
  ["mini", MINI_ROLES],
])("Claude Code output of %s parses back to the IR", (_name, dir) => {
  const pipeline: PipelineIR = readRoles(dir);
  const out = compileHost(pipeline, ClaudeCodeAdapter);
  const file = (p: string) => {
    const f = out.files.find((x) => x.path === p);
    if (!f) throw new Error(`missing ${p}`);
    return f.content;
  };

  it("has one agent file per role with only recognised keys and tools", () => {
    for (const role of pipeline.roles) {
      const { data, body } = splitFrontMatter(file(`.claude/agents/${role.id}.md`)) as { data: Record<string, unknown>; body: string };
      for (const key of Object.keys(data)) expect(AGENT_KEYS.has(key), `${role.id}: ${key}`).toBe(true);
      expect(data.name).toBe(role.id);
      expect(data.description).toBe(role.description);
      const tools = String(data.tools).split(", ");
      for (const t of tools) expect(CLAUDE_TOOL_NAMES.has(t), t).toBe(true);
      expect(tools).toEqual(role.tools.map((t) => ClaudeCodeAdapter.tools[t]).filter((t) => t !== null));
      expect(tools).not.toContain("Agent");
      expect(data.disallowedTools).toBe("Agent");
      expect(data.model).toBe(pipeline.hosts["claude-code"]?.models[role.model] ?? "inherit");
      expect(data.maxTurns).toBe(role.maxTurns);
      expect(data.isolation).toBe(role.worktree ? "worktree" : undefined);
      expect(body.startsWith(role.body.trimEnd())).toBe(true);
      expect(body).toContain(`Forbidden: ${role.forbidden}`);
    }
  });

  it("has the orchestrator command and a command per main-session role", () => {
    const { data, body } = splitFrontMatter(file(`.claude/commands/${pipeline.name}.md`)) as { data: Record<string, unknown>; body: string };
    expect(data["argument-hint"]).toBe(pipeline.argumentHint);
    expect(body).toContain("$ARGUMENTS");
    for (const stage of pipeline.stages) expect(body).toContain(`. ${stage.id}: `);
    for (const gate of pipeline.stages.filter((s) => s.gate)) expect(body).toContain(gate.gate!.ask);
    for (const c of pipeline.commands) expect(body).toContain(`\`${c.run}\``);
    if (pipeline.loop) expect(body).toContain(`at most ${pipeline.loop.maxRounds} rounds`);
    for (const role of pipeline.roles.filter((r) => r.isolation === "main")) {
      expect(splitFrontMatter(file(`.claude/commands/${role.id}.md`)).body).toContain(role.forbidden);
      expect(body).toContain(`.claude/commands/${role.id}.md`);
    }
    for (const role of pipeline.roles.filter((r) => r.isolation === "subagent")) expect(body).toContain(`subagent_type "${role.id}"`);
  });

  it("settings.json denies every global command and path, and wires the guard to block on failure", () => {
    const settings = JSON.parse(file(".claude/settings.json"));
    for (const c of pipeline.policies.shellDeny) expect(settings.permissions.deny).toContain(`Bash(${c})`);
    for (const g of pipeline.policies.neverWrite) expect(settings.permissions.deny).toContain(`Edit(${g})`);
    expect(settings.permissions.deny.some((r: string) => r.startsWith("Write("))).toBe(false);
    const hook = settings.hooks.PreToolUse[0];
    for (const tool of ["Write", "Edit", "NotebookEdit", "Bash", "Agent"]) expect(hook.matcher.split("|")).toContain(tool);
    expect(hook.hooks[0]).toMatchObject({ type: "command", onFailure: "block" });
    expect(hook.hooks[0].command).toContain(".claude/hooks/harness-guard.mjs");
  });

  it("CLAUDE.md points at the entry command", () => {
    expect(file("CLAUDE.md")).toContain(`/${pipeline.name} ${pipeline.argumentHint}`);
  });

  it("MAPPING.md accounts for every role and the host version", () => {
    const mapping = file("MAPPING.md");
    expect(mapping).toContain("Claude Code 2.1.332");
    for (const role of pipeline.roles) for (const c of ["tools", "write-scope", "never-write", "shell", "spawn", "isolation", "model", "temperature"]) expect(mapping).toContain(`| ${role.id} | ${c} |`);
  });

  it("front matter is real YAML a host parser reads the same way", () => {
    for (const f of out.files.filter((x) => x.path.endsWith(".md") && x.content.startsWith("---\n"))) {
      const end = f.content.indexOf("\n---\n", 4);
      expect(() => parseYaml(f.content.slice(4, end))).not.toThrow();
    }
  });
});
