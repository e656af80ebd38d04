// The CLI half of the second first-hour report (../shared/reports/first-hour-2.md, issue 22), run as
// the team ran it: the CLI's commands (in-process, src/cli.ts main), in the team's repository, from its root and from src/.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { INSTALL_DOC } from "../../src/commands/init.js";
import { harness, PEBBLE_ROLES, ROOT, tempDir } from "../helpers/cli.js";
import { repositoryScope, snapshot, TEAM_FILES, teamProject } from "../helpers/project.js";

const read = (dir: string, rel: string) => readFileSync(path.join(dir, rel), "utf8");
const HOSTS3 = ["--host", "claude-code", "--host", "codex", "--host", "opencode"];
/** The team's project as in the report: a package.json, src/, and the team's own config. */
const team = (files: Record<string, string> = {}, git = true) => teamProject(PEBBLE_ROLES, { ...TEAM_FILES, "package.json": '{ "name": "team", "private": true }\n', ...files }, { git });

describe("from a subfolder (F04)", () => {
  it("install, check --installed and uninstall find the project root above src/", async () => {
    const dir = team();
    const before = snapshot(dir);
    const src = path.join(dir, "src");
    const r = await harness(["install", ...HOSTS3], src);
    expect([r.code, r.stderr]).toEqual([0, ""]);
    expect(r.stdout.trimEnd().split("\n").map((l) => l.split(/\s+/)[0])).toEqual(["claude-code", "codex", "opencode"]);
    expect(existsSync(path.join(dir, "harness.lock.json"))).toBe(true);
    expect(existsSync(path.join(src, "harness.lock.json"))).toBe(false);
    expect((await harness(["check", "--installed"], src)).code).toBe(0);
    expect((await harness(["build", "-q"], src)).code).toBe(0);
    expect(existsSync(path.join(dir, "out/claude-code"))).toBe(true);
    expect(existsSync(path.join(src, "out"))).toBe(false);
    expect((await harness(["uninstall"], src)).code).toBe(0);
    expect(Object.fromEntries(Object.entries(snapshot(dir)).filter(([f]) => !f.startsWith("out/")))).toEqual(before);
  });

  it('a package.json "harness" key marks the root and names the roles folder', async () => {
    const dir = team({ "package.json": '{ "name": "team", "harness": { "roles": "agents/roles" } }\n' });
    mkdirSync(path.join(dir, "agents"));
    renameSync(path.join(dir, "roles"), path.join(dir, "agents/roles"));
    const r = await harness(["check", "--installed"], path.join(dir, "src"));
    expect(r.stderr).toContain("harness.lock.json is missing"); // it read agents/roles: no E_ROLES_DIR
    expect((await harness(["install", "-q", "--host", "claude-code"], path.join(dir, "src"))).code).toBe(0);
    expect(JSON.parse(read(dir, "harness.lock.json")).source.roles).toBe("agents/roles");
  });

  it("with no roles anywhere, the hint points at the project root, and init from src/ refuses instead of creating src/roles/", async () => {
    const dir = team();
    renameSync(path.join(dir, "roles"), path.join(dir, "elsewhere"));
    const src = path.join(dir, "src");
    const r = await harness(["build"], src);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`This is a subfolder of the project at ${dir}: run \`harness init\` there`);
    const init = await harness(["init"], src);
    expect(init.code).toBe(2);
    expect(init.stderr).toContain(`this is a subfolder of the project at ${dir}; harness init writes roles/ in the project root.`);
    expect(existsSync(path.join(src, "roles"))).toBe(false);
    expect((await harness(["init"], dir)).code).toBe(0);
    expect(existsSync(path.join(dir, "roles/pipeline.yaml"))).toBe(true);
    expect((await harness(["build", "-q"], src)).code).toBe(0);
    expect(existsSync(path.join(src, "out"))).toBe(false);
  });
  it("report, runs, runs show and run find the project root above src/ too", async () => {
    const dir = team();
    const src = path.join(dir, "src");
    expect((await harness(["report", "-q"], src)).code).toBe(0);
    expect(existsSync(path.join(dir, "out/report.html"))).toBe(true);
    expect(existsSync(path.join(src, "out"))).toBe(false);
    // a record at the root that is not harness's: each command that reads it from src/ says so
    mkdirSync(path.join(dir, ".harness/runs"), { recursive: true });
    writeFileSync(path.join(dir, ".harness/runs/20261201T000000Z-abcdef.json"), "{}\n");
    expect((await harness(["runs"], src)).stderr).toContain("warning .harness/runs/20261201T000000Z-abcdef.json: version is undefined");
    const show = await harness(["runs", "show", "20261201T000000Z-abcdef"], src);
    expect([show.code, show.stderr]).toEqual([1, expect.stringContaining("error .harness/runs/20261201T000000Z-abcdef.json: version is undefined")]);
    // run reads the root's roles/ and install lock: what it misses is an installed host, not roles/
    const run = await harness(["run", "add a flag"], src);
    expect([run.code, run.stderr]).toEqual([2, expect.stringContaining("no host harness run can drive is installed here")]);
  });

  it("a git repository nested in the project (a scratch checkout) is its own project: runs reads its records, never the parent's", async () => {
    const dir = team();
    const bad = (root: string, id: string) => {
      mkdirSync(path.join(root, ".harness/runs"), { recursive: true });
      writeFileSync(path.join(root, `.harness/runs/${id}.json`), "{}\n");
    };
    bad(dir, "20261201T000000Z-aaaaaa");
    const nested = path.join(dir, ".cache/scratch/project");
    mkdirSync(path.join(nested, "src"), { recursive: true });
    expect(spawnSync("git", ["init", "-q", nested], { timeout: 10_000 }).status).toBe(0);
    const inner = path.join(nested, "src");
    expect((await harness(["runs"], inner)).stderr).not.toContain("aaaaaa");
    expect((await harness(["runs", "show", "20261201T000000Z-aaaaaa"], inner)).stderr).toContain("no such run");
    // a folder holding .harness/ (what a run wrote) marks the project even with no roles/ or lock
    bad(nested, "20261201T000000Z-bbbbbb");
    rmSync(path.join(nested, ".git"), { recursive: true });
    const show = await harness(["runs", "show", "20261201T000000Z-bbbbbb"], inner);
    expect([show.code, show.stderr]).toEqual([1, expect.stringContaining("version is undefined")]);
  });
});

