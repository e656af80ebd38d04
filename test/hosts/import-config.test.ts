// OpenCode 1.18.33, the real binary, offline: an agent the team keeps in opencode.json
// (`agent.<name>`) and `harness import` adopted. OpenCode deep-merges a config entry into the agent
// file of the same name (measured here: the entry's deprecated `tools` map lands in the generated
// agent), so install takes the key away: the resolved agent is the generated one alone, and after
// uninstall opencode.json is the team's again, byte for byte. An entry named as an agent file's agent
// is that one agent (the file's fields over the entry's): one role, one generated agent with both.
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { harness } from "../helpers/cli.js";
import { hostBin } from "./helpers.js";
import { createHostEnv } from "./lib/env.js";
import { run } from "./lib/run.js";

const CONFIG = `{
  "$schema": "https://opencode.ai/config.json",
  "agent": {
    "reviewer": {
      "description": "Reviews code for quality.",
      "mode": "subagent",
      "prompt": "You review the change.",
      "tools": { "write": false, "edit": false, "bash": false }
    }
  }
}
`;

const henv = createHostEnv({ label: "ocimp" });
const merged = createHostEnv({ label: "ocimp2" });
const builtin = createHostEnv({ label: "ocimp3" });
afterAll(() => (henv.dispose(), merged.dispose(), builtin.dispose()));

async function agents(env = henv): Promise<Record<string, Record<string, unknown>>> {
  const r = await run(hostBin("opencode"), ["debug", "config", "--pure"], { cwd: env.project, env: env.env, timeoutMs: 60_000, stdoutFile: path.join(env.logs, `config-${Date.now()}.txt`) });
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout.slice(r.stdout.indexOf("{"))) as { agent?: Record<string, Record<string, unknown>> }).agent ?? {};
}
const resolved = async (name: string) => (await agents())[name]!;

describe("opencode: an agent imported from opencode.json", () => {
  it("is merged into the generated agent while its key stays; install takes the key away; uninstall gives the file back", async () => {
    const file = path.join(henv.project, "opencode.json");
    fs.writeFileSync(file, CONFIG);
    expect((await harness(["import", "-q"], henv.project)).code).toBe(0);
    expect((await harness(["build", "-q"], henv.project)).code).toBe(0);
    // the generated agent beside the team's entry (what an install that left the key would give)
    fs.mkdirSync(path.join(henv.project, ".opencode/agents"), { recursive: true });
    fs.copyFileSync(path.join(henv.project, "out/opencode/.opencode/agents/reviewer.md"), path.join(henv.project, ".opencode/agents/reviewer.md"));
    expect((await resolved("reviewer")).tools).toEqual({ write: false, edit: false, bash: false });
    fs.rmSync(path.join(henv.project, ".opencode"), { recursive: true });

    const installed = await harness(["install"], henv.project);
    expect(installed.code, installed.stderr + installed.stdout).toBe(0);
    expect(fs.readFileSync(file, "utf8")).not.toContain("reviewer");
    const agent = await resolved("reviewer");
    expect(agent.tools).toBeUndefined();
    expect(agent.description).toBe("Reviews code for quality.");
    expect(String(agent.prompt)).toMatch(/^You review the change\.\n\n## Limits/);
    expect((await harness(["uninstall"], henv.project)).code).toBe(0);
    expect(fs.readFileSync(file, "utf8")).toBe(CONFIG);
  });

  it("an entry named as an agent file's agent is that one agent: before install OpenCode merges the two, after install it resolves the one generated agent with both sides' rules, and uninstall gives both files back", async () => {
    // with its $schema: OpenCode writes one into a config that lacks it when it loads it
    const config = `{\n  "$schema": "https://opencode.ai/config.json",\n  "agent": {\n    "rev": {\n      "description": "From the config.",\n      "mode": "subagent",\n      "permission": { "bash": { "*": "deny", "ls *": "allow" } }\n    }\n  }\n}\n`;
    const file = "---\ndescription: From the file.\nmode: subagent\npermission:\n  bash:\n    \"git *\": allow\n---\n\nReview it.\n";
    fs.writeFileSync(path.join(merged.project, "opencode.json"), config);
    fs.mkdirSync(path.join(merged.project, ".opencode/agents"), { recursive: true });
    fs.writeFileSync(path.join(merged.project, ".opencode/agents/rev.md"), file);
    const before = (await agents(merged)).rev!;
    expect(before.description).toBe("From the file.");
    expect(before.permission).toEqual({ bash: { "*": "deny", "ls *": "allow", "git *": "allow" } });
    expect((await harness(["import", "-q"], merged.project)).code).toBe(0);
    expect((await harness(["build", "-q"], merged.project)).code).toBe(0);
    const installed = await harness(["install"], merged.project);
    expect(installed.code, installed.stderr + installed.stdout).toBe(0);
    const after = await agents(merged);
    expect(Object.keys(after).filter((n) => n.startsWith("rev"))).toEqual(["rev"]);
    expect(after.rev!.description).toBe("From the file.");
    expect((after.rev!.permission as { bash: Record<string, string> }).bash).toEqual(expect.objectContaining({ "*": "deny", "ls *": "allow", "git *": "allow" }));
    expect((await harness(["uninstall"], merged.project)).code).toBe(0);
    expect(fs.readFileSync(path.join(merged.project, "opencode.json"), "utf8")).toBe(config);
    expect(fs.readFileSync(path.join(merged.project, ".opencode/agents/rev.md"), "utf8")).toBe(file);
  });

  it("an entry tuning OpenCode's own build agent is left in opencode.json: after install build is still the primary agent with the team's model, beside the generated team agent", async () => {
    const config = `{\n  "$schema": "https://opencode.ai/config.json",\n  "agent": {\n    "build": { "model": "anthropic/claude-team-pick" },\n    "helper": { "description": "Helps.", "mode": "subagent", "prompt": "Help." }\n  }\n}\n`;
    fs.writeFileSync(path.join(builtin.project, "opencode.json"), config);
    expect((await harness(["import", "-q"], builtin.project)).code).toBe(0);
    expect((await harness(["build", "-q"], builtin.project)).code).toBe(0);
    const installed = await harness(["install"], builtin.project);
    expect(installed.code, installed.stderr + installed.stdout).toBe(0);
    expect(fs.existsSync(path.join(builtin.project, ".opencode/agents/build.md"))).toBe(false);
    const after = await agents(builtin);
    expect(after.build).toEqual(expect.objectContaining({ model: "anthropic/claude-team-pick" }));
    // the team's agent: taken out of opencode.json, the generated file is the agent now
    expect(fs.readFileSync(path.join(builtin.project, "opencode.json"), "utf8")).not.toContain('"helper"');
    expect(String(after.helper!.prompt)).toMatch(/^Help\.\n\n## Limits/);
    const list = await run(hostBin("opencode"), ["agent", "list", "--pure"], { cwd: builtin.project, env: builtin.env, timeoutMs: 60_000, stdoutFile: path.join(builtin.logs, "agents.txt") });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/^build \(primary\)$/m);
    expect(list.stdout).toMatch(/^helper \(subagent\)$/m);
    expect((await harness(["uninstall"], builtin.project)).code).toBe(0);
    expect(fs.readFileSync(path.join(builtin.project, "opencode.json"), "utf8")).toBe(config);
  });
});
