// The IR: defaults applied, artifact references resolved, policies merged, stable order.
import { describe, expect, it } from "vitest";
import { MINI_ROLES, PEBBLE_ROLES } from "./helpers/cli.js";
import { readRoles } from "./helpers/compile.js";
import { readPipeline } from "../src/ir/normalize.js";
import { HOST_IDS } from "../adapters/index.js";

describe("normalize", () => {
  const ir = readRoles(MINI_ROLES);
  const role = (id: string) => ir.roles.find((r) => r.id === id)!;

  it("orders roles by their first stage and flattens stages with group numbers", () => {
    expect(ir.roles.map((r) => r.id)).toEqual(["planner", "writer", "checker"]);
    expect(ir.stages.map((s) => [s.id, s.group, s.index])).toEqual([["plan", 0, 0], ["write", 1, 1], ["verify", 2, 2]]);
    expect(ir.stages[2]!.when).toEqual({ id: "has-claims", text: "The article states facts that can be checked." });
    expect(ir.stages[0]!.gate).toEqual({ approve: "outline", ask: "Is this outline what you want?" });
  });

  it("resolves write scopes from artifacts and artifact: references, and merges pipeline policies", () => {
    expect(role("writer").write).toEqual(["articles/*.md"]);
    expect(role("writer").neverWrite).toEqual([".harness/**", "drafts/outline.md", "secrets/**"]); // .harness/: harness's own run state
    expect(role("planner").write).toEqual(["drafts/outline.md"]);
    expect(role("checker").neverWrite).toEqual([".harness/**", "secrets/**"]);
  });

  it("gives shell rules only to roles with bash, with the pipeline's denies added", () => {
    expect(role("writer").shell).toEqual({ allow: ["npx cspell *"], ask: [], deny: ["curl *", "rm -rf *"], default: "deny" });
    expect(role("planner").shell).toBeNull();
  });

  it("shares one frozen, sorted pipeline deny list; a role's own denies go into a sorted copy", () => {
    const pebble = readPipeline(PEBBLE_ROLES, { knownHosts: HOST_IDS }).pipeline; // normalize's own output, not a test copy
    expect(Object.isFrozen(pebble.policies.shellDeny)).toBe(true);
    expect(() => (pebble.policies.shellDeny as string[]).sort((a, b) => (a < b ? 1 : -1))).toThrow();
    for (const r of pebble.roles.filter((x) => x.shell)) {
      expect(r.shell!.deny).toEqual([...new Set(r.shell!.deny)].sort());
      expect(r.shell!.deny).toEqual(expect.arrayContaining([...pebble.policies.shellDeny]));
    }
    expect(role("writer").shell!.deny).not.toBe(ir.policies.shellDeny);
    expect(ir.policies.shellDeny).toEqual(["rm -rf *"]);
  });

  it("applies defaults and maps temperature classes to numbers", () => {
    expect(role("planner").temperature).toEqual({ class: "warm", value: 0.6 });
    expect(role("checker").temperature).toEqual({ class: "cold", value: 0.1 });
    expect(role("checker").worktree).toBe(true);
    expect(role("planner").worktree).toBe(false);
    expect(role("writer").maxTurns).toBe(30);
    expect(role("planner").maxTurns).toBeUndefined();
  });

  it("keeps tools in canonical order and never grants spawning when nested agents are off", () => {
    expect(role("checker").tools).toEqual(["read", "grep", "write", "web-fetch"]);
    expect(ir.roles.every((r) => !r.canSpawn)).toBe(true);
  });

  it("resolves check commands and routes, the loop, and computes max hops when not given", () => {
    expect(ir.checks[0]).toMatchObject({ id: "spelled", after: "write", onFailure: "write", retries: 2, expect: "pass", command: { id: "spell", run: "npx cspell articles/*.md" } });
    expect(ir.loop).toEqual({ stages: ["write", "verify"], maxRounds: 3, onExhausted: "Stop and ask the editor." });
    // two subagent stages, the spelling check's two retries back to write, two more rounds of the two-stage loop
    expect(ir.policies.maxHops).toBe(2 + 2 + 2 * 2);
    expect(ir.requiredEnforcement).toEqual(["write-scope", "never-write"]);
  });

  it("keeps work kinds in the author's order (an infra change runs infra before review)", () => {
    const pebble = readRoles(PEBBLE_ROLES);
    expect(pebble.workKinds.find((w) => w.id === "infra")!.stages).toEqual(["infra", "review", "verify"]);
    expect(pebble.stages.filter((s) => s.group === pebble.stages.at(-1)!.group).map((s) => s.id)).toEqual(["infra", "docs"]);
  });

  it("records where each field came from, for loss messages", () => {
    expect(role("writer").source.file).toMatch(/writer\.md$/);
    expect(role("writer").source.fields["permissions.shell"]).toEqual({ line: 14, column: 3 });
  });

  it("Pebble: Jade cannot write tests, Mica cannot write source, Onyx and Quartz write only their reports", () => {
    const p = readRoles(PEBBLE_ROLES);
    const r = (id: string) => p.roles.find((x) => x.id === id)!;
    expect(r("jade").neverWrite).toEqual(expect.arrayContaining(["test/**", "tests/**", "**/*.test.*", "**/*.spec.*"]));
    expect(r("mica").write.some((g) => g.startsWith("src/"))).toBe(false);
    expect(r("onyx").write).toEqual([".pebble/review.md"]);
    expect(r("quartz").write).toEqual([".pebble/verification.md"]);
    expect(p.policies.shellDeny).toEqual(expect.arrayContaining(["git commit", "git push"]));
  });
});
