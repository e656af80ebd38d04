// OpenCode 1.18.33, the real binary, offline: an agent the team keeps in opencode.json
// (`agent.<name>`) and `harness import` adopted. OpenCode deep-merges a config entry into the agent
// file of the same name (measured here: the entry's deprecated `tools` map lands in the generated
// agent), so install takes the key away: the resolved agent is the generated one alone, and after
// uninstall opencode.json is the team's again, byte for byte.
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
afterAll(() => henv.dispose());

async function resolved(name: string): Promise<Record<string, unknown>> {
  const r = await run(hostBin("opencode"), ["debug", "config", "--pure"], { cwd: henv.project, env: henv.env, timeoutMs: 60_000, stdoutFile: path.join(henv.logs, `config-${Date.now()}.txt`) });
  expect(r.code, r.stderr).toBe(0);
  const agents = (JSON.parse(r.stdout.slice(r.stdout.indexOf("{"))) as { agent?: Record<string, Record<string, unknown>> }).agent ?? {};
  return agents[name]!;
}

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
});
