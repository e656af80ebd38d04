// `harness install` into a project that already has its own Claude Code, OpenCode and Codex config:
// the real hosts load the installed project with no complaint, and list harness's agents and
// commands beside the project's own (Claude Code docs-bot; OpenCode reviewer and helper).
import { symlinkSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { HOSTS } from "../../adapters/index.js";
import { install, uninstall } from "../../src/commands/install.js";
import { PEBBLE_ROLES } from "../helpers/cli.js";
import { snapshot, TEAM_FILES, teamProject } from "../helpers/project.js";
import { formatLoad, loadTree } from "./lib/index.js";
import { hostBin } from "./helpers.js";
import type { HostId } from "./versions.js";

// Kilo 7.7.7 did not list the project's OpenCode agents (.opencode/agents/reviewer.md, opencode.json
// agent.helper) beside its own kilo.json, although others.md says it reads opencode.json too.
const OWN: Record<HostId, string[]> = { "claude-code": ["docs-bot"], opencode: ["reviewer", "helper"], codex: [], kilo: [] };

let project: string;
let before: Record<string, string>;
beforeAll(async () => {
  project = teamProject(PEBBLE_ROLES);
  before = snapshot(project);
  vi.spyOn(process.stdout, "write").mockImplementation(() => true);
  const code = await install({ registry: HOSTS, version: "test", roles: path.join(project, "roles"), into: project, quiet: true });
  vi.restoreAllMocks();
  expect(code).toBe(0);
});

describe.concurrent("an installed project loads in the real hosts", () => {
  for (const host of ["claude-code", "opencode", "codex", "kilo"] as const) {
    it(`${host}: the project with harness installed loads with zero complaints, harness's agents beside the project's own`, async () => {
      // OpenCode resolves each named agent with a full start: a role, the orchestrator and the project's own.
      const r = await loadTree(host, project, { bin: hostBin(host), ...(host === "opencode" ? { agents: ["jade", "pebble", ...OWN.opencode] } : {}) });
      const msg = formatLoad(r);
      expect(r.complaints, msg).toEqual([]);
      for (const a of ["jade", "mica", ...OWN[host]]) expect(r.agents, msg).toContain(a);
      for (const c of r.declared.commands) expect(r.commands, msg).toContain(c);
    });
  }
});

describe("and uninstalls cleanly", () => {
  it("gives back the project's exact bytes", async () => {
    vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    const code = await uninstall({ registry: HOSTS, version: "test", into: project, quiet: true });
    vi.restoreAllMocks();
    expect(code).toBe(0);
    expect(snapshot(project)).toEqual(before);
  });
});

// Issue 22: the team's OpenCode config as opencode.jsonc (comments, trailing commas), and CLAUDE.md a
// link to AGENTS.md. Install edits the JSONC in place and writes Claude Code's block through the link.
describe("a team project with opencode.jsonc and CLAUDE.md -> AGENTS.md", () => {
  let dir: string;
  let original: Record<string, string>;
  beforeAll(async () => {
    const { "opencode.json": json, ...rest } = TEAM_FILES;
    const jsonc = json!.replace('"$schema"', '// the team\'s OpenCode config\n  "$schema"').replace('"prompt": "Help." }', '"prompt": "Help.", /* theirs */ },');
    dir = teamProject(PEBBLE_ROLES, { ...rest, "opencode.jsonc": jsonc });
    symlinkSync("AGENTS.md", path.join(dir, "CLAUDE.md"));
    original = snapshot(dir);
    vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    const code = await install({ registry: HOSTS, version: "test", roles: path.join(dir, "roles"), into: dir, quiet: true, host: ["claude-code", "opencode"] });
    vi.restoreAllMocks();
    expect(code).toBe(0);
  });

  it("opencode: loads the installed project with zero complaints, the team's jsonc agent beside harness's", async () => {
    const r = await loadTree("opencode", dir, { bin: hostBin("opencode"), agents: ["jade", "helper"] });
    const msg = formatLoad(r);
    expect(r.complaints, msg).toEqual([]);
    for (const a of ["jade", "mica", "helper"]) expect(r.agents, msg).toContain(a);
  });

  it("claude-code: loads with zero complaints through the CLAUDE.md link", async () => {
    const r = await loadTree("claude-code", dir, { bin: hostBin("claude-code") });
    const msg = formatLoad(r);
    expect(r.complaints, msg).toEqual([]);
    for (const a of ["jade", "docs-bot"]) expect(r.agents, msg).toContain(a);
  });

  it("uninstall gives back the exact bytes, the link included", async () => {
    vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    const code = await uninstall({ registry: HOSTS, version: "test", into: dir, quiet: true });
    vi.restoreAllMocks();
    expect(code).toBe(0);
    expect(snapshot(dir)).toEqual(original);
  });
});
