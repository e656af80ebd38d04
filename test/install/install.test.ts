// harness install / uninstall / check --installed through the command functions, on a project that
// already has its own Claude Code, OpenCode and Codex config and AGENTS.md.
import { chmodSync, existsSync, readFileSync, rmSync, symlinkSync, mkdirSync, writeFileSync, mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse as tomlParse } from "smol-toml";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { HOSTS } from "../../adapters/index.js";
import { checkInstalled, install, uninstall, type InstallOptions } from "../../src/commands/install.js";
import { BLOCK_BEGIN } from "../../src/install/block.js";
import { LOCK_FILE, readLock } from "../../src/install/lock.js";
import { MINI_ROLES, PEBBLE_ROLES } from "../helpers/cli.js";
import { repositoryScope, snapshot, TEAM_FILES, teamProject } from "../helpers/project.js";
import { readRoles } from "../helpers/compile.js";

/** The hosts the bundled pipeline.yaml lists: an install with no host option installs them all. */
const PEBBLE_HOSTS = Object.keys(readRoles(PEBBLE_ROLES).hosts).sort();

let cwd: string;
beforeEach(() => {
  cwd = process.cwd();
  vi.spyOn(process.stdout, "write").mockImplementation(() => true);
  vi.spyOn(process.stderr, "write").mockImplementation(() => true);
});
afterEach(() => {
  process.chdir(cwd);
  vi.restoreAllMocks();
});

const opts = (dir: string, more: Partial<InstallOptions> = {}): InstallOptions => ({ registry: HOSTS, version: "0.0.0-test", roles: path.join(dir, "roles"), into: dir, quiet: true, ...more });
const read = (dir: string, rel: string) => readFileSync(path.join(dir, rel), "utf8");
const json = (dir: string, rel: string) => JSON.parse(read(dir, rel));
/** Every key and array entry of `mine` is still in `installed`. */
function keeps(installed: unknown, mine: unknown): boolean {
  if (Array.isArray(mine)) return Array.isArray(installed) && mine.every((e) => installed.some((x) => JSON.stringify(x) === JSON.stringify(e)));
  if (mine && typeof mine === "object") return !!installed && typeof installed === "object" && Object.entries(mine).every(([k, v]) => keeps((installed as Record<string, unknown>)[k], v));
  return installed === mine;
}
const stderr = () => (process.stderr.write as unknown as { mock: { calls: unknown[][] } }).mock.calls.map((c) => String(c[0])).join("");

