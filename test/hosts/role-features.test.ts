// Issue 24 on the real Claude Code (scripted model): what harness emits for test/fixtures/features.
// - releaser names mcp:github/* in its tools: Claude Code offers it the GitHub server's tools and the
//   guard lets mcp__github__create_pull_request run; writer names none: it is not offered them and
//   the call does not run.
// - writer's artifact lies under .claude/state/, one of Claude Code's protected folders: the guard
//   allows the write on PreToolUse and answers Claude Code's PermissionRequest for it, so it lands in
//   headless -p, as a subagent and as a main-session role; .claude/settings.json is still refused.
// The MCP server is a stdio stand-in written into the scratch project (newline-delimited JSON-RPC),
// loaded with --mcp-config/--strict-mcp-config; only it answers "PR-CREATED" (a file it writes is not
// visible in the project afterwards on this machine, so the answer is the evidence).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { hostBin } from "./helpers.js";
import { buildEmitted, EMITTED_ROOT } from "./lib/emitted.js";
import { runClaudeScripted, type ScriptedRun } from "./lib/scripted.js";
import type { Conversation, ModelRequest, Step } from "./lib/stubs.js";

const FEATURES = path.resolve(__dirname, "../fixtures/features");

let built: Promise<string> | undefined;
function featuresTree(): Promise<string> {
  built ??= (async () => {
    const out = path.join(EMITTED_ROOT, `features-${process.pid}`);
    fs.rmSync(out, { recursive: true, force: true });
    const b = await buildEmitted(out, FEATURES);
    if (!b.root) throw new Error(b.error);
    return path.join(b.root, "claude-code");
  })();
  return built;
}

const MCP_SERVER = String.raw`
const fs = require("node:fs");
const path = require("node:path");
let buf = "";
const send = (m) => process.stdout.write(JSON.stringify(m) + "\n");
process.stdin.on("data", (d) => {
  buf += d;
  let i;
  while ((i = buf.indexOf("\n")) >= 0) {
    const line = buf.slice(0, i).trim();
    buf = buf.slice(i + 1);
    if (!line) continue;
    const m = JSON.parse(line);
    if (m.id === undefined) continue;
    if (m.method === "initialize") send({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "github", version: "1.0.0" } } });
    else if (m.method === "tools/list") send({ jsonrpc: "2.0", id: m.id, result: { tools: [{ name: "create_pull_request", description: "Open a pull request", inputSchema: { type: "object", properties: { title: { type: "string" } }, required: ["title"] } }] } });
    else if (m.method === "tools/call") {
      fs.mkdirSync(path.dirname(process.argv[2]), { recursive: true });
      fs.appendFileSync(process.argv[2], String(m.params.arguments && m.params.arguments.title) + "\n");
      send({ jsonrpc: "2.0", id: m.id, result: { content: [{ type: "text", text: "PR-CREATED #1" }] } });
    } else send({ jsonrpc: "2.0", id: m.id, result: {} });
  }
});
`;

const PR_TOOL = "mcp__github__create_pull_request";

/** The fixture with releaser as a lead: starts: [writer]. */
let leadBuilt: Promise<string> | undefined;
function leadTree(): Promise<string> {
  leadBuilt ??= (async () => {
    const base = path.join(EMITTED_ROOT, `features-lead-${process.pid}`);
    fs.rmSync(base, { recursive: true, force: true });
    fs.cpSync(FEATURES, path.join(base, "roles"), { recursive: true });
    const f = path.join(base, "roles/releaser.md");
    fs.writeFileSync(f, fs.readFileSync(f, "utf8").replace("effort: xhigh\n", "effort: xhigh\nstarts: [writer]\n"));
    const b = await buildEmitted(path.join(base, "out"), path.join(base, "roles"));
    if (!b.root) throw new Error(b.error);
    return path.join(b.root, "claude-code");
  })();
  return leadBuilt;
}

