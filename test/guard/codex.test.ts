// The Codex shim of the guard (adapters/codex/guard-runtime.ts) on the bundled roles (Pebble):
// Codex 0.171.0's PreToolUse input as measured on the real CLI (a spawned agent's calls carry
// agent_id and agent_type; the session's own carry neither), exec_command's apply_patch form, and
// fail-closed handling of malformed input; in-process for the table, through `node` for the exit
// codes and the hook command. The real CLI honouring the answers: test/hosts/enforce-out.test.ts.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CODEX_GUARD_CALL } from "../../adapters/codex/guard-runtime.js";
import { GUARD_PATH, compileCodexPolicy, guardHookCommand, renderGuard } from "../../adapters/codex/guard.js";
import { GUARD_RUNTIME } from "../../src/adapter/guard/render.js";
import { PEBBLE_ROLES } from "../helpers/cli.js";
import { readRoles } from "../helpers/compile.js";
import type { Decision } from "./helpers.js";

const pipeline = readRoles(PEBBLE_ROLES);
const policy = compileCodexPolicy(pipeline);
const rt = new Function("fs", "path", "POLICY", `${GUARD_RUNTIME}\n${CODEX_GUARD_CALL}\nreturn { cxCall, cxDecide: guardDecidePaths, cxHeredocPatch };`)(fs, path, policy) as {
  cxCall: (raw: string, sp: string | null) => unknown;
  cxDecide: (policy: unknown, parsed: unknown) => Decision;
  cxHeredocPatch: (cmd: string) => string | null;
};

let root: string;
let P: string;
beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "harness-cxguard-")));
  P = path.join(root, "proj");
  for (const f of ["src/a.ts", "tests/a.test.ts", ".pebble/spec.md", "package.json"]) {
    fs.mkdirSync(path.dirname(path.join(P, f)), { recursive: true });
    fs.writeFileSync(path.join(P, f), "x\n");
  }
  fs.mkdirSync(path.join(P, path.dirname(GUARD_PATH)), { recursive: true });
  fs.writeFileSync(path.join(P, GUARD_PATH), renderGuard(pipeline));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** A PreToolUse input as Codex 0.171.0 sends it; a spawned agent's carries agent_id and agent_type. */
function input(tool: string, ti: unknown, role?: string, cwd?: string): Record<string, unknown> {
  return {
    session_id: "s-1",
    turn_id: "t-1",
    ...(role ? { agent_id: "01a22e0b-818b-7f82-8c11-0a6a4b8de184", agent_type: role } : {}),
    transcript_path: "/home/u/.codex/sessions/x.jsonl",
    cwd: cwd ?? P,
    hook_event_name: "PreToolUse",
    model: "gpt-5.4",
    permission_mode: "bypassPermissions",
    tool_name: tool,
    tool_input: ti,
    tool_use_id: "call_4",
  };
}
const heredoc = (body: string, d = "PATCH") => `apply_patch <<'${d}'\n${body}\n${d}`;
const add = (...files: string[]) => ["*** Begin Patch", ...files.flatMap((f) => [`*** Add File: ${f}`, "+x"]), "*** End Patch"].join("\n");
function decide(raw: string | Record<string, unknown>): Decision {
  const parsed = rt.cxCall(typeof raw === "string" ? raw : JSON.stringify(raw), P) as { none?: true } | string;
  if (typeof parsed === "string") return { kind: "deny", reason: `harness guard: ${parsed}; refusing (fail closed).` };
  if (parsed.none) return { kind: "none" };
  const d = rt.cxDecide(policy, parsed);
  return d.kind === "ask" ? { kind: "deny", reason: d.reason } : d;
}