describe("install into a project with its own config, then uninstall", () => {
  it("keeps every entry of the project's own files, and uninstall gives back their exact bytes", async () => {
    const dir = teamProject(PEBBLE_ROLES);
    const before = snapshot(dir);
    expect(await install(opts(dir))).toBe(0);

    // Every key and entry of the team's settings is still there, in its place; with policies.scope:
    // pipeline harness adds no permission or env there (the guard lives in agent and command front
    // matter), only, after the team's entries, the guard's second layer for role subagents (no
    // argument: by agent_type), the stage-end audit's and the run controller's hook entries.
    const settings = json(dir, ".claude/settings.json");
    const team = JSON.parse(TEAM_FILES[".claude/settings.json"]!);
    expect(settings.model).toBe("opus");
    expect(settings.env).toEqual(team.env);
    expect(settings.permissions).toEqual(team.permissions);
    expect(settings.hooks.PreToolUse.slice(0, team.hooks.PreToolUse.length)).toEqual(team.hooks.PreToolUse);
    expect(settings.hooks.PreToolUse.slice(team.hooks.PreToolUse.length).map((e: any) => e.hooks[0].command)).toEqual([expect.stringContaining('harness-guard.cjs"; rc=$?'), expect.stringContaining("harness-controller.cjs\" PreToolUse")]);
    const teamPost = team.hooks.PostToolUse;
    expect(settings.hooks.PostToolUse.slice(0, teamPost.length)).toEqual(teamPost); // the team's entries first, unchanged
    expect(settings.hooks.PostToolUse.slice(teamPost.length).map((e: any) => e.hooks[0].command).join("\n")).toContain("harness-audit.mjs");
    expect(read(dir, ".claude/agents/jade.md")).toContain('harness-guard.cjs" jade;');

    const oc = json(dir, "opencode.json");
    expect(oc.mcp.docs.command).toEqual(["true"]);
    expect(oc.agent.helper.prompt).toBe("Help.");
    // policies.scope: pipeline (the default): harness adds no project-wide permission, the team's stays exactly as written
    expect(oc.permission).toEqual({ edit: "ask" });

    const toml = read(dir, ".codex/config.toml");
    expect(toml.startsWith('# The team\'s Codex settings\nmodel_reasoning_effort = "high" # deep by default\n')).toBe(true);
    const codex = tomlParse(toml) as Record<string, any>;
    expect(codex.mcp_servers.docs.enabled).toBe(false);
    expect(codex.agents.max_depth).toBe(1);
    expect(Object.keys(codex.permissions)).toContain("jade");

    const agents = read(dir, "AGENTS.md");
    expect(agents.startsWith(TEAM_FILES["AGENTS.md"]!)).toBe(true);
    expect(agents.split(BLOCK_BEGIN)).toHaveLength(2); // one block for every host that reads AGENTS.md
    expect(agents).toContain("**Codex:** start a run with the `$pebble` skill");
    expect(agents).toContain("In OpenCode, start a run with `/pebble");
    for (const entry of ["In Kilo, start a run with `/pebble", "In Cursor, start a run with `/pebble", "In Antigravity (2.0 or the `agy` CLI), start a run"]) expect(agents).toContain(entry);
    expect(json(dir, ".cursor/cli.json").permissions.deny).toContain("Write(.git/**)");
    expect(json(dir, "kilo.json").subagent_depth).toBe(1);
    expect(read(dir, ".claude/agents/docs-bot.md")).toBe(TEAM_FILES[".claude/agents/docs-bot.md"]);
    expect(existsSync(path.join(dir, ".claude/agents/jade.md"))).toBe(true);
    expect(statSync(path.join(dir, ".codex/bin/jade.sh")).mode & 0o111).not.toBe(0);
    chmodSync(path.join(dir, ".codex/bin/jade.sh"), 0o644); // a lost executable bit is drift, and install restores it
    expect(await checkInstalled(opts(dir))).toBe(1);
    expect(await install(opts(dir))).toBe(0);
    expect(statSync(path.join(dir, ".codex/bin/jade.sh")).mode & 0o111).not.toBe(0);
    expect(readLock(dir)!.hosts).toEqual(PEBBLE_HOSTS);
    // Edited in place: the team's own layout stays (compact arrays, key order), so the lock needs no copy.
    expect(read(dir, ".claude/settings.json")).toContain('\n    "allow": ["Bash(npm run lint)", "Read(docs/**)"],\n');
    // (the team's PreToolUse entry gains only the comma before harness's guard entry)
    expect(read(dir, ".claude/settings.json")).toMatch(/\n {6}\{ "matcher": "Bash", "hooks": \[\{ "type": "command", "command": "echo audit >\/dev\/null" \}\] \},?\n/);
    expect(read(dir, "opencode.json")).toContain('\n  "mcp": { "docs": { "type": "local", "command": ["true"], "enabled": false } },\n');
    for (const [rel, entry] of Object.entries(readLock(dir)!.files)) expect(entry.original, rel).toBeUndefined();
    expect(agents).toContain("In Cursor, start a run with");

    expect(await checkInstalled(opts(dir))).toBe(0);
    expect(await install(opts(dir))).toBe(0);
    const installed = snapshot(dir);
    expect(await install(opts(dir))).toBe(0);
    expect(snapshot(dir)).toEqual(installed); // idempotent

    expect(await uninstall(opts(dir))).toBe(0);
    expect(snapshot(dir)).toEqual(before);
  });

  it("uninstalling one host keeps the others and recomposes AGENTS.md", async () => {
    const dir = teamProject(PEBBLE_ROLES);
    expect(await install(opts(dir))).toBe(0);
    expect(await uninstall(opts(dir, { host: ["codex"] }))).toBe(0);
    const agents = read(dir, "AGENTS.md");
    expect(agents).not.toContain("**Codex:**");
    expect(agents).toContain("In OpenCode, start a run");
    expect(existsSync(path.join(dir, ".codex/agents"))).toBe(false);
    expect(read(dir, ".codex/config.toml")).toBe(TEAM_FILES[".codex/config.toml"]);
    expect(readLock(dir)!.hosts).toEqual(PEBBLE_HOSTS.filter((h) => h !== "codex"));
    expect(await checkInstalled(opts(dir))).toBe(0);
    expect(await uninstall(opts(dir))).toBe(0);
    expect(snapshot(dir)).toEqual(snapshot(teamProject(PEBBLE_ROLES)));
  });

  it("into an empty project creates the files whole, and uninstall leaves nothing behind", async () => {
    const dir = teamProject(PEBBLE_ROLES, {});
    expect(await install(opts(dir))).toBe(0);
    for (const [host, file] of [["opencode", "opencode.json"], ["claude-code", ".claude/settings.json"], ["codex", ".codex/config.toml"], ["codex", ".codex/agents/jade.toml"]])
      expect(read(dir, file!), file).toBe(read(path.resolve("out", host!), file!)); // the same bytes as out/<host>/
    expect(read(dir, "AGENTS.md").startsWith(BLOCK_BEGIN)).toBe(true);
    expect(await uninstall(opts(dir))).toBe(0);
    expect(snapshot(dir)).toEqual({});
  });
});

