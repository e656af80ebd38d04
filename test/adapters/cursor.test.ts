// The Cursor adapter, parsed back: every emitted file is read with a real parser (yaml for front
// matter, JSON.parse for .cursor/cli.json) and compared with the IR and Cursor's documented formats
// (docs of 2026-11-30). Cursor has no installable CLI, so these and the golden files are its only tests.
import fc from "fast-check";
import { globMatch } from "../helpers/glob-match.js";
import { describe, expect, it } from "vitest";
import { CursorAdapter } from "../../adapters/cursor/index.js";
import { cursorPermissions } from "../../adapters/cursor/permissions.js";
import { CONSTRAINTS } from "../../src/adapter/fidelity.js";
import { compileHost } from "../../src/compile.js";
import type { PipelineIR } from "../../src/ir/types.js";
import { MINI_ROLES, PEBBLE_ROLES } from "../helpers/cli.js";
import { readRoles } from "../helpers/compile.js";
import { splitFrontMatter } from "../helpers/markdown.js";

const AGENT_KEYS = ["name", "description", "model", "readonly", "is_background"];

describe.each([
  ["pebble", PEBBLE_ROLES],
  ["mini", MINI_ROLES],
])("cursor: %s parsed back", (_name, dir) => {
  const pipeline = readRoles(dir);
  const out = compileHost(pipeline, CursorAdapter);
  const file = (p: string) => out.files.find((f) => f.path === p);

  it("every subagent role is a .cursor/agents file whose front matter Cursor can read", () => {
    for (const role of pipeline.roles.filter((r) => r.isolation === "subagent")) {
      const f = file(`.cursor/agents/${role.id}.md`);
      expect(f, role.id).toBeDefined();
      const { data, body } = splitFrontMatter(f!.content) as { data: Record<string, unknown>; body: string };
      expect(Object.keys(data).sort()).toEqual([...AGENT_KEYS].sort());
      expect(data.name).toBe(role.id);
      expect(data.description).toBe(role.description);
      expect(typeof data.model).toBe("string");
      expect(data.is_background).toBe(false);
      expect(data.readonly).toBe(!role.tools.some((t) => t === "edit" || t === "write" || t === "bash"));
      expect(body).toContain(role.body.trim().split("\n")[0]);
      expect(body).toContain(out.prompts[role.id]!.trim().split("\n").pop());
    }
  });

  it("main-session roles and the pipeline are plain-Markdown commands, never agents", () => {
    for (const role of pipeline.roles.filter((r) => r.isolation === "main")) {
      expect(file(`.cursor/agents/${role.id}.md`)).toBeUndefined();
      const c = file(`.cursor/commands/${role.id}.md`);
      expect(c?.content.startsWith("---"), role.id).toBe(false);
      expect(c?.content).toContain(out.prompts[role.id]!.trim());
    }
    const entry = file(`.cursor/commands/${pipeline.name}.md`);
    expect(entry?.content.startsWith("---")).toBe(false);
    for (const s of pipeline.stages) expect(entry?.content).toContain(s.id);
  });

  it(".cursor/cli.json denies exactly the pipeline's expressible never-write globs and whole command families", () => {
    const cli = JSON.parse(file(".cursor/cli.json")!.content) as { permissions: { allow: string[]; deny: string[] } };
    expect(cli.permissions.allow).toEqual([]); // nothing is auto-approved
    const writes = cli.permissions.deny.filter((d) => d.startsWith("Write(")).map((d) => d.slice(6, -1));
    const shells = cli.permissions.deny.filter((d) => d.startsWith("Shell(")).map((d) => d.slice(6, -1));
    expect(writes.length + shells.length).toBe(cli.permissions.deny.length);
    for (const g of writes) expect(pipeline.policies.neverWrite).toContain(g);
    // every Shell(token) deny refuses only what the harness denies for every role: "<token> *"
    for (const t of shells) expect(pipeline.policies.shellDeny).toContain(`${t} *`);
    // and no allowed work of any role is refused by a Write() deny
    for (const role of pipeline.roles)
      for (const g of role.write) {
        const sample = g.replace(/\*\*\//g, "").replace(/\/\*\*$/, "/a.ts").replace(/\*/g, "x");
        if (role.neverWrite.some((n) => globMatch(sample, n))) continue;
        expect(writes.some((w) => globMatch(sample, w)), `${role.id} may write ${sample}`).toBe(false);
      }
  });

  it("accounts for every constraint of every role, and claims no proof", () => {
    for (const role of pipeline.roles)
      for (const c of ["tools", "write-scope", "never-write", "shell", "git-deny", "spawn", "isolation", "model", "temperature"])
        expect(out.fidelity.some((r) => r.role === role.id && r.constraint === c), `${role.id} ${c}`).toBe(true);
    for (const r of out.fidelity) expect(CONSTRAINTS).toContain(r.constraint);
    expect(CursorAdapter.proofs).toEqual({});
    expect(file("MAPPING.md")?.content).toContain("not proven on the real host");
  });
});

describe("cursor: permissions", () => {
  const base = readRoles(PEBBLE_ROLES);
  const withPolicies = (neverWrite: string[], shellDeny: string[]): PipelineIR => ({ ...base, policies: { ...base.policies, neverWrite, shellDeny } });

  it("a glob Cursor cannot spell and a command it can only match by first token are reported, not widened", () => {
    const p = cursorPermissions(withPolicies(["src/{a,b}.ts", "docs/**"], ["git push *", "sudo *", "rm"]));
    expect(p.deny).toEqual(["Write(docs/**)", "Shell(sudo)"]);
    expect(p.unwritableGlobs).toEqual(["src/{a,b}.ts"]);
    expect(p.unwritableCommands).toEqual(["git push *", "rm"]);
  });

  it("no never-write glob can break out of its Write(...) token (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ minLength: 1, maxLength: 12 }), { maxLength: 6 }), (globs) => {
        const p = cursorPermissions(withPolicies(globs, []));
        for (const d of p.deny) expect(d).toMatch(/^Write\([A-Za-z0-9_.\-/*?@+]+\)$/);
        expect(p.deny.length + p.unwritableGlobs.length).toBe(globs.length);
      }),
    );
  });

  it("front matter survives any description (property)", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (description) => {
        const role = { ...base.roles.find((r) => r.isolation === "subagent")!, description };
        const out = compileHost({ ...base, roles: [role], stages: base.stages.filter((s) => s.role === role.id) }, CursorAdapter);
        const f = out.files.find((x) => x.path === `.cursor/agents/${role.id}.md`)!;
        expect((splitFrontMatter(f.content).data as { description: string }).description).toBe(description);
      }),
      { numRuns: 60 },
    );
  });
});
