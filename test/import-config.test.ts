// harness import of agents defined inside a host's shared config (OpenCode's opencode.json(c) and
// Kilo's kilo.json(c): `agent: {<name>: {description, mode, model, prompt, tools, permission, …}}`),
// through the CLI: a report line for every field, the roles written, and install taking away only
// the adopted keys (the file stays the team's), uninstall giving the file back byte for byte.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { harness } from "./helpers/cli.js";
import { filesProjects } from "./helpers/files-project.js";
import { listFiles } from "../src/fileset.js";
import { parseJsonc } from "../src/install/jsonc.js";

const project = filesProjects("harness-import-config-", { git: true });
const hash = (dir: string) => Object.fromEntries(listFiles(dir).filter((f) => !f.startsWith("roles/") && !f.startsWith("out/") && !f.startsWith(".git/")).map((f) => [f, createHash("sha256").update(fs.readFileSync(path.join(dir, f))).digest("hex")]));
const read = (dir: string, rel: string) => fs.readFileSync(path.join(dir, rel), "utf8");
const frontMatter = (text: string) => parseYaml(/^---\n([\s\S]*?)\n---/.exec(text)![1]!) as Record<string, unknown>;

// real-shaped: opencode.ai/docs/agents' reviewer (prompt from a file), a primary agent, the team's own model, MCP server and a comment
const OPENCODE_JSON = `{
  "$schema": "https://opencode.ai/config.json",
  // the team's default model
  "model": "anthropic/claude-sonnet-4-5",
  "agent": {
    "code-reviewer": {
      "description": "Reviews code for best practices and potential issues",
      "mode": "subagent",
      "model": "anthropic/claude-sonnet-4-20250514",
      "temperature": 0.1,
      "prompt": "{file:./prompts/code-review.txt}",
      "tools": { "write": false, "edit": false },
      "permission": { "bash": { "*": "deny", "git diff*": "allow" } }
    },
    "builder": {
      "description": "Builds features.",
      "mode": "primary",
      "prompt": "You build the feature the human asks for.",
      "steps": 40,
      "color": "#ff6600",
      "options": { "reasoningEffort": "high" }
    }
  },
  "mcp": { "github": { "type": "local", "command": ["gh-mcp"] } }
}
`;