describe("one host at a time", () => {
  it("install --host adds a host and keeps those already installed; uninstall --dry-run writes nothing", async () => {
    const dir = teamProject(PEBBLE_ROLES);
    expect(await install(opts(dir, { host: ["claude-code"] }))).toBe(0);
    expect(readLock(dir)!.hosts).toEqual(["claude-code"]);
    expect(read(dir, "AGENTS.md")).toBe(TEAM_FILES["AGENTS.md"]); // Claude Code does not read AGENTS.md
    expect(await install(opts(dir, { host: ["codex"] }))).toBe(0);
    expect(readLock(dir)!.hosts).toEqual(["claude-code", "codex"]);
    expect(existsSync(path.join(dir, ".claude/agents/jade.md"))).toBe(true);
    expect(read(dir, "AGENTS.md")).toContain("**Codex:**");
    expect(read(dir, "AGENTS.md")).not.toContain("In OpenCode");
    const installed = snapshot(dir);
    expect(await uninstall(opts(dir, { dryRun: true }))).toBe(0);
    expect(snapshot(dir)).toEqual(installed);
    expect(await checkInstalled(opts(dir))).toBe(0);
  });
});

describe("refusals", () => {
  it("installs nothing while the pipeline has unaccepted error-level losses on a host (exit 1)", async () => {
    const dir = teamProject(MINI_ROLES, {});
    expect(await install(opts(dir, { host: ["codex"] }))).toBe(1);
    expect(stderr()).toContain("unaccepted error-level loss(es); nothing was installed");
    expect(snapshot(dir)).toEqual({});
  });

  it("uninstall without a lock, or of a host that is not installed, is a usage error", async () => {
    const dir = teamProject(MINI_ROLES, {});
    await expect(uninstall(opts(dir))).rejects.toThrow(/harness\.lock\.json does not exist/);
    expect(await install(opts(dir))).toBe(0);
    await expect(uninstall(opts(dir, { host: ["codex"] }))).rejects.toThrow('host "codex" is not installed here. Installed: claude-code.');
  });
});

