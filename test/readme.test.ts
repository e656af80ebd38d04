// The README is for users: short, and every harness command in it runs. Each command runs in a
// project at the point of the user's path the README has reached (init, build and install done),
// and must exit 0; `--watch` ones start, say they watch, and stop on Ctrl-C with exit 0.
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { CLI, harness, ROOT, tempDir } from "./helpers/cli.js";

// Commands, options and pages that parallel branches add (issues 21–25). The tests below fail once
// one of them exists here, so the set shrinks as they are merged; nothing in it is ever skipped silently.
const PENDING_COMMANDS = new Set<string>();
const PENDING_OPTIONS = new Set<string>();
// Commands that start a host or a whole run: checked against their --help (each option shown exists), not run.
const HELP_ONLY = new Set(["run"]);
const PENDING_DOCS = new Set<string>();

const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");

/** Shell words, with double-quoted strings, up to a `#` comment. */
function words(line: string): string[] {
  const out: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|(#.*$)|(\S+)/g;
  for (let m; (m = re.exec(line)); ) {
    if (m[2] !== undefined) break;
    out.push(m[1] ?? m[3]!);
  }
  return out;
}

/** Every `npx harness …` command in the README's code blocks (comment lines excluded). */
function commands(): string[][] {
  const found: string[][] = [];
  for (const block of readme.matchAll(/```(?:sh|yaml)\n([\s\S]*?)```/g))
    for (const line of block[1]!.split("\n")) {
      const at = line.indexOf("npx harness ");
      if (at < 0 || line.trimStart().startsWith("#")) continue;
      found.push(words(line.slice(at + "npx harness ".length)));
    }
  return found;
}

const help = async (args: string[] = []) => (await harness([...args, "--help"], ROOT)).stdout;
const known = async () => new Set([...(await help()).matchAll(/^ {2}([a-z]+)\b/gm)].map((m) => m[1]!));

let base: string;
beforeAll(async () => {
  base = tempDir("harness-readme-");
  spawnSync("git", ["init", "-q"], { cwd: base });
  for (const args of [["init"], ["build", "-q"], ["install", "-q"]]) expect((await harness(args, base)).code, args.join(" ")).toBe(0);
});

describe("README", () => {
  it("is at most 150 lines", () => {
    expect(readme.split("\n").length).toBeLessThanOrEqual(151);
  });

  it("shows the user's path in order", () => {
    const order = ["npx harness init", "npx harness build", "npx harness install", "npx harness check --installed", "npx harness run"].map((c) => readme.indexOf(c));
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(readme).toMatch(/npm i -D git\+https:/);
    expect(readme).toMatch(/# npm i -D agent-harness +# the registry, once it is published \(not yet\)/);
  });

  it("links pages that exist", () => {
    for (const [, link] of readme.matchAll(/\]\(([^)#\s]+)[^)]*\)/g)) {
      if (/^https?:/.test(link!)) continue;
      if (PENDING_DOCS.has(link!)) expect(existsSync(path.join(ROOT, link!)), `${link} exists now: drop it from PENDING_DOCS`).toBe(false);
      else expect(existsSync(path.join(ROOT, link!)), link).toBe(true);
    }
  });

  const list = [...new Map(commands().map((c) => [c.join(" "), c])).values()]; // each command once
  it("has commands to run", () => {
    expect(list.length).toBeGreaterThan(10);
  });

  for (const args of list)
    it(`runs: harness ${args.join(" ")}`, async () => {
      const [command] = args;
      const option = `${command} ${args.find((a) => a.startsWith("--")) ?? ""}`.trim();
      if (PENDING_COMMANDS.has(command!) || PENDING_OPTIONS.has(option)) {
        const present = PENDING_COMMANDS.has(command!) ? (await known()).has(command!) : (await help([command!])).includes(option.split(" ")[1]!);
        expect(present, `${option} exists now: drop it from the pending sets so the README test runs it`).toBe(false);
        return;
      }
      if (HELP_ONLY.has(command!)) {
        const text = await help([command!]);
        for (const flag of args.filter((a) => a.startsWith("--"))) expect(text, `${command} ${flag}`).toContain(flag.split("=")[0]!);
        return;
      }
      const dir = command === "init" ? tempDir("harness-readme-init-") : tempDir("harness-readme-run-");
      if (command === "import") {
        // import's point of the path: a project with its own agents and no roles/ yet
        spawnSync("git", ["init", "-q"], { cwd: dir });
        mkdirSync(path.join(dir, ".claude/agents"), { recursive: true });
        writeFileSync(path.join(dir, ".claude/agents/reviewer.md"), "---\nname: reviewer\ndescription: Reviews the diff for bugs and risky changes.\ntools: Read, Grep, Glob\n---\nYou review the current diff and report findings with exact fixes.\n");
      } else if (command !== "init") cpSync(base, dir, { recursive: true });
      if (args.includes("--watch")) {
        const child = spawn(process.execPath, [CLI, ...args], { cwd: dir, env: { ...process.env, NO_COLOR: "1" } });
        let stderr = "";
        child.stderr.on("data", (d) => (stderr += d));
        for (const end = Date.now() + 60_000; !stderr.includes("watching ") && Date.now() < end; ) await new Promise((r) => setTimeout(r, 25));
        expect(stderr).toContain("watching ");
        child.kill("SIGINT");
        expect(await new Promise((r) => child.on("exit", r))).toBe(0);
        return;
      }
      if (command === "init") mkdirSync(dir, { recursive: true });
      const r = await harness(args, dir);
      expect(r.code, `harness ${args.join(" ")}\n${r.stdout}\n${r.stderr}`).toBe(0);
    }, 90_000); // a whole process or two each; generous for a loaded machine

  it("names only commands the CLI has (or that are pending)", async () => {
    const table = readme.slice(readme.indexOf("## Commands"), readme.indexOf("## Documentation"));
    const cli = await known();
    const named = [...table.matchAll(/^\| `([a-z]+)|, `([a-z]+)/gm)].map((m) => m[1] ?? m[2]!);
    expect(named.length).toBeGreaterThan(8);
    for (const c of named) expect(cli.has(c) || PENDING_COMMANDS.has(c), c).toBe(true);
  });
});
