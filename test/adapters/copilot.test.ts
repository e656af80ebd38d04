// The GitHub Copilot adapter, parsed back: agent, skill and prompt front matter with yaml, and each
// launcher run for real with a stand-in `copilot` that prints the arguments it got, compared with the IR.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { HOST_IDS } from "../../adapters/index.js";
import { CopilotAdapter, orchestratorName } from "../../adapters/copilot/index.js";
import { commandPrefix } from "../../adapters/copilot/flags.js";
import { compileHost } from "../../src/compile.js";
import { readPipeline } from "../../src/ir/normalize.js";

const ROOT = path.resolve(import.meta.dirname, "../..");
const read = (dir: string) => readPipeline(path.join(ROOT, dir), { knownHosts: HOST_IDS }).pipeline;
/** Aliases the CLI documents for agent tools: lists (others.md §3.1). */
const ALIASES = ["read", "edit", "search", "execute", "agent", "web", "todo"];

function frontMatter(text: string): { data: Record<string, unknown>; body: string } {
  expect(text.startsWith("---\n")).toBe(true);
  const end = text.indexOf("\n---\n", 4);
  expect(end).toBeGreaterThan(0);
  return { data: parseYaml(text.slice(4, end)) as Record<string, unknown>, body: text.slice(end + 5) };
}

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "harness-copilot-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));
const fakeBin = path.join(scratch, "copilot");
// prints its arguments, each ended by a NUL (no argument holds one): the shell, not a Node start per launch
fs.writeFileSync(fakeBin, `#!/bin/sh\n[ $# -eq 0 ] || printf '%s\\0' "$@"\n`, { mode: 0o755 });

/** A project holding the launcher text, and a HOME whose ~/.copilot/config.json trusts `trusted` (or nothing). */
function scene(text: string, trusted?: (dir: string) => string[] | string): { file: string; env: Record<string, string> } {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(scratch, "p-")));
  const file = path.join(dir, ".github/copilot/bin/x.sh");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text, { mode: 0o755 });
  const home = path.join(dir, ".home");
  fs.mkdirSync(path.join(home, ".copilot"), { recursive: true });
  const t = trusted?.(dir);
  if (t !== undefined) fs.writeFileSync(path.join(home, ".copilot", "config.json"), typeof t === "string" ? t : JSON.stringify({ trustedFolders: t }));
  return { file, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", COPILOT_BIN: fakeBin, HOME: home } };
}

/** Run a launcher's text with the stand-in copilot, in a trusted folder; returns the argument list copilot would get. */
function launch(text: string, args: string[]): string[] {
  const { file, env } = scene(text, (dir) => [dir]);
  return execFileSync(file, args, { encoding: "utf8", env }).split("\0").slice(0, -1);
}
const rules = (args: string[], flag: string) => args.flatMap((a, i) => (a === flag ? [args[i + 1]!] : []));