describe("install with policies.scope: repository", () => {
  it("merges harness's permissions, env and guard hook after the team's own, and uninstall gives back their exact bytes", async () => {
    const dir = repositoryScope(teamProject(PEBBLE_ROLES));
    const before = snapshot(dir);
    expect(await install(opts(dir, { host: ["claude-code"] }))).toBe(0);
    const settings = json(dir, ".claude/settings.json");
    expect(settings.model).toBe("opus");
    expect(settings.env).toEqual({ TEAM_TOKEN_FILE: ".secrets/token", CLAUDE_CODE_MAX_SUBAGENT_SPAWN_DEPTH: "1" });
    expect(settings.permissions.allow.slice(0, 2)).toEqual(["Bash(npm run lint)", "Read(docs/**)"]);
    expect(settings.permissions.deny.filter((r: string) => r === "Bash(git push)")).toHaveLength(1); // the team's own, not doubled
    expect(settings.permissions.deny).toContain("Bash(rm -rf *)");
    expect(settings.permissions.deny).toContain("Edit(.env)");
    expect(settings.hooks.PreToolUse).toHaveLength(3);
    expect(settings.hooks.PreToolUse[0].hooks[0].command).toBe("echo audit >/dev/null");
    expect(settings.hooks.PreToolUse[1].hooks[0].command).toContain("harness-guard.cjs");
    expect(settings.hooks.PreToolUse[2].hooks[0].command).toContain("harness-controller.cjs");
    expect(await uninstall(opts(dir))).toBe(0);
    expect(snapshot(dir)).toEqual(before);
  });

  it("merges Cursor's guard hooks after the team's own .cursor/hooks.json entries, and uninstall gives back their exact bytes", async () => {
    const teamHooks = `{
  "version": 1,
  "hooks": {
    "afterFileEdit": [{ "command": ".cursor/hooks/format.sh" }],
    "beforeShellExecution": [{ "command": ".cursor/hooks/audit.sh", "matcher": "curl|wget" }]
  }
}
`;
    const dir = repositoryScope(teamProject(PEBBLE_ROLES, { ".cursor/hooks.json": teamHooks, ".cursor/hooks/format.sh": "#!/bin/sh\nexit 0\n" }));
    const before = snapshot(dir);
    expect(await install(opts(dir, { host: ["cursor"] }))).toBe(0);
    const hooks = json(dir, ".cursor/hooks.json");
    expect(keeps(hooks, JSON.parse(teamHooks))).toBe(true);
    expect(hooks.version).toBe(1);
    expect(hooks.hooks.beforeShellExecution).toHaveLength(2);
    expect(hooks.hooks.beforeShellExecution[0]).toEqual({ command: ".cursor/hooks/audit.sh", matcher: "curl|wget" }); // the team's entry first
    expect(hooks.hooks.beforeShellExecution[1].command).toContain("\"$harness_node\" .cursor/hooks/harness-guard.cjs beforeShellExecution");
    for (const event of ["preToolUse", "beforeMCPExecution", "subagentStart"]) expect(hooks.hooks[event][0].failClosed).toBe(true);
    expect(read(dir, ".cursor/hooks/format.sh")).toBe("#!/bin/sh\nexit 0\n");
    expect(existsSync(path.join(dir, ".cursor/hooks/harness-guard.cjs"))).toBe(true);
    expect(await checkInstalled(opts(dir))).toBe(0);
    expect(await uninstall(opts(dir))).toBe(0);
    expect(snapshot(dir)).toEqual(before);
  });
});

