// The Pi adapter, parsed back and run in-process. The generated extension is imported as the ES module
// Pi loads, with a stand-in for Pi's extension API: which handlers it registers in which process
// (bound by HARNESS_PI_ROLE / HARNESS_PIPELINE_RUN, unbound otherwise), what its tool_call handler
// answers, and that harness_subagent reads each role's prompt back exactly from .pi/agents/<role>.md.
// Prompt templates are checked against Pi's own argument substitution (prompt-templates.js substituteArgs).
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PiAdapter } from "../../adapters/pi/index.js";
import { compileHost } from "../../src/compile.js";
import { MINI_ROLES, PEBBLE_ROLES } from "../helpers/cli.js";
import { readRoles } from "../helpers/compile.js";
import { splitFrontMatter } from "../helpers/markdown.js";

/** Pi 0.73.1's substituteArgs, verbatim in behaviour: $N, ${@:N[:L]}, $ARGUMENTS, $@. */
function substituteArgs(content: string, args: string[]): string {
  let r = content.replace(/\$(\d+)/g, (_, n: string) => args[parseInt(n, 10) - 1] ?? "");
  r = r.replace(/\$\{@:(\d+)(?::(\d+))?\}/g, (_, s: string, l?: string) => {
    const start = Math.max(parseInt(s, 10) - 1, 0);
    return (l ? args.slice(start, start + parseInt(l, 10)) : args.slice(start)).join(" ");
  });
  const all = args.join(" ");
  return r.replace(/\$ARGUMENTS/g, all).replace(/\$@/g, all);
}

type Handler = (event: unknown, ctx: unknown) => unknown;
interface FakePi {
  tools: { name: string; parameters: { properties: { agent: { enum: string[] } } } }[];
  on: Record<string, Handler[]>;
}

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "harness-pi-unit-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** Write the emitted tree into a fresh project and load its extension with `env` as the process environment. */
async function loadExtension(files: { path: string; content: string }[], env: Record<string, string | undefined>): Promise<{ project: string; pi: FakePi }> {
  const project = fs.mkdtempSync(path.join(scratch, "p-"));
  fs.writeFileSync(path.join(project, "package.json"), JSON.stringify({ type: "module" }));
  for (const f of files) {
    fs.mkdirSync(path.dirname(path.join(project, f.path)), { recursive: true });
    fs.writeFileSync(path.join(project, f.path), f.content);
  }
  const mod = (await import(path.join(project, ".pi", "extensions", "harness-guard.js"))) as { default: (pi: unknown) => void };
  const pi: FakePi = { tools: [], on: {} };
  const api = { registerTool: (t: FakePi["tools"][number]) => pi.tools.push(t), on: (ev: string, h: Handler) => (pi.on[ev] ??= []).push(h) };
  const saved = { ...process.env };
  for (const k of ["HARNESS_PI_ROLE", "HARNESS_PIPELINE_RUN", "HARNESS_GUARD_OFF"]) delete process.env[k];
  Object.assign(process.env, env);
  try {
    mod.default(api);
  } finally {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  }
  return { project, pi };
}

async function decide(pi: FakePi, project: string, toolName: string, input: Record<string, unknown>): Promise<{ block: boolean; reason?: string } | undefined> {
  const h = pi.on.tool_call?.[0];
  if (!h) throw new Error("no tool_call handler");
  return (await h({ toolName, toolCallId: "t1", input }, { cwd: project, hasUI: false })) as { block: boolean; reason?: string } | undefined;
}

describe.each([
  ["pebble", PEBBLE_ROLES],
  ["mini", MINI_ROLES],
])("pi: %s parsed back", (_name, dir) => {
  const pipeline = readRoles(dir);
  const out = compileHost(pipeline, PiAdapter);
  const file = (p: string) => out.files.find((f) => f.path === p);
  const prompts = PiAdapter.lower(pipeline).prompts;

  it("every subagent role is a .pi/agents file with its name, description, Pi tools and its prompt as the body", () => {
    for (const role of pipeline.roles.filter((r) => r.isolation === "subagent")) {
      const { data, body } = splitFrontMatter(file(`.pi/agents/${role.id}.md`)!.content) as { data: Record<string, unknown>; body: string };
      expect(data.name).toBe(role.id);
      expect(data.description).toBe(role.description);
      expect(typeof data.tools).toBe("string");
      expect(body.trim()).toBe(prompts[role.id]!.trim());
    }
  });

  it("every prompt template takes the request through $ARGUMENTS only: Pi's substitution changes nothing else", () => {
    const templates = out.files.filter((f) => f.path.startsWith(".pi/prompts/"));
    expect(templates.length).toBeGreaterThan(0);
    for (const t of templates) {
      const { body } = splitFrontMatter(t.content);
      expect(body.split("$ARGUMENTS").length, `${t.path} holds the request once`).toBe(2);
      expect(substituteArgs(body, ["REQ-1", "REQ-2"])).toBe(body.replace("$ARGUMENTS", "REQ-1 REQ-2"));
    }
  });

  it("the extension loads as an ES module and registers harness_subagent with every subagent role", async () => {
    const { pi } = await loadExtension(out.files, {});
    expect(pi.tools.map((t) => t.name)).toEqual(["harness_subagent"]);
    expect(pi.tools[0]!.parameters.properties.agent.enum.sort()).toEqual(pipeline.roles.filter((r) => r.isolation === "subagent").map((r) => r.id).sort());
    // an ordinary session: no handler at all
    expect(pi.on.tool_call).toBeUndefined();
  });
});