describe("Codex guard: decisions on the measured input", () => {
  const cases: [string, () => Record<string, unknown> | string, Decision["kind"]][] = [
    ["jade patches src/ (exec_command's apply_patch form)", () => input("Bash", { command: heredoc(add("src/x.ts")) }, "jade"), "allow"],
    ["jade patches src/ by absolute path", () => input("Bash", { command: heredoc(add(`${P}/src/x.ts`)) }, "jade"), "allow"],
    ["jade patches tests/", () => input("Bash", { command: heredoc(add("tests/b.test.ts")) }, "jade"), "deny"],
    ["jade's patch with one file in tests/ is refused whole", () => input("Bash", { command: heredoc(add("src/x.ts", "tests/b.ts")) }, "jade"), "deny"],
    ["jade patches a relative path from tests/ (cwd = the command's workdir)", () => input("Bash", { command: heredoc(add("b.ts")) }, "jade", `${P}/tests`), "deny"],
    ["jade patches the guard", () => input("Bash", { command: heredoc(add(GUARD_PATH)) }, "jade"), "deny"],
    ["jade patches .codex/hooks.json", () => input("Bash", { command: heredoc(add(".codex/hooks.json")) }, "jade"), "deny"],
    // second red team: Codex reads AGENTS.override.md instead of AGENTS.md in each folder from the root down
    ["jade patches src/AGENTS.override.md", () => input("Bash", { command: heredoc(add("src/AGENTS.override.md")) }, "jade"), "deny"],
    ["a heredoc whose delimiter ends the body early runs more commands", () => input("Bash", { command: `apply_patch <<'PATCH'\n${add("src/x.ts")}\nPATCH\ngit push\nPATCH` }, "jade"), "deny"],
    ["an unquoted heredoc (expanded by the shell)", () => input("Bash", { command: `apply_patch <<PATCH\n${add("src/x.ts")}\nPATCH` }, "jade"), "deny"],
    ["the top-level apply_patch tool, patch text in command", () => input("apply_patch", { command: add("src/x.ts") }, "jade"), "allow"],
    ["the top-level apply_patch tool into tests/", () => input("apply_patch", { command: add("tests/x.ts") }, "jade"), "deny"],
    ["the top-level apply_patch tool, no patch text", () => input("apply_patch", { input: add("src/x.ts") }, "jade"), "deny"],
    ["jade runs npm test", () => input("Bash", { command: "npm test" }, "jade"), "allow"],
    ["jade redirects into tests/", () => input("Bash", { command: "echo x > tests/a.txt" }, "jade"), "deny"],
    ["jade runs git commit", () => input("Bash", { command: "git commit -m x" }, "jade"), "deny"],
    ["jade runs git push", () => input("Bash", { command: "git push origin HEAD:main" }, "jade"), "deny"],
    ["jade starts an agent", () => input("spawn_agent", { agent_type: "mica", message: "x", fork_turns: "none" }, "jade"), "deny"],
    ["jade waits for an agent", () => input("multi_agent_v1wait_agent", { targets: ["x"], timeout_ms: 1 }, "jade"), "none"],
    ["jade sends input to a running command (0.171 fires no hook for it; refused if a later one does)", () => input("write_stdin", { session_id: 1, chars: "git push\n" }, "jade"), "deny"],
    ["jade uses an MCP tool", () => input("mcp__github__create_issue", {}, "jade"), "deny"],
    ["jade views an image", () => input("view_image", { path: "src/a.png" }, "jade"), "none"],
    ["slate (spawned; no shell tool) reads a file: Codex has no read tool", () => input("Bash", { command: "cat .pebble/spec.md" }, "slate"), "allow"],
    ["slate (no shell tool) runs npm test", () => input("Bash", { command: "npm test" }, "slate"), "deny"],
    ["slate (no shell tool) redirects into src/", () => input("Bash", { command: "cat .pebble/spec.md > src/x.ts" }, "slate"), "deny"],
    ["slate (no shell tool) runs git commit", () => input("Bash", { command: "git commit -m x" }, "slate"), "deny"],
    ["flint (spawned) writes its spec", () => input("Bash", { command: heredoc(add(".pebble/spec.md")) }, "flint"), "allow"],
    ["onyx (spawned) writes src/", () => input("Bash", { command: heredoc(add("src/x.ts")) }, "onyx"), "deny"],
    // third red team (r3): tree's -P takes the next word, so -o takes the guard's own file
    ["quartz runs tree -NiPo x <guard> (tree's -o writes the guard)", () => input("Bash", { command: `tree -NiPo x ${GUARD_PATH} --noreport 'process.exit(0)//'` }, "quartz"), "deny"],
    ["quartz runs tree -L 2 src", () => input("Bash", { command: "tree -L 2 src" }, "quartz"), "allow"],
    // third red team (r3): a spawned agent's call that names no type could be any role's: refused, never "none"
    ["a spawned agent's write with agent_id but no agent_type", () => { const i = input("Bash", { command: "echo x > tests/a.txt" }, "jade"); delete i.agent_type; return i; }, "deny"],
    // scope pipeline: the orchestrator's and an ordinary session's calls name no agent
    ["the orchestrator writes tests/", () => input("Bash", { command: heredoc(add("tests/x.ts")) }), "none"],
    ["the orchestrator spawns a built-in agent", () => input("spawn_agent", { agent_type: "worker", message: "x" }), "none"],
    ["an agent of another role (built-in worker)", () => input("Bash", { command: "echo x > tests/a.txt" }, "worker"), "none"],
    // malformed input fails closed
    ["not JSON", () => "{not json", "deny"],
    ["an array", () => "[]", "deny"],
    ["another event", () => ({ ...input("Bash", { command: "ls" }, "jade"), hook_event_name: "PostToolUse" }), "deny"],
    ["agent_type not a string", () => ({ ...input("Bash", { command: "ls" }), agent_type: ["jade"] }), "deny"],
    ["a role's call without tool_name", () => ({ ...input("Bash", { command: "ls" }, "jade"), tool_name: undefined }), "deny"],
    ["a role's call with tool_input not an object", () => input("Bash", "npm test", "jade"), "deny"],
    ["a role's Bash without a command", () => input("Bash", { cmd: "npm test" }, "jade"), "deny"],
  ];
  for (const [name, raw, kind] of cases)
    it(`${name}: ${kind}`, () => {
      const d = decide(raw());
      expect(d.kind, d.reason).toBe(kind);
    });

  it("reads the heredoc body exactly", () => {
    expect(rt.cxHeredocPatch(heredoc(add("src/x.ts")))).toBe(add("src/x.ts"));
    expect(rt.cxHeredocPatch(`${heredoc(add("src/x.ts"))}\n`)).toBe(add("src/x.ts"));
    expect(rt.cxHeredocPatch(`cd src && ${heredoc(add("x.ts"))}`)).toBeNull();
    expect(rt.cxHeredocPatch(`apply_patch <<'A'\n${add("src/x.ts")}\nB`)).toBeNull();
  });
});

