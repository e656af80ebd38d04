// The Gemini CLI adapter, parsed back: agent front matter with yaml, commands and the policy with
// smol-toml, and the policy's meaning checked with Gemini CLI 0.61.0's own rule evaluation
// (reproduced below from the bundle: highest priority wins, `subagent` must equal the caller,
// argsPattern is tested on the NUL-wrapped stable JSON of the arguments; getExcludedTools).
import path from "node:path";
import fc from "fast-check";
import { globMatch } from "../helpers/glob-match.js";
import { parse as parseToml } from "smol-toml";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { HOST_IDS } from "../../adapters/index.js";
import { GeminiCliAdapter, inert } from "../../adapters/gemini-cli/index.js";
import { commandPattern, commandRegex, filePathPattern, globToPathRegex, unions } from "../../adapters/gemini-cli/patterns.js";
import { compileHost } from "../../src/compile.js";
import { readPipeline } from "../../src/ir/normalize.js";
import type { PipelineIR, RoleIR } from "../../src/ir/types.js";

const ROOT = path.resolve(import.meta.dirname, "../..");
const read = (dir: string) => readPipeline(path.join(ROOT, dir), { knownHosts: HOST_IDS }).pipeline;

/** localAgentSchema (0.61.0) is .strict(): these are all the keys it takes. */
const AGENT_KEYS = ["name", "description", "kind", "display_name", "tools", "mcp_servers", "model", "temperature", "max_turns", "timeout_mins"];
const RULE_KEYS = ["toolName", "subagent", "mcpName", "argsPattern", "commandPrefix", "commandRegex", "decision", "priority", "modes", "interactive", "toolAnnotations", "allowRedirection", "denyMessage"];
const BUILTIN_TOOLS = ["glob", "write_todos", "write_file", "google_web_search", "web_fetch", "replace", "run_shell_command", "grep_search", "read_many_files", "read_file", "list_directory", "activate_skill", "ask_user", "complete_task", "invoke_agent"];