for (const dir of ["roles", "test/fixtures/mini"]) {
  describe(`Copilot tree of ${dir}, parsed back`, () => {
    const pipeline = read(dir);
    const out = compileHost(pipeline, CopilotAdapter);
    const file = (p: string) => out.files.find((f) => f.path === p) ?? expect.fail(`missing ${p}`);
    const orch = orchestratorName(pipeline);
    const subs = pipeline.roles.filter((r) => r.isolation === "subagent").map((r) => r.id);

    it("every role is an agent with a description and documented tool aliases; only the orchestrator may start agents", () => {
      for (const role of pipeline.roles) {
        const { data, body } = frontMatter(file(`.github/agents/${role.id}.agent.md`).content);
        expect(data.name).toBe(role.id);
        expect(typeof data.description === "string" && data.description.length > 0).toBe(true);
        const tools = data.tools as string[];
        expect(tools.filter((t) => !ALIASES.includes(t))).toEqual([]);
        expect(tools.includes("agent")).toBe(role.canSpawn);
        expect(tools.includes("execute")).toBe(role.tools.includes("bash"));
        expect(tools.includes("edit")).toBe(role.tools.includes("edit") || role.tools.includes("write"));
        expect(data["disable-model-invocation"] === true).toBe(role.isolation === "main");
        expect(body).toContain(role.body.split("\n")[0]!);
      }
      const o = frontMatter(file(`.github/agents/${orch}.agent.md`).content).data;
      expect(o.tools).toContain("agent");
      expect(o.agents).toEqual(subs);
    });

    it("the entry skill and prompt file name the pipeline and the orchestrator", () => {
      const skill = frontMatter(file(`.github/skills/${pipeline.name}/SKILL.md`).content);
      expect(skill.data.name).toBe(pipeline.name);
      expect(String(skill.data.description).length).toBeLessThanOrEqual(1024);
      expect(frontMatter(file(`.github/prompts/${pipeline.name}.prompt.md`).content).data.agent).toBe(orch);
    });

    it("each role's launcher passes exactly its rules (write scope, never-write, shell) and the prompt", () => {
      for (const role of pipeline.roles) {
        const f = file(`.github/copilot/bin/${role.id}.sh`);
        expect(f.executable).toBe(true);
        const args = launch(f.content, ["do it; rm -rf / 'quoted'", "--no-auto-update"]);
        expect(args.slice(0, 2)).toEqual(["--agent", role.id]);
        expect(args.slice(-3)).toEqual(["-p", "do it; rm -rf / 'quoted'", "--no-auto-update"]);
        expect(rules(args, "--allow-tool").filter((r) => r.startsWith("write(")).sort()).toEqual(role.write.map((g) => `write(${g})`).sort());
        expect(rules(args, "--deny-tool").filter((r) => r.startsWith("write(")).sort()).toEqual(role.neverWrite.map((g) => `write(${g})`).sort());
        const denies = new Set((role.shell?.deny ?? []).map(commandPrefix).filter(Boolean).map((p) => `shell(${p})`));
        expect(new Set(rules(args, "--deny-tool").filter((r) => r.startsWith("shell")))).toEqual(denies);
        if (!role.shell) expect(rules(args, "--allow-tool").some((r) => r.startsWith("shell"))).toBe(false);
      }
    });

    it("the pipeline launcher denies shell_deny (sparing orchestrator_shell) and never_write for the whole run", () => {
      const args = launch(file(`.github/copilot/bin/${pipeline.name}.sh`).content, []);
      expect(args.slice(0, 2)).toEqual(["--agent", orch]);
      expect(args).not.toContain("-p");
      const deny = rules(args, "--deny-tool");
      for (const g of pipeline.policies.neverWrite) expect(deny).toContain(`write(${g})`);
      const allow = rules(args, "--allow-tool");
      for (const o of pipeline.policies.orchestratorShell) {
        const pre = commandPrefix(o)!;
        expect(allow).toContain(`shell(${pre})`);
        expect(deny.filter((d) => d.startsWith("shell(") && (pre + " ").startsWith(d.slice(6, -1) + " "))).toEqual([]);
      }
      for (const d of pipeline.policies.shellDeny) {
        const pre = commandPrefix(d);
        if (pre && !pipeline.policies.orchestratorShell.some((o) => (commandPrefix(o)! + " ").startsWith(pre + " "))) expect(deny).toContain(`shell(${pre})`);
      }
    });
  });
}