describe("init's next steps (F03)", () => {
  it("say harness install and check --installed, never copying out/, and point at a page that exists and ships", async () => {
    const r = await harness(["init"], tempDir());
    expect(r.stdout).toContain("npx harness install");
    expect(r.stdout).toContain("npx harness check --installed");
    expect(r.stdout).not.toMatch(/copy|Using the output/);
    expect(r.stdout).toContain(INSTALL_DOC);
    const doc = INSTALL_DOC.split(" ")[0]!;
    expect(existsSync(path.join(ROOT, doc))).toBe(true);
    expect(JSON.parse(read(ROOT, "package.json")).files).toContain(doc.split("/")[0]);
    for (const page of ["docs/reference/role.md", "docs/reference/pipeline.md"]) {
      expect(r.stdout).toContain(page);
      expect(existsSync(path.join(ROOT, page)), page).toBe(true);
    }
  });
});

describe("install's messages", () => {
  it("outside git: a warning, and the install still works (F13); inside git: no warning", async () => {
    const outside = team({}, false);
    const r = await harness(["install", "--host", "claude-code"], outside);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^\.: warning W_NOT_GIT is not in a git repository\. The stage-end audit works from git/);
    expect((await harness(["install", "--host", "claude-code"], team())).stderr).toBe("");
  });

  it("a team agent named like a role: an error first, with rename or harness import as the way out, nothing written (F05)", async () => {
    const dir = team({ ".claude/agents/onyx.md": "---\nname: onyx\ndescription: The team's reviewer.\n---\n\nReview.\n" });
    const before = snapshot(dir);
    const r = await harness(["install", ...HOSTS3], dir);
    expect(r.code).toBe(1);
    const lines = r.stderr.trimEnd().split("\n");
    expect(lines[0]).toBe(
      '.claude/agents/onyx.md:1:1: error W_NOT_OWNED exists and harness did not write it (harness never overwrites a file it does not own). Role "onyx" would be installed here, over the team\'s own. Rename the role (roles/onyx.md and its stages in pipeline.yaml), or adopt the team\'s agent into roles/ with `harness import --from claude-code`.',
    );
    expect(lines.at(-1)).toBe("Nothing was installed. Resolve the error(s) above, then run harness install again.");
    expect(r.stderr).not.toMatch(/move it away|--force|delete/i);
    expect(snapshot(dir)).toEqual(before);
    const check = await harness(["check", "--installed"], dir);
    expect(check.stderr).not.toContain("move it away");
  });

  it("--dry-run: the blocking problem first, a line per host, under 10 lines; -v prints the diff (F19)", async () => {
    const dir = team({ ".claude/agents/onyx.md": "mine\n" });
    const r = await harness(["install", "--dry-run", ...HOSTS3], dir);
    expect(r.code).toBe(1);
    expect(r.stderr.split("\n")[0]).toMatch(/^\.claude\/agents\/onyx\.md:1:1: error W_NOT_OWNED /);
    expect(r.stdout.trimEnd().split("\n").map((l) => l.split(/\s+/)[0])).toEqual(["claude-code", "codex", "opencode"]);
    expect(r.stderr).toContain("install would stop on the error(s) above; nothing was written (dry run).");
    expect((r.stdout + r.stderr).trimEnd().split("\n").length).toBeLessThan(10);
    const v = await harness(["install", "--dry-run", "-v", ...HOSTS3], dir);
    expect(v.stdout).toContain("+++ b/.claude/settings.json");
    const u = await harness(["install", "-q", ...HOSTS3], team());
    expect(u.code).toBe(0);
  });
});