describe("hand edits", () => {
  it("are reported by check --installed, kept by install, overwritten with --force", async () => {
    const dir = repositoryScope(teamProject(PEBBLE_ROLES));
    expect(await install(opts(dir))).toBe(0);
    writeFileSync(path.join(dir, ".claude/agents/jade.md"), `${read(dir, ".claude/agents/jade.md")}\nMy own line.\n`);
    const settings = json(dir, ".claude/settings.json");
    const ours = settings.hooks.SubagentStop;
    delete settings.hooks.SubagentStop; // an entry harness owns, taken out by hand
    settings.model = "sonnet"; // the team's own key: free to change
    writeFileSync(path.join(dir, ".claude/settings.json"), `${JSON.stringify(settings, null, 2)}\n`);

    expect(await checkInstalled(opts(dir, { json: true }))).toBe(1);
    const report = JSON.parse(String((process.stdout.write as unknown as { mock: { calls: unknown[][] } }).mock.calls.at(-1)![0]));
    expect(report.drift.map((d: { path: string; kind: string }) => [path.basename(d.path), d.kind])).toEqual([
      ["jade.md", "modified"],
      ["settings.json", "modified"],
    ]);

    expect(await install(opts(dir))).toBe(1);
    expect(read(dir, ".claude/agents/jade.md")).toContain("My own line.");
    expect(json(dir, ".claude/settings.json").hooks.SubagentStop).toBeUndefined();
    expect(stderr()).toMatch(/\.claude\/agents\/jade\.md:1:1: warning W_HAND_EDIT the file was edited; kept \(--force overwrites it\)\n/);
    expect(stderr()).toMatch(/\.claude\/settings\.json:\d+:\d+: warning W_HAND_EDIT harness's entry \{.*… \(runs harness-audit\.mjs stop\) in hooks\.SubagentStop was removed or changed; kept \(--force overwrites it\)\n/);

    // Uninstall keeps hand-edited parts (and the lock that names them) until --force.
    const edited = snapshot(dir);
    expect(await uninstall(opts(dir, { dryRun: true }))).toBe(1);
    expect(snapshot(dir)).toEqual(edited);

    expect(await install(opts(dir, { force: true }))).toBe(0);
    expect(read(dir, ".claude/agents/jade.md")).not.toContain("My own line.");
    expect(json(dir, ".claude/settings.json").hooks.SubagentStop).toEqual(ours);
    expect(json(dir, ".claude/settings.json").model).toBe("sonnet");
    expect(await checkInstalled(opts(dir))).toBe(0);
    expect(await uninstall(opts(dir))).toBe(0);
    expect(json(dir, ".claude/settings.json")).toEqual({ ...JSON.parse(TEAM_FILES[".claude/settings.json"]!), model: "sonnet" });
  });

  it("never overwrites a file harness did not write, even with --force: nothing is installed", async () => {
    const files = { ...TEAM_FILES, ".claude/agents/jade.md": "my own jade\n" };
    const dir = teamProject(PEBBLE_ROLES, files);
    const before = snapshot(dir);
    expect(await install(opts(dir, { force: true }))).toBe(1);
    expect(stderr()).toMatch(/\.claude\/agents\/jade\.md:1:1: error W_NOT_OWNED exists and harness did not write it \(harness never overwrites a file it does not own\)\. Role "jade" would be installed here, over the team's own\. Rename the role \(roles\/jade\.md and its stages in pipeline\.yaml\), or adopt the team's agent into roles\/ with `harness import --from claude-code`\.\n/);
    expect(stderr()).not.toContain("--force"); // --force never takes over a file harness does not own
    expect(stderr()).toContain("Nothing was installed.");
    expect(snapshot(dir)).toEqual(before); // no host half installed
    expect(await checkInstalled(opts(dir))).toBe(1);
  });

  it("a project's own file at a harness path, found after an install, stops a re-install and is kept", async () => {
    const dir = teamProject(PEBBLE_ROLES);
    expect(await install(opts(dir))).toBe(0);
    const lock = readLock(dir)!;
    delete lock.files[".claude/agents/jade.md"]; // as if the team had written it themselves
    writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify(lock));
    writeFileSync(path.join(dir, ".claude/agents/jade.md"), "my own jade\n");
    expect(await install(opts(dir, { force: true }))).toBe(1);
    expect(read(dir, ".claude/agents/jade.md")).toBe("my own jade\n");
    expect(await uninstall(opts(dir))).toBe(0);
    expect(read(dir, ".claude/agents/jade.md")).toBe("my own jade\n");
    expect(existsSync(path.join(dir, ".claude/agents/mica.md"))).toBe(false);
  });

  it("uninstall keeps a hand-edited file and its lock entry, and --force removes it", async () => {
    const dir = teamProject(PEBBLE_ROLES);
    const before = snapshot(dir);
    expect(await install(opts(dir))).toBe(0);
    const edited = read(dir, "CLAUDE.md").replace("# Pebble", "# Pebble, our way");
    writeFileSync(path.join(dir, "CLAUDE.md"), edited);
    expect(await uninstall(opts(dir))).toBe(1);
    expect(read(dir, "CLAUDE.md")).toBe(edited);
    expect(existsSync(path.join(dir, ".claude/agents/jade.md"))).toBe(false);
    expect(readLock(dir)!.hosts).toEqual(["claude-code"]);
    expect(Object.keys(readLock(dir)!.files)).toEqual(["CLAUDE.md"]);
    expect(await uninstall(opts(dir, { force: true }))).toBe(0);
    expect(snapshot(dir)).toEqual(before);
  });

  it("a conflicting key is kept unless --force, and uninstall gives it back", async () => {
    const files = { ...TEAM_FILES, "opencode.json": '{\n  "subagent_depth": 3\n}\n' };
    const dir = teamProject(PEBBLE_ROLES, files);
    expect(await install(opts(dir))).toBe(1);
    expect(stderr()).toMatch(/opencode\.json:2:3: error W_CONFLICT subagent_depth is 3 here; opencode needs 1\. Kept yours: remove the key, or run with --force to replace it \(uninstall gives it back\)\n/);
    expect(read(dir, "opencode.json")).toBe(files["opencode.json"]);
    expect(await install(opts(dir, { force: true }))).toBe(0);
    expect(json(dir, "opencode.json").subagent_depth).toBe(1);
    expect(await uninstall(opts(dir))).toBe(0);
    expect(read(dir, "opencode.json")).toBe(files["opencode.json"]);
  });
});