describe("Codex guard: the script and its hook command", () => {
  const runScript = (stdin: string) => spawnSync(process.execPath, [path.join(P, GUARD_PATH)], { input: stdin, encoding: "utf8", cwd: P });
  it("denies with exit 2 and the reason on stderr; allows and passes with exit 0 and no output", () => {
    const deny = runScript(JSON.stringify(input("Bash", { command: "git push" }, "jade")));
    expect(deny.status).toBe(2);
    expect(deny.stdout).toBe("");
    expect(deny.stderr).toMatch(/^harness guard: jade may not run "git push"/);
    for (const raw of [input("Bash", { command: "npm test" }, "jade"), input("Bash", { command: "git push" })]) {
      const ok = runScript(JSON.stringify(raw));
      expect([ok.status, ok.stdout, ok.stderr]).toEqual([0, "", ""]);
    }
    const bad = runScript("");
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/fail closed/);
  });
  it("the hook command turns a crash of the script into exit 2 (Codex runs the call on exit 1)", () => {
    const sh = (cwd: string, stdin: string) => spawnSync("/bin/sh", ["-c", guardHookCommand()], { input: stdin, encoding: "utf8", cwd });
    const ok = sh(P, JSON.stringify(input("Bash", { command: "npm test" }, "jade")));
    expect(ok.status, ok.stderr).toBe(0);
    const missing = sh(root, JSON.stringify(input("Bash", { command: "npm test" }, "jade")));
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/the guard script failed \(exit 1\); blocking \(fail closed\)/);
  });
});

