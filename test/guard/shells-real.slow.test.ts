// The guard reads a command as bash does, but the hosts run the user's shell (Claude Code: bash or
// zsh, whichever SHELL names, zsh first otherwise; Codex: the user's shell, or whichever shell the
// model names in exec_command's `shell`, which the hook input does not carry: measured on Codex
// 0.171.0, "sh" runs dash). So every command the guard allows must mean the same in bash, zsh and
// dash. This test generates commands from shell syntax around the programs a role may run, asks
// the guard, and runs each one it allows in the three real shells with stub programs on PATH: the
// programs each shell runs (their argv) must be exactly the guard's reading, and the files each
// shell writes must be among the guard's redirection targets.
// zsh comes unpacked from Debian's package (scripts/test-shells.sh); without it the test skips,
// unless HARNESS_REQUIRE_SHELLS=1 (CI) makes that a failure.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CODEX_GUARD_CALL } from "../../adapters/codex/guard-runtime.js";
import { compileCodexPolicy } from "../../adapters/codex/guard.js";
import { GUARD_RUNTIME } from "../../src/adapter/guard/render.js";
import { PEBBLE_ROLES } from "../helpers/cli.js";
import { readRoles } from "../helpers/compile.js";

const REPO = path.resolve(__dirname, "../..");
function findZsh(): string | null {
  const unpacked = path.join(REPO, ".cache/test-shells/root/bin/zsh");
  if (fs.existsSync(unpacked)) return unpacked;
  const r = spawnSync(path.join(REPO, "scripts/test-shells.sh"), { encoding: "utf8" });
  return r.status === 0 ? r.stdout.trim() : null;
}
const firstOf = (...ps: string[]) => ps.find((p) => fs.existsSync(p)) ?? null;
const SHELLS = { bash: firstOf("/bin/bash", "/usr/bin/bash"), dash: firstOf("/bin/dash", "/usr/bin/dash"), zsh: findZsh() };
const missing = Object.entries(SHELLS).filter(([, p]) => !p).map(([n]) => n);
if (missing.length && process.env.HARNESS_REQUIRE_SHELLS) throw new Error(`shells-real: ${missing.join(", ")} not found (scripts/test-shells.sh unpacks zsh)`);

const pipeline = readRoles(PEBBLE_ROLES);
const policy = compileCodexPolicy(pipeline);
const rt = new Function("fs", "path", "POLICY", `${GUARD_RUNTIME}\n${CODEX_GUARD_CALL}\nreturn { cxCall, cxDecide: guardDecidePaths, guardParse };`)(fs, path, policy) as {
  cxCall: (raw: string, sp: string | null) => unknown;
  cxDecide: (policy: unknown, parsed: unknown) => { kind: string; reason?: string };
  guardParse: (src: string) => { argv: string[]; redirs: { op: string; fd: string | null; target: string }[] }[];
};

// the programs the generated commands run: each a stub on PATH that logs its argv (NUL-separated)
const PROGRAMS = ["git", "npm", "cat", "ls", "sort", "head", "wc", "grep", "npx", "tsc"];
let root: string;
let stubs: string;
beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "harness-shells-")));
  stubs = path.join(root, "bin");
  fs.mkdirSync(stubs);
  // one log file per run (its pid): programs of a pipeline run side by side
  for (const p of PROGRAMS) fs.writeFileSync(path.join(stubs, p), `#!/bin/sh\nprintf '%s\\0' "${p}" "$@" > "$STUB_LOG/$$"\n`, { mode: 0o755 });
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

interface Effect { runs: string[]; files: string[]; syntaxError: boolean }
function runIn(shell: string, command: string, n: number): Effect {
  const project = path.join(root, `p${n}`);
  fs.rmSync(project, { recursive: true, force: true });
  for (const f of ["src/a.ts", "tests/a.test.ts", "README.md"]) {
    fs.mkdirSync(path.dirname(path.join(project, f)), { recursive: true });
    fs.writeFileSync(path.join(project, f), "x\n");
  }
  const home = path.join(root, "home");
  fs.mkdirSync(home, { recursive: true });
  const log = path.join(root, `log${n}`);
  fs.mkdirSync(log);
  const r = spawnSync(shell, ["-c", command], { cwd: project, env: { PATH: stubs, HOME: home, STUB_LOG: log, LC_ALL: "C" }, encoding: "utf8", timeout: 5000, input: "" });
  // a shell that cannot parse the command runs none of it (dash: "Syntax error", zsh: "parse error")
  const syntaxError = r.status !== 0 && /syntax error|parse error/i.test(r.stderr);
  // pipelines run side by side: compare the set of runs, not their order
  const runs = fs.readdirSync(log).map((f) => fs.readFileSync(path.join(log, f), "utf8")).sort();
  fs.rmSync(log, { recursive: true });
  const files: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else files.push(path.relative(project, p));
    }
  };
  walk(project);
  return { runs, files: files.sort(), syntaxError };
}

