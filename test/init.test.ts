// harness init: starter pipelines that build clean on every registered host. A newly registered
// host whose limits no role change can fix is accepted by the minimal template automatically; any
// other loss it forces fails here, as it does for the bundled Pebble roles.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { HOSTS, HOST_IDS } from "../adapters/index.js";
import { compileHost } from "../src/compile.js";
import { renderTemplate, TEMPLATES } from "../src/commands/init.js";
import { readPipeline } from "../src/ir/normalize.js";
import { collectLosses, unusedAcceptances } from "../src/losses.js";
import { harness, PEBBLE_ROLES, ROOT, tempDir } from "./helpers/cli.js";

/** Every loss the user would have to act on, over every registered host. */
async function unaccepted(rolesDir: string): Promise<string[]> {
  const { pipeline, warnings } = readPipeline(rolesDir, { knownHosts: HOST_IDS });
  const out = warnings.map((w) => `${w.code} ${w.message}`);
  const losses = [];
  for (const host of HOST_IDS) losses.push(...collectLosses(pipeline, host, compileHost(pipeline, await HOSTS[host]!()).fidelity));
  out.push(...losses.filter((l) => l.severity !== "info" && !l.accepted).map((l) => `${l.host} ${l.role} ${l.record.constraint} ${l.record.loss}`));
  out.push(...unusedAcceptances(pipeline, HOST_IDS, losses).map((d) => d.message));
  return out;
}

describe("starter pipelines build clean on every registered host", () => {
  it("the bundled Pebble roles: no unaccepted warning or error, no unused acceptance", async () => {
    expect(await unaccepted(PEBBLE_ROLES)).toEqual([]);
  });

  for (const template of TEMPLATES)
    it(`the ${template} template as harness init writes it`, async () => {
      const dir = tempDir();
      for (const [name, text] of await renderTemplate(template, HOSTS, dir, ROOT)) writeFileSync(path.join(dir, name), text);
      expect(await unaccepted(dir)).toEqual([]);
    });
});

describe("harness init", () => {
  it("writes the minimal template (3 roles) with commented host acceptances and prints the next steps; build is one line per host", async () => {
    const dir = tempDir();
    const r = await harness(["init"], dir);
    expect(r.code).toBe(0);
    expect(readdirSync(path.join(dir, "roles")).sort()).toEqual(["coder.md", "pipeline.yaml", "planner.md", "reviewer.md"]);
    expect(r.stdout).toContain("next:");
    expect(r.stdout).toContain("npx harness build");
    const pipeline = readFileSync(path.join(dir, "roles/pipeline.yaml"), "utf8");
    expect(pipeline).toMatch(/# codex: a host limit, no role change removes it \(`harness explain L_SCOPE_INSTRUCTED`\)\.\n {2}- host: codex\n {4}constraint: write-scope\n {4}loss: L_SCOPE_INSTRUCTED\n {4}reason: /);
    const b = await harness(["build"], dir);
    expect(b.code).toBe(0);
    expect(b.stderr).toBe("");
    expect(b.stdout.trimEnd().split("\n")).toHaveLength(HOST_IDS.length);
  });

  it("--template pebble --roles DIR copies the bundled roles, pointing the schema hint at the installed package", async () => {
    const dir = tempDir();
    const r = await harness(["init", "--template", "pebble", "--roles", "agents"], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("npx harness build --roles agents");
    const names = readdirSync(PEBBLE_ROLES).sort();
    expect(readdirSync(path.join(dir, "agents")).sort()).toEqual(names);
    for (const n of names.filter((x) => x.endsWith(".md"))) expect(readFileSync(path.join(dir, "agents", n), "utf8")).toBe(readFileSync(path.join(PEBBLE_ROLES, n), "utf8"));
    const first = readFileSync(path.join(dir, "agents/pipeline.yaml"), "utf8").split("\n")[0]!;
    const schema = path.resolve(dir, "agents", first.replace("# yaml-language-server: $schema=", ""));
    expect(existsSync(schema)).toBe(true);
    expect((await harness(["build", "--roles", "agents"], dir)).code).toBe(0);
  });

  it("refuses to overwrite (exit 2, nothing written) and rejects an unknown template", async () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, "roles"));
    writeFileSync(path.join(dir, "roles/pipeline.yaml"), "mine\n");
    const r = await harness(["init"], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("roles already holds files (pipeline.yaml); harness init never overwrites.");
    expect(readdirSync(path.join(dir, "roles"))).toEqual(["pipeline.yaml"]);
    const bad = await harness(["init", "--template", "tiny"], tempDir());
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('no template "tiny"');
  });

  it("a missing roles folder points at harness init", async () => {
    const r = await harness(["build"], tempDir());
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("Run `harness init` to write a starter pipeline there");
  });
});
