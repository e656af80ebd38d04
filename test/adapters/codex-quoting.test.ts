// Hostile text cannot break out of anything the Codex adapter writes: TOML (agent roles, config),
// Starlark (.rules), POSIX shell (launchers, with a real /bin/sh), YAML front matter (skills).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { parse as parseToml } from "smol-toml";
import { describe, expect, it } from "vitest";
import { CodexAdapter } from "../../adapters/codex/index.js";
import { commentText, configArg, renderLauncher, shellQuote, tomlValue } from "../../adapters/codex/launcher.js";
import { roleProfile } from "../../adapters/codex/permissions.js";
import { planRules, renderRules, starlarkString } from "../../adapters/codex/rules.js";
import { compileHost } from "../../src/compile.js";
import { readPipeline } from "../../src/ir/normalize.js";
import type { PipelineIR } from "../../src/ir/types.js";
import { splitFrontMatter } from "../helpers/markdown.js";
import { HOST_IDS } from "../../adapters/index.js";

const MINI = path.resolve(import.meta.dirname, "../fixtures/mini");
const base = readPipeline(MINI, { knownHosts: HOST_IDS }).pipeline;

/** Strings built from the pieces most likely to end a literal early, plus any Unicode. */
const NASTY = ['"""', "'''", '"', "'", "\\", "\\n", "\n", "\r\n", "\r", "\t", "\u0000", "\u0001", "\u001b[0m", "\u007f", "\u0085", "\u2028", "\u2029", "\ufeff", "#", "[x]", "{a}", "$(id)", "`id`", "${HOME}", "*", "😀", "é", "e\u0301", "-c", "--", ") ", "prefix_rule(", "--- \n"];
const nasty = fc.array(fc.oneof(fc.constantFrom(...NASTY), fc.string({ unit: "binary", maxLength: 12 })), { maxLength: 12 }).map((a) => a.join(""));
const nonEmpty = nasty.filter((s) => s.trim().length > 0);

function withText(p: PipelineIR, t: { title: string; desc: string; body: string; forbidden: string; model: string }): PipelineIR {
  return {
    ...p,
    title: t.title,
    roles: p.roles.map((r) => ({ ...r, description: t.desc, body: t.body, forbidden: t.forbidden })),
    hosts: { ...p.hosts, codex: { models: { deep: t.model, balanced: t.model, fast: t.model } } },
  };
}

describe("TOML output round-trips hostile text exactly", () => {
  it("agent roles: name, description, instructions and model", () => {
    fc.assert(
      fc.property(nonEmpty, nonEmpty, nonEmpty, nonEmpty, nonEmpty, (title, desc, body, forbidden, model) => {
        const p = withText(base, { title, desc, body: body.trim(), forbidden, model });
        const out = compileHost(p, CodexAdapter);
        for (const role of p.roles) {
          const f = out.files.find((x) => x.path === `.codex/agents/${role.id}.toml`)!;
          const data = parseToml(f.content) as Record<string, unknown>;
          expect(data.name).toBe(role.id);
          expect(data.description).toBe(desc);
          expect(data.model).toBe(model);
          expect((data.developer_instructions as string).startsWith(role.body.trimEnd())).toBe(true);
          expect(data.developer_instructions as string).toContain(forbidden);
        }
        parseToml(out.files.find((x) => x.path === ".codex/config.toml")!.content);
        for (const f of out.files.filter((x) => x.path.endsWith("/SKILL.md"))) {
          const { data } = splitFrontMatter(f.content) as { data: Record<string, string> };
          if (f.path !== `.codex/skills/${p.name}/SKILL.md`) expect(data.description).toBe(desc.replace(/\s+/g, " ").trim());
        }
      }),
      { numRuns: 150 },
    );
  });

  it("tomlValue is the TOML of exactly that value", () => {
    fc.assert(
      fc.property(nasty, (s) => {
        expect((parseToml(`v = ${tomlValue(s)}`) as { v: string }).v).toBe(s);
      }),
      { numRuns: 500 },
    );
  });
});

describe("Starlark rules cannot be broken out of", () => {
  it("starlarkString is a JSON string literal of the text", () => {
    fc.assert(
      fc.property(nasty, (s) => {
        const lit = starlarkString(s);
        expect(JSON.parse(lit)).toBe(s);
        expect(lit).not.toMatch(/[\u0000-\u001f\u007f\u0085\u2028\u2029]/);
      }),
      { numRuns: 500 },
    );
    expect(starlarkString("a\ud800b")).toBe('"a\ufffdb"'); // lone surrogate: as UTF-8 would write it
  });

  it("every rule keeps its shape and its strings, whatever the patterns and title", () => {
    fc.assert(
      fc.property(fc.array(nonEmpty, { minLength: 1, maxLength: 6 }), fc.array(nonEmpty, { maxLength: 2 }), nasty, (deny, orch, title) => {
        const plan = planRules(deny, orch);
        const text = renderRules(title, plan);
        const rules = parseStrict(text);
        expect(rules.map((r) => r.pattern)).toEqual(plan.rules.map((r) => r.pattern));
        expect(rules.map((r) => r.decision)).toEqual(plan.rules.map((r) => r.decision));
        for (const r of rules) expect(r.match).toEqual([r.pattern]);
      }),
      { numRuns: 300 },
    );
  });
});

