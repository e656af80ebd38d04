// The Kilo adapter, parsed back. Kilo 7.7.7 loads an agent whose front matter does not parse as a
// default agent (mode "all", default permissions) without a word (others.md §5.2), so every emitted
// front matter is parsed here with a real YAML parser and checked against Kilo's config schema
// (mode enum, permission actions, no `tools:` array), and its rules against the shared V1 lowering.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { KiloAdapter, orchestratorName } from "../../adapters/kilo/index.js";
import { OpenCodeAdapter } from "../../adapters/opencode/index.js";
import { lowerPermissions } from "../../src/adapter/opencode-permission/permissions.js";
import { compileHost } from "../../src/compile.js";
import { MINI_ROLES, PEBBLE_ROLES } from "../helpers/cli.js";
import { readRoles } from "../helpers/compile.js";
import { splitFrontMatter } from "../helpers/markdown.js";

const ACTIONS = ["allow", "ask", "deny"];
/** Kilo's schema: an action, or a map of pattern → action (config check rejects anything else). */
function validPermission(p: unknown): boolean {
  if (!p || typeof p !== "object") return false;
  return Object.values(p).every((v) => (typeof v === "string" ? ACTIONS.includes(v) : v && typeof v === "object" && Object.values(v).every((a) => ACTIONS.includes(a as string))));
}

describe.each([
  ["pebble", PEBBLE_ROLES],
  ["mini", MINI_ROLES],
])("kilo: %s parsed back", (_name, dir) => {
  const pipeline = readRoles(dir);
  const out = compileHost(pipeline, KiloAdapter);
  const file = (p: string) => out.files.find((f) => f.path === p);
  const fm = (p: string) => splitFrontMatter(file(p)!.content) as { data: Record<string, unknown>; body: string };

  it("every role is a .kilo/agents file whose front matter Kilo's schema accepts, with the shared V1 rules", () => {
    for (const role of pipeline.roles) {
      const { data, body } = fm(`.kilo/agents/${role.id}.md`);
      expect(data.mode).toBe(role.isolation === "main" ? "primary" : "subagent");
      expect(data.description).toBe(role.description);
      expect(data.temperature).toBe(role.temperature.value);
      expect("tools" in data, "Kilo rejects a tools: array").toBe(false);
      expect(validPermission(data.permission), role.id).toBe(true);
      // key order is rule order: the parsed object must keep the lowering's order exactly
      expect(JSON.stringify(data.permission)).toBe(JSON.stringify(lowerPermissions(pipeline, role).permission));
      expect(body).toContain(out.prompts[role.id]!.trim().split("\n")[0]);
    }
    const orch = fm(`.kilo/agents/${orchestratorName(pipeline)}.md`).data;
    expect(orch.mode).toBe("primary");
    expect(validPermission(orch.permission)).toBe(true);
  });

  it("commands route to agents that exist; kilo.json is Kilo's", () => {
    const agents = new Set(out.files.filter((f) => f.path.startsWith(".kilo/agents/")).map((f) => f.path.slice(".kilo/agents/".length, -3)));
    const cmds = out.files.filter((f) => f.path.startsWith(".kilo/commands/"));
    expect(cmds.length).toBeGreaterThan(0);
    for (const c of cmds) {
      const { data, body } = splitFrontMatter(c.content) as { data: { agent: string; description: string }; body: string };
      expect(agents.has(data.agent), `${c.path} → ${data.agent}`).toBe(true);
      expect(typeof data.description).toBe("string");
      expect(body).toContain("$ARGUMENTS");
    }
    const cfg = JSON.parse(file("kilo.json")!.content) as Record<string, unknown>;
    expect(cfg.$schema).toBe("https://app.kilo.ai/config.json");
    // as OpenCode: project-wide rules only under policies.scope: repository (ordinary sessions keep Kilo's defaults)
    if (pipeline.policies.scope === "repository") expect(validPermission(cfg.permission)).toBe(true);
    else expect(cfg).not.toHaveProperty("permission");
    expect(cfg.subagent_depth).toBe(pipeline.policies.nestedAgents ? Math.max(2, pipeline.policies.maxHops) : 1);
    for (const f of out.files) expect(f.path.startsWith(".opencode/") || f.path === "opencode.json", f.path).toBe(false);
  });

  it("lowers permissions exactly as OpenCode does (one engine, one lowering)", () => {
    const oc = compileHost(pipeline, OpenCodeAdapter);
    for (const role of pipeline.roles) {
      const a = splitFrontMatter(oc.files.find((f) => f.path === `.opencode/agents/${role.id}.md`)!.content).data as { permission: unknown };
      expect(fm(`.kilo/agents/${role.id}.md`).data.permission).toEqual(a.permission);
    }
    expect(out.fidelity.filter((r) => r.level === "native").map((r) => [r.role, r.constraint])).toEqual(oc.fidelity.filter((r) => r.level === "native").map((r) => [r.role, r.constraint]));
  });
});

