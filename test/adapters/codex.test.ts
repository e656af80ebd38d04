// Parse back everything the Codex adapter emits and compare it with the IR.
import fs from "node:fs";
import path from "node:path";
import { parse as parseToml } from "smol-toml";
import { globMatch } from "../helpers/glob-match.js";
import { describe, expect, it } from "vitest";
import { CodexAdapter } from "../../adapters/codex/index.js";
import { roleProfile } from "../../adapters/codex/permissions.js";
import { LOSS_CODES } from "../../src/adapter/fidelity.js";
import { compileHost } from "../../src/compile.js";
import { readPipeline } from "../../src/ir/normalize.js";
import type { PipelineIR } from "../../src/ir/types.js";
import { CANONICAL_TOOLS } from "../../src/schema/vocabulary.js";
import { splitFrontMatter } from "../helpers/markdown.js";
import { HOST_IDS } from "../../adapters/index.js";

const ROOT = path.resolve(import.meta.dirname, "../..");
const PEBBLE = path.join(ROOT, "roles");
const MINI = path.join(ROOT, "test/fixtures/mini");
const readCodex = (dir: string): PipelineIR => readPipeline(dir, { knownHosts: HOST_IDS }).pipeline;

// Keys of a Codex 0.171 agent role file we write (all valid: name/description/developer_instructions
// plus config.toml keys; the real program rejects unknown ones).
const AGENT_KEYS = new Set(["name", "description", "developer_instructions", "model", "model_reasoning_effort", "default_permissions"]);

type Table = Record<string, unknown>;

