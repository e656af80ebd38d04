// The Factory Droid shim of the guard (adapters/factory-droid/guard-runtime.ts) on the bundled roles
// (Pebble): Droid 0.225.2's PreToolUse input as measured on the real CLI (no droid named in it), the
// session bound by the droid process's starting environment when its parent is the launcher that set
// it, and the answers through `node`: exit 2 + stderr for deny and for ask, permissionDecision for
// allow, nothing for no opinion. The real CLI honouring them: test/hosts/enforce-out-factory-droid.test.ts.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DROID_GUARD_CALL } from "../../adapters/factory-droid/guard-runtime.js";
import { GUARD_OFF_ENV, GUARD_PATH, LAUNCH_ENV, ORCHESTRATOR, ROLE_ENV, compileDroidPolicy, guardHooks, renderGuard } from "../../adapters/factory-droid/guard.js";
import { GUARD_RUNTIME } from "../../src/adapter/guard/render.js";
import { PEBBLE_ROLES } from "../helpers/cli.js";
import { readRoles } from "../helpers/compile.js";
import type { Decision } from "./helpers.js";

const pipeline = readRoles(PEBBLE_ROLES);
const policy = compileDroidPolicy(pipeline);
const rt = new Function("fs", "path", `${GUARD_RUNTIME}\n${DROID_GUARD_CALL}\nreturn { drCall, guardDecide };`)(fs, path) as {
  drCall: (raw: string, as: string | null, project: string | null) => unknown;
  guardDecide: (policy: unknown, call: unknown) => Decision;
};

let root: string;
let P: string;
beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "harness-fdguard-")));
  P = path.join(root, "proj");
  for (const f of ["src/a.ts", "tests/a.test.ts", ".pebble/spec.md", "package.json"]) {
    fs.mkdirSync(path.dirname(path.join(P, f)), { recursive: true });
    fs.writeFileSync(path.join(P, f), "x\n");
  }
  fs.mkdirSync(path.join(P, path.dirname(GUARD_PATH)), { recursive: true });
  fs.writeFileSync(path.join(P, GUARD_PATH), renderGuard(pipeline));
  fs.mkdirSync(path.join(root, "home"), { recursive: true });
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** A PreToolUse input as Droid 0.225.2 sends it, the same in a main session and in a Task subagent. */
function input(tool: string, args: Record<string, unknown>): Record<string, unknown> {
  return { session_id: "4d3832b1", transcript_path: "/h/.factory/sessions/p/4d3832b1.jsonl", cwd: P, permission_mode: "auto-high", hook_event_name: "PreToolUse", tool_name: tool, tool_input: args };
}
const exec = (command: string) => input("Execute", { command, summary: "Run a step", riskLevel: "low", riskLevelReason: "r" });
function decide(as: string, raw: Record<string, unknown> | string): Decision {
  const call = rt.drCall(typeof raw === "string" ? raw : JSON.stringify(raw), as, P) as Record<string, unknown> | string;
  if (typeof call === "string") return { kind: "deny", reason: `harness guard: ${call}; refusing (fail closed).` };
  return rt.guardDecide(policy, call);
}

