// Load the Codex trees with the real pinned Codex 0.171.0 CLI, offline (CODEX_BIN overrides the
// pinned install in .cache/hosts/).
// Scratch folders live under <repo>/.cache (never /tmp: Codex's sandbox refuses helpers there).
// The scratch path is resolved first: Codex records trust under the real path, so a .cache symlink (a worktree sharing
// the main checkout's cache) would leave the project untrusted.
import { HOST_IDS } from "../../adapters/index.js";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CodexAdapter } from "../../adapters/codex/index.js";
import { hostBin } from "./helpers.js";
import { planRules, renderRules } from "../../adapters/codex/rules.js";
import { compileHost } from "../../src/compile.js";
import { readPipeline } from "../../src/ir/normalize.js";

const BIN = process.env.CODEX_BIN ?? hostBin("codex");
const ROOT = path.resolve(import.meta.dirname, "../..");
const OFFLINE = [
  "--disable",
  "unbounded_connection_retries",
  "--skip-git-repo-check",
  "-c",
  'model_provider="harness_offline"',
  "-c",
  'model_providers.harness_offline={name="harness-offline",base_url="http://127.0.0.1:9/v1",wire_api="responses",request_max_retries=0,stream_max_retries=0,supports_websockets=false}',
];
// Also not complaints about the tree: a launcher's note on the writes Codex cannot grant (the narrowing
// MAPPING.md records) and the offline model catalogue's fallback warning for a mapped model id.
const NOISE = /^note: Codex cannot grant these writes of |^warning: Model metadata for `[^`]+` not found|could not create PATH aliases|^warning: Codex could not find bubblewrap on PATH\. |Connection failed|error sending request|Reading additional input|^OpenAI Codex|^-+$|^(workdir|model|provider|approval|sandbox|reasoning effort|reasoning summaries|session id):|^user$|^harness load probe$|^\s*$/;

function scratch(tree: string, files: ReturnType<typeof compileHost>["files"]) {
  const root = fs.mkdtempSync(path.join(fs.realpathSync(path.join(ROOT, ".cache")), `codex-real-${tree}-`));
  const project = path.join(root, "project");
  const home = path.join(root, "home");
  for (const f of files) {
    const p = path.join(project, f.path);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, f.content, { mode: f.executable ? 0o755 : 0o644 });
  }
  fs.mkdirSync(path.join(home, ".codex"), { recursive: true });
  fs.mkdirSync(project, { recursive: true });
  spawnSync("git", ["init", "-q", "."], { cwd: project });
  fs.writeFileSync(path.join(home, ".codex", "config.toml"), `[projects.${JSON.stringify(project)}]\ntrust_level = "trusted"\n`);
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, CODEX_HOME: path.join(home, ".codex"), TMPDIR: root, TERM: "dumb" };
  const codex = (args: string[]) => spawnSync(BIN!, args, { cwd: project, env, encoding: "utf8", timeout: 60_000, input: "" });
  // a role's profile starts through its launcher, which creates the write folders Codex needs at start
  const launch = (role: string, args: string[]) =>
    spawnSync(path.join(project, ".codex", "bin", `${role}.sh`), args, { cwd: project, env: { ...env, CODEX_BIN: BIN! }, encoding: "utf8", timeout: 60_000, input: "" });
  return { root, project, codex, launch };
}

describe("real Codex 0.171.0 loads the generated trees", () => {
  for (const [name, dir] of [
    ["pebble", path.join(ROOT, "roles")],
    ["mini", path.join(ROOT, "test/fixtures/mini")],
  ] as const) {
    it(`${name}: every profile starts clean, every agent and skill is offered, the rules parse`, () => {
      const pipeline = readPipeline(dir, { knownHosts: HOST_IDS }).pipeline;
      const out = compileHost(pipeline, CodexAdapter);
      const s = scratch(name, out.files);
      try {
        expect(s.codex(["--version"]).stdout).toContain("0.171.0");
        for (const profile of [undefined, ...pipeline.roles.map((r) => r.id)]) {
          const r = profile ? s.launch(profile, ["--strict-config", ...OFFLINE, "harness load probe"]) : s.codex(["exec", "--strict-config", ...OFFLINE, "harness load probe"]);
          const complaints = `${r.stdout}\n${r.stderr}`.split("\n").filter((l) => !NOISE.test(l));
          expect(complaints, `profile ${profile ?? "(default)"}`).toEqual([]);
          expect(r.stderr + r.stdout).toContain("Connection failed"); // it got as far as the model request
        }
        const pi = s.codex(["debug", "prompt-input", "harness load probe"]);
        expect(pi.status, pi.stderr).toBe(0);
        const text = pi.stdout;
        for (const role of pipeline.roles) expect(text).toContain(`${role.id}: {`);
        for (const f of out.files.filter((x) => x.path.endsWith("SKILL.md"))) expect(text).toContain(`- ${f.path.split("/")[2]}: `);
        expect(text).toContain("AGENTS.md instructions for");
        const rules = s.codex(["execpolicy", "check", "--rules", path.join(s.project, `.codex/rules/${pipeline.name}.rules`), "git", "push", "origin", "main"]);
        expect(rules.status, rules.stderr).toBe(0);
        if (pipeline.policies.shellDeny.includes("git push")) expect(JSON.parse(rules.stdout).decision).toBe("forbidden");
      } finally {
        fs.rmSync(s.root, { recursive: true, force: true });
      }
    });
  }

  it("hostile tokens reach execpolicy exactly as written", () => {
    const tokens = ['a"b', "c\\d", "e\nf", "g'h", "\u007f", "é😀", "x\u2028y", "$(id)", "tab\there"];
    const plan = planRules([`hostile ${tokens.join(" ")}`.replace(/\n/g, "\\n"), ...tokens.map((t) => `tool ${t}`)], []);
    const s = scratch("rules", []);
    try {
      const file = path.join(s.root, "hostile.rules");
      fs.writeFileSync(file, renderRules('T"\nitle', plan));
      for (const t of tokens) {
        const r = s.codex(["execpolicy", "check", "--rules", file, "tool", t]);
        expect(r.status, r.stderr).toBe(0);
        const got = JSON.parse(r.stdout) as { decision?: string; matchedRules: { prefixRuleMatch: { matchedPrefix: string[] } }[] };
        expect(got.decision, JSON.stringify(t)).toBe("forbidden");
        expect(got.matchedRules[0]!.prefixRuleMatch.matchedPrefix).toEqual(["tool", t]);
      }
    } finally {
      fs.rmSync(s.root, { recursive: true, force: true });
    }
  });
});
