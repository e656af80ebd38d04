// Parse back everything the Claude Code adapter emits and compare it with the IR.
import { parse as parseYaml } from "yaml";
import { unboundExit } from "../../src/adapter/controller/hook-command.js";
import { describe, expect, it } from "vitest";
import { ClaudeCodeAdapter } from "../../adapters/claude-code/index.js";
import { patternsMeet } from "../../adapters/claude-code/settings-rules.js";
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
    // the run controller runs the commands and holds the caps: the prompt names neither command lines nor their routing
    const controller = file(".claude/hooks/harness-controller.cjs");
    for (const c of pipeline.commands) {
      expect(body).not.toContain(`\`${c.run}\``);
      expect(controller).toContain(JSON.stringify(JSON.stringify(c.run)).slice(1, -1));
    }
    expect(body).toContain("`: harness kind <kind>`");
    if (pipeline.loop) expect(body).toContain(`The controller refuses round ${pipeline.loop.maxRounds + 1}`);
    for (const role of pipeline.roles.filter((r) => r.isolation === "main")) {
      expect(splitFrontMatter(file(`.claude/commands/${role.id}.md`)).body).toContain(role.forbidden);
      expect(body).toContain(`.claude/commands/${role.id}.md`);
    }
    for (const role of pipeline.roles.filter((r) => r.isolation === "subagent")) expect(body).toContain(`subagent_type "${role.id}"`);
  });

  it("scope pipeline: settings.json binds no session, only role subagents by agent_type; each role, the entry command and each main-session command carry the guard", () => {
    expect(pipeline.policies.scope).toBe("pipeline");
    // nothing in settings.json limits a session: no permissions, no env. Its PreToolUse entries are the
    // guard with no argument, which binds a pipeline role by agent_type and has no opinion on anything
    // else, and the run controller's, which exits in the shell unless the session is bound by
    // /<pipeline> (the stage-end audit's SubagentStart/Stop hooks act on pipeline roles only)
    const settings = JSON.parse(file(".claude/settings.json"));
    expect(Object.keys(settings).filter((k) => k !== "$schema" && k !== "hooks")).toEqual([]);
    expect(settings.hooks.PreToolUse).toHaveLength(2);
    expect(settings.hooks.PreToolUse[0]).toMatchObject({ matcher: "*", hooks: [{ type: "command", onFailure: "block" }] });
    expect(settings.hooks.PreToolUse[0].hooks[0].command).toContain('.claude/hooks/harness-guard.cjs"; rc=$?');
    const ctl = settings.hooks.PreToolUse[1].hooks[0].command as string;
    // an unbound session exits in the shell; the record outside the project is looked up in the account's home, never $HOME
    expect(ctl.startsWith(`${unboundExit("$CLAUDE_CODE_SESSION_ID", "$CLAUDE_PROJECT_DIR")}; `)).toBe(true);
    expect(ctl.slice(0, ctl.indexOf("exit 0"))).not.toContain("$HOME");
    expect(ctl).toContain('harness-controller.cjs" PreToolUse');
    const hookOf = (p: string) => {
      const hooks = (splitFrontMatter(file(p)).data as { hooks?: { PreToolUse: { matcher: string; hooks: { type: string; command: string; onFailure: string }[] }[] } }).hooks;
      expect(hooks, p).toBeDefined();
      const entry = hooks!.PreToolUse[0]!;
      expect(entry.matcher).toBe("*");
      expect(entry.hooks[0]).toMatchObject({ type: "command", onFailure: "block" });
      return entry.hooks[0]!.command;
    };
    for (const role of pipeline.roles) expect(hookOf(`.claude/agents/${role.id}.md`)).toContain(`.claude/hooks/harness-guard.cjs" ${role.id};`);
    for (const role of pipeline.roles.filter((r) => r.isolation === "main")) expect(hookOf(`.claude/commands/${role.id}.md`)).toContain(`harness-guard.cjs" ${role.id};`);
    expect(hookOf(`.claude/commands/${pipeline.name}.md`)).toContain('harness-guard.cjs" @orchestrator;');
    expect(file("CLAUDE.md")).toContain("an ordinary session in this project is not bound");
    expect(file("CLAUDE.md")).not.toMatch(/harness-guard\.off/);
  });

  it("scope repository: one settings.json hook, and no deny that an allowed command could meet", () => {
    const repo = compileHost({ ...pipeline, policies: { ...pipeline.policies, scope: "repository" } }, ClaudeCodeAdapter);
    const settings = JSON.parse(repo.files.find((f) => f.path === ".claude/settings.json")!.content);
    for (const g of pipeline.policies.neverWrite) expect(settings.permissions.deny).toContain(`Edit(${g})`);
    expect(settings.permissions.deny.some((r: string) => r.startsWith("Write("))).toBe(false);
    expect(settings.permissions.allow).toBeUndefined();
    const allowed = [...pipeline.policies.orchestratorShell, ...pipeline.commands.map((c) => c.run), ...pipeline.roles.flatMap((r) => r.shell?.allow ?? [])];
    for (const rule of settings.permissions.deny.filter((r: string) => r.startsWith("Bash("))) {
      const d = rule.slice(5, -1);
      expect(pipeline.policies.shellDeny).toContain(d);
      for (const a of allowed) expect(patternsMeet(d, a), `${rule} shadows ${a}`).toBe(false);
    }
    if (pipeline.policies.orchestratorShell.includes("git stash push *")) {
      expect(settings.permissions.deny).not.toContain("Bash(git stash *)");
      expect(settings.permissions.deny).toContain("Bash(git push *)");
    }
    const hook = settings.hooks.PreToolUse[0];
    expect(hook.matcher).toBe("*");
    expect(hook.hooks[0]).toMatchObject({ type: "command", onFailure: "block" });
    expect(hook.hooks[0].command).toMatch(/harness-guard\.cjs"; rc=/);
    for (const f of repo.files.filter((x) => x.path.startsWith(".claude/agents/") || x.path.startsWith(".claude/commands/"))) expect(splitFrontMatter(f.content).data, f.path).not.toHaveProperty("hooks");
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
