// Issue 24: what real agents use, carried by the role model, and no defaults leaking between roles.
// The fixture (test/fixtures/features) is modelled on the report's corpus: a release manager with the
// GitHub MCP server and agent-team tools, a writer whose artifact lies under .claude/state/.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { compileAll, readRoles } from "./helpers/compile.js";
import { harness, ROOT, scratchProject } from "./helpers/cli.js";
import { inProcess } from "./guard/helpers.js";

const FEATURES = path.join(ROOT, "test/fixtures/features");
const frontMatter = (text: string) => parseYaml(text.split(/^---$/m)[1] ?? "") as Record<string, unknown>;
const fileOf = (o: { files: { path: string; content: string }[] }, p: string) => {
  const f = o.files.find((x) => x.path === p);
  if (!f) throw new Error(`no ${p}`);
  return f.content;
};

describe("no silent defaults", () => {
  it("a role without model emits no model (inherit on Claude Code) even when balanced is mapped, and no temperature", async () => {
    const { pipeline, outputs } = await compileAll(FEATURES);
    expect(pipeline.hosts["claude-code"]?.models.balanced).toBe("fable");
    const host = (id: string) => outputs.find((o) => o.adapter.id === id)!;
    expect(frontMatter(fileOf(host("claude-code"), ".claude/agents/writer.md")).model).toBe("inherit");
    for (const id of ["opencode", "kilo"]) {
      const fm = frontMatter(fileOf(host(id), `.${id}/agents/writer.md`));
      expect(fm.model, id).toBeUndefined();
      expect(fm.temperature, id).toBeUndefined();
    }
    const gm = frontMatter(fileOf(host("gemini-cli"), ".gemini/agents/writer.md"));
    expect(gm.model).toBeUndefined();
    expect(gm.temperature).toBeUndefined();
    expect(fileOf(host("codex"), ".codex/agents/writer.toml")).not.toMatch(/^model\s*=/m);
    // and no loss for it: the role asked for the host's default
    for (const o of outputs) {
      const rows = o.fidelity.filter((r) => r.role === "writer" && (r.constraint === "model" || r.constraint === "temperature"));
      for (const r of rows) expect(r.loss, `${o.adapter.id} ${r.constraint}`).toBeUndefined();
    }
  });

  it("a per-role pin names a host model id directly and wins over the tier", async () => {
    const { outputs } = await compileAll(FEATURES, ["claude-code", "opencode", "kilo"]);
    expect(frontMatter(fileOf(outputs[0]!, ".claude/agents/releaser.md")).model).toBe("claude-opus-4-6");
    expect(frontMatter(fileOf(outputs[1]!, ".opencode/agents/releaser.md")).model).toBe("anthropic/claude-opus-4-5");
    // kilo: no pin, balanced unmapped there: a loss, never another host's id
    expect(frontMatter(fileOf(outputs[2]!, ".kilo/agents/releaser.md")).model).toBeUndefined();
    expect(outputs[2]!.fidelity.some((r) => r.role === "releaser" && r.loss === "L_MODEL_UNMAPPED")).toBe(true);
  });

  it("a model-less role does not get the mapped balanced model (mutant check: the old default)", () => {
    const pipeline = readRoles(FEATURES);
    expect(pipeline.roles.find((r) => r.id === "writer")!.model).toBeUndefined();
    expect(pipeline.roles.find((r) => r.id === "writer")!.temperature).toBeUndefined();
  });

  it("hosts: maps models without selecting hosts (warned once); targets: selects", async () => {
    const dir = scratchProject(FEATURES);
    let r = await harness(["build", "--out", "out"], dir);
    expect(r.code, r.stderr).toBe(1); // unaccepted instructed losses on the docs-only hosts
    expect(r.stderr.match(/W_HOSTS_NOT_TARGETS/g)?.length).toBe(1);
    const { HOSTS } = await import("../adapters/index.js");
    expect(fs.readdirSync(path.join(dir, "out")).sort()).toEqual(Object.keys(HOSTS).sort()); // every registered host
    const yml = path.join(dir, "roles/pipeline.yaml");
    fs.writeFileSync(yml, `${fs.readFileSync(yml, "utf8")}targets: [claude-code, opencode]\n`);
    fs.rmSync(path.join(dir, "out"), { recursive: true });
    r = await harness(["build", "--out", "out"], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain("W_HOSTS_NOT_TARGETS");
    expect(fs.readdirSync(path.join(dir, "out")).sort()).toEqual(["claude-code", "opencode"]);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe("what real agents use", () => {
  it("Claude Code: MCP and team tools in tools, effort xhigh, skills, memory, host-native color, own hooks beside the guard", async () => {
    const { outputs } = await compileAll(FEATURES, ["claude-code"]);
    const fm = frontMatter(fileOf(outputs[0]!, ".claude/agents/releaser.md"));
    // a whole MCP server: no tools line (an agent's tools take exact MCP names only), every other tool denied by name
    expect(fm.tools).toBeUndefined();
    const denied = String(fm.disallowedTools).split(", ");
    for (const t of ["Agent", "Bash", "Edit", "Glob", "WebFetch", "TeamCreate", "Skill"]) expect(denied).toContain(t);
    for (const t of ["Read", "Grep", "Write", "TaskList", "SendMessage"]) expect(denied).not.toContain(t);
    expect(fm).toMatchObject({ effort: "xhigh", skills: ["release-notes"], color: "cyan" });
    const hooks = fm.hooks as Record<string, { hooks: { command: string }[] }[]>;
    expect(hooks.PreToolUse![0]!.hooks[0]!.command).toContain("harness-guard.cjs\" releaser");
    expect(hooks.PostToolUse![0]!.hooks[0]!.command).toBe("echo releaser-wrote >> .work/hook.log");
    expect(frontMatter(fileOf(outputs[0]!, ".claude/agents/writer.md")).memory).toBe("project");
    const rows = outputs[0]!.fidelity.filter((r) => r.role === "releaser");
    expect(rows.find((r) => r.constraint === "mcp")).toMatchObject({ level: "guard" });
    expect(rows.find((r) => r.constraint === "effort")).toMatchObject({ level: "native", how: "effort: xhigh" });
    expect(rows.find((r) => r.constraint === "host-fields")?.how).toContain("color, hooks");
  });

  it("a host without a field records it lost, never silently: effort, MCP, skills, memory, team tools", async () => {
    const { outputs } = await compileAll(FEATURES);
    for (const o of outputs.filter((x) => x.adapter.id !== "claude-code")) {
      const rows = o.fidelity;
      const has = (role: string, constraint: string) => rows.some((r) => r.role === role && r.constraint === constraint);
      expect(has("releaser", "mcp"), o.adapter.id).toBe(true);
      expect(has("releaser", "skills"), o.adapter.id).toBe(true);
      expect(has("writer", "memory"), o.adapter.id).toBe(true);
      expect(has("releaser", "effort"), o.adapter.id).toBe(true);
      expect(rows.some((r) => r.role === "releaser" && r.loss === "L_TOOL_MISSING" && r.how.includes("send-message")), o.adapter.id).toBe(true);
    }
    // and MAPPING.md shows the rows
    const oc = outputs.find((o) => o.adapter.id === "opencode")!;
    expect(fileOf(oc, "MAPPING.md")).toMatch(/\| releaser \| effort \| lost \| .* \| L_EFFORT_UNSUPPORTED \|/);
  });

  it("the Claude Code guard allows mcp__github__* for the role that names it and refuses it for another", () => {
    const pipeline = readRoles(FEATURES);
    const decide = inProcess(pipeline);
    const call = (tool: string, role: string) =>
      decide(JSON.stringify({ hook_event_name: "PreToolUse", tool_name: tool, tool_input: { title: "x" }, agent_type: role, agent_id: "a1", cwd: ROOT }), { CLAUDE_PROJECT_DIR: ROOT }, role);
    expect(call("mcp__github__create_pull_request", "releaser").kind).toBe("allow");
    expect(call("SendMessage", "releaser").kind).toBe("allow");
    expect(call("mcp__github__create_pull_request", "writer")).toMatchObject({ kind: "deny" });
    expect(call("mcp__github__create_pull_request", "writer").reason).toMatch(/writer may not use mcp__github__create_pull_request/);
    // exact: another server, or a name that could be another server's ("github__x")
    expect(call("mcp__githubx__create_pull_request", "releaser").kind).toBe("deny");
    expect(call("mcp__github__evil__tool", "releaser").kind).toBe("deny");
    expect(call("mcp__github__", "releaser").kind).toBe("deny");
    expect(call("TeamCreate", "releaser").kind).toBe("deny");
  });

  it("the guard lets the writer write its artifact under .claude/state/, and still refuses the enforcement files", () => {
    const pipeline = readRoles(FEATURES);
    const decide = inProcess(pipeline);
    const write = (rel: string) =>
      decide(JSON.stringify({ hook_event_name: "PreToolUse", tool_name: "Write", tool_input: { file_path: path.join(ROOT, rel), content: "x" }, agent_type: "writer", agent_id: "a1", cwd: ROOT }), { CLAUDE_PROJECT_DIR: ROOT }, "writer");
    expect(write(".claude/state/notes/1.md").kind).toBe("allow");
    for (const rel of [".claude/settings.json", ".claude/settings.local.json", ".claude/hooks/harness-guard.cjs", ".claude/agents/writer.md", ".claude/commands/x.md", ".claude/skills/s/SKILL.md", "sub/.claude/settings.json"])
      expect(write(rel), rel).toMatchObject({ kind: "deny" });
    expect(write(".claude/state/other.md").kind).toBe("deny"); // outside its scope
  });
});

describe("errors a migrator can act on", () => {
  const project = (edit: Record<string, (t: string) => string>) => {
    const dir = scratchProject(FEATURES);
    for (const [f, fn] of Object.entries(edit)) {
      const p = path.join(dir, "roles", f);
      fs.writeFileSync(p, fn(fs.readFileSync(p, "utf8")));
    }
    return dir;
  };
  const build = async (dir: string) => {
    const r = await harness(["build", "--host", "claude-code", "--out", "out"], dir);
    const written = fs.existsSync(path.join(dir, "out"));
    fs.rmSync(dir, { recursive: true, force: true });
    return { ...r, written };
  };

  it("a host-native field the host does not read, or one harness writes itself, is E_HOST_FIELD (exit 2, nothing written)", async () => {
    let r = await build(project({ "releaser.md": (t) => t.replace("    color: cyan\n", "    color: cyan\n    colour: red\n    maxTurns: 3\n") }));
    expect(r.code).toBe(2);
    expect(r.written).toBe(false);
    expect(r.stderr).toMatch(/releaser\.md:\d+:\d+: error E_HOST_FIELD hosts\.claude-code\.colour: Claude Code does not read "colour" in an agent file\. Did you mean "color"\?/);
    expect(r.stderr).toMatch(/error E_HOST_FIELD hosts\.claude-code\.maxTurns: harness writes Claude Code's "maxTurns" itself\. Set it in the role as max_turns\./);
    r = await build(project({ "releaser.md": (t) => t.replace("color: cyan", "color: teal") }));
    expect(r.stderr).toMatch(/E_HOST_FIELD hosts\.claude-code\.color: "teal" is not one of "red"/);
  });

  it("an artifact on a file Claude Code enforces with is E_PROTECTED_ARTIFACT naming both sides", async () => {
    const r = await build(project({ "pipeline.yaml": (t) => t.replace('".claude/state/notes/**"', '".claude/agents/notes.md"') }));
    expect(r.code).toBe(2);
    expect(r.written).toBe(false);
    expect(r.stderr).toMatch(/writer\.md:6:1: error E_PROTECTED_ARTIFACT writes: the role may write "\.claude\/agents\/notes\.md", but Claude Code enforces with "\.claude\/agents\/\*\*"/);
  });

  it("an artifact that is a .gitignore is E_PROTECTED_ARTIFACT where the stage-end audit restores it (it would undo the role's work)", async () => {
    const r = await build(project({ "pipeline.yaml": (t) => t.replace('".claude/state/notes/**"', '"src/.gitignore"') }));
    expect(r.code).toBe(2);
    expect(r.written).toBe(false);
    expect(r.stderr).toMatch(/writer\.md:6:1: error E_PROTECTED_ARTIFACT writes: the role may write "src\/\.gitignore", but Claude Code enforces with "\*\*\/\.gitignore" \(the harness guard refuses, or its stage-end audit undoes, every write there/);
  });

  it("fields copied from real agent files get the harness spelling", async () => {
    const r = await build(project({ "writer.md": (t) => t.replace("memory: project\n", "memory: project\nname: writer\npermissionMode: plan\nhooks: {}\nmaxTurns: 4\nmcpServers: [github]\n").replace("isolation: subagent", "isolation: worktree") }));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('name: unknown field. A role\'s name is its file name');
    expect(r.stderr).toContain('permissionMode: unknown field. "permissionMode" is a claude-code field: write it under hosts: {claude-code: {permissionMode: …}}');
    expect(r.stderr).toContain('hooks: unknown field. "hooks" is a claude-code field');
    expect(r.stderr).toContain('maxTurns: unknown field. Write "max_turns".');
    expect(r.stderr).toContain('mcpServers: unknown field. Write "mcp_servers"');
    expect(r.stderr).toContain('isolation: "worktree" is Claude Code\'s isolation; write isolation: subagent and worktree: true.');
  });

  it("tools: another case is read with a warning; Claude Code's MCP spelling gets the harness name; a tier typo is not taken for a model id", async () => {
    const ok = await build(project({ "writer.md": (t) => t.replace("tools: [read, grep, glob, write]", "tools: [Read, grep, glob, Write]") }));
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stderr).toMatch(/writer\.md:5:9: warning W_TOOL_CASE tools\[0\]: "Read" is read as "read"/);
    const r = await build(project({ "writer.md": (t) => t.replace("tools: [read, grep, glob, write]", "tools: [read, mcp__github__create_pull_request, write]\nmodel: balnced") }));
    expect(r.stderr).toContain('"mcp__github__create_pull_request" is Claude Code\'s spelling; write "mcp:github/create_pull_request"');
    expect(r.stderr).toContain('"balnced" looks like a misspelling of "balanced"');
  });

  it("invalid UTF-8 and NUL bytes in a role are errors at their position (exit 2, nothing written)", async () => {
    const latin = scratchProject(FEATURES);
    const f = path.join(latin, "roles/writer.md");
    fs.writeFileSync(f, Buffer.concat([Buffer.from(fs.readFileSync(f, "utf8").replace("You are the Writer.", "You are the Writer. Revis")), Buffer.from([0xe3]), Buffer.from("o.\n")]));
    let r = await build(latin);
    expect(r.code).toBe(2);
    expect(r.written).toBe(false);
    expect(r.stderr).toMatch(/roles\/writer\.md:12:1: error E_ENCODING byte 0xe3 is not UTF-8/);
    const nul = scratchProject(FEATURES);
    const g = path.join(nul, "roles/writer.md");
    fs.writeFileSync(g, fs.readFileSync(g, "utf8").replace("Put your notes", "Put\u0000 your notes"));
    r = await build(nul);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/roles\/writer\.md:11:24: error E_ENCODING a NUL byte/);
  });

  it("a lead starts exactly the roles it lists, without nested agents for everyone", async () => {
    const dir = scratchProject(FEATURES);
    const f = path.join(dir, "roles/releaser.md");
    fs.writeFileSync(f, fs.readFileSync(f, "utf8").replace("effort: xhigh\n", "effort: xhigh\nstarts: [writer]\n"));
    const pipeline = readRoles(path.join(dir, "roles"));
    expect(pipeline.policies.nestedAgents).toBe(false);
    const lead = pipeline.roles.find((r) => r.id === "releaser")!;
    expect(lead).toMatchObject({ canSpawn: true, starts: ["writer"] });
    expect(pipeline.roles.find((r) => r.id === "writer")!.canSpawn).toBe(false);
    const decide = inProcess(pipeline);
    const spawn = (role: string, target: string) =>
      decide(JSON.stringify({ hook_event_name: "PreToolUse", tool_name: "Agent", tool_input: { subagent_type: target, prompt: "x", description: "x" }, agent_type: role, agent_id: "a1", cwd: ROOT }), { CLAUDE_PROJECT_DIR: ROOT }, role);
    expect(spawn("releaser", "writer").kind).toBe("allow");
    expect(spawn("releaser", "general-purpose")).toMatchObject({ kind: "deny" });
    expect(spawn("releaser", "general-purpose").reason).toMatch(/releaser may start only writer/);
    expect(spawn("writer", "writer").kind).toBe("deny");
    const { compileHost } = await import("../src/compile.js");
    const { HOSTS } = await import("../adapters/index.js");
    const cc = compileHost(pipeline, await HOSTS["claude-code"]!());
    const fm = frontMatter(cc.files.find((x) => x.path === ".claude/agents/releaser.md")!.content);
    expect(String(fm.disallowedTools).split(", ")).not.toContain("Agent");
    expect(cc.files.find((x) => x.path === ".claude/agents/releaser.md")!.content).toContain("You may start only these agents: `writer`.");
    const oc = compileHost(pipeline, await HOSTS.opencode!());
    expect((frontMatter(oc.files.find((x) => x.path === ".opencode/agents/releaser.md")!.content).permission as Record<string, unknown>).task).toEqual({ "*": "deny", writer: "allow" });
    const codex = compileHost(pipeline, await HOSTS.codex!());
    expect(codex.fidelity.some((r) => r.role === "releaser" && r.constraint === "spawn" && r.loss === "L_SPAWN_INSTRUCTED")).toBe(true);
    fs.writeFileSync(f, fs.readFileSync(f, "utf8").replace("starts: [writer]", "starts: [wrtier]"));
    const r = await harness(["build", "--host", "claude-code", "--out", "out"], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/releaser\.md:\d+:\d+: error E_UNKNOWN_ROLE starts\[0\]: no role "wrtier"\. Did you mean "writer"\?/);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