describe("Copilot launchers refuse to start where Copilot would skip the guard hooks", () => {
  const text = () => {
    const pipeline = read("roles");
    const out = CopilotAdapter.lower(pipeline).files.find((f) => f.path === ".github/copilot/bin/jade.sh")!;
    return (out as { text: string }).text;
  };
  const start = (trusted: ((dir: string) => string[] | string) | undefined, extra: Record<string, string> = {}) => {
    const { file, env } = scene(text(), trusted);
    return spawnSync(file, ["go"], { encoding: "utf8", env: { ...env, ...extra } });
  };
  it("refuses settings that switch the hooks off or reach into node (disableAllHooks, NODE_OPTIONS), user or repository level", () => {
    const trust = (extra: Record<string, unknown>) => (d: string) => JSON.stringify({ trustedFolders: [d], ...extra });
    for (const extra of [{ disableAllHooks: true }, { disableAllHooks: "yes" }, { disableAllHooks: 1 }, { env: { NODE_OPTIONS: "--require=/tmp/x.js" } }]) {
      const r = start(trust(extra));
      expect(r.status, JSON.stringify(extra)).toBe(1);
      expect(r.stderr).toMatch(/refusing to start: .*config\.json would switch off or alter the agents' guard hooks/);
    }
    expect(start(trust({ disableAllHooks: false })).status).toBe(0);
    // the user's settings.json and the repository's .github/copilot/settings.json
    const where = (rel: (dir: string, home: string) => string, body: string) => {
      const { file, env } = scene(text(), (d) => [d]);
      const dir = path.resolve(path.dirname(file), "../../..");
      const f = rel(dir, env.HOME!);
      fs.mkdirSync(path.dirname(f), { recursive: true });
      fs.writeFileSync(f, body);
      return spawnSync(file, ["go"], { encoding: "utf8", env });
    };
    expect(where((_d, h) => path.join(h, ".copilot/settings.json"), '// c\n{ "disableAllHooks": true }').status).toBe(1);
    expect(where((d) => path.join(d, ".github/copilot/settings.local.json"), '{ "disableAllHooks": true }').status).toBe(1);
    expect(where((d) => path.join(d, ".github/copilot/settings.json"), "{ not json").status).toBe(1);
    expect(where((d) => path.join(d, ".github/copilot/settings.json"), '{ "model": "x" }').status).toBe(0);
    expect(start(trust({ disableAllHooks: true }), { HARNESS_GUARD_OFF: "1" }).status).toBe(0);
  });
  it("this folder, exactly, with or without a trailing slash", () => {
    expect(start((d) => [d]).status).toBe(0);
    expect(start((d) => [`${d}/`]).status).toBe(0);
  });
  it("reads config.json as Copilot writes it (// comments); a commented-out entry does not count", () => {
    const copilotStyle = (d: string) => `// User settings belong in settings.json.\n// This file is managed automatically.\n{\n  "trustedFolders": [\n    ${JSON.stringify(d)}\n  ],\n  "banner": "never // not a comment /* nor this */"\n}\n`;
    expect(start(copilotStyle).status).toBe(0);
    expect(start((d) => `{ /* "trustedFolders": [${JSON.stringify(d)}] */ "trustedFolders": [] }`).status).toBe(1);
    expect(start((d) => `{ "trustedFolders": [${JSON.stringify(d)}], }`).status).toBe(1);
  });
  it("refuses an untrusted folder, a missing config, a parent entry and a malformed config, naming the fix", () => {
    for (const trusted of [(): string[] => [], undefined, (d: string) => [path.dirname(d)], (d: string) => [`${path.dirname(d)}/`], (d: string) => [`${d}/x`]]) {
      const r = start(trusted);
      expect(r.status).toBe(1);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(/is not in trustedFolders of .*\.copilot\/config\.json\. Add it there \(exactly this path\), or start with HARNESS_GUARD_OFF=1/);
    }
  });
  it("reads $COPILOT_HOME/config.json when COPILOT_HOME is set, and refuses one it cannot place (empty or relative)", () => {
    const elsewhere = (trusted: string[]) => {
      const dir = fs.mkdtempSync(path.join(scratch, "copilot-home-"));
      fs.writeFileSync(path.join(dir, "config.json"), JSON.stringify({ trustedFolders: trusted }));
      return dir;
    };
    // trusted in ~/.copilot only: COPILOT_HOME's config does not list the folder
    const ignored = start((d) => [d], { COPILOT_HOME: elsewhere([]) });
    expect(ignored.status).toBe(1);
    expect(ignored.stderr).toMatch(/is not in trustedFolders of .*copilot-home-[^/]*\/config\.json/);
    // trusted only in COPILOT_HOME's config
    const { file, env } = scene(text(), () => []);
    const project = path.dirname(path.dirname(path.dirname(path.dirname(file))));
    expect(spawnSync(file, ["go"], { encoding: "utf8", env: { ...env, COPILOT_HOME: elsewhere([project]) } }).status).toBe(0);
    for (const home of ["", ".copilot", "relative/home"]) {
      const r = start((d) => [d], { COPILOT_HOME: home });
      expect(r.status, JSON.stringify(home)).toBe(1);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(/COPILOT_HOME is set but is not an absolute path .* Set it to an absolute path or unset it, or start with HARNESS_GUARD_OFF=1/);
    }
  });
  it("HARNESS_GUARD_OFF=1 starts without the check; node missing is refused", () => {
    expect(start(undefined, { HARNESS_GUARD_OFF: "1" }).status).toBe(0);
    const bin = fs.mkdtempSync(path.join(scratch, "bin-"));
    fs.symlinkSync(execFileSync("/bin/sh", ["-c", "command -v dirname"], { encoding: "utf8" }).trim(), path.join(bin, "dirname"));
    const r = start((d) => [d], { PATH: bin });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/node is not on PATH/);
  });
});

