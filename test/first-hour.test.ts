// A new user's first hour (issue 12): each trap and rough edge found by trying harness as a team
// lead would, with the behaviour that replaced it. Every test here failed on the old behaviour.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import { beforeAll, describe, expect, it } from "vitest";
import { HOST_IDS } from "../adapters/index.js";
import { formatDiagnostic, InputError } from "../src/errors.js";
import { readPipeline } from "../src/ir/normalize.js";
import { listFiles } from "../src/fileset.js";
import { CLI, harness, MINI_ROLES, PEBBLE_ROLES, scratchProject, tempDir } from "./helpers/cli.js";

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error("run `npm run build` first: the CLI tests use the compiled JavaScript");
});

/** Copy the mini fixture, edit it, and return [errors, warnings] as compiler lines (cwd = the copy). */
function diagnose(edits: Record<string, (text: string) => string>): { errors: string[]; warnings: string[] } {
  const dir = tempDir();
  cpSync(MINI_ROLES, dir, { recursive: true });
  for (const [file, edit] of Object.entries(edits)) {
    const p = path.join(dir, file);
    writeFileSync(p, edit(existsSync(p) ? readFileSync(p, "utf8") : ""));
  }
  try {
    const { warnings } = readPipeline(dir, { knownHosts: HOST_IDS, cwd: dir });
    return { errors: [], warnings: warnings.map(formatDiagnostic) };
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    return { errors: error.diagnostics.filter((d) => d.severity === "error").map(formatDiagnostic), warnings: error.diagnostics.filter((d) => d.severity !== "error").map(formatDiagnostic) };
  }
}
const edit = (file: string, from: string, to: string) => ({ [file]: (t: string) => (t.includes(from) ? t.replace(from, to) : (() => { throw new Error(`${file} has no ${from}`); })()) });

