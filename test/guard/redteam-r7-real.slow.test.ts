// The seventh red team's findings (redteam-r7.test.ts) against the programs themselves: each spelling
// the guard mis-read really writes, runs or imports, and the guard no longer allows it.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ORCHESTRATOR } from "../../adapters/claude-code/guard.js";
import { GUARD_PROGRAMS_SOURCE } from "../../src/adapter/guard/runtime-programs.js";
import { PEBBLE_ROLES } from "../helpers/cli.js";
import { readRoles } from "../helpers/compile.js";
import { bashScene } from "./helpers.js";

const pipeline = readRoles(PEBBLE_ROLES);
const { root, kind } = bashScene(pipeline);
const has = (bin: string) => spawnSync("sh", ["-c", `command -v ${bin}`]).status === 0;
const run = (cmd: string, args: string[], cwd: string) => spawnSync(cmd, args, { cwd, timeout: 10_000, stdio: ["ignore", "ignore", "ignore"], env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", HOME: cwd } });

describe.runIf(has("git"))("the guard against the real git: value options and --output", () => {
  // every option a git spec says takes a value, spelled alone before --output=OUT: where git opens OUT
  // (it reads the option only attached, or the subcommand lacks it), the guard must not allow it
  const specs = new Function(`${GUARD_PROGRAMS_SOURCE}\nreturn GUARD_GIT_SPECS;`)() as Record<string, string>;
  it("never allows a spelling that makes git write --output's file", () => {
    const dir = fs.mkdtempSync(path.join(root, "git-"));
    fs.writeFileSync(path.join(dir, "a.ts"), "a\n");
    for (const a of [["init", "-q"], ["add", "a.ts"], ["-c", "user.name=a", "-c", "user.email=a@b", "commit", "-qm", "a"]]) run("git", a, dir);
    fs.writeFileSync(path.join(dir, "a.ts"), "b\n");
    let wrote = 0;
    for (const sub of ["log", "show", "diff", "blame", "status", "shortlog", "rev-list", "whatchanged", "reflog show"]) {
      const opts = specs[sub]!.split(" ").slice(2).filter((o) => /^-[^=]*=$/.test(o)).map((o) => o.slice(0, -1));
      for (const o of opts) {
        fs.rmSync(path.join(dir, "OUT"), { force: true });
        run("git", [...sub.split(" "), o, "--output=OUT"], dir);
        if (!fs.existsSync(path.join(dir, "OUT"))) continue;
        wrote++;
        const c = ["git", ...sub.split(" "), o, "--output=tests/OUT"];
        for (const as of ["onyx", ORCHESTRATOR]) expect(kind(as, c), `${c.join(" ")} wrote its output file`).not.toBe("allow");
      }
    }
    expect(wrote, "git opened --output after no value option: the property tests nothing").toBeGreaterThan(0);
  }, 300_000);

  it("--shallow-file takes the next word, so the word after it is the subcommand", () => {
    const dir = fs.mkdtempSync(path.join(root, "git-shallow-"));
    run("git", ["init", "-q"], dir);
    fs.writeFileSync(path.join(dir, "a"), "a\n");
    run("git", ["add", "a"], dir);
    run("git", ["-c", "user.name=a", "-c", "user.email=a@b", "commit", "-qm", "a"], dir);
    run("git", ["--shallow-file", "status", "tag", "v1"], dir);
    expect(spawnSync("git", ["tag"], { cwd: dir, encoding: "utf8" }).stdout.trim()).toBe("v1");
    expect(kind("jade", "git --shallow-file status tag v1")).toBe("deny");
  });
});

describe.runIf(has("find"))("the guard against the real find: --", () => {
  it("find -- . -exec runs its command, and the guard does not allow it", () => {
    const dir = fs.mkdtempSync(path.join(root, "find-"));
    run("find", ["--", ".", "-maxdepth", "0", "-exec", "touch", "OUT", ";"], dir);
    expect(fs.existsSync(path.join(dir, "OUT"))).toBe(true);
    expect(kind("onyx", "find -- . -maxdepth 0 -exec touch OUT ';'")).toBe("deny");
  });
});

describe.runIf(spawnSync("python3", ["-m", "pytest", "--version"]).status === 0)("the guard against the real pytest: -p after --", () => {
  it("python -m pytest -- -p MODULE imports the module, and the guard does not allow it", () => {
    const dir = fs.mkdtempSync(path.join(root, "pytest-"));
    fs.writeFileSync(path.join(dir, "evilmod.py"), 'open("OUT", "w").write("x")\n');
    fs.writeFileSync(path.join(dir, "test_a.py"), "def test_a():\n    pass\n");
    run("python3", ["-m", "pytest", "-q", "test_a.py", "--", "-p", "evilmod"], dir);
    expect(fs.existsSync(path.join(dir, "OUT"))).toBe(true);
    expect(kind("jade", "python -m pytest -q test_a.py -- -p evilmod")).not.toBe("allow");
  });
});

describe.runIf(has("npm") && has("git"))("the guard against the real npm: command prefixes and npm exec", () => {
  it("npm versio is npm version, npm exec runs git: the guard refuses both where the full command is denied", () => {
    const dir = fs.mkdtempSync(path.join(root, "npm-cmd-"));
    fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "t", version: "1.0.0", private: true }));
    run("git", ["init", "-q"], dir);
    fs.writeFileSync(path.join(dir, "a"), "a\n");
    run("git", ["add", "a", "package.json"], dir);
    run("git", ["-c", "user.name=a", "-c", "user.email=a@b", "commit", "-qm", "a"], dir);
    run("npm", ["versio", "2.0.0", "--no-git-tag-version"], dir);
    expect((JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as { version: string }).version).toBe("2.0.0");
    run("npm", ["exec", "--", "git", "tag", "v1"], dir);
    expect(spawnSync("git", ["tag"], { cwd: dir, encoding: "utf8" }).stdout.trim()).toBe("v1");
    expect(kind(ORCHESTRATOR, "npm versio 2.0.0 --no-git-tag-version")).toBe("deny");
    expect(kind(ORCHESTRATOR, "npm exec -- git tag v1")).toBe("deny");
  }, 120_000);
});