// the writer as a main-session role: its limits bind the main thread through /writer's front matter
let mainWriterBuilt: Promise<string> | undefined;
function mainWriterTree(): Promise<string> {
  mainWriterBuilt ??= (async () => {
    const base = path.join(EMITTED_ROOT, `features-main-${process.pid}`);
    fs.rmSync(base, { recursive: true, force: true });
    fs.cpSync(FEATURES, path.join(base, "roles"), { recursive: true });
    const f = path.join(base, "roles/writer.md");
    fs.writeFileSync(f, fs.readFileSync(f, "utf8").replace("isolation: subagent\n", "isolation: main\n").replace("memory: project\n", ""));
    const b = await buildEmitted(path.join(base, "out"), path.join(base, "roles"));
    if (!b.root) throw new Error(b.error);
    return path.join(b.root, "claude-code");
  })();
  return mainWriterBuilt;
}

function explain(r: ScriptedRun): string {
  return [
    `exit ${r.result.code}${r.result.timedOut ? " (TIMED OUT)" : ""}`,
    `stub requests: ${r.stub.log.map((l) => `${l.conversation ?? "-"}#${l.step}`).join(" ")}`,
    `tool results:\n  | ${r.stub.toolResultTexts().map((t) => t.slice(0, 300)).join("\n  | ")}`,
    `stderr: ${r.result.stderr.slice(-1500)}`,
  ].join("\n");
}
const requestsOf = (r: ScriptedRun, conv: string): ModelRequest[] => r.stub.log.filter((l) => l.conversation === conv && l.request).map((l) => l.request!);

