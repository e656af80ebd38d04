import { cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { formatDiagnostic, InputError } from "../src/errors.js";
import { readPipeline } from "../src/ir/normalize.js";
import { MINI_ROLES, PEBBLE_ROLES, tempDir } from "./helpers/cli.js";
import { HOST_IDS } from "../adapters/index.js";

const HOSTS = HOST_IDS;

/** Copy the mini fixture, apply edits, and return every diagnostic line (cwd = the copy). */
function errorsAfter(edits: Record<string, (text: string) => string>): string[] {
  const dir = tempDir();
  cpSync(MINI_ROLES, dir, { recursive: true });
  for (const [file, edit] of Object.entries(edits)) {
    const p = path.join(dir, file);
    writeFileSync(p, edit(existsSync(p) ? readFileSync(p, "utf8") : ""));
  }
  try {
    readPipeline(dir, { knownHosts: HOSTS, cwd: dir });
  } catch (error) {
    if (error instanceof InputError) return error.diagnostics.map(formatDiagnostic);
    throw error;
  }
  return [];
}

describe("validation", () => {
  it("accepts the bundled Pebble roles and the mini fixture", () => {
    expect(() => readPipeline(PEBBLE_ROLES, { knownHosts: HOST_IDS })).not.toThrow();
    expect(errorsAfter({})).toEqual([]);
  });

  it("warns when max_hops is below what a run can need, naming both numbers and the position", () => {
    const dir = tempDir();
    cpSync(MINI_ROLES, dir, { recursive: true });
    const p = path.join(dir, "pipeline.yaml");
    writeFileSync(p, readFileSync(p, "utf8").replace('never_write: ["secrets/**"]', 'never_write: ["secrets/**"]\n  max_hops: 5'));
    const { warnings, pipeline } = readPipeline(dir, { knownHosts: HOSTS, cwd: dir });
    expect(pipeline.policies.maxHops).toBe(5);
    expect(warnings.map(formatDiagnostic)).toEqual([
      "pipeline.yaml:54:13: warning W_MAX_HOPS_LOW policies.max_hops: 5 is below the 8 delegations a run can need (2 delegated stage(s) + 2 check retries + 4 loop re-run(s)); the orchestrator would stop runs still within their retries and loop rounds. Raise it to 8, or remove it to use that default.",
    ]);
    writeFileSync(p, readFileSync(p, "utf8").replace("max_hops: 5", "max_hops: 8"));
    expect(readPipeline(dir, { knownHosts: HOSTS, cwd: dir }).warnings).toEqual([]);
  });

  it("reports an unknown front-matter field with a suggestion and its position", () => {
    expect(errorsAfter({ "writer.md": (t) => t.replace("max_turns: 30", "max_turn: 30") })).toEqual([
      "writer.md:20:1: error E_ROLE_SCHEMA max_turn: unknown field. Did you mean \"max_turns\"? Known fields here: id, title, description, isolation, worktree, model, temperature, tools, permissions, reads, writes, forbidden, done, max_turns, effort, starts, skills, mcp_servers, memory, initial_prompt, background, hosts.",
    ]);
  });

  const Y = 'Fix the YAML syntax here (quote values that contain ": ", "#", or start with "@", "*", "&", "!").';
  const cases: [string, Record<string, (t: string) => string>, string[]][] = [
    ["broken YAML: only the first error", { "writer.md": (t) => t.replace("title: Writer", "title: Writer: the: one\n  bad: [") }, [`writer.md:2:8: error E_YAML Nested mappings are not allowed in compact mappings. ${Y}`]],
    ["duplicate key", { "checker.md": (t) => t.replace("model: fast", "model: fast\nmodel: deep") }, [`checker.md:7:1: error E_YAML Map keys must be unique. ${Y}`]],
    ["front matter never closed", { "checker.md": (t) => t.replace(/\n---\nYou check/, "\nYou check") }, ['checker.md:1:1: error E_NO_FRONT_MATTER front matter is never closed. Add a line "---" after the role\'s fields.']],
    ["no front matter", { "checker.md": () => "just text\n" }, ['checker.md:1:1: error E_NO_FRONT_MATTER a role file must start with YAML front matter. Put a line "---", the role\'s fields, and another "---" before the prompt.']],
    ["unknown tool", { "checker.md": (t) => t.replace("web-fetch", "webfetch") }, ['checker.md:8:21: error E_ROLE_SCHEMA tools[2]: "webfetch" is not a tool. Did you mean "web-fetch"? Names here are lowercase and host-neutral: read, grep, glob, edit, write, bash, web-fetch, web-search, todo, ask-human, spawn-agent, task-create, task-get, task-list, task-update, send-message, team-create, team-delete, lsp, skill, all, or "mcp:<server>/<tool>".']],
    ["bad isolation", { "checker.md": (t) => t.replace("isolation: subagent", "isolation: sidecar") }, ['checker.md:4:12: error E_ROLE_SCHEMA isolation: "sidecar" is not one of the allowed values. Use one of: "subagent", "main".']],
    ["missing field", { "checker.md": (t) => t.replace("done: Every claim is marked verified or wrong, with a source.\n", "") }, ['checker.md:2:1: error E_ROLE_SCHEMA done: missing required field. Add "done" here.']],
    ["unknown role in a stage", { "pipeline.yaml": (t) => t.replace("role: checker", "role: chekcer") }, [
      'checker.md:1:1: error E_ROLE_UNUSED role "checker" runs in no stage. Add a stage with role: checker to pipeline.yaml, or delete the file.',
      'pipeline.yaml:33:11: error E_UNKNOWN_ROLE stages[2].role: no role "chekcer". Did you mean "checker"? Create chekcer.md in the roles folder or name an existing role (checker, planner, writer).',
    ]],
    ["duplicate stage id", { "pipeline.yaml": (t) => t.replace("id: verify", "id: write") }, [
      'pipeline.yaml:20:21: error E_UNKNOWN_STAGE work_kinds.short.stages[1]: work kind stage "verify" is no stage. Stages: plan, write.',
      'pipeline.yaml:23:27: error E_UNKNOWN_STAGE work_kinds.long.stages[2]: work kind stage "verify" is no stage. Stages: plan, write.',
      'pipeline.yaml:32:9: error E_DUPLICATE_ID stages[2].id: stage id "write" is used twice. Give each stage its own id.',
      'pipeline.yaml:48:19: error E_UNKNOWN_STAGE loop.stages[1]: loop stage "verify" is no stage. Stages: plan, write.',
    ]],
    ["gate naming nothing", { "pipeline.yaml": (t) => t.replace("approve: outline", "approve: article") }, ['pipeline.yaml:28:16: error E_GATE_NOTHING stages[0].gate.approve: the gate approves "article", but role "planner" does not write it, so there is nothing to approve. Approve an artifact this stage writes, or add it to the role\'s "writes".']],
    ["gate naming no artifact", { "pipeline.yaml": (t) => t.replace("approve: outline", "approve: outlin") }, ['pipeline.yaml:28:16: error E_UNKNOWN_ARTIFACT stages[0].gate.approve: the gate approves "outlin", which is no artifact. Did you mean "outline"? Name one of: outline, article, notes.']],
    ["invalid globs", { "writer.md": (t) => t.replace('never_write: ["artifact:outline"]', 'never_write: ["../x", "a/[b", "/abs"]') }, [
      'writer.md:13:17: error E_ROLE_SCHEMA permissions.never_write[0]: "../x" leaves the repository through ".."; write a path inside the repository.',
      'writer.md:13:25: error E_ROLE_SCHEMA permissions.never_write[1]: unclosed brace or bracket in "a/[b"; close it or escape it.',
      'writer.md:13:33: error E_ROLE_SCHEMA permissions.never_write[2]: absolute path "/abs"; globs are relative to the repository root (drop the leading "/").',
    ]],
    ["unknown artifact reference", { "writer.md": (t) => t.replace("artifact:outline", "artifact:outlines") }, ['writer.md:13:17: error E_UNKNOWN_ARTIFACT permissions.never_write[0]: no artifact "outlines". Did you mean "outline"? Artifacts: outline, article, notes.']],
    ["artifact read before it is written", { "planner.md": (t) => t.replace("writes: [outline]", "writes: [outline]\nreads: [article]") }, ['planner.md:9:9: error E_READ_BEFORE_WRITE reads[0]: "article" is read before any stage writes it (it is first written in a later or parallel stage). Move the stage that writes it earlier, or drop it from reads.']],
    ["id that is not a plain name", { "pipeline.yaml": (t) => t.replace("id: plan", "id: Plan_1") }, ['pipeline.yaml:25:9: error E_PIPELINE_SCHEMA stages[0].id: not a plain name; use lowercase letters, digits and single hyphens, starting with a letter (e.g. "jade", "bug-fix").']],
    ["file name that is not a plain name", { "Bad_Name.md": () => "---\ntitle: x\n---\n" }, ['Bad_Name.md:1:1: error E_ROLE_ID the file name "Bad_Name" is not a plain role id; rename the file: use lowercase letters, digits and single hyphens, starting with a letter (e.g. "jade", "bug-fix").']],
    ["nested agents against policy", { "writer.md": (t) => t.replace("tools: [read,", "tools: [spawn-agent, read,") }, ['writer.md:9:8: error E_POLICY_CONFLICT tools: the pipeline forbids nested agents (policies.nested_agents: false), but this role has "spawn-agent". Remove it from tools, or make the role a lead: starts: [the roles it starts].']],
    ["unknown host", { "pipeline.yaml": (t) => t.replace("claude-code:", "claude:") }, [`pipeline.yaml:55:3: error E_UNKNOWN_HOST hosts.claude: no adapter "claude". Did you mean "claude-code"? Known hosts: ${HOSTS.join(", ")}.`]],
    ["on_failure routed forward", { "pipeline.yaml": (t) => t.replace("on_failure: write", "on_failure: verify") }, ['pipeline.yaml:46:17: error E_ROUTE_FORWARD checks[0].on_failure: on_failure sends work forward to "verify", past the failed stage. Route to "write" or an earlier stage, or to "human"; for a stage that fixes what "write" found, add repair_for: write to stage "verify".']],
    // zod takes an own "__proto__" key as the result's prototype and drops it without an issue.
    ["a __proto__ key in a role's host block", { "writer.md": (t) => t.replace("max_turns: 30", "max_turns: 30\nhosts:\n  claude-code:\n    __proto__: { color: red }") }, ['writer.md:23:5: error E_ROLE_SCHEMA hosts.claude-code.__proto__: "__proto__" cannot be a key: JavaScript takes it as the object\'s prototype, so its value would be lost. Rename the key.']],
    ["a __proto__ key in the pipeline", { "pipeline.yaml": (t) => t.replace("claude-code:", "claude-code:\n    __proto__: x") }, ['pipeline.yaml:56:5: error E_PIPELINE_SCHEMA hosts.claude-code.__proto__: "__proto__" cannot be a key: JavaScript takes it as the object\'s prototype, so its value would be lost. Rename the key.']],
    ["role's own artifact in its never_write", { "writer.md": (t) => t.replace("artifact:outline", "articles/**") }, ['writer.md:11:9: error E_SCOPE_CONFLICT writes: the role writes "article" (articles/*.md), but its never_write covers that path, so the write can never happen. Narrow never_write or drop "article" from writes.']],
  ];
  for (const [name, edits, expected] of cases) it(`reports ${name} with file, line and column`, () => expect(errorsAfter(edits)).toEqual(expected));

  it("reports every problem of every file in one pass", () => {
    const all = errorsAfter({
      "checker.md": (t) => t.replace("isolation: subagent", "isolation: sidecar"),
      "writer.md": (t) => t.replace("max_turns: 30", "max_turn: 30"),
      "pipeline.yaml": (t) => t.replace("on_failure: write", "on_failure: verify"),
    });
    expect(all.map((l) => l.split(" ")[0])).toEqual(["checker.md:4:12:", "pipeline.yaml:46:17:", "writer.md:20:1:"]);
  });
});
