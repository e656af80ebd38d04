// Scripted-model enforcement: the real hosts run against a loopback model stub that issues
// fixed tool calls; the tests check what the host let happen (files on disk, tool results sent
// back, hook inputs). This proves the emitted limits are *enforced*, not only parsed.
// Fixtures: fixtures/<host>/valid (alpha may write src/ only, beta tests/ only).
import { describe, expect, it } from "vitest";
import { fixture, hostBin } from "./helpers.js";
import { codexInstallRoot, runClaudeScripted, runCodexScripted, runOpenCodeScripted, type ScriptedRun } from "./lib/scripted.js";
import type { ModelRequest, Step } from "./lib/stubs.js";
import path from "node:path";

const write = (project: string, rel: string): Step => ({ tool: "Write", input: { file_path: path.join(project, rel), content: `// written by the scripted model: ${rel}\n` } });
const agentTool = (req: ModelRequest) => (req.tools.includes("Agent") ? "Agent" : "Task");

function explain(r: ScriptedRun): string {
  const text = [
    `exit ${r.result.code} in ${r.result.durationMs} ms${r.result.timedOut ? " (TIMED OUT)" : ""}`,
    `stub requests: ${r.stub.log.map((l) => `${l.conversation ?? "-"}#${l.step}`).join(" ")}`,
    `tool results: ${r.stub.toolResultTexts().map((t) => t.slice(0, 200)).join("\n  | ")}`,
    `stderr: ${r.result.stderr.slice(0, 1500)}`,
  ].join("\n");
  if (process.env.HARNESS_HOSTS_VERBOSE) process.stderr.write(`--- ${r.env.root}\n${text}\n`);
  return text;
}