describe.concurrent("claude-code: roles as real teams write them (test/fixtures/features)", () => {
  const spawn = (role: string): Step => ({ tool: "Agent", input: { description: `run ${role}`, prompt: `Do the ${role} stage.`, subagent_type: role, run_in_background: false } });
  const delegate = (role: string, marker: string, steps: Conversation["steps"]): Conversation[] => [
    { name: role, when: marker, steps },
    { name: "main", steps: [spawn(role)] },
  ];
  const run = async (script: (p: string) => Conversation[]) =>
    runClaudeScripted({
      bin: hostBin("claude-code"),
      tree: await featuresTree(),
      prompt: "go",
      timeoutMs: 90_000,
      files: { "mcp-github.cjs": MCP_SERVER },
      setup: (p) => fs.writeFileSync(path.join(p, "mcp.json"), JSON.stringify({ mcpServers: { github: { type: "stdio", command: process.execPath, args: [path.join(p, "mcp-github.cjs"), path.join(p, ".work", "pr-created")] } } })),
      args: ["--mcp-config", "mcp.json", "--strict-mcp-config"],
      script,
    });

  it("claude-code: a role naming mcp:github/* calls the server's tools; a role naming none is not offered them", async () => {
    const r = await run(() => [
      { name: "releaser", when: "You are the Releaser", steps: [{ tool: PR_TOOL, input: { title: "from-releaser" } }] },
      { name: "writer", when: "You are the Writer", steps: [{ tool: PR_TOOL, input: { title: "from-writer" } }] },
      { name: "main", steps: [spawn("releaser"), spawn("writer")] },
    ]);
    try {
      const why = explain(r);
      expect(r.stub.log.some((l) => l.conversation === "releaser" && l.step === 1), `releaser did not run its step\n${why}`).toBe(true);
      expect(r.stub.log.some((l) => l.conversation === "writer" && l.step === 1), `writer did not run its step\n${why}`).toBe(true);
      for (const q of requestsOf(r, "releaser")) expect(q.tools, why).toContain(PR_TOOL);
      for (const q of requestsOf(r, "releaser")) expect(q.tools, `releaser was offered a tool it does not name\n${why}`).not.toContain("Bash");
      expect(r.stub.toolResultTexts().join("\n"), why).toContain("PR-CREATED #1");
      for (const q of requestsOf(r, "writer")) expect(q.tools, why).not.toContain(PR_TOOL);
      // only the server answers PR-CREATED: the releaser's call ran, the writer's did not
      const texts = r.stub.toolResultTexts();
      expect(texts.filter((t) => t.includes("PR-CREATED")).length, why).toBe(1);
      expect(texts.join("\n"), why).toMatch(/No such tool available: mcp__github__create_pull_request/);
    } finally {
      r.dispose();
    }
  });

  // Claude Code 2.1.332 asks before any write under .claude/ (one of its protected folders), even after
  // a PreToolUse hook's allow and with permissions.allow rules (anthropics/claude-code#36155); headless,
  // that is a refusal. The guard also runs on PermissionRequest and answers allow for the writes it
  // allows there. Without that answer the first write fails with "which is a sensitive file".
  it("claude-code: a role writes its artifact under .claude/state/ (the guard answers Claude Code's prompt); .claude/settings.json and .claude/other/ stay refused", async () => {
    const r = await run((p) =>
      delegate("writer", "You are the Writer", [
        { tool: "Write", input: { file_path: path.join(p, ".claude/state/notes/1.md"), content: "notes\n" } },
        { tool: "Edit", input: { file_path: path.join(p, ".claude/state/notes/1.md"), old_string: "notes", new_string: "more notes" } },
        { tool: "Write", input: { file_path: path.join(p, ".claude/settings.json"), content: "{}\n" } },
        { tool: "Write", input: { file_path: path.join(p, ".claude/other/x.md"), content: "x\n" } },
      ]),
    );
    try {
      const why = explain(r);
      const results = r.stub.toolResultTexts();
      expect(r.stub.log.some((l) => l.conversation === "writer" && l.step === 4), `writer did not run its steps\n${why}`).toBe(true);
      expect(fs.readFileSync(path.join(r.env.project, ".claude/state/notes/1.md"), "utf8"), why).toBe("more notes\n");
      expect(results.join("\n"), why).not.toMatch(/sensitive file/);
      expect(fs.readFileSync(path.join(r.env.project, ".claude/settings.json"), "utf8"), why).not.toBe("{}\n");
      expect(results.join("\n"), why).toMatch(/writer may not write \.claude\/settings\.json \(.*keeps the harness guard in place/);
      expect(r.exists(".claude/other/x.md"), why).toBe(false);
      expect(results.join("\n"), why).toMatch(/writer may not write \.claude\/other\/x\.md \(not in its write scope/);
    } finally {
      r.dispose();
    }
  });

  // The same role on the main thread (isolation: main, run as /writer): the command's front-matter
  // guard answers the prompt for the main thread; a write the role may not make is still refused.
  it("claude-code: a main-session role (/writer) writes its artifact under .claude/state/; .vscode/settings.json (a host settings file) is still refused", async () => {
    const r = await runClaudeScripted({
      bin: hostBin("claude-code"),
      tree: await mainWriterTree(),
      prompt: "/writer note the change",
      timeoutMs: 90_000,
      script: (p) => [
        { name: "main", steps: [
          { tool: "Write", input: { file_path: path.join(p, ".claude/state/notes/2.md"), content: "main notes\n" } },
          { tool: "Write", input: { file_path: path.join(p, ".vscode/settings.json"), content: "{}\n" } },
        ] },
      ],
    });
    try {
      const why = explain(r);
      expect(r.stub.log.some((l) => l.conversation === "main" && l.step === 2), `the main thread did not run its steps\n${why}`).toBe(true);
      expect(fs.readFileSync(path.join(r.env.project, ".claude/state/notes/2.md"), "utf8"), why).toBe("main notes\n");
      expect(r.exists(".vscode/settings.json"), why).toBe(false);
    } finally {
      r.dispose();
    }
  });

  // A subagent lead with policies.nested_agents off: Claude Code runs the writer it names, and the
  // guard refuses any other (proofs.test.ts cites only the bundled pipeline's tests, so this one is
  // named in the report, not in the adapter's proofs)
  it("claude-code: a lead (starts: [writer]) starts writer; another agent it names is refused", async () => {
    const r = await runClaudeScripted({
      bin: hostBin("claude-code"),
      tree: await leadTree(),
      prompt: "go",
      timeoutMs: 90_000,
      script: () => [
        { name: "writer", when: "You are the Writer", steps: [] },
        { name: "releaser", when: "You are the Releaser", steps: [spawn("writer"), spawn("general-purpose")] },
        { name: "main", steps: [spawn("releaser")] },
      ],
    });
    try {
      const why = explain(r);
      expect(r.stub.log.some((l) => l.conversation === "releaser" && l.step === 2), `releaser did not run its steps\n${why}`).toBe(true);
      expect(r.stub.log.some((l) => l.conversation === "writer"), `the lead could not start writer\n${why}`).toBe(true);
      expect(r.stub.toolResultTexts().join("\n"), why).toMatch(/releaser may start only writer \(its role's starts\); refused "general-purpose"/);
    } finally {
      r.dispose();
    }
  });
});