describe("pi: the extension's binding and decisions", () => {
  const pipeline = readRoles(PEBBLE_ROLES);
  const out = compileHost(pipeline, PiAdapter);

  it("a role's process: its scope, never-write, Pi's @ and ~ paths, its shell rules", async () => {
    const { project, pi } = await loadExtension(out.files, { HARNESS_PI_ROLE: "jade" });
    expect(await decide(pi, project, "write", { path: "src/a.ts", content: "" })).toBeUndefined();
    expect(await decide(pi, project, "write", { path: path.join(project, "src/b.ts"), content: "" })).toBeUndefined();
    expect((await decide(pi, project, "write", { path: "tests/a.test.ts", content: "" }))?.reason).toMatch(/jade may not write tests\/a\.test\.ts \(never-write/);
    expect((await decide(pi, project, "write", { path: "@tests/a.test.ts", content: "" }))?.reason).toMatch(/jade may not write tests\/a\.test\.ts/);
    expect((await decide(pi, project, "edit", { path: "~/x.ts", edits: [] }))?.block).toBe(true);
    expect((await decide(pi, project, "write", { path: ".pi/extensions/harness-guard.js", content: "" }))?.reason).toMatch(/keeps the harness guard in place|never-write/);
    expect(await decide(pi, project, "bash", { command: "npm test" })).toBeUndefined();
    expect((await decide(pi, project, "bash", { command: "git commit -m x" }))?.reason).toMatch(/jade may not run "git commit -m x"/);
    expect((await decide(pi, project, "harness_subagent", { agent: "mica", task: "x" }))?.reason).toMatch(/jade may not start agents/);
    // a tool the guard does not model (another extension's) is refused for a role
    expect((await decide(pi, project, "web_search", { q: "x" }))?.block).toBe(true);
    expect(await decide(pi, project, "read", { path: "tests/a.test.ts" })).toBeUndefined();
    // a malformed call fails closed
    expect((await decide(pi, project, "bash", { command: 7 }))?.reason).toMatch(/fail closed/);
  });

  it("the launcher's session is the orchestrator; a role it may not be is refused; an unknown role refuses everything", async () => {
    const orch = await loadExtension(out.files, { HARNESS_PIPELINE_RUN: "pebble" });
    expect(await decide(orch.pi, orch.project, "write", { path: ".pebble/spec.md", content: "" })).toBeUndefined();
    expect((await decide(orch.pi, orch.project, "write", { path: "src/main.ts", content: "" }))?.reason).toMatch(/the orchestrator \(main thread\) may not write src\/main\.ts/);
    expect(await decide(orch.pi, orch.project, "harness_subagent", { agent: "jade", task: "x" })).toBeUndefined();
    expect((await decide(orch.pi, orch.project, "harness_subagent", { agent: "general", task: "x" }))?.block).toBe(true);
    const unknown = await loadExtension(out.files, { HARNESS_PI_ROLE: "nobody" });
    expect((await decide(unknown.pi, unknown.project, "read", { path: "README.md" }))?.reason).toMatch(/names no role/);
  });

  it("the off switch counts only when the process was started with it", async () => {
    // this test process was not started with HARNESS_GUARD_OFF: setting it now switches nothing off
    const r = await loadExtension(out.files, { HARNESS_PI_ROLE: "jade", HARNESS_GUARD_OFF: "1" });
    expect(r.pi.on.tool_call?.length ?? 0, "an off switch set after start was honoured").toBe(1);
    expect((await decide(r.pi, r.project, "write", { path: "tests/a.test.ts", content: "" }))?.block).toBe(true);
  });

  it("harness_subagent reads each role's prompt back exactly from its agent file", async () => {
    const { project } = await loadExtension(out.files, {});
    const src = fs.readFileSync(path.join(project, ".pi", "extensions", "harness-guard.js"), "utf8");
    // the generated reader, evaluated alone on each emitted agent file
    const reader = new Function("fs", "path", `${/function piReadRegular[\s\S]*?\n}\n/.exec(src)![0]}\n${/function piRolePrompt[\s\S]*?\n}\n/.exec(src)![0]}\nreturn piRolePrompt;`)(fs, path) as (p: string, r: string) => string;
    for (const role of pipeline.roles.filter((r) => r.isolation === "subagent")) {
      const text = fs.readFileSync(path.join(project, ".pi", "agents", `${role.id}.md`), "utf8");
      expect(reader(project, role.id)).toBe(splitFrontMatter(text).body);
      expect(reader(project, role.id).trim()).toBe(PiAdapter.lower(pipeline).prompts[role.id]!.trim());
    }
  });

  it("an agent file a role's code replaced by a FIFO is refused at once, never waited on (issue 22)", async () => {
    const { project } = await loadExtension(out.files, {});
    const src = fs.readFileSync(path.join(project, ".pi", "extensions", "harness-guard.js"), "utf8");
    const fns = [/function piReadRegular[\s\S]*?\n}\n/.exec(src)?.[0] ?? "", /function piRolePrompt[\s\S]*?\n}\n/.exec(src)![0]].join("\n");
    const role = pipeline.roles.find((r) => r.isolation === "subagent")!.id;
    const agent = path.join(project, ".pi", "agents", `${role}.md`);
    fs.rmSync(agent);
    execFileSync("mkfifo", [agent]);
    // in a child with a time limit: a read that waits on the FIFO would hold this test process for good
    const code = `const fs = require("fs"), path = require("path");\n${fns}\ntry { piRolePrompt(${JSON.stringify(project)}, ${JSON.stringify(role)}); console.log("read"); } catch (e) { console.log("refused: " + e.message); }`;
    const r = spawnSync(process.execPath, ["-e", code], { encoding: "utf8", timeout: 10_000, killSignal: "SIGKILL" });
    expect(r.signal).toBe(null);
    expect(r.stdout).toContain(`refused: .pi/agents/${role}.md is missing or not a regular file`);
  });
});