describe("kilo: front matter survives any description (property)", () => {
  const base = readRoles(PEBBLE_ROLES);
  it("parses back to the same string, so Kilo never falls back to a default agent", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (description) => {
        const role = { ...base.roles.find((r) => r.isolation === "subagent")!, description };
        const out = compileHost({ ...base, roles: [role], stages: base.stages.filter((s) => s.role === role.id) }, KiloAdapter);
        const f = out.files.find((x) => x.path === `.kilo/agents/${role.id}.md`)!;
        const data = splitFrontMatter(f.content).data as { description: string; mode: string };
        expect(data.description).toBe(description);
        expect(data.mode).toBe("subagent");
      }),
      { numRuns: 60 },
    );
  });
});

describe("policies.scope on Kilo", () => {
  const pebble = readRoles(PEBBLE_ROLES);
  const configOf = (p: typeof pebble) => JSON.parse(compileHost(p, KiloAdapter).files.find((f) => f.path === "kilo.json")!.content) as Record<string, unknown>;
  it("pipeline: kilo.json holds no project-wide permission; repository: the same denies as opencode.json", () => {
    expect(configOf(pebble)).not.toHaveProperty("permission");
    const repository = { ...pebble, policies: { ...pebble.policies, scope: "repository" as const } };
    const kilo = configOf(repository).permission;
    expect(validPermission(kilo)).toBe(true);
    const opencode = JSON.parse(compileHost(repository, OpenCodeAdapter).files.find((f) => f.path === "opencode.json")!.content) as Record<string, unknown>;
    expect(JSON.stringify(kilo)).toBe(JSON.stringify(opencode.permission));
  });
});

// Kilo-Org/kilocode#13581: an agent named architect or plan silently gets Kilo's plan-mode edit deny.
describe("Kilo reserved agent names", () => {
  it("a role named plan is a build error with a rename hint (exit 2, nothing written); other hosts build it", async () => {
    const { harness, scratchProject } = await import("../helpers/cli.js");
    const fs = await import("node:fs");
    const path = await import("node:path");
    const dir = scratchProject();
    const roles = path.join(dir, "roles");
    fs.renameSync(path.join(roles, "planner.md"), path.join(roles, "plan.md"));
    const yml = path.join(roles, "pipeline.yaml");
    fs.writeFileSync(yml, fs.readFileSync(yml, "utf8").replace(/role: planner$/m, "role: plan"));
    const r = await harness(["build", "--host", "kilo", "--out", "gen"], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/roles\/plan\.md:\d+:\d+: error E_HOST_RESERVED_NAME id: Kilo treats an agent named "plan" as its plan mode .* Rename it \(e\.g\. "plan-stage"\)/);
    expect(fs.existsSync(path.join(dir, "gen"))).toBe(false);
    expect((await harness(["build", "--host", "opencode", "--out", "gen"], dir)).code).not.toBe(2);
  });

  it("a pipeline named architect (the orchestrator's agent name) is refused at pipeline.yaml's name", async () => {
    const { reservedNameErrors } = await import("../../adapters/kilo/index.js");
    const { readRoles } = await import("../helpers/compile.js");
    const { MINI_ROLES } = await import("../helpers/cli.js");
    const p = readRoles(MINI_ROLES);
    expect(reservedNameErrors(p)).toEqual([]);
    const errs = reservedNameErrors({ ...p, name: "architect" });
    expect(errs.map((e) => [e.code, e.field, e.position.file.endsWith("pipeline.yaml")])).toEqual([["E_HOST_RESERVED_NAME", "name", true]]);
  });
});
