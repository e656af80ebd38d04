// Defects the fresh-corpus measurement (scripts/import-corpus.mjs, docs/import.md) found in
// `harness import` and install, each on a minimal synthetic agent file written for this test.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { harness } from "./helpers/cli.js";
import { filesProjects } from "./helpers/files-project.js";
import { listFiles } from "../src/fileset.js";

const project = filesProjects("harness-import-fix-");
const frontMatter = (text: string) => parseYaml(/^---\n([\s\S]*?)\n---/.exec(text)![1]!) as Record<string, unknown>;
const report = (dir: string, role: string) =>
  (JSON.parse(fs.readFileSync(path.join(dir, "roles/.harness-import.json"), "utf8")) as { fields: Record<string, { field: string; status: string; to: string }[]> }).fields[role]!;
const hash = (dir: string) => Object.fromEntries(listFiles(dir).filter((f) => !f.startsWith("roles/") && !f.startsWith("out/")).map((f) => [f, createHash("sha256").update(fs.readFileSync(path.join(dir, f))).digest("hex")]));

describe("harness import on what real agent files hold", () => {
  it("a Claude Code colour outside the palette (the host ignores it) is reported not representable, and the import and build succeed", async () => {
    const dir = project({ ".claude/agents/scout.md": "---\nname: scout\ndescription: Finds things.\ntools: Read, Grep\ncolor: magenta\n---\n\nFind it.\n" });
    const r = await harness(["import"], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(report(dir, "scout")).toContainEqual(expect.objectContaining({ field: "color", status: "not representable" }));
    expect(fs.readFileSync(path.join(dir, "roles/scout.md"), "utf8")).not.toContain("magenta");
    expect((await harness(["build"], dir)).code).toBe(0);
  });

  it("a Claude Code colour in the palette stays host-native beside an ignored one", async () => {
    const dir = project({
      ".claude/agents/a.md": "---\nname: a\ndescription: A.\ncolor: magenta\n---\nA.\n",
      ".claude/agents/b.md": "---\nname: b\ndescription: B.\ncolor: cyan\n---\nB.\n",
    });
    expect((await harness(["import"], dir)).code).toBe(0);
    expect((await harness(["build"], dir)).code).toBe(0);
    expect(frontMatter(fs.readFileSync(path.join(dir, "out/claude-code/.claude/agents/b.md"), "utf8")).color).toBe("cyan");
    expect(frontMatter(fs.readFileSync(path.join(dir, "out/claude-code/.claude/agents/a.md"), "utf8")).color).toBeUndefined();
  });

  it("Claude Code Bash(git *) is the shell for those commands only, not every command", async () => {
    const dir = project({ ".claude/agents/historian.md": "---\nname: historian\ndescription: Reads history.\ntools: Read, Grep, Bash(git log:*), Bash(git diff *)\n---\n\nRead the log.\n" });
    expect((await harness(["import"], dir)).code).toBe(0);
    const role = frontMatter(fs.readFileSync(path.join(dir, "roles/historian.md"), "utf8"));
    expect(role.tools).toEqual(["read", "grep", "bash"]);
    expect(role.permissions).toEqual({ shell: { allow: ["git log *", "git diff *"], default: "deny" } });
    expect(report(dir, "historian").filter((f) => f.status === "not representable")).toEqual([]);
    expect((await harness(["build"], dir)).code).toBe(0);
    expect(frontMatter(fs.readFileSync(path.join(dir, "out/claude-code/.claude/agents/historian.md"), "utf8")).tools).toBe("Read, Grep, Bash");
  });

  it("plain Bash beside Bash(git *) keeps every command", async () => {
    const dir = project({ ".claude/agents/ops.md": "---\nname: ops\ndescription: Ops.\ntools: Bash, Bash(git *)\n---\nRun.\n" });
    expect((await harness(["import"], dir)).code).toBe(0);
    expect(frontMatter(fs.readFileSync(path.join(dir, "roles/ops.md"), "utf8")).permissions).toBeUndefined();
  });

  it("a description that is not text is reported, never dropped silently", async () => {
    const dir = project({ ".claude/agents/tpl.md": "---\nname: tpl\ndescription: [what this agent does]\n---\nTemplate.\n" });
    expect((await harness(["import"], dir)).code).toBe(0);
    expect(report(dir, "tpl")).toContainEqual(expect.objectContaining({ field: "description", status: "not representable" }));
  });

  it("OpenCode permission todowrite: allow keeps the todo tool; edit: ask is reported (harness asks for shell commands only)", async () => {
    const dir = project({ ".opencode/agents/planner.md": "---\ndescription: Plans.\nmode: subagent\npermission:\n  edit: ask\n  bash: deny\n  todowrite: allow\n---\n\nPlan it.\n" });
    expect((await harness(["import"], dir)).code).toBe(0);
    const role = frontMatter(fs.readFileSync(path.join(dir, "roles/planner.md"), "utf8"));
    expect(role.tools).toContain("todo");
    expect(role.tools).not.toContain("bash");
    expect(report(dir, "planner")).toContainEqual(expect.objectContaining({ field: "permission.edit", status: "not representable" }));
    expect((await harness(["build"], dir)).code).toBe(0);
    const agent = frontMatter(fs.readFileSync(path.join(dir, "out/opencode/.opencode/agents/planner.md"), "utf8"));
    expect((agent.permission as Record<string, unknown>).todowrite).toBe("allow");
  });

  it("install takes away an original OpenCode reads beside the generated agent (.opencode/agent/ vs agents/); uninstall gives it back byte for byte", async () => {
    const dir = project({ ".opencode/agent/review.md": "---\ndescription: Reviews.\nmode: subagent\ntools:\n  write: false\n---\n\nReview it.\n" });
    const before = hash(dir);
    expect((await harness(["import"], dir)).code).toBe(0);
    const installed = await harness(["install"], dir);
    expect(installed.code, installed.stderr + installed.stdout).toBe(0);
    expect(fs.existsSync(path.join(dir, ".opencode/agent/review.md"))).toBe(false);
    expect(fs.existsSync(path.join(dir, ".opencode/agents/review.md"))).toBe(true);
    const lock = JSON.parse(fs.readFileSync(path.join(dir, "harness.lock.json"), "utf8")) as { files: Record<string, { removed?: true; adopted?: true }> };
    expect(lock.files[".opencode/agent/review.md"]).toMatchObject({ removed: true, adopted: true });
    // installing again and checking change nothing
    expect((await harness(["install"], dir)).code).toBe(0);
    expect((await harness(["check", "--installed"], dir)).code).toBe(0);
    expect((await harness(["uninstall"], dir)).code).toBe(0);
    expect(hash(dir)).toEqual(before);
  });

  it("a file put where the taken-away original stood is kept on uninstall (W_NOT_OWNED), and the original stays in the lock", async () => {
    const dir = project({ ".opencode/agent/review.md": "---\ndescription: Reviews.\n---\n\nReview it.\n" });
    expect((await harness(["import"], dir)).code).toBe(0);
    expect((await harness(["install"], dir)).code).toBe(0);
    fs.mkdirSync(path.join(dir, ".opencode/agent"), { recursive: true });
    fs.writeFileSync(path.join(dir, ".opencode/agent/review.md"), "mine\n");
    const r = await harness(["uninstall"], dir);
    expect(r.stderr + r.stdout).toContain("W_NOT_OWNED");
    expect(fs.readFileSync(path.join(dir, ".opencode/agent/review.md"), "utf8")).toBe("mine\n");
  });

  it("Claude Code TodoWrite is reported: Claude Code 2.1.332 disables it, so the emitted agent cannot keep it", async () => {
    const dir = project({ ".claude/agents/lead.md": "---\nname: lead\ndescription: Leads.\ntools: Read, TodoWrite\n---\nLead.\n" });
    expect((await harness(["import"], dir)).code).toBe(0);
    expect(report(dir, "lead")).toContainEqual(expect.objectContaining({ field: "tools: TodoWrite", status: "not representable" }));
  });

  it("Bash(*) is the whole shell", async () => {
    const dir = project({ ".claude/agents/dbg.md": "---\nname: dbg\ndescription: Debugs.\ntools: [\"Read\", \"Bash(*)\"]\n---\nDebug.\n" });
    expect((await harness(["import"], dir)).code).toBe(0);
    const role = frontMatter(fs.readFileSync(path.join(dir, "roles/dbg.md"), "utf8"));
    expect(role.tools).toEqual(["read", "bash"]);
    expect(role.permissions).toBeUndefined();
  });

  it("an unquoted description holding \": \" keeps its text, tools and model (not only the body)", async () => {
    const dir = project({ ".claude/agents/fixer.md": "---\nname: fixer\ncolor: yellow\nmodel: sonnet\ntools: Read, Edit\ndescription: Use this agent when: tests fail. Example: a red build.\n---\nFix it.\n" });
    expect((await harness(["import"], dir)).code).toBe(0);
    expect(report(dir, "fixer").filter((f) => f.status === "not representable")).toEqual([]);
    expect((await harness(["build"], dir)).code).toBe(0);
    const agent = frontMatter(fs.readFileSync(path.join(dir, "out/claude-code/.claude/agents/fixer.md"), "utf8"));
    expect(agent).toMatchObject({ description: "Use this agent when: tests fail. Example: a red build.", model: "sonnet", color: "yellow", tools: "Read, Edit" });
  });

  it("OpenCode permission \"*\": deny grants only the tools listed; a command pattern outside bash is reported", async () => {
    const dir = project({ ".opencode/agents/dev.md": "---\ndescription: Develops.\npermission:\n  \"*\": deny\n  read: allow\n  grep: allow\n  bash: ask\n  \"rm -rf *\": deny\n---\nDevelop.\n" });
    expect((await harness(["import"], dir)).code).toBe(0);
    const role = frontMatter(fs.readFileSync(path.join(dir, "roles/dev.md"), "utf8"));
    expect(role.tools).toEqual(["read", "grep", "bash"]);
    expect(report(dir, "dev")).toContainEqual(expect.objectContaining({ field: "permission.rm -rf *", status: "not representable" }));
    expect(report(dir, "dev").some((f) => f.field === "permission.*" && f.status === "not representable")).toBe(false);
  });

  it("OpenCode disable: false is the default; disable: true is reported; an MCP tool switched off needs nothing", async () => {
    const dir = project({
      // mode given: without one, OpenCode's default "all" is itself a reported loss (test/import-corpus3.test.ts)
      ".opencode/agents/on.md": "---\ndescription: On.\nmode: subagent\ndisable: false\ntools:\n  github*: false\n---\nOn.\n",
      ".opencode/agents/off.md": "---\ndescription: Off.\ndisable: true\n---\nOff.\n",
    });
    expect((await harness(["import"], dir)).code).toBe(0);
    expect(report(dir, "on").filter((f) => f.status === "not representable")).toEqual([]);
    expect(report(dir, "off")).toContainEqual(expect.objectContaining({ field: "disable", status: "not representable" }));
  });

  it("Cursor reads no tool list in an agent file: the role keeps every tool, and the tools line is reported", async () => {
    const dir = project({ ".cursor/agents/helper.md": "---\nname: helper\ndescription: Helps.\ntools: Read, Shell\n---\nHelp.\n" });
    expect((await harness(["import"], dir)).code).toBe(0);
    expect(frontMatter(fs.readFileSync(path.join(dir, "roles/helper.md"), "utf8")).tools).toEqual(["all"]);
    expect(report(dir, "helper")).toContainEqual(expect.objectContaining({ field: "tools", status: "not representable" }));
  });

  it("Codex: a read-only agent keeps its shell (the sandbox writes nothing); approval_policy sets whether commands ask", async () => {
    const dir = project({
      ".codex/agents/reviewer.toml": 'name = "reviewer"\ndescription = "Reviews."\nsandbox_mode = "read-only"\napproval_policy = "never"\ndeveloper_instructions = """\nReview the diff.\n"""\n',
      ".codex/agents/fixer.toml": 'name = "fixer"\ndescription = "Fixes."\nsandbox_mode = "workspace-write"\napproval_policy = "on-request"\ndeveloper_instructions = "Fix it."\n',
    });
    expect((await harness(["import"], dir)).code).toBe(0);
    const reviewer = frontMatter(fs.readFileSync(path.join(dir, "roles/reviewer.md"), "utf8"));
    expect(reviewer.tools).toEqual(["read", "grep", "glob", "bash"]);
    expect(reviewer.permissions).toEqual({ shell: { default: "allow" } });
    const fixer = frontMatter(fs.readFileSync(path.join(dir, "roles/fixer.md"), "utf8"));
    expect(fixer.permissions).toEqual({ write: ["**"], shell: { default: "ask" } });
    for (const role of ["reviewer", "fixer"]) expect(report(dir, role).filter((f) => f.status === "not representable")).toEqual([]);
    expect((await harness(["build"], dir)).code).toBe(0);
  });

  it("a key written twice keeps its last value, with the rest of the front matter (not only the body)", async () => {
    const dir = project({ ".claude/agents/tester.md": "---\nname: tester\ncolor: cyan\ndescription: Use it when: a fix lands.\ntools: [\"Read\", \"Grep\"]\nmodel: sonnet\ncolor: green\n---\nTest it.\n" });
    expect((await harness(["import"], dir)).code).toBe(0);
    expect(report(dir, "tester")).toContainEqual(expect.objectContaining({ field: "front matter", status: "mapped", to: expect.stringContaining("a key written twice keeps its last value") }));
    expect((await harness(["build"], dir)).code).toBe(0);
    const agent = frontMatter(fs.readFileSync(path.join(dir, "out/claude-code/.claude/agents/tester.md"), "utf8"));
    expect(agent).toMatchObject({ description: "Use it when: a fix lands.", tools: "Read, Grep", model: "sonnet", color: "green" });
  });
});