describe("Copilot command prefixes", () => {
  it("maps a trailing wildcard to a shell() prefix and refuses other wildcards", () => {
    expect(commandPrefix("git push *")).toBe("git push");
    expect(commandPrefix("npm test*")).toBe("npm test");
    expect(commandPrefix("git status")).toBe("git status");
    expect(commandPrefix("* -u")).toBeNull();
    expect(commandPrefix("*--fix*")).toBeNull();
    expect(commandPrefix("a (b)")).toBeNull();
  });
});

// anchors-3 §4: Copilot CLI drift after 1.0.102 (include-custom-instructions since 1.0.86; Claude aliases fail on 1.0.105)
describe("Copilot drift", () => {
  it("every subagent role asks for the repository's instructions; main-session roles (own sessions) and the orchestrator get them anyway", async () => {
    const { CopilotAdapter } = await import("../../adapters/copilot/index.js");
    const { readRoles } = await import("../helpers/compile.js");
    const { PEBBLE_ROLES } = await import("../helpers/cli.js");
    const pipeline = readRoles(PEBBLE_ROLES);
    const lowered = CopilotAdapter.lower(pipeline);
    for (const role of pipeline.roles) {
      const f = lowered.files.find((x) => x.path === `.github/agents/${role.id}.agent.md`)!;
      const fm = (f as { frontmatter?: Record<string, unknown> }).frontmatter ?? {};
      expect(fm["include-custom-instructions"], role.id).toBe(role.isolation === "subagent" ? true : undefined);
    }
  });

  it("a Claude alias as a Copilot model id is E_HOST_MODEL_ALIAS at its line (exit 2, nothing written)", async () => {
    const { harness, scratchProject } = await import("../helpers/cli.js");
    const fs = await import("node:fs");
    const path = await import("node:path");
    const dir = scratchProject();
    const yml = path.join(dir, "roles", "pipeline.yaml");
    fs.writeFileSync(yml, `${fs.readFileSync(yml, "utf8").replace(/^hosts:\n/m, "hosts:\n  copilot:\n    models: { deep: opus }\n")}`);
    const r = await harness(["build", "--host", "copilot", "--out", "gen"], dir);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/roles\/pipeline\.yaml:\d+:\d+: error E_HOST_MODEL_ALIAS hosts\.copilot\.models\.deep: "opus" is a Claude Code alias/);
    expect(fs.existsSync(path.join(dir, "gen"))).toBe(false);
  });
});
