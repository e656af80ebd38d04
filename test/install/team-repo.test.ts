// The team repository of the second first-hour report (../shared/reports/first-hour-2.md, issue 22):
// each install finding reproduced on a project with the team's own config, and every scene ends with
// uninstall giving the team's files back byte for byte (with only the team's own later edits).
import { lstatSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { HOSTS } from "../../adapters/index.js";
import { checkInstalled, install, uninstall, type InstallOptions } from "../../src/commands/install.js";
import { PEBBLE_ROLES } from "../helpers/cli.js";
import { snapshot, TEAM_FILES, teamProject } from "../helpers/project.js";

beforeEach(() => {
  vi.spyOn(process.stdout, "write").mockImplementation(() => true);
  vi.spyOn(process.stderr, "write").mockImplementation(() => true);
});
afterEach(() => vi.restoreAllMocks());

const opts = (dir: string, more: Partial<InstallOptions> = {}): InstallOptions => ({ registry: HOSTS, version: "0.0.0-test", roles: path.join(dir, "roles"), into: dir, quiet: true, ...more });
const read = (dir: string, rel: string) => readFileSync(path.join(dir, rel), "utf8");
const edit = (dir: string, rel: string, change: (text: string) => string) => {
  const before = read(dir, rel);
  const after = change(before);
  if (after === before) throw new Error(`the edit of ${rel} changed nothing`);
  writeFileSync(path.join(dir, rel), after);
};
const stderr = () => (process.stderr.write as unknown as { mock: { calls: unknown[][] } }).mock.calls.map((c) => String(c[0])).join("");
const lastJson = () => JSON.parse(String((process.stdout.write as unknown as { mock: { calls: unknown[][] } }).mock.calls.at(-1)![0]));

/** The team project of the report: its own CLAUDE.md too. */
const TEAM = { ...TEAM_FILES, "CLAUDE.md": "# Team\n\nRun `npm test` before you push.\n" };
const HOSTS3 = { host: ["claude-code", "codex", "opencode"] };
const START = '/harness-audit.mjs\\" start';
const count = (text: string, needle: string) => text.split(needle).length - 1;

describe("a hand-edited harness hook entry (F01)", () => {
  it("--force puts harness's entry back in place: one entry, the file as harness wrote it", async () => {
    const dir = teamProject(PEBBLE_ROLES, TEAM);
    const before = snapshot(dir);
    expect(await install(opts(dir, HOSTS3))).toBe(0);
    const installed = read(dir, ".claude/settings.json");
    expect(count(installed, START)).toBe(1);
    expect(count(installed, '"timeout": 60,')).toBe(1); // the report's sed: harness's SubagentStart entry
    edit(dir, ".claude/settings.json", (t) => t.replace('"timeout": 60,', '"timeout": 90,'));
    expect(await checkInstalled(opts(dir, { json: true }))).toBe(1);
    const drift = lastJson().drift.find((d: { path: string }) => d.path.endsWith("settings.json"));
    expect(drift.kind).toBe("modified");
    expect(drift.detail[0].message).toMatch(/^harness's entry in hooks\.SubagentStart was edited: harness wrote /);

    expect(await install(opts(dir, { ...HOSTS3, quiet: false }))).toBe(1); // kept without --force
    const stdout = (process.stdout.write as unknown as { mock: { calls: unknown[][] } }).mock.calls.map((c) => String(c[0])).join("");
    expect(stdout).toMatch(/^claude-code\s+into .*: 0 created, 0 updated, 0 removed, \d+ unchanged, 1 kept as edited/m);
    expect(stderr()).toMatch(/settings\.json:\d+:\d+: warning W_HAND_EDIT harness's entry in hooks\.SubagentStart was edited: .*; kept \(--force overwrites it\)/);
    expect(await install(opts(dir, { ...HOSTS3, force: true }))).toBe(0);
    expect(read(dir, ".claude/settings.json")).toBe(installed); // in place, one entry
    expect(await checkInstalled(opts(dir))).toBe(0);
    expect(await uninstall(opts(dir))).toBe(0);
    expect(snapshot(dir)).toEqual(before);
  });

  it("uninstall removes harness's entry even when edited, so no hook is left pointing at a deleted script", async () => {
    const dir = teamProject(PEBBLE_ROLES, TEAM);
    const before = snapshot(dir);
    expect(await install(opts(dir, HOSTS3))).toBe(0);
    const settings = JSON.parse(read(dir, ".claude/settings.json"));
    settings.hooks.SubagentStart[0].hooks[0].timeout = 90;
    writeFileSync(path.join(dir, ".claude/settings.json"), `${JSON.stringify(settings, null, 2)}\n`);
    expect(await uninstall(opts(dir))).toBe(0);
    expect(read(dir, ".claude/settings.json")).not.toContain("harness");
    expect(JSON.parse(read(dir, ".claude/settings.json"))).toEqual(JSON.parse(TEAM_FILES[".claude/settings.json"]!));
    expect(snapshot(dir)[".claude/settings.json"]).toBeDefined();
    expect(Object.keys(snapshot(dir)).sort()).toEqual(Object.keys(before).sort());
  });

  it("check --installed reports a duplicated and an orphaned harness entry; --force and uninstall take them out", async () => {
    const dir = teamProject(PEBBLE_ROLES, TEAM);
    const before = snapshot(dir);
    expect(await install(opts(dir, HOSTS3))).toBe(0);
    const installed = read(dir, ".claude/settings.json");
    const settings = JSON.parse(installed);
    const ours = settings.hooks.SubagentStart[0];
    // What the old --force left: the team's edited copy beside a fresh one.
    settings.hooks.SubagentStart.push({ hooks: [{ ...ours.hooks[0], timeout: 90 }] });
    // An entry naming harness's guard where harness records none.
    settings.hooks.SubagentStop.push({ hooks: [{ type: "command", command: 'node "$CLAUDE_PROJECT_DIR/.claude/hooks/harness-guard.cjs" jade' }] });
    writeFileSync(path.join(dir, ".claude/settings.json"), `${JSON.stringify(settings, null, 2)}\n`);
    expect(await checkInstalled(opts(dir, { json: true }))).toBe(1);
    const detail = lastJson().drift.find((d: { path: string }) => d.path.endsWith("settings.json")).detail.map((d: { message: string }) => d.message);
    // the copies sit after every entry harness wrote (the audit's, then the run controller's)
    const copyAt = settings.hooks.SubagentStart.length - 1;
    const orphanAt = settings.hooks.SubagentStop.length - 1;
    expect(detail).toEqual([expect.stringMatching(new RegExp(`^hooks\\.SubagentStart\\[${copyAt}\\] is a second copy of harness's entry: `)), expect.stringMatching(new RegExp(`^hooks\\.SubagentStop\\[${orphanAt}\\] names a harness file, but harness\\.lock\\.json records no such entry \\(orphaned\\): `))]);
    expect(await checkInstalled(opts(dir))).toBe(1);
    expect(stderr()).toMatch(/E_DRIFT \S*\.claude\/settings\.json was edited by hand/);

    const edited = read(dir, ".claude/settings.json");
    expect(await install(opts(dir, { ...HOSTS3, force: true }))).toBe(0);
    expect(count(read(dir, ".claude/settings.json"), START)).toBe(1);
    expect(JSON.parse(read(dir, ".claude/settings.json"))).toEqual(JSON.parse(installed));
    expect(await checkInstalled(opts(dir))).toBe(0);

    writeFileSync(path.join(dir, ".claude/settings.json"), edited);
    expect(await uninstall(opts(dir))).toBe(0);
    // The test rewrote the file's layout (the team's own change); everything else is byte for byte.
    const { ".claude/settings.json": after, ...rest } = snapshot(dir);
    const { ".claude/settings.json": team, ...teamRest } = before;
    expect(JSON.parse(after!)).toEqual(JSON.parse(team!));
    expect(rest).toEqual(teamRest);
  });
});

describe("the team's text around the marked block (F02)", () => {
  it("text below the block is no drift, install leaves it where it is, uninstall keeps it", async () => {
    const dir = teamProject(PEBBLE_ROLES, TEAM);
    const before = snapshot(dir);
    expect(await install(opts(dir, HOSTS3))).toBe(0);
    const notes = "\n## Team notes\n\nRelease on Tuesdays.\n";
    for (const file of ["CLAUDE.md", "AGENTS.md"]) edit(dir, file, (t) => `# Above\n\n${t}${notes}`);
    const edited = snapshot(dir);
    expect(await checkInstalled(opts(dir))).toBe(0);
    expect(await install(opts(dir, HOSTS3))).toBe(0);
    expect(snapshot(dir)).toEqual(edited);
    expect(await uninstall(opts(dir))).toBe(0);
    for (const file of ["CLAUDE.md", "AGENTS.md"]) expect(read(dir, file)).toBe(`# Above\n\n${before[file]}${notes}`);
  });

  it("a roles/ change replaces the block where it stands", async () => {
    const dir = teamProject(PEBBLE_ROLES, TEAM);
    const before = snapshot(dir);
    expect(await install(opts(dir, HOSTS3))).toBe(0);
    edit(dir, "AGENTS.md", (t) => `${t}\nBelow the block.\n`);
    edit(dir, "roles/pipeline.yaml", (t) => t.replace("through eight\n  single-purpose agents", "through eight\n  one-purpose agents"));
    expect(await checkInstalled(opts(dir, { json: true }))).toBe(1);
    expect(lastJson().drift.find((d: { path: string }) => d.path.endsWith("AGENTS.md"))?.kind).toBe("outdated");
    expect(await install(opts(dir, HOSTS3))).toBe(0);
    expect(read(dir, "AGENTS.md")).toMatch(/<!-- harness:end -->\n\nBelow the block\.\n$/);
    expect(await uninstall(opts(dir))).toBe(0);
    expect(read(dir, "AGENTS.md")).toBe(`${before["AGENTS.md"]}\nBelow the block.\n`);
  });
});

describe("a shared file that is a link (F08)", () => {
  it("CLAUDE.md -> AGENTS.md: both blocks go into AGENTS.md, the link stays, uninstall gives back the bytes", async () => {
    const { "CLAUDE.md": _, ...rest } = TEAM;
    const dir = teamProject(PEBBLE_ROLES, rest);
    symlinkSync("AGENTS.md", path.join(dir, "CLAUDE.md"));
    const before = snapshot(dir);
    expect(await install(opts(dir, HOSTS3))).toBe(0);
    expect(lstatSync(path.join(dir, "CLAUDE.md")).isSymbolicLink()).toBe(true);
    expect(readlinkSync(path.join(dir, "CLAUDE.md"))).toBe("AGENTS.md");
    const agents = read(dir, "AGENTS.md");
    expect(agents.startsWith(TEAM_FILES["AGENTS.md"]!)).toBe(true);
    expect(agents).toContain("<!-- harness:begin (generated"); // the block Codex and OpenCode read
    expect(agents).toContain("<!-- harness:begin CLAUDE.md (generated"); // Claude Code's, named after the link
    expect(agents).toContain("<!-- harness:end CLAUDE.md -->");
    expect(agents).toContain("**Codex:**");
    expect(agents).toContain("Rules for every Pebble run (/pebble and its roles)");
    expect(await checkInstalled(opts(dir))).toBe(0);
    expect(await install(opts(dir, HOSTS3))).toBe(0);
    expect(read(dir, "AGENTS.md")).toBe(agents);
    edit(dir, "AGENTS.md", (t) => `${t}\nTeam notes.\n`);
    expect(await checkInstalled(opts(dir))).toBe(0);
    expect(await uninstall(opts(dir, { host: ["codex", "opencode"] }))).toBe(0);
    expect(read(dir, "AGENTS.md")).not.toContain("**Codex:**");
    expect(read(dir, "AGENTS.md")).toContain("<!-- harness:begin CLAUDE.md (generated");
    expect(await uninstall(opts(dir))).toBe(0);
    expect(read(dir, "AGENTS.md")).toBe(`${TEAM_FILES["AGENTS.md"]}\nTeam notes.\n`);
    expect(readlinkSync(path.join(dir, "CLAUDE.md"))).toBe("AGENTS.md");
    expect(Object.keys(snapshot(dir)).sort()).toEqual(Object.keys(before).sort());
  });

  it("an untouched round trip through the link is byte for byte", async () => {
    const { "CLAUDE.md": _, ...rest } = TEAM;
    const dir = teamProject(PEBBLE_ROLES, rest);
    symlinkSync("AGENTS.md", path.join(dir, "CLAUDE.md"));
    const before = snapshot(dir);
    expect(await install(opts(dir))).toBe(0);
    expect(await uninstall(opts(dir))).toBe(0);
    expect(snapshot(dir)).toEqual(before);
  });
});

describe("JSONC (F12)", () => {
  const COMMENTED = `{
  // The team's OpenCode config
  "$schema": "https://opencode.ai/config.json",
  "model": "anthropic/claude-sonnet-4", /* the default */
  "mcp": {
    "linear": { "type": "remote", "url": "https://mcp.linear.app/sse", }, // trailing comma: OpenCode reads it
  },
  "permission": { "edit": "ask" }
}
`;

  it("opencode.json with comments is installed into with every comment kept, and given back byte for byte", async () => {
    const dir = teamProject(PEBBLE_ROLES, { ...TEAM, "opencode.json": COMMENTED });
    const before = snapshot(dir);
    expect(await install(opts(dir, HOSTS3))).toBe(0);
    const text = read(dir, "opencode.json");
    for (const comment of ["// The team's OpenCode config", "/* the default */", "// trailing comma: OpenCode reads it"]) expect(text).toContain(comment);
    expect(text).toContain('"subagent_depth": 1');
    expect(await checkInstalled(opts(dir))).toBe(0);
    expect(await uninstall(opts(dir))).toBe(0);
    expect(snapshot(dir)).toEqual(before);
  });

  it("a team's opencode.jsonc is the file installed into; no opencode.json appears beside it", async () => {
    const { "opencode.json": _, ...rest } = TEAM;
    const dir = teamProject(PEBBLE_ROLES, { ...rest, "opencode.jsonc": COMMENTED });
    const before = snapshot(dir);
    expect(await install(opts(dir, HOSTS3))).toBe(0);
    expect(snapshot(dir)["opencode.json"]).toBeUndefined();
    expect(read(dir, "opencode.jsonc")).toContain('"subagent_depth": 1');
    expect(read(dir, "opencode.jsonc")).toContain("// The team's OpenCode config");
    expect(await checkInstalled(opts(dir))).toBe(0);
    expect(await install(opts(dir, HOSTS3))).toBe(0);
    expect(snapshot(dir)["opencode.json"]).toBeUndefined();
    expect(await uninstall(opts(dir))).toBe(0);
    expect(snapshot(dir)).toEqual(before);
  });

  it("Claude Code's settings.json stays plain JSON: a comment there is an error with its place, nothing written", async () => {
    const dir = teamProject(PEBBLE_ROLES, { ...TEAM, ".claude/settings.json": '{\n  // mine\n  "model": "opus"\n}\n' });
    const before = snapshot(dir);
    await expect(install(opts(dir, HOSTS3))).rejects.toThrow(/\.claude\/settings\.json:2:3: error E_INSTALL_PARSE is not valid JSON \(its host reads plain JSON: no comments or trailing commas\)/);
    expect(snapshot(dir)).toEqual(before);
  });
});

describe("what is never taken for harness's entry", () => {
  it("a team's permission string naming a harness file stays, through install --force and uninstall", async () => {
    const dir = teamProject(PEBBLE_ROLES, TEAM);
    expect(await install(opts(dir, { host: ["cursor"] }))).toBe(0);
    const rule = "Read(.cursor/agents/jade.md)"; // a file harness installs whole
    edit(dir, ".cursor/cli.json", (t) => t.replace('"deny": [', `"deny": [\n      ${JSON.stringify(rule)},`));
    expect(await checkInstalled(opts(dir, { host: ["cursor"] }))).toBe(0);
    expect(await install(opts(dir, { host: ["cursor"], force: true }))).toBe(0);
    expect(read(dir, ".cursor/cli.json")).toContain(rule);
    expect(await uninstall(opts(dir))).toBe(0);
    expect(JSON.parse(read(dir, ".cursor/cli.json")).permissions.deny).toEqual([rule]);
  });
});
