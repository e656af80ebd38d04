// The loaders are not toothless: hand-made broken trees under fixtures/ must yield complaints
// from the real hosts, and the minimal valid trees must load clean (so this suite means
// something before the compiler exists).
import { describe, expect, it } from "vitest";
import { formatLoad, loadTree, type LoadResult } from "./lib/index.js";
import { fixture, hostBin } from "./helpers.js";
import type { HostId } from "./versions.js";

interface Case {
  name: string;
  /** every pattern must match at least one complaint */
  expect: RegExp[];
  /** agents that must be missing from the loaded list */
  notLoaded?: string[];
}

const load = async (host: HostId, name: string): Promise<LoadResult> => {
  const r = await loadTree(host, fixture(host, name), { bin: hostBin(host) });
  if (process.env.HARNESS_HOSTS_VERBOSE) process.stderr.write(`--- ${host}/${name}\n${formatLoad(r)}\n`);
  return r;
};

function expectComplaints(r: LoadResult, c: Case): void {
  const msg = formatLoad(r);
  expect(r.complaints.length, `expected complaints\n${msg}`).toBeGreaterThan(0);
  for (const re of c.expect) expect(r.complaints.some((x) => re.test(x)), `no complaint matches ${re}\n${msg}`).toBe(true);
  for (const a of c.notLoaded ?? []) expect(r.agents, msg).not.toContain(a);
}

describe.concurrent("claude-code fixtures", () => {
  it("valid: 2 agents, 1 command, deny rules and a blocking PreToolUse hook load clean", async () => {
    const r = await load("claude-code", "valid");
    const msg = formatLoad(r);
    expect(r.complaints, msg).toEqual([]);
    expect(r.declared.agents.sort()).toEqual(["alpha", "beta"]);
    expect(r.agents).toEqual(expect.arrayContaining(["alpha", "beta"]));
    expect(r.commands).toContain("pipeline");
    expect(r.version).toContain("2.1.332");
  });

  const cases: Case[] = [
    { name: "broken-yaml", expect: [/\[plugin validate\].*YAML frontmatter failed to parse/, /agent 'alpha' is not among the loaded agents/], notLoaded: ["alpha"] },
    { name: "unknown-key", expect: [/does not recognize or apply: "allowed-paths"/] },
    { name: "bad-default-mode", expect: [/\[doctor\].*permissions\.defaultMode: Invalid value/, /These settings did not load/] },
    { name: "bad-agent-hooks", expect: [/Agent 'alpha' not loaded: hooks\.PreToolUse/, /agent 'alpha' is not among the loaded agents/], notLoaded: ["alpha"] },
    { name: "bad-field-values", expect: [/invalid permissionMode 'yolo'/, /invalid maxTurns '-3'/] },
    { name: "unknown-tool", expect: [/\[claude lint\].*unknown tool 'Frobnicate'/] },
    { name: "write-rule", expect: [/Write\(secrets\/\*\*\) is not matched by file permission checks/] },
    { name: "broken-hook-script", expect: [/\[claude lint\] \.claude\/hooks\/guard\.mjs: node --check failed/] },
  ];
  for (const c of cases) it(`${c.name} yields complaints`, async () => expectComplaints(await load("claude-code", c.name), c));
});

describe.concurrent("opencode fixtures", () => {
  it("valid: 2 agents with permission maps, 1 command, opencode.json load clean", async () => {
    const r = await load("opencode", "valid");
    const msg = formatLoad(r);
    expect(r.complaints, msg).toEqual([]);
    expect(r.declared.agents.sort()).toEqual(["alpha", "beta"]);
    expect(r.agents).toEqual(expect.arrayContaining(["alpha", "beta", "build"]));
    expect(r.commands).toContain("pipeline");
    expect(r.version).toContain("1.18.33");
  });

  const cases: Case[] = [
    { name: "temperature-hot", expect: [/Expected number \| undefined, got "hot" temperature/] },
    { name: "broken-yaml", expect: [/front matter of .*alpha\.md did not parse/] },
    { name: "spilled-key", expect: [/unrecognized field\(s\) permissions were moved into 'options'/] },
    { name: "bad-json", expect: [/not valid JSON/] },
    { name: "bad-mode", expect: [/got "sidekick" mode/] },
  ];
  for (const c of cases) it(`${c.name} yields complaints`, async () => expectComplaints(await load("opencode", c.name), c));
});

describe.concurrent("codex fixtures", () => {
  it("valid: 2 roles, 1 skill, rules, project config and AGENTS.md load clean", async () => {
    const r = await load("codex", "valid");
    const msg = formatLoad(r);
    expect(r.complaints, msg).toEqual([]);
    expect(r.declared.agents.sort()).toEqual(["alpha", "beta"]);
    expect(r.agents).toEqual(expect.arrayContaining(["alpha", "beta", "default"]));
    expect(r.commands).toContain("pipeline");
    expect(r.version).toContain("0.171.0");
  });

  const cases: Case[] = [
    { name: "malformed-toml", expect: [/Ignoring malformed agent role definition: failed to parse agent role file/, /agent role 'alpha' is not offered/], notLoaded: ["alpha"] },
    { name: "unknown-field", expect: [/unknown field `allowed_paths`/, /agent role 'alpha' is not offered/], notLoaded: ["alpha"] },
    { name: "missing-instructions", expect: [/must define `developer_instructions`/], notLoaded: ["alpha"] },
    { name: "bad-rules", expect: [/invalid decision: maybe/] },
    { name: "skill-no-description", expect: [/failed to load skill .*missing field `description`/, /skill 'pipeline' is not listed/] },
    { name: "bad-config", expect: [/unknown configuration field `approvals`/] },
  ];
  for (const c of cases) it(`${c.name} yields complaints`, async () => expectComplaints(await load("codex", c.name), c));
});
