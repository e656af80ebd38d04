// GitHub Copilot CLI 1.0.102 running the stage-end scope audit harness emits (.github/hooks/harness-audit.json):
// an orchestrated run (the pipeline launcher) delegates to jade, whose allowed command (npm test) runs
// code that writes into tests/, outside jade's scope. Its own write tool could not be refused for tests/
// (the run's write() rules are the union of every role's), so the audit is the boundary: it restores the
// tree when jade's stage ends. Cited by
// adapters/copilot `auditProofs`.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { emittedTree, hostBin, REGISTERED_HOSTS } from "./helpers.js";
import { runCopilotScripted, withoutController } from "./lib/copilot.js";

const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8", env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: cwd, GIT_CONFIG_NOSYSTEM: "1" } }).trim();

describe.runIf(REGISTERED_HOSTS.includes("copilot"))("copilot: the emitted stage-end audit", () => {
  it("copilot: audit restores what jade's code wrote to tests/ during npm test in an orchestrated run", async () => {
    const r = await runCopilotScripted({
      bin: hostBin("copilot"),
      tree: await emittedTree("copilot"),
      launcher: ".github/copilot/bin/pebble.sh",
      prompt: "go",
      timeoutMs: 120_000,
      files: {
        "src/.keep": "",
        "tests/existing.test.ts": "original\n",
        "package.json": JSON.stringify({ name: "scene", scripts: { test: "node -e \"require('fs').writeFileSync('tests/existing.test.ts','tampered\\\\n');require('fs').writeFileSync('tests/new.test.ts','x')\"" } }),
      },
      setup: (p) => {
        // the audit alone: the run controller would also run npm test at jade's stage end
        withoutController(p);
        git(p, "add", "-A");
        git(p, "commit", "-q", "-m", "scene");
      },
      script: (p) => [
        { name: "jade", when: "You are Jade", steps: [{ tool: "create", input: { path: path.join(p, "src/ok.ts"), file_text: "ok\n" } }, { tool: "bash", input: { command: "npm test", description: "tests", mode: "sync", initial_wait: 30 } }] },
        { name: "main", steps: [{ tool: "task", input: { agent_type: "jade", description: "implement", prompt: "Do the implement stage.", mode: "sync", name: "jade-stage" } }] },
      ],
    });
    try {
      const texts = r.stub.toolResultTexts().join("\n");
      const allText = JSON.stringify(r.stub.log.map((l) => l.request?.body ?? null));
      const why = `exit ${r.result.code}\nrequests: ${r.stub.log.map((l) => `${l.conversation}#${l.step}`).join(" ")}\nresults:\n${texts.slice(0, 3000)}\nstderr: ${r.result.stderr.slice(-1500)}`;
      if (process.env.HARNESS_HOSTS_VERBOSE) process.stderr.write(`${why}\n`);
      expect(r.exists("src/ok.ts"), `jade's own scope was not kept\n${why}`).toBe(true);
      expect(fs.readFileSync(path.join(r.env.project, "tests/existing.test.ts"), "utf8"), why).toBe("original\n");
      expect(r.exists("tests/new.test.ts"), why).toBe(false);
      // the verdict reaches the human (Copilot prints the hook's stderr), not the model: 1.0.102 does not
      // hand a subagentStop hook's exit 2 back to the subagent or the orchestrator (recorded in MAPPING.md)
      expect(r.result.stdout + r.result.stderr, why).toMatch(/harness audit: stage FAILED: jade \(stage [^)]+\) changed paths/);
      expect(allText, `Copilot now tells the model: say so in adapters/copilot/audit.ts\n${why}`).not.toMatch(/harness audit: stage FAILED/);
    } finally {
      r.dispose();
    }
  });
});