describe("harness import: agents inside opencode.json and kilo.jsonc", () => {
  it("reads every agent entry with a report line for every field; the record names each key, never the whole file", async () => {
    const dir = project({ "opencode.json": OPENCODE_JSON, "prompts/code-review.txt": "You are a code reviewer.\nFocus on security.\n" });
    const r = await harness(["import"], dir);
    expect(r.code, r.stderr).toBe(0);
    // the report on the terminal, and in roles/.harness-import.json: one line per field of each entry
    expect(r.stdout).toContain("opencode.json agent.code-reviewer → roles/code-reviewer.md");
    expect(r.stdout).toContain("opencode.json agent.builder → roles/builder.md");
    const record = JSON.parse(read(dir, "roles/.harness-import.json")) as { files: { path: string; key?: string[]; role: string }[]; fields: Record<string, { field: string; status: string; to: string }[]> };
    const line = (role: string, field: string) => record.fields[role]!.filter((f) => f.field === field).map((f) => `${f.status}: ${f.to}`);
    const reported = (role: string) => new Set(record.fields[role]!.map((f) => f.field.split(/[.:]/)[0]));
    for (const field of ["name", "description", "mode", "model", "temperature", "prompt", "tools", "permission"]) expect(reported("code-reviewer"), field).toContain(field);
    for (const field of ["name", "description", "mode", "prompt", "steps", "color", "options"]) expect(reported("builder"), field).toContain(field);
    expect(line("code-reviewer", "prompt")).toEqual(["mapped: the role's body (read from prompts/code-review.txt)"]);
    expect(line("builder", "mode")).toEqual(["mapped: isolation: main"]);
    expect(line("builder", "steps")).toEqual(["mapped: max_turns"]);
    expect(line("builder", "color")).toEqual(["host-native: hosts.opencode.color"]);
    expect(line("builder", "options")).toEqual(["not representable: provider options the host passes to the model as they are: harness has no field for them"]);
    expect(r.stderr).toContain("options → provider options");
    const role = read(dir, "roles/code-reviewer.md");
    expect(frontMatter(role)).toMatchObject({ description: "Reviews code for best practices and potential issues", isolation: "subagent", tools: ["read", "grep", "glob", "bash", "web-fetch"], permissions: { shell: { allow: ["git diff*"], default: "deny" } }, hosts: { opencode: { model: "anthropic/claude-sonnet-4-20250514" } } });
    expect(role).toContain("\nYou are a code reviewer.\nFocus on security.\n");
    expect(frontMatter(read(dir, "roles/builder.md")).forbidden).toBe("Nothing beyond the limits below (imported from opencode.json agent.builder; say what this role must never do).");
    expect(record.files.map((f) => `${f.path} ${f.key?.join(".")} ${f.role}`)).toEqual(["opencode.json agent.code-reviewer code-reviewer", "opencode.json agent.builder builder"]);
    expect((await harness(["build"], dir)).code).toBe(0);
  });

  it("install takes away only the adopted keys (the team's model, MCP server and comment stay); uninstall gives opencode.json back byte for byte", async () => {
    const dir = project({ "opencode.json": OPENCODE_JSON, "prompts/code-review.txt": "You review.\n" });
    const before = hash(dir);
    expect((await harness(["import", "-q"], dir)).code).toBe(0);
    const installed = await harness(["install"], dir);
    expect(installed.code, installed.stderr + installed.stdout).toBe(0);
    const config = read(dir, "opencode.json");
    expect(config).toContain("// the team's default model");
    expect(config).toContain('"mcp": { "github"');
    expect(config).not.toContain("code-reviewer");
    expect(config).not.toContain('"builder"');
    expect(fs.existsSync(path.join(dir, ".opencode/agents/code-reviewer.md"))).toBe(true);
    const lock = JSON.parse(read(dir, "harness.lock.json")) as { files: Record<string, { mode: string; adopted?: true; owned: { kind: string; path: string[] }[] }> };
    expect(lock.files["opencode.json"]!.mode).toBe("merge");
    expect(lock.files["opencode.json"]!.adopted).toBeUndefined(); // the file is not claimed
    expect(lock.files["opencode.json"]!.owned.filter((o) => o.kind === "take").map((o) => o.path.join("."))).toEqual(["agent.code-reviewer", "agent.builder"]);
    expect((await harness(["check", "--installed"], dir)).code).toBe(0);
    expect((await harness(["install"], dir)).stdout).toMatch(/0 created, 0 updated, 0 removed/);
    expect((await harness(["uninstall"], dir)).code).toBe(0);
    expect(hash(dir)).toEqual(before);
  });

  it("an agent entry changed since the import is not taken away: install writes nothing (W_NOT_OWNED at its key)", async () => {
    const dir = project({ "opencode.json": OPENCODE_JSON, "prompts/code-review.txt": "You review.\n" });
    expect((await harness(["import", "-q"], dir)).code).toBe(0);
    const edited = OPENCODE_JSON.replace('"steps": 40', '"steps": 50');
    fs.writeFileSync(path.join(dir, "opencode.json"), edited);
    const before = hash(dir);
    const r = await harness(["install"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/opencode\.json:\d+:\d+: error W_NOT_OWNED agent\.builder changed since harness import read it/);
    expect(hash(dir)).toEqual(before);
  });

  it("a key written again where install took an agent away is kept on uninstall (W_NOT_OWNED), the original stays in the lock", async () => {
    const dir = project({ "opencode.json": OPENCODE_JSON, "prompts/code-review.txt": "You review.\n" });
    expect((await harness(["import", "-q"], dir)).code).toBe(0);
    expect((await harness(["install", "-q"], dir)).code).toBe(0);
    const mine = read(dir, "opencode.json").replace('"agent": {}', '"agent": { "builder": { "prompt": "mine" } }');
    fs.writeFileSync(path.join(dir, "opencode.json"), mine);
    const r = await harness(["uninstall"], dir);
    expect(r.stderr + r.stdout).toMatch(/W_NOT_OWNED agent\.builder was taken away by install/);
    const after = parseJsonc(read(dir, "opencode.json")) as { agent: Record<string, unknown> };
    expect(after.agent.builder).toEqual({ prompt: "mine" });
    expect(after.agent["code-reviewer"]).toMatchObject({ mode: "subagent" }); // the other one came back
    const lock = JSON.parse(read(dir, "harness.lock.json")) as { files: Record<string, { owned: { kind: string; path: string[]; value: Record<string, unknown> }[] }> };
    expect(lock.files["opencode.json"]!.owned).toEqual([expect.objectContaining({ kind: "take", path: ["agent", "builder"], value: expect.objectContaining({ steps: 40 }) })]);
  });

  it("Kilo's kilo.jsonc and an .opencode/opencode.json harness does not otherwise write: taken away at install, given back byte for byte", async () => {
    const kilo = '{\n  // Kilo config\n  "agent": {\n    "docs-writer": { "description": "Writes docs.", "mode": "subagent", "prompt": "You write docs.", "permission": { "edit": { "docs/**": "allow", "*": "deny" } } },\n  },\n}\n';
    const nested = '{\n  "agent": { "tester": { "description": "Runs the tests.", "mode": "subagent", "prompt": "You test." } }\n}\n';
    const dir = project({ "kilo.jsonc": kilo, ".opencode/opencode.json": nested });
    const before = hash(dir);
    const r = await harness(["import"], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("kilo.jsonc agent.docs-writer → roles/docs-writer.md");
    expect(r.stdout).toContain(".opencode/opencode.json agent.tester → roles/tester.md");
    expect(frontMatter(read(dir, "roles/docs-writer.md"))).toMatchObject({ permissions: { write: ["docs/**"] } });
    const installed = await harness(["install"], dir);
    expect(installed.code, installed.stderr + installed.stdout).toBe(0);
    expect(read(dir, "kilo.jsonc")).toContain("// Kilo config");
    expect(read(dir, "kilo.jsonc")).not.toContain("docs-writer");
    expect(read(dir, ".opencode/opencode.json")).not.toContain("tester");
    expect(fs.existsSync(path.join(dir, "kilo.json"))).toBe(false); // harness merged into the team's kilo.jsonc
    expect((await harness(["check", "--installed"], dir)).code).toBe(0);
    expect((await harness(["uninstall"], dir)).code).toBe(0);
    expect(hash(dir)).toEqual(before);
  });
});
