// src/cli.ts main, the in-process entry the CLI tests run (test/helpers/cli.ts): one command line per
// call, its exit code returned, and nothing left behind for the next call (working folder, exit code,
// environment, where output goes, commander's parsed options).
import { mkdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../src/cli.js";
import { scratchProject } from "./helpers/cli.js";

const sink = () => ({ text: "", write(t: string) { this.text += t; return true; } });

describe("main (in-process CLI)", () => {
  it("returns the exit code, never sets the process's, and puts back cwd, env and the output streams", async () => {
    const dir = scratchProject();
    mkdirSync(path.join(dir, "src"));
    const [cwd, env, write] = [process.cwd(), process.env, process.stdout.write];
    const envBefore = { ...process.env };
    const [stdout, stderr] = [sink(), sink()];
    // from a subfolder a project command moves to the project root (src/project-root.ts settle)
    expect(await main(["build", "-q"], { cwd: path.join(dir, "src"), env: { ...process.env, NO_COLOR: "1", HARNESS_X: "1" }, stdout, stderr })).toBe(0);
    expect(stderr.text).toBe("");
    expect(process.cwd()).toBe(cwd);
    expect(process.env).toBe(env);
    expect(process.env.HARNESS_X).toBeUndefined();
    expect({ ...process.env }).toEqual(envBefore);
    expect(process.exitCode).toBeUndefined();
    expect(process.stdout.write).toBe(write);
    // the build wrote into the project root, not src/
    const check = sink();
    expect(await main(["check", "-q"], { cwd: dir, env: { ...process.env, NO_COLOR: "1" }, stdout: check, stderr: check })).toBe(0);
    expect(check.text).toBe("");
  });

  it("parses each call afresh: options of one call do not reach the next", async () => {
    const dir = scratchProject();
    const run = async (argv: string[]) => {
      const out = sink();
      const code = await main(argv, { cwd: dir, env: { ...process.env, NO_COLOR: "1" }, stdout: out, stderr: out });
      return { code, text: out.text };
    };
    expect(await run(["build", "-q"])).toEqual({ code: 0, text: "" });
    const loud = await run(["build"]);
    expect(loud.code).toBe(0);
    expect(loud.text).toMatch(/claude-code/); // not -q
    expect(JSON.parse((await run(["check", "--json"])).text)).toBeTypeOf("object");
    const plain = await run(["check"]);
    expect(plain.code).toBe(0);
    expect(() => JSON.parse(plain.text)).toThrow(); // not --json
  });

  it("the command sees the environment it was given, also where Node reads it outside process.env (HOME)", async () => {
    const home = scratchProject();
    const out = sink();
    // runs reads its state home from XDG_STATE_HOME, else os.homedir(): the given HOME, not this process's
    const root = scratchProject();
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", HOME: home };
    delete env.XDG_STATE_HOME;
    const { homedir } = await import("node:os");
    const seen: string[] = [];
    const probe = { text: "", write(t: string) { seen.push(homedir()); this.text += t; return true; } };
    expect(await main(["runs"], { cwd: root, env, stdout: probe, stderr: out })).toBe(0);
    expect(seen.length).toBeGreaterThan(0);
    expect(new Set(seen)).toEqual(new Set([home]));
    expect(homedir()).not.toBe(home);
  });

  it("colours by the environment it was given, every part of the output alike (diff's levels too)", async () => {
    const roles = path.join(path.dirname(new URL(import.meta.url).pathname), "..", "roles");
    const diff = async (env: NodeJS.ProcessEnv) => {
      const out = sink();
      expect(await main(["diff", "claude-code", "codex", "--roles", roles], { cwd: scratchProject(), env, stdout: out, stderr: out })).toBe(0);
      return out.text;
    };
    const plain = { ...process.env, NO_COLOR: "1" };
    delete plain.FORCE_COLOR;
    const coloured = { ...process.env, FORCE_COLOR: "1" };
    delete coloured.NO_COLOR;
    expect(await diff(plain)).not.toContain("\u001b[");
    const text = await diff(coloured);
    expect(text).toContain("\u001b[32mnative\u001b[39m"); // a level, painted green
    expect(text).toContain("\u001b[33minstructed\u001b[39m");
  });

  it("usage errors are 2, help and version 0, with commander's text on the streams it was given", async () => {
    const out = sink();
    const err = sink();
    expect(await main(["--version"], { stdout: out, stderr: err })).toBe(0);
    expect(out.text.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    expect(await main(["build", "--bogus"], { stdout: out, stderr: err })).toBe(2);
    expect(err.text).toMatch(/unknown option '--bogus'/);
    expect(process.exitCode).toBeUndefined();
  });
});