describe("schema traps", () => {
  it('"src/" as a path is an error naming the fix (it gave a write scope of nothing)', () => {
    const { errors } = diagnose(edit("pipeline.yaml", 'paths: ["articles/*.md"]', 'paths: ["articles/"]'));
    expect(errors).toEqual(['pipeline.yaml:11:13: error E_PIPELINE_SCHEMA artifacts.article.paths[0]: "articles/" ends with "/", so it names no file and gives a write scope of nothing; write "articles/**" for everything in the folder.']);
  });

  it('a bare folder name such as "src" is a warning, never silent', () => {
    const { errors, warnings } = diagnose(edit("pipeline.yaml", 'paths: ["articles/*.md"]', 'paths: ["src"]'));
    expect(errors).toEqual([]);
    expect(warnings).toContain('pipeline.yaml:11:13: warning W_PATH_FOLDER artifacts.article.paths[0]: "src" matches one file named src, not the folder\'s contents. Write "src/**" for everything in the folder.');
  });

  it("a bare name that is a folder on disk is a warning too, and build prints it", async () => {
    const dir = scratchProject();
    mkdirSync(path.join(dir, "manuscripts"));
    const file = path.join(dir, "roles/pipeline.yaml");
    writeFileSync(file, readFileSync(file, "utf8").replace('paths: ["articles/*.md"]', 'paths: ["manuscripts"]'));
    const r = await harness(["build"], dir);
    expect(r.stderr).toContain('roles/pipeline.yaml:11:13: warning W_PATH_FOLDER artifacts.article.paths[0]: "manuscripts" matches one file named manuscripts');
  });

  it("checks[].command written as a shell command says it names a commands: entry", () => {
    const { errors } = diagnose(edit("pipeline.yaml", "command: spell", "command: npm test"));
    expect(errors).toEqual(['pipeline.yaml:43:14: error E_PIPELINE_SCHEMA checks[0].command: names an entry under "commands:", not a shell command. Add e.g. commands: { test: { run: "npm test", description: "run the tests" } } and write command: test.']);
  });

  it("checks[].command naming no entry suggests the nearest and says where commands live", () => {
    const { errors } = diagnose(edit("pipeline.yaml", "command: spell", "command: spel"));
    expect(errors).toEqual(['pipeline.yaml:43:14: error E_UNKNOWN_COMMAND checks[0].command: no command "spel": a check\'s command names an entry under "commands:", not a shell command. Did you mean "spell"? Add commands: { spel: { run: "<shell command>", description: "…" } }, or name one of: spell.']);
  });

  it("accepted_losses[].constraint is checked against the constraint list, with did-you-mean", () => {
    const add = (c: string) => ({ "pipeline.yaml": (t: string) => `${t}accepted_losses:\n  - { host: codex, constraint: ${c}, reason: known }\n` });
    expect(diagnose(add("scope")).errors[0]).toMatch(/^pipeline\.yaml:\d+:\d+: error E_PIPELINE_SCHEMA accepted_losses\[0\]\.constraint: "scope" is not one of the allowed values\. Did you mean "write-scope"\? Use one of: "tools", "write-scope"/);
    expect(diagnose(add("write_scope")).errors[0]).toContain('"write_scope" is not one of the allowed values. Did you mean "write-scope"?');
  });

  it("a string where a list is expected says so, with the list to write", () => {
    const { errors } = diagnose(edit("checker.md", "tools: [read, grep, web-fetch, write]", "tools: read, grep, web-fetch, write"));
    expect(errors).toEqual(["checker.md:8:8: error E_ROLE_SCHEMA tools: expected a list, got a string. Write tools: [read, grep, web-fetch, write]."]);
  });

  it('tools: [shell] gets did-you-mean "bash"; [Read] is read as read, with a note that names are lowercase', () => {
    expect(diagnose(edit("checker.md", "web-fetch, write]", "web-fetch, write, shell]")).errors).toEqual([
      expect.stringMatching(/^checker\.md:8:\d+: error E_ROLE_SCHEMA tools\[4\]: "shell" is not a tool\. Did you mean "bash"\? Names here are lowercase and host-neutral: read, /),
    ]);
    const read = diagnose(edit("checker.md", "tools: [read,", "tools: [Read,"));
    expect(read.errors).toEqual([]);
    expect(read.warnings).toContainEqual(expect.stringMatching(/^checker\.md:8:\d+: warning W_TOOL_CASE tools\[0\]: "Read" is read as "read" \(tool names are lowercase and host-neutral\)\. Write "read"\./));
  });

  it("enum values get did-you-mean (isolation, model, temperature)", () => {
    expect(diagnose(edit("checker.md", "model: fast", "model: fats")).errors[0]).toContain('"fats" looks like a misspelling of "fast".');
  });

  it("a misspelt required key reads as missing, pointing at the typo (not 'invalid value')", () => {
    const { errors } = diagnose(edit("checker.md", "isolation: subagent", "isolaton: subagent"));
    expect(errors).toEqual([
      'checker.md:2:1: error E_ROLE_SCHEMA isolation: missing required field ("isolaton" below looks like a misspelling of "isolation").',
      'checker.md:4:1: error E_ROLE_SCHEMA isolaton: unknown field. Did you mean "isolation"? Known fields here: id, title, description, isolation, worktree, model, temperature, tools, permissions, reads, writes, forbidden, done, max_turns, effort, starts, skills, mcp_servers, memory, initial_prompt, background, hosts.',
    ]);
  });

  it("retry: 2 on a check suggests retries", () => {
    expect(diagnose(edit("pipeline.yaml", "retries: 2", "retry: 2")).errors[0]).toContain('checks[0].retry: unknown field. Did you mean "retries"?');
  });

  it("a role file without front matter that runs in no stage is located by its path", () => {
    const { errors } = diagnose({ "linter.md": () => "Just a prompt.\n" });
    expect(errors.filter((e) => e.includes("E_ROLE_UNUSED"))).toEqual(['linter.md:1:1: error E_ROLE_UNUSED role "linter" runs in no stage. Add a stage with role: linter to pipeline.yaml, or delete the file.']);
  });
});