describe("Factory Droid guard: decisions on the measured input", () => {
  const abs = (rel: string) => path.join(P ?? "/p", rel);
  const cases: [string, string, () => Record<string, unknown>, Decision["kind"]][] = [
    ["jade creates src/", "jade", () => input("Create", { file_path: abs("src/x.ts"), content: "x" }), "allow"],
    ["jade edits src/a.ts", "jade", () => input("Edit", { file_path: abs("src/a.ts"), old_str: "x", new_str: "y" }), "allow"],
    ["jade creates tests/", "jade", () => input("Create", { file_path: abs("tests/b.test.ts"), content: "x" }), "deny"],
    ["jade writes the settings", "jade", () => input("Create", { file_path: abs(".factory/settings.json"), content: "{}" }), "deny"],
    ["jade writes a launcher", "jade", () => input("Edit", { file_path: abs(".factory/bin/jade.sh"), old_str: "a", new_str: "b" }), "deny"],
    ["jade patches (ApplyPatch: paths not modelled)", "jade", () => input("ApplyPatch", { patch: "*** Update File: src/a.ts" }), "deny"],
    ["jade runs npm test", "jade", () => exec("npm test"), "allow"],
    ["jade runs git commit", "jade", () => exec("git commit -m x"), "deny"],
    ["jade runs another role's launcher", "jade", () => exec(".factory/bin/chalk.sh 'docs'"), "deny"],
    ["jade reads", "jade", () => input("Read", { file_path: abs("tests/a.test.ts") }), "none"],
    ["jade calls an unknown tool", "jade", () => input("Frobnicate", {}), "deny"],
    ["the orchestrator writes Flint's spec", ORCHESTRATOR, () => input("Create", { file_path: abs(".pebble/spec.md"), content: "x" }), "allow"],
    ["the orchestrator writes src/", ORCHESTRATOR, () => input("Create", { file_path: abs("src/y.ts"), content: "x" }), "deny"],
    ["the orchestrator runs git push", ORCHESTRATOR, () => exec("git push"), "deny"],
    ["the orchestrator starts jade through its launcher", ORCHESTRATOR, () => exec(".factory/bin/jade.sh 'Implement the blueprint.'"), "allow"],
    ["the orchestrator starts jade as ./.factory/bin/jade.sh", ORCHESTRATOR, () => exec("./.factory/bin/jade.sh do it"), "allow"],
    ["the orchestrator starts a launcher that is not a role's", ORCHESTRATOR, () => exec(".factory/bin/helper.sh x"), "deny"],
    // second red team: a relative launcher path from another folder is a file in that folder (src/.factory/bin/jade.sh, which a role's code can write), not the launcher
    ["the orchestrator starts jade's launcher from src/", ORCHESTRATOR, () => ({ ...exec(".factory/bin/jade.sh x"), cwd: abs("src") }), "ask"],
    // anything around the launcher is a plain command again: asked, and an ask is refused on Droid
    ["the orchestrator runs a launcher with an assignment", ORCHESTRATOR, () => exec("HARNESS_ROLE=@orchestrator .factory/bin/jade.sh x"), "ask"],
    ["the orchestrator runs a launcher with a redirection", ORCHESTRATOR, () => exec(".factory/bin/jade.sh x > src/y.ts"), "deny"],
  ];
  for (const [name, as, raw, kind] of cases) it(`${name}: ${kind}`, () => expect(decide(as, raw()).kind).toBe(kind));

  it("malformed input is refused", () => {
    expect(decide("jade", "not json").kind).toBe("deny");
    expect(decide("jade", { ...input("Create", {}), hook_event_name: "PostToolUse" }).kind).toBe("deny");
    expect(decide("jade", input("Execute", { command: ["git", "push"] })).kind).toBe("deny");
    expect(decide("jade", { ...input("Create", { file_path: path.join(P, "src/x.ts") }), cwd: 7 }).kind).toBe("deny");
  });
});

describe("Factory Droid guard: through node, bound by the droid process", () => {
  // launcher (sh, sets the variables, HARNESS_LAUNCH=$$) -> host (a node process standing in for droid,
  // started with `hostEnv`) -> /bin/sh -c -> node guard, with `hookEnv` (what the host adds for hooks)
  const base = () => ({ PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: path.join(root, "home"), FACTORY_PROJECT_DIR: P });
  const HOST = `const r = require("child_process").spawnSync("/bin/sh", ["-c", process.argv[1]], { input: require("fs").readFileSync(0), env: { ...process.env, ...JSON.parse(process.argv[2]) }, stdio: ["pipe", "inherit", "inherit"] }); process.exit(r.status === null ? 1 : r.status);`;
  const hook = () => `${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(P, GUARD_PATH))}; exit $?`;
  /** role: what the launcher sets (null: no launcher, the host started plainly); launch: "self" = the launcher's pid */
  function run(raw: unknown, o: { role?: string | null; launch?: string; hostEnv?: Record<string, string>; hookEnv?: Record<string, string> } = {}) {
    const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    const hostCmd = `${q(process.execPath)} -e ${q(HOST)} ${q(hook())} ${q(JSON.stringify(o.hookEnv ?? {}))}`;
    const vars = o.role ? `${ROLE_ENV}=${q(o.role)}; ${LAUNCH_ENV}=${o.launch ?? "$$"}; export ${ROLE_ENV} ${LAUNCH_ENV}; ` : "";
    return spawnSync("/bin/sh", ["-c", `${vars}${hostCmd}; exit $?`], { input: JSON.stringify(raw), encoding: "utf8", env: { ...base(), ...(o.hostEnv ?? {}) } });
  }
  const w = (rel: string) => input("Create", { file_path: path.join(P, rel), content: "x" });

  it("a launched role: deny is exit 2 and the reason on stderr; allow is permissionDecision on stdout", () => {
    const d = run(w("tests/x.test.ts"), { role: "jade" });
    expect(d.status, d.stderr).toBe(2);
    expect(d.stderr).toMatch(/^harness guard: jade may not write tests\/x\.test\.ts/);
    const a = run(w("src/x.ts"), { role: "jade" });
    expect(a.status, a.stderr).toBe(0);
    expect(JSON.parse(a.stdout)).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow" } });
  });

  it("the orchestrator's launcher binds the orchestrator; Task is refused, a role's launcher runs", () => {
    expect(run(w("src/y.ts"), { role: ORCHESTRATOR }).status).toBe(2);
    const t = run(input("Task", { subagent_type: "jade", description: "d", prompt: "p" }), { role: ORCHESTRATOR });
    expect(t.status).toBe(2);
    expect(t.stderr).toMatch(/may not start droids with Task/);
    expect(run(exec(".factory/bin/jade.sh 'go'"), { role: ORCHESTRATOR }).status).toBe(0);
  });

  it("an ordinary session is unbound: no output, exit 0, whatever it does", () => {
    for (const raw of [w("tests/x.test.ts"), exec("git push"), input("Task", { subagent_type: "helper", description: "d", prompt: "p" })]) {
      const r = run(raw);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toBe("");
    }
    // HARNESS_ROLE added for hooks after the host started (settings env, an env file): not a binding
    expect(run(w("tests/x.test.ts"), { hookEnv: { [ROLE_ENV]: "jade", [LAUNCH_ENV]: "1" } }).status).toBe(0);
  });

  it("a role named without its launcher as the droid's parent (a Task subagent, a forged variable) is refused", () => {
    const r = run(w("src/x.ts"), { role: "jade", launch: "1" });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/Task subagent of a pebble session, which no launcher started/);
    const x = run(w("src/x.ts"), { role: "nobody" });
    expect(x.status).toBe(2);
    expect(x.stderr).toMatch(/HARNESS_ROLE "nobody" is not a role of pipeline pebble/);
  });

  it("the off switch counts only from the environment the host started with, never from a settings file", () => {
    const on = { [GUARD_OFF_ENV]: "1" };
    expect(run(w("tests/x.test.ts"), { role: "jade", hostEnv: on }).status).toBe(0);
    expect(run(w("tests/x.test.ts"), { role: "jade", hookEnv: on }).status, "added for hooks after the host started").toBe(2);
    fs.mkdirSync(path.join(P, ".factory"), { recursive: true });
    fs.writeFileSync(path.join(P, ".factory", "settings.local.json"), '{"env":{"HARNESS_GUARD_\\u004fFF":"1"}}');
    try {
      expect(run(w("tests/x.test.ts"), { role: "jade", hostEnv: on }).status).toBe(2);
    } finally {
      fs.rmSync(path.join(P, ".factory", "settings.local.json"));
    }
  });

  it("the hook is a PreToolUse entry on every tool, timeout in seconds, fail closed", () => {
    const h = guardHooks() as { PreToolUse: { matcher: string; hooks: { command: string; timeout: number }[] }[] };
    expect(h.PreToolUse[0]!.matcher).toBe("*");
    expect(h.PreToolUse[0]!.hooks[0]!.timeout).toBeLessThan(1000);
    expect(h.PreToolUse[0]!.hooks[0]!.command).toContain(`"$harness_node" "$FACTORY_PROJECT_DIR/${GUARD_PATH}";`);
    const missing = spawnSync("sh", ["-c", h.PreToolUse[0]!.hooks[0]!.command], { input: "{}", encoding: "utf8", env: { PATH: process.env.PATH ?? "", FACTORY_PROJECT_DIR: path.join(root, "nowhere") } });
    expect(missing.status).toBe(2);
  });
});

