// The Antigravity adapter, parsed back: every emitted file is read with a real parser and compared
// with the IR and Antigravity 2.0 / CLI formats (docs of 2026-11-30). No installable CLI exists, so
// these and the golden files are its only tests.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AntigravityAdapter } from "../../adapters/antigravity/index.js";
import { ANTIGRAVITY_TOOL_IDS } from "../../adapters/antigravity/tools.js";
import { compileHost } from "../../src/compile.js";
import { MINI_ROLES, PEBBLE_ROLES } from "../helpers/cli.js";
import { readRoles } from "../helpers/compile.js";
import { splitFrontMatter } from "../helpers/markdown.js";

const KNOWN_IDS = new Set(Object.values(ANTIGRAVITY_TOOL_IDS).flat());

describe.each([
  ["pebble", PEBBLE_ROLES],
  ["mini", MINI_ROLES],
])("antigravity: %s parsed back", (_name, dir) => {
  const pipeline = readRoles(dir);
  const out = compileHost(pipeline, AntigravityAdapter);
  const file = (p: string) => out.files.find((f) => f.path === p);

  it("every role is an agent folder (.agents/agents/<role>/agent.md) with an explicit tool allow-list", () => {
    for (const role of pipeline.roles) {
      const f = file(`.agents/agents/${role.id}/agent.md`);
      expect(f, role.id).toBeDefined();
      const { data } = splitFrontMatter(f!.content) as { data: Record<string, unknown> };
      expect(Object.keys(data).sort()).toEqual(["commandExecutionPolicy", "description", "mainAgent", "model", "name", "subagent", "tools"]);
      expect(data.name).toBe(role.id);
      expect(data.description).toBe(role.description);
      expect(["inherit", "flash", "pro"]).toContain(data.model);
      const tools = data.tools as string[];
      for (const t of tools) expect(KNOWN_IDS.has(t), t).toBe(true);
      expect(tools.includes("run_command")).toBe(role.tools.includes("bash"));
      expect(tools.includes("write_to_file")).toBe(role.tools.includes("write"));
      expect(tools.includes("invoke_subagent")).toBe(role.canSpawn);
      // auto-execution is never turned on
      expect(data.commandExecutionPolicy).toBe(role.shell ? "sandbox" : "off");
      expect([data.mainAgent, data.subagent]).toEqual(role.isolation === "main" ? [true, false] : [false, true]);
    }
    expect(out.files.filter((f) => f.path.startsWith(".agents/agents/")).length).toBe(pipeline.roles.length);
  });

  it("the entry command is a skill whose name and description fit the skill format", () => {
    const f = file(`.agents/skills/${pipeline.name}/SKILL.md`)!;
    const { data, body } = splitFrontMatter(f.content) as { data: { name: string; description: string }; body: string };
    expect(data.name).toBe(pipeline.name);
    expect(data.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(data.description.length).toBeGreaterThan(0);
    expect(data.description.length).toBeLessThanOrEqual(1024);
    for (const s of pipeline.stages) expect(body).toContain(s.id);
  });

  it("writes the 2.0 / CLI layout only, an always-on rule, and never a turbo marker", () => {
    for (const f of out.files) {
      expect(f.path.startsWith(".agent/"), f.path).toBe(false);
      expect(f.content).not.toMatch(/\/\/\s*turbo/);
      expect(f.content).not.toMatch(/commandExecutionPolicy: (auto|eager)/);
    }
    const rule = splitFrontMatter(file(`.agents/rules/${pipeline.name}.md`)!.content) as { data: unknown; body: string };
    expect(rule.data).toEqual({ trigger: "always_on" });
    expect(rule.body.length).toBeLessThanOrEqual(12_000);
    expect(file("AGENTS.md")).toBeDefined();
  });

  it("records write scopes and command rules as losses and claims no proof", () => {
    for (const role of pipeline.roles.filter((r) => r.tools.includes("write") || r.tools.includes("edit")))
      expect(out.fidelity.find((r) => r.role === role.id && r.constraint === "write-scope")).toMatchObject({ level: "instructed", loss: "L_SCOPE_INSTRUCTED" });
    for (const role of pipeline.roles.filter((r) => r.shell))
      expect(out.fidelity.find((r) => r.role === role.id && r.constraint === "shell")).toMatchObject({ level: "instructed", loss: "L_SHELL_INSTRUCTED" });
    expect(AntigravityAdapter.proofs).toEqual({});
    expect(file("MAPPING.md")?.content).toContain("not proven on the real host");
  });
});

describe("antigravity: front matter survives any description (property)", () => {
  const base = readRoles(PEBBLE_ROLES);
  it("parses back to the same string", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (description) => {
        const role = { ...base.roles[0]!, description };
        const out = compileHost({ ...base, roles: [role], stages: base.stages.filter((s) => s.role === role.id) }, AntigravityAdapter);
        const f = out.files.find((x) => x.path === `.agents/agents/${role.id}/agent.md`)!;
        expect((splitFrontMatter(f.content).data as { description: string }).description).toBe(description);
      }),
      { numRuns: 60 },
    );
  });
});
