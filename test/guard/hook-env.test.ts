// Issue 22, item 2 (guard side): each host's hook command starts the runtime so that nothing from the
// settings' `env` reaches it. A probe stands in for the guard script and reports what it got.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as claude from "../../adapters/claude-code/guard.js";
import * as codex from "../../adapters/codex/guard.js";
import * as copilot from "../../adapters/copilot/guard.js";

let root: string;
let P: string;
const PROBE = 'process.stdout.write(JSON.stringify({ opts: process.env.NODE_OPTIONS ?? null, path: process.env.NODE_PATH ?? null, preload: process.env.LD_PRELOAD ?? null, exec: process.execPath })); process.exit(0);\n';
beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "harness-hookenv-")));
  P = path.join(root, "proj");
  for (const f of [claude.GUARD_PATH, codex.GUARD_PATH, copilot.GUARD_PATH]) {
    fs.mkdirSync(path.dirname(path.join(P, f)), { recursive: true });
    fs.writeFileSync(path.join(P, f), PROBE);
  }
  // what a role's code could plant: a preload script, and a fake node in a folder it writes
  fs.writeFileSync(path.join(P, "evil.cjs"), `require("fs").writeFileSync(${JSON.stringify(path.join(root, "PWNED"))}, "x");\n`);
  fs.mkdirSync(path.join(P, "bin"));
  fs.writeFileSync(path.join(P, "bin", "node"), '#!/bin/sh\necho \'{"fake":true}\'\n', { mode: 0o755 });
  spawnSync("git", ["init", "-q", P]);
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const commands: [string, string][] = [
  ["claude-code", claude.guardHookCommand("jade")],
  ["codex", codex.guardHookCommand()],
  ["copilot", copilot.guardHookCommand("jade")],
];

describe.each(commands)("%s: the hook command", (_host, command) => {
  it("runs the runtime with no NODE_OPTIONS, NODE_PATH or LD_PRELOAD from the settings' env, and no node from a relative PATH entry", () => {
    const env = {
      PATH: `bin:.:${process.env.PATH ?? "/usr/bin:/bin"}`,
      HOME: root,
      CLAUDE_PROJECT_DIR: P,
      COPILOT_PROJECT_DIR: P,
      NODE_OPTIONS: `--require ${path.join(P, "evil.cjs")}`,
      NODE_PATH: path.join(P, "bin"),
      LD_PRELOAD: path.join(P, "evil.so"),
      BASH_ENV: path.join(P, "evil.sh"),
    };
    const r = spawnSync("/bin/sh", ["-c", command], { cwd: P, env, input: "{}", encoding: "utf8" });
    expect(fs.existsSync(path.join(root, "PWNED")), "NODE_OPTIONS reached the runtime").toBe(false);
    expect(r.status, r.stderr).toBe(0);
    const got = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(got.fake, "a node from a relative PATH entry ran").toBeUndefined();
    expect(got).toMatchObject({ opts: null, path: null, preload: null });
  });
});

describe("no caller writes a host's settings, in the project or in the user's home", () => {
  it("refuses Write and shell redirects to every host settings file, for roles and the orchestrator", async () => {
    const { readRoles } = await import("../helpers/compile.js");
    const { PEBBLE_ROLES } = await import("../helpers/cli.js");
    const { inProcess, payload } = await import("./helpers.js");
    const { HOST_SETTINGS_FILES } = await import("../../src/adapter/guard/policy.js");
    const pipeline = readRoles(PEBBLE_ROLES);
    // a pipeline whose never_write names none of them: the guard still holds them
    pipeline.policies.neverWrite = pipeline.policies.neverWrite.filter((g) => !/claude|codex|github|gemini|cursor|opencode|kilo|mcp|vscode|qwen|factory|\.pi\//.test(g));
    // and a role whose write scope covers the folders they live in
    pipeline.roles.find((r) => r.id === "coral")!.write.push(".github/**", ".vscode/**", ".gemini/**", ".cursor/**", "*.json", "*.jsonc", ".kilo/**", ".opencode/**", ".pi/**", ".qwen/**", ".factory/**");
    const decide = inProcess(pipeline);
    const home = os.homedir();
    // every host's, named here as well as in the list (c22: Qwen Code's was missing from it)
    const hosts = [".qwen/settings.json", "src/.qwen/settings.json"].map((f) => path.join(P, f));
    const files = [...hosts, ...HOST_SETTINGS_FILES.map((f) => path.join(P, f.replace("**", "x.json"))), ...[".claude/settings.json", ".claude.json", ".codex/config.toml", ".copilot/config.json", ".gemini/settings.json", ".config/opencode/opencode.json"].map((f) => path.join(home, f))];
    fs.symlinkSync(home, path.join(P, "homelink"));
    files.push(path.join(P, "homelink", ".claude", "settings.json"));
    const allowed: string[] = [];
    for (const as of ["jade", "mica", "coral", "flint", "@orchestrator"]) {
      const role = as === "@orchestrator" ? {} : { role: as };
      for (const f of files) {
        for (const [tool, input] of [["Write", { file_path: f, content: "{}" }], ["Bash", { command: `echo '{}' > '${f}'` }]] as const) {
          const d = decide(JSON.stringify(payload({ tool, input, ...role, cwd: P })), { CLAUDE_PROJECT_DIR: P }, as);
          if (d.kind === "allow" || d.kind === "none") allowed.push(`${as} ${tool} ${f}: ${d.kind}`);
        }
      }
    }
    expect(allowed).toEqual([]);
  });
});
