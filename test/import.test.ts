// harness import on a corpus of real-shaped agent files (test/fixtures/import, SOURCES.md), in a
// scratch project, through the CLI as users run it: import → build exits 0; the Claude Code and
// OpenCode agents keep description, body, tools, model and every field unless the report says not
// representable; re-running changes nothing; roles/ is never overwritten without --force; install
// then uninstall gives the originals back byte for byte.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { harness, ROOT, tempDir } from "./helpers/cli.js";
import { listFiles } from "../src/fileset.js";

const CORPUS = path.join(ROOT, "test/fixtures/import");
const split = (text: string) => {
  const m = /^---\n([\s\S]*?)\n---\n?([\s\S]*)$/.exec(text.replace(/\r\n/g, "\n"));
  return m ? { fm: (parseYaml(m[1]!) ?? {}) as Record<string, unknown>, body: m[2]! } : { fm: {}, body: text };
};
const hash = (dir: string) => Object.fromEntries(listFiles(dir).map((f) => [f, createHash("sha256").update(fs.readFileSync(path.join(dir, f))).digest("hex")]));

let dir: string;
let originals: Record<string, string>;
let report: { files: { host: string; path: string; role: string }[]; fields: Record<string, { field: string; status: string; to: string }[]> };
let imported: Awaited<ReturnType<typeof harness>>;
beforeAll(async () => {
  dir = tempDir("harness-import-");
  fs.cpSync(CORPUS, dir, { recursive: true });
  fs.rmSync(path.join(dir, "SOURCES.md"));
  originals = hash(dir);
  imported = await harness(["import"], dir);
  report = JSON.parse(fs.readFileSync(path.join(dir, "roles/.harness-import.json"), "utf8"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const notRepresentable = (role: string, key: string) => report.fields[role]!.some((f) => f.status === "not representable" && (f.field === key || f.field.startsWith(`${key}.`) || f.field.startsWith(`${key}:`)));
const entry = (p: string) => report.files.find((f) => f.path === p)!;

describe("harness import", () => {
  it("reads every agent file of every host and reports every field", () => {
    expect(imported.code, imported.stderr).toBe(0);
    expect(report.files.map((f) => f.host).sort()).toEqual(["claude-code", "claude-code", "claude-code", "codex", "copilot", "cursor", "gemini-cli", "opencode", "opencode", "opencode", "opencode"]);
    for (const f of report.files) {
      if (f.path.endsWith(".toml")) continue;
      const { fm } = split(fs.readFileSync(path.join(dir, f.path), "utf8"));
      const fields = report.fields[f.role]!.map((x) => x.field.replace(/[.:].*$/, ""));
      for (const key of Object.keys(fm)) expect(fields, `${f.path}: ${key} not in the report`).toContain(key);
    }
    // printed too: not representable on stderr, the rest on stdout
    expect(imported.stderr).toContain("timeout_mins → harness has no run timeout per role");
    expect(imported.stdout).toContain("host-native       permissionMode → hosts.claude-code.permissionMode");
  });

  it("harness build exits 0 on the hosts it came from (losses listed as accepted in pipeline.yaml)", async () => {
    const r = await harness(["build"], dir);
    expect(r.code, r.stderr).toBe(0);
    const pipeline = parseYaml(fs.readFileSync(path.join(dir, "roles/pipeline.yaml"), "utf8")) as { targets: string[]; accepted_losses?: { reason: string }[] };
    expect(pipeline.targets).toEqual(["claude-code", "codex", "copilot", "cursor", "gemini-cli", "opencode"]);
    for (const a of pipeline.accepted_losses ?? []) expect(a.reason).toMatch(/^imported: .* \(review\)$/);
  });

  it("Claude Code: the emitted agent keeps description, body, tools, model and every field", () => {
    for (const f of report.files.filter((x) => x.host === "claude-code")) {
      const before = split(fs.readFileSync(path.join(dir, f.path), "utf8"));
      const after = split(fs.readFileSync(path.join(dir, "out/claude-code/.claude/agents", `${f.role}.md`), "utf8"));
      expect(after.fm.description, f.path).toBe(String(before.fm.description).trim());
      expect(after.body.trim().startsWith(before.body.trim()), `${f.path}: body`).toBe(true);
      expect(after.fm.model, f.path).toBe(before.fm.model ?? "inherit");
      const tools = (v: unknown) => (Array.isArray(v) ? v.map(String) : v === undefined ? [] : String(v).split(/,\s*/));
      const denied = new Set(tools(before.fm.disallowedTools));
      if (before.fm.tools === undefined && !denied.size) expect(after.fm.tools, `${f.path}: every tool`).toBeUndefined();
      else if (!notRepresentable(f.role, "disallowedTools")) {
        const want = tools(before.fm.tools).filter((t) => !denied.has(t) && t !== "Agent");
        expect(tools(after.fm.tools).sort(), f.path).toEqual(expect.arrayContaining(want));
      }
      for (const [key, value] of Object.entries(before.fm)) {
        if (["name", "description", "tools", "disallowedTools", "model"].includes(key) || notRepresentable(f.role, key)) continue;
        if (key === "hooks") {
          for (const [event, entries] of Object.entries(value as Record<string, unknown[]>)) expect((after.fm.hooks as Record<string, unknown[]>)[event], `${f.path}: own ${event} hook`).toEqual(expect.arrayContaining(entries));
          continue;
        }
        expect(after.fm[key], `${f.path}: ${key}`).toEqual(value);
      }
    }
  });

  it("OpenCode: the emitted agent keeps description, body, model, temperature, steps, mode, its own fields and its rules", () => {
    for (const f of report.files.filter((x) => x.host === "opencode")) {
      const before = split(fs.readFileSync(path.join(dir, f.path), "utf8"));
      const after = split(fs.readFileSync(path.join(dir, "out/opencode/.opencode/agents", `${f.role}.md`), "utf8"));
      expect(after.fm.description, f.path).toBe(before.fm.description);
      expect(after.body.trim().startsWith(before.body.trim()), `${f.path}: body`).toBe(true);
      for (const key of ["model", "temperature", "steps", "mode", "color", "top_p", "hidden"])
        if (before.fm[key] !== undefined && !notRepresentable(f.role, key)) expect(after.fm[key], `${f.path}: ${key}`).toEqual(before.fm[key]);
      const perm = (after.fm.permission ?? {}) as Record<string, unknown>;
      const rules = (before.fm.permission ?? before.fm.permissions ?? {}) as Record<string, unknown>;
      const bash = rules.bash as Record<string, string> | string | undefined;
      if (bash && typeof bash === "object")
        for (const [pattern, action] of Object.entries(bash)) if (pattern !== "*" && action === "allow") expect((perm.bash as Record<string, string>)[pattern], `${f.path}: bash ${pattern}`).toBe("allow");
      if (bash === "deny" || (bash && typeof bash === "object" && bash["*"] === "deny" && Object.keys(bash).length === 1)) expect(perm.bash, `${f.path}: bash`).toBe("deny");
      const edit = rules.edit as Record<string, string> | string | undefined;
      if (edit && typeof edit === "object")
        for (const [glob, action] of Object.entries(edit))
          if (glob !== "*" && action === "allow") {
            // OpenCode's dialect: "*" crosses "/", the last matching rule wins; a sample path the glob names
            const sample = glob.replace(/\*\*\//g, "a/b/").replace(/\*/g, "x");
            const rule = (pattern: string) => new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".")}$`);
            const last = Object.entries(perm.edit as Record<string, string>).filter(([pattern]) => rule(pattern).test(sample)).pop();
            expect(last?.[1], `${f.path}: edit ${glob} (${sample})`).toBe("allow");
          }
      const tools = before.fm.tools as Record<string, boolean> | undefined;
      if (tools?.write === false || tools?.edit === false || edit === "deny") expect(JSON.stringify(perm.edit ?? perm["*"]), `${f.path}: no edits`).not.toContain('"allow"');
      if (rules.task === "deny") expect(perm.task, f.path).toBe("deny");
    }
  });

  it("a second run changes nothing; roles/ is never overwritten without --force; --dry-run writes nothing", async () => {
    const roles = path.join(dir, "roles");
    const before = hash(roles);
    const again = await harness(["import", "-q"], dir);
    expect(again.code, again.stderr).toBe(0);
    expect(hash(roles)).toEqual(before);
    const file = path.join(roles, "tester.md");
    const edited = fs.readFileSync(file, "utf8").replace("Nothing beyond", "Never edit tests; nothing beyond");
    fs.writeFileSync(file, edited);
    const refused = await harness(["import", "-q"], dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/roles already holds files .*; harness import never overwrites them\. Pass --force/);
    expect(fs.readFileSync(file, "utf8")).toBe(edited);
    expect((await harness(["import", "-q", "--force"], dir)).code).toBe(0);
    expect(hash(roles)).toEqual(before);
    const fresh = await harness(["import", "--dry-run", "--roles", "other"], dir);
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(fs.existsSync(path.join(dir, "other"))).toBe(false);
  });

  it("install adopts the originals it replaces (recorded in the lock); uninstall gives them back byte for byte", async () => {
    const install = await harness(["install"], dir);
    expect(install.code, install.stderr).toBe(0);
    expect(install.stderr).not.toContain("W_NOT_OWNED");
    const lock = JSON.parse(fs.readFileSync(path.join(dir, "harness.lock.json"), "utf8")) as { files: Record<string, { adopted?: true; original?: string }> };
    expect(lock.files[".claude/agents/frontend-reviewer.md"]).toMatchObject({ adopted: true });
    expect(lock.files[".opencode/agents/tester.md"]).toMatchObject({ adopted: true });
    expect(fs.readFileSync(path.join(dir, entry(".claude/agents/frontend-reviewer.md").path), "utf8")).toContain("harness-guard.cjs");
    expect((await harness(["check", "--installed"], dir)).code).toBe(0);
    expect((await harness(["install"], dir)).stdout).toMatch(/0 created, 0 updated, 0 removed/);
    const uninstall = await harness(["uninstall"], dir);
    expect(uninstall.code, uninstall.stderr).toBe(0);
    const now = hash(dir);
    for (const [f, sha] of Object.entries(originals)) expect(now[f], f).toBe(sha);
    expect(Object.keys(now).filter((f) => !f.startsWith("roles/") && !f.startsWith("out/") && !(f in originals))).toEqual([]);
  });

  it("a file changed since the import is not adopted (W_NOT_OWNED), and nothing of it is lost", async () => {
    const d = tempDir("harness-import-");
    fs.cpSync(path.join(CORPUS, ".claude"), path.join(d, ".claude"), { recursive: true });
    expect((await harness(["import", "-q"], d)).code).toBe(0);
    const f = path.join(d, ".claude/agents/cto-lead.md");
    fs.appendFileSync(f, "\nOne more rule.\n");
    const text = fs.readFileSync(f, "utf8");
    const r = await harness(["install"], d);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/\.claude\/agents\/cto-lead\.md:1:1: error W_NOT_OWNED/);
    expect(fs.readFileSync(f, "utf8")).toBe(text);
    fs.rmSync(d, { recursive: true, force: true });
  });
});