describe.concurrent("claude-code enforces what the valid fixture declares", () => {
  it("--agent alpha: settings hook blocks tests/, deny rule blocks secrets/, src/ is written", async () => {
    const r = await runClaudeScripted({
      bin: hostBin("claude-code"),
      tree: fixture("claude-code", "valid"),
      args: ["--agent", "alpha"],
      script: (p) => [
        { name: "alpha", when: "ALPHA-MARKER", steps: [write(p, "tests/alpha-forbidden.test.ts"), write(p, "src/alpha-ok.ts"), write(p, "secrets/alpha.txt")] },
      ],
    });
    try {
      const why = explain(r);
      expect(r.stub.log.some((l) => l.conversation === "alpha" && l.step === 3), `the script did not run to the end\n${why}`).toBe(true);
      expect(r.exists("src/alpha-ok.ts"), why).toBe(true);
      expect(r.exists("tests/alpha-forbidden.test.ts"), why).toBe(false);
      expect(r.exists("secrets/alpha.txt"), why).toBe(false);
      expect(r.stub.toolResultTexts().join("\n"), why).toMatch(/GUARD-BLOCKED: alpha may only write src\//);
      expect(r.stub.toolResultTexts().join("\n"), why).toMatch(/denied by your permission settings/);
      expect(r.hookInputs().some((h) => h.agent_type === "alpha"), why).toBe(true);
    } finally {
      r.dispose();
    }
  });

  it("subagent beta (Agent tool): frontmatter + settings hooks block src/, tests/ is written", async () => {
    const r = await runClaudeScripted({
      bin: hostBin("claude-code"),
      tree: fixture("claude-code", "valid"),
      script: (p) => [
        { name: "beta", when: "BETA-MARKER", steps: [write(p, "src/beta-forbidden.ts"), write(p, "tests/beta-ok.test.ts")] },
        {
          name: "main",
          steps: [(req) => ({ tool: agentTool(req), input: { description: "write the tests", prompt: "Write the tests.", subagent_type: "beta", run_in_background: false } })],
        },
      ],
    });
    try {
      const why = explain(r);
      expect(r.stub.log.some((l) => l.conversation === "beta" && l.step === 2), `beta did not run its script to the end\n${why}`).toBe(true);
      expect(r.exists("tests/beta-ok.test.ts"), why).toBe(true);
      expect(r.exists("src/beta-forbidden.ts"), why).toBe(false);
      expect(r.stub.toolResultTexts().join("\n"), why).toMatch(/GUARD-BLOCKED: beta may only write tests\//);
      expect(r.hookInputs().some((h) => h.agent_type === "beta"), why).toBe(true);
    } finally {
      r.dispose();
    }
  });

  it("control: the main thread (no role) may write tests/, but not secrets/ (deny rule)", async () => {
    const r = await runClaudeScripted({
      bin: hostBin("claude-code"),
      tree: fixture("claude-code", "valid"),
      script: (p) => [{ name: "main", steps: [write(p, "tests/main-ok.test.ts"), write(p, "secrets/main.txt")] }],
    });
    try {
      const why = explain(r);
      expect(r.exists("tests/main-ok.test.ts"), `the stub could not make the host write at all\n${why}`).toBe(true);
      expect(r.exists("secrets/main.txt"), why).toBe(false);
      expect(r.stub.toolResultTexts().join("\n"), why).toMatch(/denied by your permission settings/);
    } finally {
      r.dispose();
    }
  });
});

describe.concurrent("opencode enforces what the valid fixture declares", () => {
  const ocWrite = (p: string, rel: string): Step => ({ tool: "write", input: { filePath: path.join(p, rel), content: `// ${rel}\n` } });

  it("subagent alpha (task tool): permission.edit denies tests/, allows src/; bash git push is denied", async () => {
    const r = await runOpenCodeScripted({
      bin: hostBin("opencode"),
      tree: fixture("opencode", "valid"),
      script: (p) => [
        {
          name: "alpha",
          when: "ALPHA-MARKER",
          steps: [ocWrite(p, "tests/alpha-forbidden.test.ts"), ocWrite(p, "src/alpha-ok.ts"), { tool: "bash", input: { command: "git push origin main", description: "push" } }],
        },
        { name: "main", steps: [{ tool: "task", input: { description: "implement", prompt: "Implement it.", subagent_type: "alpha" } }] },
      ],
    });
    try {
      const why = explain(r);
      expect(r.stub.log.some((l) => l.conversation === "alpha" && l.step === 3), `alpha did not run its script to the end\n${why}`).toBe(true);
      expect(r.exists("src/alpha-ok.ts"), why).toBe(true);
      expect(r.exists("tests/alpha-forbidden.test.ts"), why).toBe(false);
      const results = r.stub.toolResultTexts().join("\n");
      expect(results, why).toMatch(/prevents you from using this specific tool call[\s\S]*"permission":"edit","pattern":"\*","action":"deny"/);
      expect(results, why).toMatch(/"pattern":"git push \*","action":"deny"/);
    } finally {
      r.dispose();
    }
  });

  it("control: the build agent may write tests/", async () => {
    const r = await runOpenCodeScripted({
      bin: hostBin("opencode"),
      tree: fixture("opencode", "valid"),
      script: (p) => [{ name: "main", steps: [ocWrite(p, "tests/main-ok.test.ts")] }],
    });
    try {
      const why = explain(r);
      expect(r.exists("tests/main-ok.test.ts"), `the stub could not make the host write at all\n${why}`).toBe(true);
    } finally {
      r.dispose();
    }
  });
});

describe.concurrent("codex enforces a per-session permission profile and the project rules", () => {
  const shell = (p: string, cmd: string) => (req: ModelRequest): Step =>
    req.tools.includes("exec_command")
      ? { tool: "exec_command", input: { cmd, workdir: p } }
      : { tool: "shell", input: { command: ["bash", "-lc", cmd], workdir: p } };
  const patch = (p: string, rel: string) => shell(p, `apply_patch <<'PATCH'\n*** Begin Patch\n*** Add File: ${path.join(p, rel)}\n+patched\n*** End Patch\nPATCH`);
  const profile = (bin: string) =>
    [
      "[permissions.alpha.filesystem]",
      '":minimal" = "read"',
      `${JSON.stringify(codexInstallRoot(bin))} = "read"`,
      '[permissions.alpha.filesystem.":workspace_roots"]',
      '"." = "read"',
      '"src" = "write"',
      "[permissions.alpha.network]",
      "enabled = false",
    ].join("\n");

  it('-c default_permissions="alpha": writes outside src/ are refused, src/ is written, git push is forbidden by .rules', async () => {
    const bin = hostBin("codex");
    const r = await runCodexScripted({
      bin,
      tree: fixture("codex", "valid"),
      userConfig: profile(bin),
      args: ["-c", 'default_permissions="alpha"'],
      script: (p) => [
        {
          name: "main",
          steps: [
            shell(p, "mkdir -p tests && echo no > tests/forbidden.txt"),
            shell(p, "echo yes > src/ok.txt"),
            patch(p, "tests/patched.txt"),
            patch(p, "src/patched.txt"),
            shell(p, "git push origin main"),
          ],
        },
      ],
      files: { "src/.keep": "", "tests/.keep": "" },
    });
    try {
      const why = explain(r);
      expect(r.stub.log.some((l) => l.conversation === "main" && l.step === 5), `the script did not run to the end\n${why}`).toBe(true);
      expect(r.exists("src/ok.txt"), why).toBe(true);
      expect(r.exists("src/patched.txt"), why).toBe(true);
      expect(r.exists("tests/forbidden.txt"), why).toBe(false);
      expect(r.exists("tests/patched.txt"), why).toBe(false);
      expect(r.stub.toolResultTexts().join("\n"), why).toMatch(/Pipeline roles never commit or push/);
    } finally {
      r.dispose();
    }
  });

  it("KNOWN GAP (openai/codex #45482): a role file's default_permissions is NOT enforced in a spawned subagent", async () => {
    // Documents current host behaviour, so the codex adapter does not rely on role-level profiles.
    // If this starts failing, Codex began enforcing them: revisit the adapter and flip this test.
    const bin = hostBin("codex");
    const agentId = (req: ModelRequest) => JSON.stringify(req.body).match(/agent_id\\?"\s*:\s*\\?"([0-9a-f-]+)/)?.[1] ?? "missing";
    const r = await runCodexScripted({
      bin,
      tree: fixture("codex", "role-profile"),
      userConfig: profile(bin),
      args: ["--sandbox", "workspace-write"],
      files: { "src/.keep": "", "tests/.keep": "" },
      script: (p) => [
        { name: "alpha", when: "ALPHA-MARKER", steps: [shell(p, "echo no > tests/forbidden.txt"), shell(p, "echo yes > src/ok.txt")] },
        {
          name: "main",
          steps: [
            { tool: "spawn_agent", namespace: "multi_agent_v1", input: { message: "Implement it.", agent_type: "alpha" } },
            (req) => ({ tool: "wait_agent", namespace: "multi_agent_v1", input: { targets: [agentId(req)], timeout_ms: 30000 } }),
          ],
        },
      ],
    });
    try {
      const why = explain(r);
      expect(r.stub.log.some((l) => l.conversation === "alpha" && l.step === 2), `the subagent did not run its script to the end\n${why}`).toBe(true);
      expect(r.exists("src/ok.txt"), why).toBe(true);
      expect(r.exists("tests/forbidden.txt"), `Codex now enforces the role's default_permissions: update the codex adapter and this test\n${why}`).toBe(true);
    } finally {
      r.dispose();
    }
  });

  it("control: without a profile (workspace-write) the same writes happen", async () => {
    const bin = hostBin("codex");
    const r = await runCodexScripted({
      bin,
      tree: fixture("codex", "valid"),
      args: ["--sandbox", "workspace-write"],
      script: (p) => [{ name: "main", steps: [shell(p, "echo no > tests/forbidden.txt"), patch(p, "tests/patched.txt")] }],
      files: { "src/.keep": "", "tests/.keep": "" },
    });
    try {
      const why = explain(r);
      expect(r.exists("tests/forbidden.txt"), `the stub could not make the host write at all\n${why}`).toBe(true);
      expect(r.exists("tests/patched.txt"), why).toBe(true);
    } finally {
      r.dispose();
    }
  });
});