describe("re-install after a role change", () => {
  it("removes the removed role's files, keeps the team's files, and check --installed sees each step", async () => {
    const dir = teamProject(MINI_ROLES, { ...TEAM_FILES });
    expect(await install(opts(dir))).toBe(0);
    expect(existsSync(path.join(dir, ".claude/agents/checker.md"))).toBe(true);
    removeChecker(dir);
    expect(await checkInstalled(opts(dir, { json: true }))).toBe(1);
    const report = JSON.parse(String((process.stdout.write as unknown as { mock: { calls: unknown[][] } }).mock.calls.at(-1)![0]));
    expect(report.drift.some((d: { path: string; kind: string }) => d.path.endsWith(".claude/agents/checker.md") && d.kind === "orphaned")).toBe(true);
    expect(await install(opts(dir))).toBe(0);
    expect(existsSync(path.join(dir, ".claude/agents/checker.md"))).toBe(false);
    expect(existsSync(path.join(dir, ".claude/agents/writer.md"))).toBe(true);
    expect(read(dir, ".claude/agents/docs-bot.md")).toBe(TEAM_FILES[".claude/agents/docs-bot.md"]);
    expect(read(dir, ".opencode/agents/reviewer.md")).toBe(TEAM_FILES[".opencode/agents/reviewer.md"]);
    expect(await checkInstalled(opts(dir))).toBe(0);
  });
});

/** The mini pipeline without its checker role: its stage, the loop through it, and the artifact it wrote. */
function removeChecker(dir: string): void {
  const pipeline = path.join(dir, "roles/pipeline.yaml");
  const text = readFileSync(pipeline, "utf8")
    .replace("stages: [write, verify]\n  long:", "stages: [write]\n  long:")
    .replace("stages: [plan, write, verify]", "stages: [plan, write]")
    .replace("  - id: verify\n    role: checker\n    when: has-claims\n", "")
    .replace(/loop:\n(?: {2}.*\n)+/, "");
  writeFileSync(pipeline, text);
  writeFileSync(path.join(dir, "roles/writer.md"), read(dir, "roles/writer.md").replace("reads: [outline, notes]", "reads: [outline]"));
  rmSync(path.join(dir, "roles/checker.md"));
}