describe.each([
  ["pebble", PEBBLE],
  ["mini", MINI],
])("Codex output of %s parses back to the IR", (_name, dir) => {
  const pipeline = readCodex(dir);
  const out = compileHost(pipeline, CodexAdapter);
  const file = (p: string) => {
    const f = out.files.find((x) => x.path === p);
    if (!f) throw new Error(`missing ${p}`);
    return f;
  };
  const config = parseToml(file(".codex/config.toml").content) as Table;
  const profiles = config.permissions as Record<string, { filesystem: Table; network: Table }>;

  it("has one agent role file per role that round-trips name, description, instructions and model", () => {
    for (const role of pipeline.roles) {
      const data = parseToml(file(`.codex/agents/${role.id}.toml`).content) as Table;
      for (const key of Object.keys(data)) expect(AGENT_KEYS.has(key), `${role.id}: ${key}`).toBe(true);
      expect(data.name).toBe(role.id);
      expect(data.description).toBe(role.description);
      const instructions = data.developer_instructions as string;
      expect(instructions.startsWith(role.body.trimEnd())).toBe(true);
      expect(instructions).toContain(role.forbidden);
      expect(instructions).toContain(role.done);
      expect(data.model).toBe(pipeline.hosts.codex?.models[role.model]);
      expect(data.model_reasoning_effort).toBe(role.effort);
      expect(data.default_permissions).toBe(role.id);
      expect(profiles[role.id], `profile for ${role.id}`).toBeDefined();
    }
  });

  it("has a config.toml whose profiles match each role's write and never_write intent", () => {
    expect(config.default_permissions).toBe(":workspace");
    expect(config).not.toHaveProperty("sandbox_mode"); // it would switch every profile off
    expect((config.agents as Table | undefined)?.max_depth).toBe(pipeline.policies.nestedAgents ? undefined : 1);
    expect(Object.keys(profiles).sort()).toEqual(pipeline.roles.map((r) => r.id).sort());
    for (const role of pipeline.roles) {
      const fs_ = profiles[role.id]!.filesystem;
      expect(fs_[":root"]).toBe("read");
      const roots = fs_[":workspace_roots"] as Record<string, string>;
      expect(roots["."]).toBe("read");
      const profile = roleProfile(role, pipeline.artifacts);
      // every write entry is a folder whose `folder/**` the role may write, or the folder of a single file it writes (reported)
      for (const [key, access] of Object.entries(roots).filter(([, a]) => a === "write")) {
        const viaFile = profile.fileFolders.some((f) => f.folder === key && role.write.includes(f.file));
        expect(viaFile || role.write.includes(key === "." ? "**" : `${key}/**`), `${role.id} writes ${key}`).toBe(true);
        expect(access).toBe("write");
        // no other artifact path in a folder granted for a file is writable
        if (viaFile)
          for (const other of pipeline.artifacts.flatMap((a) => a.paths).filter((g) => !role.write.includes(g) && g.startsWith(`${key}/`) && !/[*?[{]/.test(g)))
            expect(roots[other], `${role.id}: ${other} in ${key}/ is writable`).toBe("read");
      }
      // every write glob is either granted or reported as left out
      for (const g of role.write) {
        const granted = Object.entries(roots).some(([k, a]) => a === "write" && (g === `${k}/**` || (k === "." && g === "**"))) || profile.fileFolders.some((f) => f.file === g);
        const reported = profile.narrowedWrites.some((n) => n.glob === g) || profile.coveredWrites.includes(g);
        expect(granted || reported, `${role.id}: ${g}`).toBe(true);
      }
      // no less for never_write: a path under a write folder that never_write matches is read-only or denied
      const writes = Object.entries(roots).filter(([, a]) => a === "write").map(([k]) => k);
      const readOnly = Object.entries(roots).filter(([k, a]) => a === "read" && k !== ".").map(([k]) => k);
      const denies = Object.entries(roots).filter(([, a]) => a === "deny").map(([k]) => k);
      const unenforced = new Set(profile.unenforcedNever.map((u) => u.glob));
      for (const n of role.neverWrite) {
        if (unenforced.has(n)) continue;
        for (const w of writes)
          for (const p of instances(n).map((i) => (w === "." ? i : `${w}/${i}`))) {
            if (!globMatch(p, n)) continue;
            const protectedPath = readOnly.some((r) => p === r || p.startsWith(`${r}/`)) || denies.some((d) => globMatch(p, d));
            expect(protectedPath, `${role.id}: ${p} (never_write ${n}) is writable`).toBe(true);
          }
      }
      expect(profiles[role.id]!.network.enabled).toBe(role.tools.includes("web-fetch"));
      if (denies.some((d) => d.includes("**"))) expect(fs_.glob_scan_max_depth).toBeGreaterThan(0);
    }
  });

  it("has the orchestrator skill and a skill per main-session role", () => {
    const { data, body } = splitFrontMatter(file(`.codex/skills/${pipeline.name}/SKILL.md`).content) as { data: Table; body: string };
    expect(data.name).toBe(pipeline.name);
    expect(String(data.description)).not.toContain("\n");
    for (const stage of pipeline.stages) expect(body).toContain(`. ${stage.id}: `);
    for (const gate of pipeline.stages.filter((s) => s.gate)) expect(body).toContain(gate.gate!.ask);
    for (const role of pipeline.roles.filter((r) => r.isolation === "subagent")) expect(body).toContain(`agent_type "${role.id}", fork_turns "none"`);
    for (const role of pipeline.roles.filter((r) => r.isolation === "main")) {
      expect(body).toContain(`.codex/skills/${role.id}/SKILL.md`);
      const skill = splitFrontMatter(file(`.codex/skills/${role.id}/SKILL.md`).content) as { data: Table; body: string };
      expect(skill.data).toEqual({ name: role.id, description: role.description.replace(/\s+/g, " ").trim() });
      expect(skill.body).toContain(role.body.trimEnd());
    }
    expect(out.files.some((f) => f.path.startsWith(".agents/") || f.path.includes("/prompts/"))).toBe(false);
  });

  it("has a rules file whose prefix rules forbid every policies.shell_deny pattern", () => {
    const rules = parseRules(file(`.codex/rules/${pipeline.name}.rules`).content);
    const narrowed = out.fidelity.filter((r) => r.role === null && r.constraint === "git-deny" && r.loss === "L_GLOB_NARROWED").map((r) => r.how).join(" ");
    for (const d of pipeline.policies.shellDeny) {
      const cmd = exampleCommand(d);
      const hit = rules.filter((r) => r.pattern.every((t, i) => cmd[i] === t));
      if (hit.length === 0) expect(narrowed, `${d} is neither forbidden nor reported`).toContain(`\`${d}\``);
      else if (!hit.some((r) => r.decision === "forbidden")) expect(narrowed, `${d} is allowed without being reported`).toContain(`\`${d}\``);
      for (const r of rules) expect(r.match.every((m) => r.pattern.every((t, i) => m[i] === t))).toBe(true);
    }
    for (const o of pipeline.policies.orchestratorShell) {
      const cmd = exampleCommand(o);
      const hit = rules.filter((r) => r.pattern.every((t, i) => cmd[i] === t));
      expect(hit.length > 0 && hit.every((r) => r.decision === "allow"), `${o}: the orchestrator's exception is not allowed outright`).toBe(true);
    }
  });

  it("has an executable launcher per role and AGENTS.md with the Codex entry line", () => {
    for (const role of pipeline.roles) {
      const f = file(`.codex/bin/${role.id}.sh`);
      expect(f.executable).toBe(true);
      expect(f.content.startsWith("#!/bin/sh\n")).toBe(true);
      expect(f.content).toContain(`-c 'default_permissions="${role.id}"'`);
    }
    const agents = file("AGENTS.md").content;
    expect(agents).toContain(`\`$${pipeline.name}\``);
    for (const s of pipeline.stages) expect(agents).toContain(`| ${s.id} | ${s.role} `);
  });

  it("accounts for every constraint of every role, with a loss code below native", () => {
    for (const role of pipeline.roles) {
      const got = new Set(out.fidelity.filter((r) => r.role === role.id).map((r) => r.constraint));
      for (const c of ["tools", "write-scope", "never-write", "shell", "git-deny", "spawn", "isolation", "model", "temperature"] as const) expect(got.has(c), `${role.id} ${c}`).toBe(true);
    }
    for (const r of out.fidelity) {
      if (r.loss) expect(LOSS_CODES[r.loss]).toBeDefined();
      // enforced levels need no loss code: the guard and the stage-end audit cover spawned agents
      if (r.level !== "native" && r.level !== "guard" && r.level !== "audit" && r.constraint !== "tools") expect(r.loss, `${r.role} ${r.constraint}`).toBeDefined();
    }
    for (const role of pipeline.roles) {
      const missing = role.tools.filter((t) => CodexAdapter.tools[t] === null);
      const tools = out.fidelity.find((r) => r.role === role.id && r.constraint === "tools")!;
      if (missing.length) expect(tools.loss).toBe("L_TOOL_MISSING");
    }
  });
});

describe("Codex adapter metadata", () => {
  it("maps every canonical tool and pins the version", () => {
    expect(Object.keys(CodexAdapter.tools).sort()).toEqual([...CANONICAL_TOOLS].sort());
    expect(CodexAdapter.checkedAgainst).toEqual({ program: "Codex", version: "0.171.0", bin: "codex" });
    expect(CodexAdapter.id).toBe("codex");
  });

  it("produces exactly the error-level losses documented for Pebble", () => {
    const pipeline = readCodex(PEBBLE);
    const errors = compileHost(pipeline, CodexAdapter)
      .fidelity.filter((r) => r.loss && LOSS_CODES[r.loss].severity === "error")
      .map((r) => `${r.role} ${r.constraint} ${r.loss}`)
      .sort();
    // spawned roles are guarded per call and audited at stage end; main-session roles' scopes and shell rules stay instructed
    const main = pipeline.roles.filter((r) => r.isolation === "main").map((r) => r.id);
    const expected = [
      ...main.flatMap((r) => [`${r} write-scope L_SCOPE_INSTRUCTED`, `${r} never-write L_SCOPE_INSTRUCTED`, `${r} shell L_SHELL_INSTRUCTED`]),
      "flint spawn L_SPAWN_INSTRUCTED",
      "onyx spawn L_SPAWN_INSTRUCTED",
      "null write-scope L_SCOPE_INSTRUCTED", // the orchestrator's own session writes under :workspace
    ].sort();
    expect(errors).toEqual(expected);
  });

  it("writes nothing outside its tree and nothing under /tmp-like absolute paths", () => {
    for (const dir of [PEBBLE, MINI]) for (const f of compileHost(readCodex(dir), CodexAdapter).files) expect(f.path.startsWith("/") || f.path.includes("..")).toBe(false);
    expect(fs.existsSync(path.join(ROOT, "adapters/codex/index.ts"))).toBe(true);
  });
});

/** Concrete paths a glob matches (a few per `**`/`*`), relative; used to probe the profiles. */
function instances(glob: string): string[] {
  let acc = [""];
  for (const seg of glob.split("/")) {
    const opts = seg === "**" ? ["", "d1", "d1/d2"] : [seg.replace(/\*/g, "x").replace(/\?/g, "q"), seg.replace(/\*/g, "")].filter(Boolean);
    acc = acc.flatMap((a) => opts.map((o) => (o === "" ? a : a ? `${a}/${o}` : o)));
  }
  return [...new Set(acc.filter(Boolean))];
}

/** argv tokens of one command the pattern matches (`*` as its own word → "x", `stem*` → stem). */
function exampleCommand(pattern: string): string[] {
  return pattern.split(" ").map((w) => (w === "*" ? "x" : w.replace(/\*/g, "")));
}

interface ParsedRule {
  pattern: string[];
  decision: string;
  justification: string;
  match: string[][];
  notMatch: string[][];
}

/** Strict reader of the generated rules file: any line out of place fails (nothing can break out). */
function parseRules(text: string): ParsedRule[] {
  const lines = text.split("\n");
  const rules: ParsedRule[] = [];
  let i = 0;
  while (i < lines.length && (lines[i]!.startsWith("#") || lines[i] === "")) i++;
  const field = (name: string) => {
    const m = new RegExp(`^    ${name} = (.*),$`).exec(lines[i++] ?? "");
    if (!m) throw new Error(`line ${i}: expected ${name}: ${lines[i - 1]}`);
    return JSON.parse(m[1]!) as unknown;
  };
  while (i < lines.length) {
    if (lines[i] === "") {
      i++;
      continue;
    }
    if (lines[i++] !== "prefix_rule(") throw new Error(`line ${i}: expected prefix_rule(`);
    const rule = { pattern: field("pattern"), decision: field("decision"), justification: field("justification"), match: field("match"), notMatch: field("not_match") } as ParsedRule;
    if (lines[i++] !== ")") throw new Error(`line ${i}: expected )`);
    rules.push(rule);
  }
  return rules;
}
