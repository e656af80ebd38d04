// Defects the third fresh-corpus round (scripts/import-corpus.mjs, docs/import.md) found in
// `harness import` and install, each on a minimal synthetic agent written for this test.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { harness } from "./helpers/cli.js";
import { filesProjects } from "./helpers/files-project.js";
import { listFiles } from "../src/fileset.js";

const project = filesProjects("harness-import-c3-", { git: true });
const hash = (dir: string) => Object.fromEntries(listFiles(dir).filter((f) => !/^(roles|out|\.git)\//.test(f)).map((f) => [f, createHash("sha256").update(fs.readFileSync(path.join(dir, f))).digest("hex")]));
const read = (dir: string, rel: string) => fs.readFileSync(path.join(dir, rel), "utf8");
const frontMatter = (text: string) => parseYaml(/^---\n([\s\S]*?)\n---/.exec(text)![1]!) as Record<string, unknown>;
type Report = { field: string; status: string; to: string }[];
const record = (dir: string) => JSON.parse(read(dir, "roles/.harness-import.json")) as { files: { path: string; key?: string[]; role: string }[]; fields: Record<string, Report> };

describe("harness import, third corpus round", () => {
  it("uninstall gives back a Kilo config whose adopted entry's keys are not in sorted order, byte for byte (harness writes nothing else into it)", async () => {
    // .kilo/kilo.jsonc holds only the team's agent; the Kilo adapter writes its own kilo.json, so the
    // lock keeps the taken value and nothing else for that file (the lock sorts a value's keys)
    const config = `{\n  "agent": {\n    "coder": {\n      "permission": {\n        "question": "deny",\n        "bash": "ask"\n      }\n    }\n  }\n}\n`;
    const dir = project({ ".kilo/kilo.jsonc": config });
    expect((await harness(["import", "-q"], dir)).code).toBe(0);
    expect((await harness(["build", "-q"], dir)).code).toBe(0);
    const before = hash(dir);
    const installed = await harness(["install", "-q"], dir);
    expect(installed.code, installed.stderr).toBe(0);
    expect(read(dir, ".kilo/kilo.jsonc")).not.toContain('"coder"');
    expect((await harness(["uninstall", "-q"], dir)).code).toBe(0);
    expect(read(dir, ".kilo/kilo.jsonc")).toBe(config);
    expect(hash(dir)).toEqual(before);
  });

  it("an OpenCode or Kilo agent file's front-matter name is the agent's name (1.18.33 and Kilo 7.7.7 name the agent by it, measured): the role takes it, and no loss is reported", async () => {
    for (const [host, file] of [["opencode", ".opencode/agents/rev.md"], ["kilo", ".kilo/agents/rev.md"]] as const) {
      const dir = project({ [file]: "---\nname: Code Critic\ndescription: Critiques the change.\nmode: subagent\n---\n\nCritique it.\n" });
      expect((await harness(["import", "-q"], dir)).code).toBe(0);
      const rec = record(dir);
      expect(rec.files).toEqual([expect.objectContaining({ path: file, role: "code-critic" })]);
      expect(rec.fields["code-critic"]!.filter((f) => f.field === "name" && f.status === "not representable")).toEqual([]);
      expect((await harness(["build", "-q"], dir)).code).toBe(0);
      expect(frontMatter(read(dir, `out/${host}/.${host}/agents/code-critic.md`)).description).toBe("Critiques the change.");
    }
  });

  it("an opencode.json entry named as an agent file's agent is that agent (OpenCode deep-merges it under the file, measured): one role with both, and install takes the key away", async () => {
    const config = `{\n  "agent": {\n    "rev": {\n      "mode": "subagent",\n      "description": "From the config.",\n      "temperature": 0.5,\n      "permission": { "edit": "deny", "bash": { "*": "deny", "ls *": "allow" } }\n    }\n  }\n}\n`;
    const dir = project({ "opencode.json": config, ".opencode/agents/rev.md": "---\ndescription: From the file.\nmode: subagent\npermission:\n  bash:\n    \"git *\": allow\n---\n\nReview it.\n" });
    const imported = await harness(["import", "-q"], dir);
    expect(imported.code, imported.stderr).toBe(0);
    expect(fs.readdirSync(path.join(dir, "roles")).sort()).toEqual([".harness-import.json", "pipeline.yaml", "rev.md"]);
    const role = frontMatter(read(dir, "roles/rev.md"));
    expect(role.description).toBe("From the file.");
    expect(role.tools).toEqual(["read", "grep", "glob", "bash", "web-fetch"]);
    expect(role.permissions).toEqual({ shell: { allow: ["ls *", "git *"], default: "deny" } });
    expect(role.temperature).toBeDefined();
    expect(read(dir, "roles/rev.md")).toContain("Review it.");
    expect(record(dir).files).toEqual([
      expect.objectContaining({ path: ".opencode/agents/rev.md", role: "rev" }),
      expect.objectContaining({ path: "opencode.json", key: ["agent", "rev"], role: "rev" }),
    ]);
    expect((await harness(["build", "-q"], dir)).code).toBe(0);
    const before = hash(dir);
    expect((await harness(["install", "-q"], dir)).code).toBe(0);
    expect(read(dir, "opencode.json")).not.toContain('"rev"');
    expect((await harness(["uninstall", "-q"], dir)).code).toBe(0);
    expect(hash(dir)).toEqual(before);
  });

  it("OpenCode permission write or patch never applied (1.18.33 checks writes against edit, measured): the role keeps the write tools the agent kept, and the report says why", async () => {
    const dir = project({
      ".opencode/agents/a.md": "---\ndescription: A.\nmode: subagent\npermission:\n  write: deny\n---\nA.\n",
      ".opencode/agents/b.md": "---\ndescription: B.\nmode: subagent\npermission:\n  write:\n    \"*\": deny\n    \"docs/**\": allow\n---\nB.\n",
    });
    expect((await harness(["import", "-q"], dir)).code).toBe(0);
    for (const id of ["a", "b"]) {
      expect(frontMatter(read(dir, `roles/${id}.md`)).tools).toEqual(expect.arrayContaining(["edit", "write"]));
      expect(record(dir).fields[id]).toContainEqual({ field: "permission.write", status: "not representable", to: expect.stringMatching(/never applied/) });
    }
    expect((await harness(["build", "-q"], dir)).code).toBe(0);
  });

  it("OpenCode doom_loop or external_directory: ask is what harness writes anyway (no loss); another action is reported", async () => {
    const dir = project({
      ".kilo/agents/a.md": "---\ndescription: A.\nmode: subagent\npermission:\n  doom_loop: ask\n  external_directory: ask\n---\nA.\n",
      ".kilo/agents/b.md": "---\ndescription: B.\nmode: subagent\npermission:\n  doom_loop: allow\n---\nB.\n",
    });
    expect((await harness(["import", "-q"], dir)).code).toBe(0);
    expect(record(dir).fields.a!.filter((f) => f.status === "not representable")).toEqual([]);
    expect(record(dir).fields.b).toContainEqual({ field: "permission.doom_loop", status: "not representable", to: expect.stringMatching(/always ask/) });
    expect((await harness(["build", "-q"], dir)).code).toBe(0);
    expect(frontMatter(read(dir, "out/kilo/.kilo/agents/a.md")).permission).toEqual(expect.objectContaining({ doom_loop: "ask", external_directory: "ask" }));
  });

  it("an OpenCode or Kilo agent in a subfolder of the agents folder is read (both hosts load {agent,agents}/**/*.md and name it team/x, measured), and install takes the original away while the generated agent stands", async () => {
    const dir = project({ ".opencode/agents/team/x.md": "---\ndescription: Nested.\nmode: subagent\n---\n\nDo x.\n", ".kilo/agent/a/b/y.md": "---\ndescription: Deeper.\nmode: subagent\n---\n\nDo y.\n" });
    expect((await harness(["import", "-q"], dir)).code).toBe(0);
    expect(record(dir).files).toEqual([expect.objectContaining({ path: ".opencode/agents/team/x.md", role: "team-x" }), expect.objectContaining({ path: ".kilo/agent/a/b/y.md", role: "a-b-y" })]);
    expect(record(dir).fields["team-x"]).toContainEqual({ field: "name", status: "mapped", to: expect.stringContaining('"team/x"') });
    expect((await harness(["build", "-q"], dir)).code).toBe(0);
    const before = hash(dir);
    expect((await harness(["install", "-q"], dir)).code).toBe(0);
    expect(fs.existsSync(path.join(dir, ".opencode/agents/team/x.md"))).toBe(false);
    expect(read(dir, ".opencode/agents/team-x.md")).toContain("Do x.");
    expect((await harness(["uninstall", "-q"], dir)).code).toBe(0);
    expect(hash(dir)).toEqual(before);
  });

  it("a config entry tuning one of the host's own agents (opencode.json agent.build, kilo.jsonc agent.code) is left in place, not made a role; a team agent without mode is reported (OpenCode's default is all)", async () => {
    const config = `{\n  "agent": {\n    "build": { "model": "x/y", "permission": { "edit": "ask" } },\n    "plan": { "disable": true },\n    "helper": { "description": "Helps.", "prompt": "Help." }\n  }\n}\n`;
    const dir = project({ "opencode.json": config, ".kilo/kilo.jsonc": `{ "agent": { "code": { "permission": { "question": "deny" } } } }\n`, ".kilo/agents/k.md": "---\ndescription: K.\nmode: subagent\n---\nK.\n" });
    const imported = await harness(["import"], dir);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toContain("opencode.json agent.build: left in place");
    expect(fs.readdirSync(path.join(dir, "roles")).sort()).toEqual([".harness-import.json", "helper.md", "k.md", "pipeline.yaml"]);
    const rec = record(dir) as ReturnType<typeof record> & { left: { path: string; key: string[] }[] };
    expect(rec.left.map((l) => `${l.path} ${l.key.join(".")}`)).toEqual(["opencode.json agent.build", "opencode.json agent.plan", ".kilo/kilo.jsonc agent.code"]);
    expect(rec.fields.helper).toContainEqual({ field: "mode", status: "not representable", to: expect.stringContaining('"all"') });
    expect((await harness(["build", "-q"], dir)).code).toBe(0);
    const before = hash(dir);
    expect((await harness(["install", "-q"], dir)).code).toBe(0);
    const after = read(dir, "opencode.json");
    expect(after).toContain('"build"');
    expect(after).toContain('"plan"');
    expect(after).not.toContain('"helper"');
    expect(read(dir, ".kilo/kilo.jsonc")).toContain('"code"');
    expect((await harness(["uninstall", "-q"], dir)).code).toBe(0);
    expect(hash(dir)).toEqual(before);
  });
});