describe("safety", () => {
  it("a failure halfway through the apply leaves the project exactly as it was", async () => {
    const dir = teamProject(PEBBLE_ROLES);
    const before = snapshot(dir);
    const boom = (i: number) => {
      if (i === 20) throw new Error("injected failure");
    };
    await expect(install(opts(dir, { hooks: { beforeStep: boom } }))).rejects.toThrow("injected failure");
    expect(snapshot(dir)).toEqual(before);
    expect(existsSync(path.join(dir, ".codex/agents"))).toBe(false);

    expect(await install(opts(dir))).toBe(0);
    const installed = snapshot(dir);
    await expect(uninstall(opts(dir, { hooks: { beforeStep: boom } }))).rejects.toThrow("injected failure");
    expect(snapshot(dir)).toEqual(installed);
  });

  it("refuses to write through a symlink that leads out of the project (exit 2, nothing written)", async () => {
    const dir = teamProject(PEBBLE_ROLES, {});
    const outside = mkdtempSync(path.join(tmpdir(), "harness-outside-"));
    symlinkSync(outside, path.join(dir, ".claude"));
    await expect(install(opts(dir))).rejects.toThrow(/\.claude:1:1: error E_INSTALL_SYMLINK is a symbolic link to .*outside the project/);
    expect(snapshot(outside)).toEqual({});
    expect(existsSync(path.join(dir, LOCK_FILE))).toBe(false);
    expect(existsSync(path.join(dir, "opencode.json"))).toBe(false);
  });

  it("refuses a file linked out of the project, a dangling link, and a broken shared file, with file:line:col", async () => {
    const dir = teamProject(PEBBLE_ROLES, {});
    const outside = mkdtempSync(path.join(tmpdir(), "harness-outside-"));
    writeFileSync(path.join(outside, "CLAUDE.md"), "theirs\n");
    symlinkSync(path.join(outside, "CLAUDE.md"), path.join(dir, "CLAUDE.md"));
    await expect(install(opts(dir))).rejects.toThrow(/CLAUDE\.md:1:1: error E_INSTALL_SYMLINK is a symbolic link to .*, outside the project/);
    expect(readFileSync(path.join(outside, "CLAUDE.md"), "utf8")).toBe("theirs\n");
    const dangling = teamProject(PEBBLE_ROLES, {});
    symlinkSync(path.join(dangling, "gone.md"), path.join(dangling, "AGENTS.md"));
    await expect(install(opts(dangling))).rejects.toThrow(/AGENTS\.md:1:1: error E_INSTALL_SYMLINK is a symbolic link to a file that does not exist/);
    expect(existsSync(path.join(dangling, LOCK_FILE))).toBe(false);
    // OpenCode reads JSONC (comments, trailing commas), so only a real syntax error is one.
    const broken = teamProject(PEBBLE_ROLES, { "opencode.json": '{\n  "model": "x",\n}\n', ".claude/settings.json": '{\n  "model": "x",\n}\n' });
    await expect(install(opts(broken))).rejects.toThrow(/\.claude\/settings\.json:3:1: error E_INSTALL_PARSE is not valid JSON/);
    const unclosed = teamProject(PEBBLE_ROLES, { "opencode.json": '{\n  "model": "x"\n  "mcp": {}\n}\n' });
    await expect(install(opts(unclosed))).rejects.toThrow(/opencode\.json:3:3: error E_INSTALL_PARSE is not valid JSON, even with comments and trailing commas/);
    expect(existsSync(path.join(broken, LOCK_FILE))).toBe(false);
  });

  it("a shared folder harness needs may be a symlink inside the project", async () => {
    const dir = teamProject(MINI_ROLES, {});
    mkdirSync(path.join(dir, "config/claude"), { recursive: true });
    symlinkSync(path.join(dir, "config/claude"), path.join(dir, ".claude"));
    expect(await install(opts(dir))).toBe(0);
    expect(existsSync(path.join(dir, "config/claude/settings.json"))).toBe(true);
  });
});