describe("Factory Droid role launcher", () => {
  it("starts droid exec as the role with its tools and prompt, the brief through a file (a brief may start with -), and binds itself", async () => {
    const { HOSTS } = await import("../../adapters/index.js");
    const lowered = (await HOSTS["factory-droid"]!()).lower(pipeline);
    const file = lowered.files.find((f) => f.path === ".factory/bin/jade.sh") as { text: string };
    const dir = path.join(root, "launch");
    fs.mkdirSync(path.join(dir, ".factory", "bin"), { recursive: true });
    fs.writeFileSync(path.join(dir, ".factory", "bin", "jade.sh"), file.text, { mode: 0o755 });
    // a stand-in droid: prints its arguments, the brief file's text and the binding it was started with
    const fake = path.join(dir, "fake-droid");
    fs.writeFileSync(fake, `#!/bin/sh\nfor a in "$@"; do printf '<%s>' "$a"; done; echo; f=; p=; for a in "$@"; do [ "$p" = -f ] && f=$a; p=$a; done; cat "$f"; echo "$HARNESS_ROLE $HARNESS_LAUNCH $PPID"\n`, { mode: 0o755 });
    const r = spawnSync(path.join(dir, ".factory", "bin", "jade.sh"), ["--settings=evil.json", "then the brief"], { encoding: "utf8", env: { PATH: process.env.PATH ?? "/usr/bin:/bin", DROID_BIN: fake, HARNESS_DROID_MODEL: "custom:M-0", TMPDIR: root } });
    expect(r.status, r.stderr).toBe(0);
    const [argv, brief, binding] = r.stdout.trim().split("\n");
    expect(argv).toBe(`<exec><--cwd><${fs.realpathSync(dir)}><--auto><high><--only-tools><Read,Grep,Glob,Edit,Create,Execute><--append-system-prompt-file><${fs.realpathSync(dir)}/.factory/roles/jade.md><-m><custom:M-0><-f>${/<[^>]*harness-brief\.[^>]*>/.exec(argv!)?.[0]}`);
    expect(brief).toBe("--settings=evil.json then the brief");
    const [role, launch, ppid] = binding!.split(" ");
    expect([role, launch]).toEqual(["jade", ppid]);
    expect(fs.readdirSync(root).filter((f) => f.startsWith("harness-brief."))).toEqual([]);
  });
});
