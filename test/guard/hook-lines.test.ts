// Third red team (r3, A4): every hook line a host runs (guard, stage-end audit start/stop/report/
// between, run controller) starts node the way the guard's line does: nothing from the settings' env
// (NODE_OPTIONS=--require=exit0.cjs made the audit's stop and report exit 0 after jade rewrote a test),
// node from an absolute PATH entry only, and the audit's own git from the system's folders first.
// The lines are taken from the emitted files of each host; a probe stands in for each script.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PEBBLE_ROLES } from "../helpers/cli.js";
import { compileAll } from "../helpers/compile.js";

const HOSTS = ["claude-code", "codex", "copilot"] as const;
const SCRIPT = /(?:\.claude|\.codex|\.github)\/hooks\/harness-[a-z]+\.(?:cjs|mjs)/g;

/** Every string under a `command` or `bash` key that starts a harness hook script. */
function hookLines(value: unknown, out: string[]): void {
  if (Array.isArray(value)) for (const v of value) hookLines(v, out);
  else if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value)) {
      if ((k === "command" || k === "bash") && typeof v === "string" && v.match(SCRIPT)) out.push(v);
      else hookLines(v, out);
    }
}

let lines: [string, string][] = [];
let root: string;
let P: string;
beforeAll(async () => {
  const { outputs } = await compileAll(PEBBLE_ROLES, HOSTS);
  const seen = new Set<string>();
  for (const o of outputs)
    for (const f of o.files) {
      const found: string[] = [];
      if (f.path.endsWith(".json")) hookLines(JSON.parse(f.content), found);
      const fm = f.path.endsWith(".md") ? /^---\n([\s\S]*?)\n---\n/.exec(f.content) : null;
      if (fm) hookLines(parseYaml(fm[1]!), found);
      for (const l of found) if (!seen.has(l)) { seen.add(l); lines.push([`${o.adapter.id}: ${f.path}: ${l.match(SCRIPT)![0].split("/").pop()} ${/\.(?:cjs|mjs)"? ?([A-Za-z@-]*)/.exec(l)?.[1] ?? ""}`, l]); }
    }
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "harness-hooklines-")));
  P = path.join(root, "proj");
  fs.mkdirSync(P);
  spawnSync("git", ["init", "-q", P]);
  // the states in which each line reaches node: a stage has ended (between), a run is bound (Codex controller)
  fs.mkdirSync(path.join(P, ".git/harness-audit/chain"), { recursive: true });
  fs.mkdirSync(path.join(P, ".harness/controller"), { recursive: true });
  const body = `const git = cp.spawnSync("git", ["--version"], { encoding: "utf8" }).stdout || "";
fs.writeFileSync(${JSON.stringify(path.join(root, "ran.json"))}, JSON.stringify({ opts: process.env.NODE_OPTIONS ?? null, nodePath: process.env.NODE_PATH ?? null, git: git.trim() }));
process.exit(2);
`;
  for (const [, l] of lines)
    for (const s of l.match(SCRIPT)!) {
      fs.mkdirSync(path.dirname(path.join(P, s)), { recursive: true });
      const head = s.endsWith(".mjs") ? 'import fs from "node:fs"; import cp from "node:child_process";\n' : 'const fs = require("fs"), cp = require("child_process");\n';
      fs.writeFileSync(path.join(P, s), head + body);
    }
  // what a role's code could plant: a preload that answers "ok" for the hook, and a git in an absolute PATH folder
  fs.writeFileSync(path.join(root, "exit0.cjs"), `require("fs").writeFileSync(${JSON.stringify(path.join(root, "PWNED"))}, "x"); process.exit(0);\n`);
  fs.mkdirSync(path.join(root, "fakebin"));
  fs.writeFileSync(path.join(root, "fakebin", "git"), "#!/bin/sh\necho FAKE git\n", { mode: 0o755 });
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe("every emitted hook line", () => {
  it("lists the guard, audit and controller lines of each host", () => {
    const names = lines.map(([n]) => n).join("\n");
    for (const want of ["claude-code: .claude/settings.json: harness-audit.mjs stop", "claude-code: .claude/settings.json: harness-audit.mjs report", "codex: .codex/hooks.json: harness-audit.mjs start", "copilot: .github/hooks/harness-audit.json: harness-audit.mjs stop", "claude-code: .claude/settings.json: harness-controller.cjs", "codex: .codex/hooks.json: harness-guard.cjs"])
      expect(names).toContain(want);
    expect(names).toMatch(/harness-audit\.mjs between/);
  });

  it("starts its script with no NODE_OPTIONS or NODE_PATH from the settings' env; the audit's git is the system's", () => {
    const bad: string[] = [];
    for (const [name, line] of lines) {
      fs.rmSync(path.join(root, "PWNED"), { force: true });
      fs.rmSync(path.join(root, "ran.json"), { force: true });
      const env = { PATH: `${path.join(root, "fakebin")}:${process.env.PATH ?? "/usr/bin:/bin"}`, HOME: root, CLAUDE_PROJECT_DIR: P, COPILOT_PROJECT_DIR: P, NODE_OPTIONS: `--require=${path.join(root, "exit0.cjs")}`, NODE_PATH: root };
      const r = spawnSync("/bin/sh", ["-c", line], { cwd: P, env, input: "{}", encoding: "utf8", timeout: 20_000 });
      if (fs.existsSync(path.join(root, "PWNED"))) { bad.push(`${name}: NODE_OPTIONS reached node (exit ${r.status})`); continue; }
      if (!fs.existsSync(path.join(root, "ran.json"))) { bad.push(`${name}: the script did not run (exit ${r.status}: ${r.stderr.trim()})`); continue; }
      const got = JSON.parse(fs.readFileSync(path.join(root, "ran.json"), "utf8")) as { opts: string | null; nodePath: string | null; git: string };
      if (got.opts !== null || got.nodePath !== null) bad.push(`${name}: ${JSON.stringify(got)}`);
      if (name.includes("harness-audit") && fs.existsSync("/usr/bin/git") && got.git.startsWith("FAKE")) bad.push(`${name}: the audit ran the git of a PATH folder`);
      // a blocking line hands the script's refusal on; the audit's stop on Claude Code and Codex never blocks (exit 2 would keep the stage running)
      const blocking = !line.endsWith("; exit 0");
      if (blocking && r.status !== 2) bad.push(`${name}: exit ${r.status}, not the script's 2`);
      if (!blocking && !/harness-audit\.mjs"? stop; exit 0$/.test(line)) bad.push(`${name}: a line that never blocks`);
    }
    expect(bad).toEqual([]);
  });

  // r4 red team: the PATH a host hands its hooks usually holds folders the user can write ahead of
  // /usr/bin (~/.cargo/bin, ~/.local/bin, pyenv shims on this image): a `node` that code a role ran
  // planted there answered every later guard, audit and controller call with exit 0, from that very
  // stage's own stop on. A system node (/usr/bin, /bin) of Node.js 20+ is taken first.
  it.runIf(fs.existsSync("/usr/bin/node") && Number(spawnSync("/usr/bin/node", ["-p", "process.versions.node.split('.')[0]"], { encoding: "utf8" }).stdout.trim()) >= 20)(
    "runs the system's node, not a node planted in a PATH folder ahead of it",
    () => {
      const bin = path.join(root, "userbin");
      fs.mkdirSync(bin, { recursive: true });
      fs.writeFileSync(path.join(bin, "node"), `#!/bin/sh\necho x > ${JSON.stringify(path.join(root, "PWNED"))}\nexit 0\n`, { mode: 0o755 });
      const bad: string[] = [];
      for (const [name, line] of lines) {
        fs.rmSync(path.join(root, "PWNED"), { force: true });
        fs.rmSync(path.join(root, "ran.json"), { force: true });
        const env = { PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}`, HOME: root, CLAUDE_PROJECT_DIR: P, COPILOT_PROJECT_DIR: P };
        const r = spawnSync("/bin/sh", ["-c", line], { cwd: P, env, input: "{}", encoding: "utf8", timeout: 20_000 });
        if (fs.existsSync(path.join(root, "PWNED"))) bad.push(`${name}: ran the planted node (exit ${r.status})`);
        else if (!fs.existsSync(path.join(root, "ran.json"))) bad.push(`${name}: the script did not run (exit ${r.status}: ${r.stderr.trim()})`);
      }
      expect(bad).toEqual([]);
    },
  );
});