describe("quiet builds", () => {
  it("the bundled Pebble roles build with one line per host and nothing else, twice", async () => {
    const dir = scratchProject(PEBBLE_ROLES);
    for (const run of [1, 2]) {
      const r = await harness(["build"], dir);
      expect(r.code, `build ${run}`).toBe(0);
      expect(r.stderr, `build ${run}`).toBe("");
      expect(r.stdout.trimEnd().split("\n"), `build ${run}`).toHaveLength(HOST_IDS.length);
    }
  });

  it("a model tier with no mapping is a visible warning (was info, shown only with -v)", async () => {
    const r = await harness(["build"], scratchProject());
    expect(r.stderr).toMatch(/^roles\/writer\.md:\d+:\d+: warning L_MODEL_UNMAPPED claude-code writer model \(model\) is lost: .*map the tier under `hosts\.<host>\.models`/m);
  });

  it("a warning is listed once, then not again until something new appears; -v lists everything", async () => {
    const dir = scratchProject();
    expect((await harness(["build"], dir)).stderr).toContain("L_SHELL_WRITE_GAP");
    expect((await harness(["build"], dir)).stderr).toBe("");
    const verbose = await harness(["build", "-v"], dir);
    expect(verbose.stderr).toContain("claude-code: every loss (out/claude-code/MAPPING.md explains each; `harness explain CODE`)");
    expect(verbose.stderr).toMatch(/warning L_SHELL_WRITE_GAP .*\n(.|\n)*info L_TEMPERATURE/);
    // A new warning appears: listed alone, the old ones stay quiet.
    const planner = path.join(dir, "roles/planner.md");
    writeFileSync(planner, readFileSync(planner, "utf8").replace("model: deep", "model: deep\nmax_turns: 5"));
    const again = await harness(["build"], dir);
    expect(again.stderr).toMatch(/^roles\/planner\.md:\d+:\d+: warning L_TURNS_MAIN_SESSION claude-code planner max-turns/m);
    expect(again.stderr).not.toContain("L_SHELL_WRITE_GAP");
  });

  it("counts agree: build's file count is what is on disk and what check reports", async () => {
    const dir = scratchProject();
    const b = await harness(["build"], dir);
    const n = listFiles(path.join(dir, "out/claude-code")).length;
    expect(b.stdout).toContain(`out/claude-code: ${n} files, ${n} written, 0 removed`);
    expect((await harness(["check"], dir)).stdout).toContain(`claude-code (${n} files)`);
  });
});