describe("the AGENTS.md block (F09)", () => {
  it("speaks to a pipeline run only under scope pipeline, to every agent under scope repository", async () => {
    const dir = team();
    expect((await harness(["install", "-q", ...HOSTS3], dir)).code).toBe(0);
    const block = read(dir, "AGENTS.md");
    expect(block).toContain("## Rules for every Pebble run\n\nThey bind the Pebble orchestrator and its roles during a run (policies.scope: pipeline); any other session in this project is not bound by them.\n");
    expect(block).not.toContain("Rules for every agent");
    const repo = repositoryScope(team());
    expect((await harness(["install", "-q", ...HOSTS3], repo)).code).toBe(0);
    expect(read(repo, "AGENTS.md")).toContain("## Rules for every agent\n\nThey bind every session and agent in this project (policies.scope: repository).\n");
  });
});

/** pipeline.yaml with `targets:` naming every host it maps under `hosts:` but `host` (hosts: only maps models). */
function withoutTarget(text: string, host: string): string {
  const block = text.slice(text.search(/^hosts:\n/m));
  const mapped = [...block.matchAll(/^ {2}([a-z-]+):$/gm)].map((m) => m[1]!);
  expect(mapped).toContain(host);
  return `${text.trimEnd()}\ntargets: [${mapped.filter((h) => h !== host).join(", ")}]\n`;
}

describe("a host taken off pipeline.yaml's targets (F17)", () => {
  it("build removes its out/ folder, check --installed reports it, install removes its files, uninstall gives the rest back", async () => {
    const dir = team();
    const before = snapshot(dir);
    expect((await harness(["build", "-q"], dir)).code).toBe(0);
    expect((await harness(["install", "-q", ...HOSTS3], dir)).code).toBe(0);
    const yml = path.join(dir, "roles/pipeline.yaml");
    const text = read(dir, "roles/pipeline.yaml");
    const without = withoutTarget(text, "opencode");
    expect(without).not.toBe(text);
    writeFileSync(yml, without);
    const b = await harness(["build"], dir);
    expect(b.stdout).toMatch(/^opencode\s+out\/opencode: removed \(roles\/pipeline\.yaml no longer targets it\)$/m);
    expect(existsSync(path.join(dir, "out/opencode"))).toBe(false);
    const check = await harness(["check", "--installed"], dir);
    expect(check.code).toBe(1);
    expect(check.stderr).toMatch(/E_DRIFT \.opencode\/agents\/jade\.md is recorded in harness\.lock\.json but roles\/ no longer produce it\. Run `harness install` to remove it/);
    const r = await harness(["install", "--host", "claude-code", "--host", "codex"], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^opencode\s+from \.: no longer listed in pipeline\.yaml: 0 created, 1 updated, \d+ removed, 0 unchanged · shared: opencode\.json \(merged\)$/m);
    expect(existsSync(path.join(dir, ".opencode/agents/jade.md"))).toBe(false);
    expect(read(dir, "opencode.json")).toBe(TEAM_FILES["opencode.json"]);
    expect(read(dir, "AGENTS.md")).not.toContain("OpenCode");
    expect((await harness(["check", "--installed"], dir)).code).toBe(0);
    expect((await harness(["uninstall"], dir)).code).toBe(0);
    expect(Object.fromEntries(Object.entries(snapshot(dir)).filter(([f]) => !f.startsWith("out/")))).toEqual(before);
  });

  it("an out/ folder holding the team's own file is left alone, with a warning", async () => {
    const dir = team();
    expect((await harness(["build", "-q"], dir)).code).toBe(0);
    writeFileSync(path.join(dir, "out/opencode/notes.md"), "mine\n");
    writeFileSync(path.join(dir, "roles/pipeline.yaml"), withoutTarget(read(dir, "roles/pipeline.yaml"), "opencode"));
    const b = await harness(["build"], dir);
    expect(b.stderr).toMatch(/^out\/opencode: warning W_ORPHANED_HOST a harness build for "opencode", .* holds 1 file\(s\) harness did not write or that were edited \(notes\.md\), so harness left the folder alone/m);
    expect(existsSync(path.join(dir, "out/opencode/.opencode/agents/jade.md"))).toBe(true);
  });
});