// shell syntax around the words a role's commands carry
const piece = fc.oneof(
  { weight: 6, arbitrary: fc.stringMatching(/^[a-z0-9._\/-]{1,6}$/) },
  { weight: 2, arbitrary: fc.constantFrom("=", "^", "#", "%", "!", "~", ":", ",", "@", "+", "-", "--", "=x", "a=b", "10", "2", "&", ";") },
  { weight: 2, arbitrary: fc.stringMatching(/^[a-z =^#%!~:,@+;&|<>()*?{}\\-]{0,5}$/).map((s) => `'${s}'`) },
  { weight: 2, arbitrary: fc.stringMatching(/^[a-z =^#%!~:,@+;&|<>()*?{}'-]{0,5}$/).map((s) => `"${s}"`) },
  { weight: 1, arbitrary: fc.constantFrom("\\ ", "\\;", "\\=", "\\#", "\\~", "\\\\", "\\'", '\\"', "\\\n", "\\a") },
);
const word = fc.array(piece, { minLength: 1, maxLength: 3 }).map((ps) => ps.join(""));
const redir = fc.tuple(fc.constantFrom(">", ">>", ">|", "2>", "1>", "2>>", "&>", "&>>", ">&", "10>", "2>&1", ">&2", "<", "0<", "9>"), fc.constantFrom("", " "), fc.constantFrom("src/o1", "src/o2", "tests/o3", "o4", "/dev/null", "src/a.ts", "README.md"))
  // an input from a file that is not there stops the command in every shell: read only files that are
  .map(([op, sp, t]) => (op.endsWith("&1") || op.endsWith("&2") ? op : op.includes("<") ? `${op}${sp}${t.startsWith("src/o") ? "src/a.ts" : "README.md"}` : `${op}${sp}${t}`));
const command = fc.tuple(
  fc.constantFrom("git status", "git diff", "git log", "npm test", "npm run lint", "cat", "ls", "sort", "head -n 1", "wc -l", "grep x", "npx vitest run", "tsc --noEmit", "cd ./src &&", "echo"),
  fc.array(fc.oneof({ weight: 4, arbitrary: word }, { weight: 1, arbitrary: redir }), { maxLength: 4 }),
).map(([head, rest]) => [head, ...rest].join(" "));
const joined = fc.tuple(command, fc.array(fc.tuple(fc.constantFrom(" && ", " || ", " | ", "; ", "\n", " & ", "&"), command), { maxLength: 2 }))
  .map(([c, more]) => c + more.map(([op, m]) => op + m).join(""));
// a backslash-newline anywhere: bash, zsh and dash drop it before they read words and operators
const line = fc.tuple(joined, fc.array(fc.nat(), { maxLength: 2 }))
  .map(([c, at]) => at.reduce((s, k) => { const i = k % (s.length + 1); return s.slice(0, i) + "\\\n" + s.slice(i); }, c));

function guardAllows(cmd: string, cwd: string): boolean {
  const raw = JSON.stringify({ hook_event_name: "PreToolUse", agent_type: "jade", agent_id: "a", cwd, tool_name: "Bash", tool_input: { command: cmd } });
  const parsed = rt.cxCall(raw, cwd);
  return typeof parsed !== "string" && rt.cxDecide(policy, parsed).kind === "allow";
}

describe.skipIf(missing.length > 0)("the guard's reading of a command is bash's, zsh's and dash's", () => {
  it("every command the guard allows runs the same programs with the same words in all three shells, and writes no file the guard did not read", () => {
    let n = 0;
    let allowed = 0;
    fc.assert(
      fc.property(line, (cmd) => {
        const cwd = path.join(root, "guard-cwd");
        fs.mkdirSync(path.join(cwd, "src"), { recursive: true });
        if (!guardAllows(cmd, cwd)) return;
        allowed++;
        const cmds = rt.guardParse(cmd);
        // the guard's reading: each stub program's argv, NUL-joined as the stubs log it
        // every stub and builtin here succeeds, so a command after || never runs (nor the rest of its pipeline)
        let runs = true;
        const ran = cmds.filter((c) => {
          const join = (c as { join?: string | null }).join ?? null;
          if (join === "||") runs = false;
          else if (join !== "|") runs = true;
          return runs;
        });
        const expected = ran.filter((c) => PROGRAMS.includes(c.argv[0]!)).map((c) => c.argv.map((a) => `${a}\0`).join("")).sort();
        const targets = new Set(cmds.flatMap((c) => c.redirs.filter((r) => r.op !== "<" && !/^\d*$/.test(r.target) && r.target !== "-").map((r) => r.target)));
        const inSrc = cmds.some((c) => c.argv[0] === "cd");
        for (const [name, shell] of Object.entries(SHELLS)) {
          const e = runIn(shell!, cmd, n++);
          // refusing the whole command is the one way a shell may differ: nothing ran
          if (e.syntaxError && e.runs.length === 0) continue;
          expect(e.runs, `${name} ran other programs or words than the guard read for ${JSON.stringify(cmd)}`).toEqual(expected);
          const made = e.files.filter((f) => !["src/a.ts", "tests/a.test.ts", "README.md"].includes(f));
          for (const f of made) expect(targets.has(f) || (inSrc && targets.has(path.relative("src", f))), `${name} wrote ${f}, which the guard did not read as a target of ${JSON.stringify(cmd)}`).toBe(true);
        }
      }),
      { numRuns: 1500, seed: Number(process.env.SHELLS_SEED ?? 20261204) },
    );
    // the generator must reach the allowed side, or the property says nothing
    if (process.env.SHELLS_VERBOSE) console.log(`allowed ${allowed}`);
    expect(allowed).toBeGreaterThan(150);
  }, 240_000);

  it("the differences found on the real shells are refused: &> (sh: background and a second command), =name (zsh: a program's path), fd 10> (sh: a word), 1\\<newline>> (zsh: a word)", () => {
    const cwd = path.join(root, "guard-cwd");
    for (const cmd of ["git status &>/dev/null git push", "git status &>>src/o1 npm publish", "cd ./src && cat a.ts > =git", "git diff 10>src/o1", "cat =npm", "head -n 1 1\\\n> src/a.ts", "git status 2\\\n>&1"]) expect(guardAllows(cmd, cwd), cmd).toBe(false);
    // and the plain forms still pass, a line continued between words included
    for (const cmd of ["git status >/dev/null 2>&1", "git diff > src/o1", "npm test 2>&1", "cat src/a.ts a=b", "git status \\\n  --short"]) expect(guardAllows(cmd, cwd), cmd).toBe(true);
  });
});