describe("loss errors hand over the fix", () => {
  it("says a host limit is one, prints the accepted_losses YAML, and the pasted YAML makes the build pass", async () => {
    const dir = scratchProject();
    const r = await harness(["build", "--host", "codex"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).not.toContain("or change the role");
    expect(r.stderr).toContain("Each is a host limit that no role change fixes. To accept them, paste into roles/pipeline.yaml (edit each reason):");
    expect(r.stderr).toMatch(/Exit 1, and \d+ file\(s\) written: out\/codex is up to date so you can read its MAPPING\.md; `harness check` fails until/);
    const yamlText = r.stderr.slice(r.stderr.indexOf("accepted_losses:"), r.stderr.indexOf("\nExit 1"));
    const pasted = parse(yamlText) as { accepted_losses: Record<string, string>[] };
    expect(pasted.accepted_losses.every((e) => e.host === "codex" && e.constraint && e.loss && e.reason)).toBe(true);
    const file = path.join(dir, "roles/pipeline.yaml");
    writeFileSync(file, `${readFileSync(file, "utf8")}${yamlText}\n`);
    const after = await harness(["build", "--host", "codex"], dir);
    expect(after.code).toBe(0);
    expect(after.stderr).not.toContain("error");
    expect((await harness(["check", "--host", "codex"], dir)).code).toBe(0);
  });

  it("a check failing only on losses says the files are in sync", async () => {
    const dir = scratchProject();
    await harness(["build", "--host", "codex"], dir);
    const r = await harness(["check", "--host", "codex"], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^files codex \(\d+ files\) in sync with roles\/pipeline\.yaml; failing on \d+ unaccepted error-level loss\(es\)/);
    expect(r.stderr).toMatch(/^roles\/planner\.md:\d+:\d+: error L_SCOPE_INSTRUCTED codex planner write-scope/m); // writer, a spawned agent, is audited
  });
});

describe("check and build loops", () => {
  it("check names the real fix for a stray file (not `harness build`) and an orphaned host folder (build removes it)", async () => {
    const dir = scratchProject();
    await harness(["build"], dir);
    writeFileSync(path.join(dir, "out/claude-code/extra.md"), "x\n");
    mkdirSync(path.join(dir, "out/codex"));
    writeFileSync(path.join(dir, "out/codex/.harness-manifest.json"), JSON.stringify({ generator: "harness", host: "codex", files: {} }));
    const r = await harness(["check"], dir);
    expect(r.stderr).toContain("out/claude-code/extra.md: error E_DRIFT is not produced by harness (stray); harness never deletes files it did not write. Delete it.");
    expect(r.stderr).toContain('out/codex: error E_DRIFT is a harness build for "codex", which roles/pipeline.yaml no longer targets (orphaned host). Run `harness build` to remove it (harness removes only the files it wrote), or list the host under targets again.');
    expect(r.stderr).not.toMatch(/extra\.md.*Run `harness build`/);
    const b = await harness(["build"], dir);
    expect(b.stderr).toContain("out/claude-code/extra.md: warning W_STRAY");
    expect(b.stdout).toMatch(/^codex\s+out\/codex: removed \(roles\/pipeline\.yaml no longer targets it\)$/m);
    expect(existsSync(path.join(dir, "out/codex"))).toBe(false);
  });

  it("build refuses to overwrite a hand-edited generated file (exit 2, nothing written); --force overwrites", async () => {
    const dir = scratchProject();
    await harness(["build"], dir);
    const agent = path.join(dir, "out/claude-code/.claude/agents/writer.md");
    const edited = readFileSync(agent, "utf8").replace("You write the article", "You write anything");
    writeFileSync(agent, edited);
    const r = await harness(["build"], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("out/claude-code: error E_OUT_DIR .claude/agents/writer.md was edited by hand since harness wrote it; a build would overwrite the edit.");
    expect(readFileSync(agent, "utf8")).toBe(edited);
    const forced = await harness(["build", "--force"], dir);
    expect(forced.code).toBe(0);
    expect(readFileSync(agent, "utf8")).not.toBe(edited);
  });

  it("check --quiet prints only what is wrong, one path per line, and nothing when in sync", async () => {
    const dir = scratchProject();
    await harness(["build"], dir);
    const ok = await harness(["check", "--quiet"], dir);
    expect([ok.code, ok.stdout, ok.stderr]).toEqual([0, "", ""]);
    rmSync(path.join(dir, "out/claude-code/CLAUDE.md"));
    const bad = await harness(["check", "--quiet"], dir);
    expect([bad.code, bad.stdout, bad.stderr]).toEqual([1, "out/claude-code/CLAUDE.md\n", ""]);
  });

  it("messages and generated files name the actual --roles and --out folders", async () => {
    const dir = tempDir();
    cpSync(MINI_ROLES, path.join(dir, "agents"), { recursive: true });
    await harness(["build", "--roles", "agents", "--out", "harness-out"], dir);
    expect(readFileSync(path.join(dir, "harness-out/claude-code/CLAUDE.md"), "utf8")).toContain("generated by harness from `agents/`");
    expect(readFileSync(path.join(dir, "harness-out/claude-code/MAPPING.md"), "utf8")).toContain("Generated by harness from `agents/`");
    writeFileSync(path.join(dir, "agents/writer.md"), readFileSync(path.join(dir, "agents/writer.md"), "utf8").replace("You write the article", "You write the piece"));
    const r = await harness(["check", "--roles", "agents", "--out", "harness-out"], dir);
    expect(r.stderr).toContain("differs from what agents/ produce. Run `harness build --roles agents --out harness-out` and commit the result.");
    expect(r.stderr).toMatch(/^--- harness-out\/claude-code\/\.claude\/agents\/writer\.md\ton disk$/m);
    expect(r.stderr).toMatch(/^\+\+\+ harness-out\/claude-code\/\.claude\/agents\/writer\.md\tas built from agents\/$/m);
  });

  it("MAPPING.md of another pipeline cites no Pebble role in 'proven by'", async () => {
    const dir = scratchProject();
    await harness(["build", ...HOST_IDS.flatMap((h) => ["--host", h])], dir);
    const mappings = HOST_IDS.map((host) => readFileSync(path.join(dir, "out", host, "MAPPING.md"), "utf8"));
    HOST_IDS.forEach((host, i) => expect(mappings[i], host).not.toMatch(/\b(flint|slate|mica|jade|onyx|quartz|coral|chalk)\b/));
    expect(mappings.filter((m) => m.includes("test/hosts/enforce-out.test.ts (run on the bundled pipeline)")).length).toBeGreaterThan(0);
  });
});

describe("harness diff rough edges", () => {
  it("piped into head, it exits quietly (no EPIPE stack trace)", () => {
    const r = spawnSync("sh", ["-c", `"${process.execPath}" "${CLI}" diff claude-code codex --roles "${PEBBLE_ROLES}" | head -1`], { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
    expect(r.stdout.split("\n").filter(Boolean)).toHaveLength(1);
    expect(r.stderr).toBe("");
  });

  it("--all aligns its columns and honours host arguments", async () => {
    const dir = scratchProject(PEBBLE_ROLES);
    const r = await harness(["diff", "--all", "codex", "opencode"], dir);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^role\s+constraint\s+codex\s+opencode$/);
    expect(r.stdout).not.toContain("claude-code");
    // Every level cell starts in its header's column.
    const col = lines[0]!.indexOf("opencode");
    for (const line of lines.slice(1, -1)) expect(line.slice(col - 2, col), line).toMatch(/^ {2}$/);
    expect(r.stdout).toMatch(/instructed\+native\* {2,}\S/); // * marks an accepted loss
    expect(lines.at(-1)).toMatch(/^\* a loss that pipeline\.yaml accepts/);
  });

  it("--role has did-you-mean", async () => {
    const r = await harness(["diff", "claude-code", "codex", "--role", "jad"], scratchProject(PEBBLE_ROLES));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no role "jad". Did you mean "jade"?');
  });
});

describe("hosts and explain", () => {
  it("harness hosts prints a capability table with every registered host", async () => {
    const r = await harness(["hosts"], tempDir());
    expect(r.code).toBe(0);
    const header = r.stdout.split("\n")[0]!.trim().split(/\s+/);
    expect(header).toEqual([...HOST_IDS].sort());
    expect(r.stdout).toMatch(/^per-role paths\s+\S+/m);
  });

  it("harness explain prints the loss text MAPPING.md uses, and did-you-mean for unknown codes", async () => {
    const r = await harness(["explain", "L_SCOPE_INSTRUCTED"], tempDir());
    expect(r.code).toBe(0);
    const mapping = readFileSync(path.join(path.dirname(PEBBLE_ROLES), "out/codex/MAPPING.md"), "utf8");
    const row = mapping.split("\n").find((l) => l.startsWith("| L_SCOPE_INSTRUCTED |"))!;
    const text = row.split(" | ")[2]!;
    expect(r.stdout).toContain(`  ${text}.`);
    expect((await harness(["explain", "E_DRIFT"], tempDir())).stdout).toContain("E_DRIFT (error)");
    const bad = await harness(["explain", "L_SCOPE"], tempDir());
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('no code "L_SCOPE". Did you mean "L_SCOPE_INSTRUCTED"?');
  });
});

describe("one explanation per code", () => {
  it("every diagnostic code src/ emits has a `harness explain` text (src/codes.ts)", async () => {
    const { DIAGNOSTIC_CODES } = await import("../src/codes.js");
    const { readdirSync: list, statSync } = await import("node:fs");
    const found = new Set<string>();
    const walk = (dir: string) => {
      for (const name of list(dir)) {
        const p = path.join(dir, name);
        if (statSync(p).isDirectory()) walk(p);
        else if (p.endsWith(".ts") && !p.endsWith(".gen.ts") && !p.endsWith("codes.ts"))
          for (const m of readFileSync(p, "utf8").matchAll(/\b[EW]_[A-Z]+(?:_[A-Z]+)*\b/g)) found.add(m[0]);
      }
    };
    walk(path.join(path.dirname(PEBBLE_ROLES), "src"));
    expect([...found].filter((c) => !(c in DIAGNOSTIC_CODES)).sort()).toEqual([]);
  });
});

describe("list-vs-string hint", () => {
  it("quotes items that YAML would misread in the suggested list", () => {
    const out = diagnose(edit("writer.md", 'never_write: ["artifact:outline"]', 'never_write: "**/*.secret"'));
    expect(out.errors[0]).toContain('permissions.never_write: expected a list, got a string. Write never_write: ["**/*.secret"].');
  });
});
