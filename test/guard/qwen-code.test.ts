// The Qwen Code shim of the guard (adapters/qwen-code/guard-runtime.ts) on the bundled roles (Pebble):
// Qwen Code 0.24.4's PreToolUse input as measured on the real CLI, the role bound by its own hook's
// argument (never parsed out of agent_id), the orchestrator bound only under the launcher's variable,
// and the answers through `node`: exit 2 + stderr for deny and for ask, permissionDecision for allow,
// nothing for no opinion. The real CLI honouring them: test/hosts/enforce-out-qwen-code.test.ts.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QWEN_GUARD_CALL } from "../../adapters/qwen-code/guard-runtime.js";
import { GUARD_OFF_ENV, GUARD_PATH, ORCHESTRATOR, RUN_ENV, compileQwenPolicy, guardHooks, renderGuard } from "../../adapters/qwen-code/guard.js";
import { GUARD_RUNTIME } from "../../src/adapter/guard/render.js";
import { PEBBLE_ROLES } from "../helpers/cli.js";
import { readRoles } from "../helpers/compile.js";
import type { Decision } from "./helpers.js";

const pipeline = readRoles(PEBBLE_ROLES);
const policy = compileQwenPolicy(pipeline);
const rt = new Function("fs", "path", `${GUARD_RUNTIME}\n${QWEN_GUARD_CALL}\nreturn { qwCall, guardDecide };`)(fs, path) as {
  qwCall: (raw: string, env: Record<string, string | undefined>, as: string | null, sp: string | null) => unknown;
  guardDecide: (policy: unknown, call: unknown) => Decision;
};