// Codex 0.171.0's own apply_patch parser (codex-rs/apply-patch/src/parser.rs, lenient mode), ported
// line for line: the files it would touch, or null when it refuses the patch.
const RUST_WS = "\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const rustTrim = (s: string) => s.replace(new RegExp(`^[${RUST_WS}]+|[${RUST_WS}]+$`, "g"), "");
function rustLines(s: string): string[] {
  const out = s.split("\n").map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
  if (s.endsWith("\n") || s === "") out.pop();
  return out;
}
function codexPatchPaths(patch: string): string[] | null {
  let lines = rustLines(rustTrim(patch));
  const strict = (ls: string[]) => ls.length >= 1 && rustTrim(ls[0]!) === "*** Begin Patch" && rustTrim(ls[ls.length - 1]!) === "*** End Patch" && ls.length >= 2;
  if (!strict(lines)) {
    const [first, last] = [lines[0], lines[lines.length - 1]];
    if (!(["<<EOF", "<<'EOF'", '<<"EOF"'].includes(first ?? "") && last?.endsWith("EOF") && lines.length >= 4 && strict(lines.slice(1, -1)))) return null;
    lines = lines.slice(1, -1);
  }
  let rest = lines.slice(1, -1);
  const paths: string[] = [];
  while (rest.length) {
    const first = rustTrim(rest[0]!);
    if (first.startsWith("*** Add File: ")) {
      paths.push(first.slice(14));
      let n = 1;
      while (n < rest.length && rest[n]!.startsWith("+")) n++;
      rest = rest.slice(n);
    } else if (first.startsWith("*** Delete File: ")) {
      paths.push(first.slice(17));
      rest = rest.slice(1);
    } else if (first.startsWith("*** Update File: ")) {
      paths.push(first.slice(17));
      let r = rest.slice(1);
      if (r[0]?.startsWith("*** Move to: ")) { paths.push(r[0].slice(13)); r = r.slice(1); }
      let chunks = 0;
      while (r.length) {
        if (rustTrim(r[0]!) === "") { r = r.slice(1); continue; }
        if (r[0]!.startsWith("*")) break;
        let start = 0;
        if (r[0] === "@@" || r[0]!.startsWith("@@ ")) start = 1;
        else if (chunks > 0) return null;
        if (start >= r.length) return null;
        let parsed = 0;
        for (const line of r.slice(start)) {
          if (line === "*** End of File") { if (parsed === 0) return null; parsed++; break; }
          if (line === "" || " +-".includes(line[0]!)) { parsed++; continue; }
          if (parsed === 0) return null;
          break;
        }
        chunks++;
        r = r.slice(start + parsed);
      }
      if (!chunks) return null;
      rest = r;
    } else return null;
  }
  return paths;
}

describe("Codex guard: apply_patch read as Codex reads it (issue 22)", () => {
  const parse = (text: string) => (new Function("fs", "path", "POLICY", `${GUARD_RUNTIME}\nreturn guardPatchPaths;`)(fs, path, policy) as (t: string) => { paths?: string[]; error?: string })(text);
  it("the red team's patch: a header with one leading space after an Add File hunk", () => {
    const text = ["*** Begin Patch", "*** Add File: src/ok.ts", "+ok", " *** Add File: tests/evil.test.ts", "+evil", "*** End Patch"].join("\n");
    expect(codexPatchPaths(text)).toEqual(["src/ok.ts", "tests/evil.test.ts"]);
    expect(parse(text).paths).toBeUndefined();
    expect(decide(input("Bash", { command: heredoc(text) }, "jade")).kind).toBe("deny");
  });
  it("every file Codex's parser would touch is a file the guard checks, for any patch the guard accepts", () => {
    const ws = fc.constantFrom("", " ", "\t", "\u0085", "\u00a0", "\u3000", "\u2028");
    const file = fc.constantFrom("src/x.ts", "tests/evil.test.ts", ".codex/hooks.json", " src/y.ts");
    const head = (h: string) => fc.tuple(fc.oneof(fc.constant(""), ws), file, fc.oneof(fc.constant(""), ws)).map(([a, f, b]) => a + h + f + b);
    const noise = fc.constantFrom("+*** Add File: tests/e.ts", " *** Delete File: tests/a.test.ts", "*** add file: tests/e.ts", "", "x", "*** End of File");
    const hunk = fc.oneof(
      fc.tuple(head("*** Add File: "), fc.constantFrom(["+x"], ["+x", "+y"])).map(([h, ls]) => [h, ...ls]),
      head("*** Delete File: ").map((h) => [h]),
      fc.tuple(head("*** Update File: "), fc.option(head("*** Move to: ")), fc.constantFrom(["@@", "-old", "+x"], [" ctx", "+x"], ["@@ fn", "-a", "+b", "*** End of File"])).map(([h, m, ls]) => [h, ...(m ? [m] : []), ...ls]),
      noise.map((n) => [n]),
    );
    const line = hunk;
    let accepted = 0;
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 5 }), fc.constantFrom("", "\n"), (body, tail) => {
        const text = ["*** Begin Patch", ...body.flat(), "*** End Patch"].join("\n") + tail;
        const codex = codexPatchPaths(text);
        const guard = parse(text);
        if (!guard.paths || codex === null) return;
        accepted++;
        for (const p of codex) expect(guard.paths, `Codex touches ${JSON.stringify(p)} in ${JSON.stringify(text)}`).toContain(p);
      }),
      { numRuns: 3000, seed: 22 },
    );
    expect(accepted).toBeGreaterThan(100);
  });
});