/** isSafeRegExp from packages/core/src/policy/utils.ts, 0.61.0 (written out again, not imported). */
const safe = (p: string) => p.length <= 2048 && !/\([^)]*[*+?{].*\)[*+?{]/.test(p);

interface Rule {
  toolName: string | string[];
  subagent?: string;
  argsPattern?: string;
  decision: "allow" | "deny" | "ask_user";
  priority: number;
}

/** stableStringify: keys sorted, top-level pairs wrapped in NUL. */
const stable = (args: Record<string, string>) => `{${Object.keys(args).sort().map((k) => `\0${JSON.stringify(k)}:${JSON.stringify(args[k])}\0`).join(",")}}`;

/** PolicyEngine.check without shell splitting: first rule by priority whose tool, subagent and pattern match. */
function decide(rules: Rule[], tool: string, args: Record<string, string>, subagent?: string): string {
  const s = stable(args);
  for (const r of [...rules].sort((a, b) => b.priority - a.priority)) {
    const names = Array.isArray(r.toolName) ? r.toolName : [r.toolName];
    const toolNames = tool === "invoke_agent" ? [tool, args.agent_name!] : [tool];
    if (!names.some((n) => toolNames.includes(n))) continue;
    if (r.subagent !== undefined && r.subagent !== subagent) continue;
    if (r.argsPattern && !new RegExp(r.argsPattern).test(s)) continue;
    return r.decision;
  }
  return "none";
}

/** getExcludedTools: a tool is gone for every agent when its first pipeline-wide rule without argsPattern denies. */
function excluded(rules: Rule[], tool: string): boolean {
  for (const r of [...rules].sort((a, b) => b.priority - a.priority)) {
    const names = Array.isArray(r.toolName) ? r.toolName : [r.toolName];
    if (!names.includes(tool) || r.subagent !== undefined) continue;
    if (r.argsPattern) {
      if (r.decision !== "deny") return false;
      continue;
    }
    return r.decision === "deny";
  }
  return false;
}

const intended = (role: { write: readonly string[]; neverWrite: readonly string[] }, p: string) =>
  role.write.some((g) => globMatch(p, g)) && !role.neverWrite.some((g) => globMatch(p, g));

function samplePaths(pipeline: PipelineIR): string[] {
  const inst = (g: string) => [g.replace(/\/\*\*$/, "/deep/nested/file.ts").replace(/\*\*\//g, "pkg/").replace(/\*/g, "name"), g.replace(/\/\*\*$/, "/file.md").replace(/\*\*\//g, "").replace(/\*/g, "x")];
  const all = pipeline.roles.flatMap((r) => [...r.write, ...r.neverWrite]).flatMap(inst);
  return [...new Set([...all, "src/index.ts", "src/index.test.ts", "test/unit/a.test.ts", "lib/util.js", ".git/config", "README.md", "docs/guide.md", ".gemini/policies/x.toml", "GEMINI.md", "node_modules/x/index.js"])];
}

/** harness shell semantics: deny, then ask, then allow, then the default (a trailing " *" also matches the bare command). */
function shellIntent(role: RoleIR, cmd: string): string {
  const m = (p: string) => {
    let re = p.replace(/[.+^${}()|[\]\\?]/g, "\\$&").replace(/\*/g, ".*");
    if (re.endsWith(" .*")) re = `${re.slice(0, -3)}( .*)?`;
    return new RegExp(`^${re}$`, "s").test(cmd);
  };
  const s = role.shell!;
  if (s.deny.some(m)) return "deny";
  if (s.ask.some(m)) return "ask_user";
  if (s.allow.some(m)) return "allow";
  return s.default === "ask" ? "ask_user" : s.default;
}

for (const dir of ["roles", "test/fixtures/mini"]) {
  describe(`Gemini CLI tree of ${dir}, parsed back`, () => {
    const pipeline = read(dir);
    const out = compileHost(pipeline, GeminiCliAdapter);
    const file = (p: string) => out.files.find((f) => f.path === p)?.content ?? expect.fail(`missing ${p}`);
    const policy = parseToml(file(`.gemini/policies/${pipeline.name}.toml`)) as { rule: Rule[] };
    const rules = policy.rule;
    const subs = pipeline.roles.filter((r) => r.isolation === "subagent");
    const mains = pipeline.roles.filter((r) => r.isolation === "main");

    it("every subagent role is an agent file within the strict schema, tools all known", () => {
      for (const role of subs) {
        const text = file(`.gemini/agents/${role.id}.md`);
        const end = text.indexOf("\n---\n", 4);
        const fm = parseYaml(text.slice(4, end)) as Record<string, unknown>;
        expect(Object.keys(fm).filter((k) => !AGENT_KEYS.includes(k))).toEqual([]);
        expect(fm.name).toBe(role.id);
        expect(fm.name).toMatch(/^[a-z0-9-_]+$/);
        expect(typeof fm.description === "string" && fm.description.length > 0).toBe(true);
        expect((fm.tools as string[]).filter((t) => !BUILTIN_TOOLS.includes(t))).toEqual([]);
        expect(fm.tools).not.toContain("invoke_agent");
        expect(fm.temperature).toBe(role.temperature.value);
        if (role.maxTurns !== undefined) expect(fm.max_turns).toBe(role.maxTurns);
        expect(text.slice(end + 5)).toContain(role.body.split("\n")[0]!);
      }
      for (const role of mains) expect(out.files.some((f) => f.path === `.gemini/agents/${role.id}.md`)).toBe(false);
    });

    it("commands parse, carry {{args}} once and no shell or file injection", () => {
      const cmds = out.files.filter((f) => f.path.startsWith(".gemini/commands/"));
      expect(cmds.map((f) => f.path).sort()).toEqual([`.gemini/commands/${pipeline.name}.toml`, ...mains.map((r) => `.gemini/commands/${pipeline.name}/${r.id}.toml`)].sort());
      for (const f of cmds) {
        const c = parseToml(f.content) as Record<string, unknown>;
        expect(Object.keys(c).sort()).toEqual(["description", "prompt"]);
        const prompt = c.prompt as string;
        expect(prompt.split("{{args}}").length, f.path).toBe(2);
        expect(prompt).not.toMatch(/!\{|@\{/);
      }
    });

    it("every policy rule is in the engine's vocabulary, within 0..999, and its pattern passes the ReDoS test", () => {
      expect(rules.length).toBeGreaterThan(0);
      for (const r of rules) {
        expect(Object.keys(r).filter((k) => !RULE_KEYS.includes(k))).toEqual([]);
        expect(Number.isInteger(r.priority) && r.priority >= 0 && r.priority <= 999).toBe(true);
        expect(["allow", "deny", "ask_user"]).toContain(r.decision);
        if (r.argsPattern) {
          expect(() => new RegExp(r.argsPattern!)).not.toThrow();
          expect(safe(r.argsPattern), r.argsPattern).toBe(true);
        }
        if (r.subagent !== undefined) expect(subs.map((s) => s.id)).toContain(r.subagent);
      }
    });

    it("each subagent's writes are decided exactly as its scope says (relative paths), absolute paths and .. refused", () => {
      for (const role of subs) {
        for (const p of samplePaths(pipeline)) {
          for (const tool of ["write_file", "replace"]) {
            const d = decide(rules, tool, { content: "x", file_path: p }, role.id);
            expect(d, `${role.id} ${tool} ${p}`).toBe(intended(role, p) ? "allow" : "deny");
            expect(decide(rules, tool, { content: "x", file_path: `./${p}` }, role.id), `${role.id} ./${p}`).toBe(d);
          }
          expect(decide(rules, "write_file", { content: "x", file_path: `/abs/project/${p}` }, role.id)).toBe("deny");
          expect(decide(rules, "write_file", { content: "x", file_path: `src/../${p}` }, role.id)).toBe("deny");
        }
      }
    });

    it("a subagent's shell commands follow its deny, ask, allow and default", () => {
      for (const role of subs) {
        if (!role.shell) {
          expect(decide(rules, "run_shell_command", { command: "ls" }, role.id)).toBe("deny");
          continue;
        }
        const samples = [...role.shell.allow, ...role.shell.ask, ...role.shell.deny, ...pipeline.policies.shellDeny].flatMap((p) => [p.replace(/\*/g, "x"), p.replace(/ \*$/, ""), p.replace(/\*/g, "")]);
        for (const c of new Set([...samples, "ls -la", "rm -rf /", "git push origin main", 'git commit -m "x"'])) {
          if (!c.trim()) continue;
          expect(decide(rules, "run_shell_command", { command: c, description: "d" }, role.id), `${role.id}: ${c}`).toBe(shellIntent(role, c));
        }
      }
    });

    it("the main session writes only its roles' union, asks elsewhere, and never reaches never_write", () => {
      const union = { write: mains.flatMap((r) => r.write), neverWrite: pipeline.policies.neverWrite };
      for (const p of samplePaths(pipeline)) expect(decide(rules, "write_file", { content: "x", file_path: p }), p).toBe(intended(union, p) ? "allow" : pipeline.policies.neverWrite.some((g) => globMatch(p, g)) ? "deny" : "ask_user");
      for (const c of pipeline.policies.shellDeny) if (!pipeline.policies.orchestratorShell.some((o) => c.startsWith(o.replace(/ \*$/, "")))) expect(decide(rules, "run_shell_command", { command: c.replace(/\*/g, "x") }), c).toBe("deny");
    });

    it("the main session may invoke only the subagent roles; no tool a subagent needs is excluded for everyone", () => {
      for (const r of subs) expect(decide(rules, "invoke_agent", { agent_name: r.id, prompt: "p" })).toBe("allow");
      expect(decide(rules, "invoke_agent", { agent_name: "codebase_investigator", prompt: "p" })).toBe("deny");
      for (const t of new Set(subs.flatMap((r) => r.tools.map((x) => GeminiCliAdapter.tools[x]!)))) expect(excluded(rules, t), t).toBe(false);
    });
  });
}

describe("Gemini CLI patterns", () => {
  it("glob regexes agree with picomatch on generated paths (property)", () => {
    const seg = fc.stringMatching(/^[a-z._-]{1,6}$/);
    const globSeg = fc.oneof(seg, fc.constant("*"), fc.constant("**"), seg.map((s) => `*${s}`), seg.map((s) => `${s}*`));
    fc.assert(
      fc.property(fc.array(globSeg, { minLength: 1, maxLength: 4 }), fc.array(seg, { minLength: 1, maxLength: 5 }), (g, p) => {
        const glob = g.join("/");
        const file = p.join("/");
        // "." and ".." segments are normalised by picomatch and refused by the policy before these rules
        if ([...p, ...g].some((x) => x === "." || x === "..")) return;
        const re = globToPathRegex(glob);
        if (re === null) return;
        expect(safe(`\\x00"file_path":"(?:\\./|)${re}"\\x00`)).toBe(true);
        expect(new RegExp(`^${re}$`).test(file), `${glob} vs ${file}`).toBe(globMatch(file, glob));
      }),
      { numRuns: 3000 },
    );
  });

  it("command patterns: denies never match less than the glob, allows never more", () => {
    const cases: [string, string, boolean][] = [
      ["git push *", "git push origin main", true],
      ["git push *", "git push", true],
      ["git push *", "git pushx", false],
      ["npm test*", "npm test -- --run", true],
      ["npm test*", 'npm test -t \\"a b\\"', true],
      ["* -u", "vitest run -u", true],
    ];
    for (const [p, cmd, want] of cases)
      for (const mode of ["allow", "deny"] as const) expect(new RegExp(commandPattern(p, mode)).test(`{\0"command":"${cmd}"\0}`), `${mode} ${p} / ${cmd}`).toBe(want);
  });

  it("a union of path patterns matches exactly what one of its items matches, within the loader's limits (property)", () => {
    const seg = fc.stringMatching(/^[a-c.]{1,3}$/);
    const globSeg = fc.oneof(seg, fc.constant("*"), fc.constant("**"), seg.map((s) => `*${s}`));
    const glob = fc.array(globSeg, { minLength: 1, maxLength: 3 }).map((g) => g.join("/"));
    fc.assert(
      fc.property(fc.array(glob, { minLength: 1, maxLength: 12 }), fc.array(fc.array(seg, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 8 }), (globs, files) => {
        const res = globs.map(globToPathRegex).filter((r): r is string => r !== null);
        if (!res.length) return;
        const us = unions("file_path", res, (r) => r);
        expect(us.flatMap((u) => u.items)).toEqual(res);
        for (const u of us) expect(safe(u.pattern), u.pattern).toBe(true);
        for (const f of files.map((p) => p.join("/"))) {
          const args = stable({ content: "x", file_path: f });
          expect(us.some((u) => new RegExp(u.pattern).test(args)), f).toBe(res.some((r) => new RegExp(filePathPattern(r)).test(args)));
        }
      }),
      { numRuns: 1500 },
    );
  });

  it("unions split at the 2048-character limit, keep every item once and in order, and a lone item reads as before", () => {
    const cmds = Array.from({ length: 300 }, (_, i) => `tool-${i} --flag-${"x".repeat(i % 17)} *`);
    const us = unions("command", cmds, (c) => commandRegex(c, "deny"));
    expect(us.length).toBeGreaterThan(3);
    expect(us.flatMap((u) => u.items)).toEqual(cmds);
    for (const u of us) expect(safe(u.pattern) && u.pattern.length <= 2048, u.pattern).toBe(true);
    for (const c of ["tool-7 --flag-xxxxxxx", "tool-299 --flag-xxxxxxxxxxxxxx now", "tool-300 --flag-"])
      expect(us.some((u) => new RegExp(u.pattern).test(stable({ command: c }))), c).toBe(cmds.some((p) => new RegExp(commandPattern(p, "deny")).test(stable({ command: c }))));
    expect(unions("command", ["git push *"], (c) => commandRegex(c, "deny"))).toEqual([{ pattern: commandPattern("git push *", "deny"), items: ["git push *"] }]);
  });

  it("inert() breaks shell and file injection openers in command prompts", () => {
    expect(inert("run !{rm -rf /} and @{secret} and {{args}}")).toBe("run ! {rm -rf /} and @ {secret} and { {args}}");
  });
});

// anchors-3 §4: Gemini CLI reads a hook's `timeout` in milliseconds (Claude Code: seconds). Whatever
// hook the Gemini tree carries, read back the way Gemini does, must give the guard at least a second.
describe("Gemini CLI hook timeouts are milliseconds", () => {
  it("every hooks.<event>[].hooks[].timeout in the emitted tree, read as milliseconds, is at least 1000", async () => {
    const { GeminiCliAdapter } = await import("../../adapters/gemini-cli/index.js");
    const { readRoles } = await import("../helpers/compile.js");
    const { MINI_ROLES, PEBBLE_ROLES } = await import("../helpers/cli.js");
    for (const dir of [PEBBLE_ROLES, MINI_ROLES]) {
      const files = GeminiCliAdapter.lower(readRoles(dir)).files;
      const timeouts: [string, unknown][] = [];
      const walk = (file: string, v: unknown, inHooks: boolean): void => {
        if (Array.isArray(v)) v.forEach((x) => walk(file, x, inHooks));
        else if (v && typeof v === "object")
          for (const [k, x] of Object.entries(v)) {
            if (inHooks && k === "timeout") timeouts.push([file, x]);
            walk(file, x, inHooks || k === "hooks");
          }
      };
      for (const f of files) {
        if (f.kind === "json") walk(f.path, f.data, false);
        if (f.kind === "markdown") walk(f.path, f.frontmatter ?? {}, false);
      }
      // Gemini: `timeout` is a number of milliseconds (a seconds value such as 10 would kill the hook at 10 ms)
      for (const [file, ms] of timeouts) expect(typeof ms === "number" && ms >= 1000, `${file}: hook timeout ${String(ms)} ms`).toBe(true);
      // 0.61's tree runs no hook (policies only), so today the list is empty; a hook added later must pass the line above
    }
  });
});