let root: string;
let P: string;
beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "harness-qwguard-")));
  P = path.join(root, "proj");
  for (const f of ["src/a.ts", "tests/a.test.ts", ".pebble/spec.md", "package.json"]) {
    fs.mkdirSync(path.dirname(path.join(P, f)), { recursive: true });
    fs.writeFileSync(path.join(P, f), "x\n");
  }
  fs.mkdirSync(path.join(P, path.dirname(GUARD_PATH)), { recursive: true });
  fs.writeFileSync(path.join(P, GUARD_PATH), renderGuard(pipeline));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** A PreToolUse input as Qwen Code 0.24.4 sends it (a subagent's carries agent_id "<name>-<call id>"). */
function input(tool: string, args: Record<string, unknown>, sub?: string): Record<string, unknown> {
  return { session_id: "s-1", transcript_path: "/t", cwd: P, hook_event_name: "PreToolUse", timestamp: "2026-12-01T00:00:00Z", permission_mode: "yolo", ...(sub ? { agent_id: `${sub}-call_7` } : {}), prompt_id: "p", tool_name: tool, tool_input: args, tool_use_id: "toolu_1", tool_call_id: "call_3" };
}
function decide(as: string, raw: Record<string, unknown> | string): Decision {
  const call = rt.qwCall(typeof raw === "string" ? raw : JSON.stringify(raw), {}, as, P);
  if (typeof call === "string") return { kind: "deny", reason: `harness guard: ${call}; refusing (fail closed).` };
  return rt.guardDecide(policy, call);
}

describe("Qwen Code guard: decisions on the measured input", () => {
  const abs = (rel: string) => path.join(P ?? "/p", rel);
  const cases: [string, string, () => Record<string, unknown>, Decision["kind"]][] = [
    ["jade writes src/", "jade", () => input("write_file", { file_path: abs("src/x.ts"), content: "x" }, "jade"), "allow"],
    ["jade edits src/a.ts", "jade", () => input("edit", { file_path: abs("src/a.ts"), old_string: "x", new_string: "y" }, "jade"), "allow"],
    ["jade writes tests/", "jade", () => input("write_file", { file_path: abs("tests/b.test.ts"), content: "x" }, "jade"), "deny"],
    ["jade writes the settings", "jade", () => input("write_file", { file_path: abs(".qwen/settings.json"), content: "{}" }, "jade"), "deny"],
    ["jade writes a .env", "jade", () => input("write_file", { file_path: abs("src/.env"), content: "X=1" }, "jade"), "deny"],
    ["jade runs npm test", "jade", () => input("run_shell_command", { command: "npm test", description: "t" }, "jade"), "allow"],
    ["jade runs git commit", "jade", () => input("run_shell_command", { command: "git commit -m x" }, "jade"), "deny"],
    ["jade runs npm test in tests/ (directory)", "jade", () => input("run_shell_command", { command: "echo x > a.test.ts", directory: "tests" }, "jade"), "deny"],
    ["jade starts an agent", "jade", () => input("agent", { subagent_type: "mica", prompt: "p", description: "d" }, "jade"), "deny"],
    ["jade calls a tool through tool_call", "jade", () => input("tool_call", { name: "write_file", arguments: {} }, "jade"), "deny"],
    ["jade reads", "jade", () => input("read_file", { absolute_path: abs("tests/a.test.ts") }, "jade"), "none"],
    // a role's hook is that role, whatever agent_id says (agent_id is "<name>-<call id>", never parsed)
    ["mica's hook with a jade-looking agent_id writes tests/", "mica", () => input("write_file", { file_path: abs("tests/c.test.ts"), content: "x" }, "jade"), "allow"],
    ["the orchestrator writes Flint's spec", ORCHESTRATOR, () => input("write_file", { file_path: abs(".pebble/spec.md"), content: "x" }), "allow"],
    ["the orchestrator writes src/", ORCHESTRATOR, () => input("write_file", { file_path: abs("src/y.ts"), content: "x" }), "deny"],
    ["the orchestrator runs git push", ORCHESTRATOR, () => input("run_shell_command", { command: "git push" }), "deny"],
    ["the orchestrator starts jade", ORCHESTRATOR, () => input("agent", { subagent_type: "jade", prompt: "p", description: "d" }), "allow"],
    ["the orchestrator starts a fork", ORCHESTRATOR, () => input("agent", { subagent_type: "fork", prompt: "p", description: "d" }), "deny"],
    // a subagent's call reaches the settings hook too: its own agent file's hook decides it
    ["the orchestrator's hook on a subagent's call", ORCHESTRATOR, () => input("write_file", { file_path: abs("src/y.ts"), content: "x" }, "jade"), "none"],
  ];
  for (const [name, as, raw, kind] of cases) it(`${name}: ${kind}`, () => expect(decide(as, raw()).kind).toBe(kind));

  it("malformed input is refused", () => {
    expect(decide("jade", "not json").kind).toBe("deny");
    expect(decide("jade", { ...input("write_file", {}), hook_event_name: "PostToolUse" }).kind).toBe("deny");
    expect(decide("jade", input("run_shell_command", { command: ["git", "push"] })).kind).toBe("deny");
    expect(decide("jade", input("write_file", { file_path: abs("src/x.ts") }, "jade")).kind).toBe("allow");
    expect(decide("jade", { ...input("write_file", { file_path: abs("src/x.ts") }), agent_id: 7 }).kind).toBe("deny");
  });
});

describe("Qwen Code guard: through node", () => {
  const run = (as: string[], raw: unknown, env: Record<string, string> = {}) =>
    spawnSync(process.execPath, [path.join(P, GUARD_PATH), ...as], { input: JSON.stringify(raw), encoding: "utf8", env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: path.join(root, "home"), ...env } });
  const w = (rel: string, sub?: string) => input("write_file", { file_path: path.join(P, rel), content: "x" }, sub);

  it("deny: exit 2 and the reason on stderr; allow: permissionDecision on stdout", () => {
    const d = run(["jade"], w("tests/x.test.ts", "jade"));
    expect(d.status).toBe(2);
    expect(d.stderr).toMatch(/^harness guard: jade may not write tests\/x\.test\.ts/);
    const a = run(["jade"], w("src/x.ts", "jade"));
    expect(a.status).toBe(0);
    expect(JSON.parse(a.stdout)).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow" } });
  });

  it("ask is refused, never handed to Qwen Code (yolo would run it)", () => {
    const r = run(["jade"], input("run_shell_command", { command: "curl -s http://127.0.0.1:9/" }, "jade"));
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/jade wants to run .*refused/);
  });

  it(`the orchestrator's hook binds the main thread only when ${RUN_ENV} is set (any value)`, () => {
    expect(run([ORCHESTRATOR], w("src/y.ts")).status).toBe(0);
    expect(run([ORCHESTRATOR], w("src/y.ts")).stdout).toBe("");
    expect(run([ORCHESTRATOR], w("src/y.ts"), { [RUN_ENV]: "pebble" }).status).toBe(2);
    expect(run([ORCHESTRATOR], w("src/y.ts"), { [RUN_ENV]: "" }).status).toBe(2);
    // scope repository: bound without the launcher
    expect(run([ORCHESTRATOR, "repository"], w("src/y.ts")).status).toBe(2);
  });

  // A host process started with `hostEnv` runs the hook through /bin/sh with `env` (what it adds from
  // its .env files and settings): the switch counts only when the host itself was started with it.
  const underHost = (as: string[], raw: unknown, env: Record<string, string>, hostEnv: Record<string, string> = env) => {
    const host = `const r = require("child_process").spawnSync("/bin/sh", ["-c", process.argv[1]], { input: require("fs").readFileSync(0), env: JSON.parse(process.argv[2]), stdio: ["pipe", "inherit", "inherit"] }); process.exit(r.status === null ? 1 : r.status);`;
    const hook = `${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(P, GUARD_PATH))} ${as.join(" ")}; exit $?`;
    const base = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: path.join(root, "home") };
    return spawnSync(process.execPath, ["-e", host, hook, JSON.stringify({ ...base, ...env })], { input: JSON.stringify(raw), encoding: "utf8", env: { ...base, ...hostEnv } });
  };

  it("the off switch counts only from the environment the host started with, never when an env or settings file names it", () => {
    const on = { [GUARD_OFF_ENV]: "1" };
    expect(underHost(["jade"], w("tests/x.test.ts", "jade"), on).status).toBe(0);
    // put in by the host after it started (an .env file or its settings): not the person's switch
    expect(underHost(["jade"], w("tests/x.test.ts", "jade"), on, {}).status).toBe(2);
    expect(run(["jade"], w("tests/x.test.ts", "jade"), on).status, "no host started with it").toBe(2);
    fs.writeFileSync(path.join(P, ".env"), `${GUARD_OFF_ENV}=1\n`);
    try {
      expect(underHost(["jade"], w("tests/x.test.ts", "jade"), on).status).toBe(2);
    } finally {
      fs.rmSync(path.join(P, ".env"));
    }
    // Qwen Code reads .env and .qwen/.env from every folder above the project too, and QWEN_HOME's (c22)
    for (const f of [path.join(path.dirname(P), ".env"), path.join(path.dirname(P), ".qwen", ".env"), path.join(root, "qhome", ".env"), path.join(root, "qhome", "settings.json")]) {
      fs.mkdirSync(path.dirname(f), { recursive: true });
      fs.writeFileSync(f, f.endsWith(".json") ? `{"env":{"${GUARD_OFF_ENV}":"1"}}` : `${GUARD_OFF_ENV}=1\n`);
      try {
        expect(underHost(["jade"], w("tests/x.test.ts", "jade"), { ...on, QWEN_HOME: path.join(root, "qhome") }).status, f).toBe(2);
      } finally {
        fs.rmSync(f);
      }
    }
    expect(underHost(["jade"], w("tests/x.test.ts", "jade"), { ...on, QWEN_HOME: path.join(root, "qhome") }).status).toBe(0);
    // a settings file's env, however it spells the key (read as JSON)
    fs.mkdirSync(path.join(P, ".qwen"), { recursive: true });
    fs.writeFileSync(path.join(P, ".qwen", "settings.json"), '{"env":{"HARNESS_GUARD_\\u004fFF":"1"}}');
    try {
      expect(underHost(["jade"], w("tests/x.test.ts", "jade"), on).status).toBe(2);
    } finally {
      fs.rmSync(path.join(P, ".qwen", "settings.json"));
    }
  });

  it("the hooks are a PreToolUse entry on every tool, timeout in seconds, fail closed", () => {
    const h = guardHooks("jade") as { PreToolUse: { matcher: string; hooks: { command: string; timeout: number }[] }[] };
    expect(h.PreToolUse[0]!.matcher).toBe("*");
    expect(h.PreToolUse[0]!.hooks[0]!.timeout).toBeLessThan(1000); // 1000 or more is read as milliseconds
    expect(h.PreToolUse[0]!.hooks[0]!.command).toContain(`"$harness_node" "$QWEN_PROJECT_DIR/${GUARD_PATH}" jade;`);
    const missing = spawnSync("sh", ["-c", h.PreToolUse[0]!.hooks[0]!.command], { input: "{}", encoding: "utf8", env: { PATH: process.env.PATH ?? "", QWEN_PROJECT_DIR: path.join(root, "nowhere") } });
    expect(missing.status).toBe(2);
  });
});