/** The generated rules file, read strictly: comments, then blocks of exactly these lines. */
function parseStrict(text: string): { pattern: string[]; decision: string; match: string[][] }[] {
  const lines = text.split("\n");
  let i = 0;
  while (lines[i]?.startsWith("#")) i++;
  const out: { pattern: string[]; decision: string; match: string[][] }[] = [];
  const field = (name: string) => {
    const m = new RegExp(`^    ${name} = (.*),$`).exec(lines[i++] ?? "");
    if (!m) throw new Error(`expected ${name} at line ${i}`);
    return JSON.parse(m[1]!) as unknown;
  };
  for (; i < lines.length; i++) {
    if (lines[i] === "") continue;
    expect(lines[i]).toBe("prefix_rule(");
    i++;
    const rule = { pattern: field("pattern") as string[], decision: field("decision") as string, justification: field("justification"), match: field("match") as string[][], notMatch: field("not_match") };
    expect(typeof rule.justification).toBe("string");
    expect(Array.isArray(rule.notMatch)).toBe(true);
    expect(lines[i]).toBe(")");
    out.push(rule);
  }
  return out;
}

const sh = (script: string, env: Record<string, string> = {}) => spawnSync("/bin/sh", ["-c", script], { encoding: "buffer", env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env } });
const noNul = nasty.map((s) => s.replace(/\u0000/g, ""));

describe("launcher quoting (real /bin/sh)", () => {
  it("shellQuote gives back exactly the string", () => {
    fc.assert(
      fc.property(noNul, (s) => {
        const r = sh(`printf '%s' ${shellQuote(s)}`);
        expect(r.status).toBe(0);
        expect(r.stdout.toString("utf8")).toBe(s);
      }),
      { numRuns: 120 },
    );
    expect(() => shellQuote("a\u0000b")).toThrow();
  });

  it("commentText cannot end a comment line", () => {
    fc.assert(
      fc.property(nasty, (s) => {
        expect(commentText(s)).not.toMatch(/[\n\r\u2028\u2029\u0085]/);
      }),
      { numRuns: 300 },
    );
  });

  it("a launcher passes codex exactly its overrides, with hostile model, title and instructions", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "harness-codex-launcher-"));
    try {
      fs.mkdirSync(path.join(dir, ".codex/bin"), { recursive: true });
      const fake = path.join(dir, "fake-codex");
      fs.writeFileSync(fake, '#!/bin/sh\nfor a in "$@"; do printf \'%s\\0\' "$a"; done > "$ARGS_OUT"\n', { mode: 0o755 });
      const role = base.roles.find((r) => r.id === "writer")!;
      fc.assert(
        fc.property(noNul.filter((m) => m !== ""), noNul, noNul, noNul, (model, title, instructions, arg) => {
          const profile = roleProfile(role, base.artifacts);
          const script = path.join(dir, ".codex/bin/writer.sh");
          fs.writeFileSync(script, renderLauncher({ pipelineTitle: title, role, profile, model, instructions }), { mode: 0o755 });
          for (const interactive of [false, true]) {
            const argsOut = path.join(dir, "args");
            fs.rmSync(argsOut, { force: true });
            // HARNESS_GUARD_OFF=1 skips the launcher's config check, a fixed `node -e` that reads no
            // rendered text (~60 ms of process per call; codex-launcher.test.ts tests it): what is
            // left is exactly the quoting of the rendered overrides.
            const r = spawnSync(script, [...(interactive ? ["-i"] : []), "--json", arg], { cwd: os.tmpdir(), env: { PATH: process.env.PATH ?? "", CODEX_BIN: fake, ARGS_OUT: argsOut, HARNESS_GUARD_OFF: "1" } });
            expect(r.status, r.stderr.toString()).toBe(0);
            const args = fs.readFileSync(argsOut, "utf8").split("\0").slice(0, -1);
            const c = (k: string, v: string | boolean) => ["-c", `${k}=${tomlValue(v)}`];
            expect(args).toEqual([
              ...(interactive ? [] : ["exec"]),
              ...c("default_permissions", "writer"),
              ...c("model", model),
              ...c("model_reasoning_effort", role.effort!),
              ...c("agents.enabled", false),
              ...c("developer_instructions", instructions),
              "--json",
              arg,
            ]);
            const di = args[args.indexOf("-c", args.findIndex((a) => a.startsWith("agents.enabled=")) ) + 1]!;
            expect((parseToml(`v = ${di.slice("developer_instructions=".length)}`) as { v: string }).v).toBe(instructions);
          }
        }),
        { numRuns: 25 },
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("configArg is one -c and one quoted word", () => {
    expect(configArg("model", "o'3")).toBe(`-c 'model="o'\\''3"'`);
  });
});
