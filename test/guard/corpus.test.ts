// The attack corpus against the guard generated from the bundled roles/ (Pebble), for every role and
// the orchestrator: a bypass (an attack allowed, or a must-deny attack only asked) or a false block
// (an ordinary command not allowed) fails. In-process for the whole table; a sample also through
// `node` to show the script agrees.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GUARD_PATH, ORCHESTRATOR, renderGuard } from "../../adapters/claude-code/guard.js";
import { PEBBLE_ROLES } from "../helpers/cli.js";
import { readRoles } from "../helpers/compile.js";
import { ATTACKS, ORDINARY } from "./corpus.js";
import { type Decision, guardEnv, inProcess, payload, runGuard } from "./helpers.js";

const pipeline = readRoles(PEBBLE_ROLES);
const decide = inProcess(pipeline);
const SHELL_ROLES = pipeline.roles.filter((r) => r.shell).map((r) => r.id);
const NO_SHELL = pipeline.roles.filter((r) => !r.shell).map((r) => r.id);
const CALLERS = [...pipeline.roles.map((r) => r.id), ORCHESTRATOR];
let root: string;
let P: string;
let O: string;

beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "harness-corpus-")));
  P = path.join(root, "proj");
  O = path.join(root, "outside");
  for (const f of ["src/a.ts", "src/b.ts", "tests/a.test.ts", "package.json", ".git/HEAD", ".pebble/spec.md", "charts/x/Chart.yaml", "Dockerfile"]) {
    fs.mkdirSync(path.dirname(path.join(P, f)), { recursive: true });
    fs.writeFileSync(path.join(P, f), "x\n");
  }
  fs.mkdirSync(O, { recursive: true });
  fs.symlinkSync(O, path.join(P, "src/out"));
  fs.mkdirSync(path.join(P, path.dirname(GUARD_PATH)), { recursive: true });
  fs.writeFileSync(path.join(P, GUARD_PATH), renderGuard(pipeline));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const fill = (c: string) => c.replaceAll("{P}", P).replaceAll("{O}", O);
function run(as: string, command: string): Decision {
  const role = as === ORCHESTRATOR ? {} : { role: as, subagent: pipeline.roles.find((r) => r.id === as)?.isolation === "subagent" };
  return decide(JSON.stringify(payload({ tool: "Bash", input: { command: fill(command) }, ...role, cwd: P })), { CLAUDE_PROJECT_DIR: P }, as);
}

/** Every tests/ path the command names is in the caller's write scope. */
function mayWriteAll(as: string, command: string): boolean {
  const paths = [...fill(command).matchAll(/(?:^|[\s>=])['"]?((?:[^\s'"]*\/)?tests\/[^\s'"]*)/g)].map((m) => m[1]!);
  if (!paths.length) return false;
  return paths.every((p) => decide(JSON.stringify(payload({ tool: "Write", input: { file_path: p }, ...(as === ORCHESTRATOR ? {} : { role: as }), cwd: P })), { CLAUDE_PROJECT_DIR: P }, as).kind === "allow");
}

describe("attack corpus", () => {
  it("has at least 200 commands across every class", () => {
    expect(ATTACKS.length).toBeGreaterThanOrEqual(200);
    expect(new Set(ATTACKS.map((a) => a.cls)).size).toBe(5);
    expect(new Set(ATTACKS.map((a) => a.command)).size).toBe(ATTACKS.length);
  });

  it("no bypass for any role or the orchestrator", () => {
    const bypasses: string[] = [];
    let runs = 0;
    for (const as of CALLERS) {
      const defaultDeny = pipeline.roles.find((r) => r.id === as)?.shell?.default === "deny";
      for (const atk of ATTACKS) {
        const d = run(as, atk.command);
        runs++;
        // a redirection into the caller's own scope (mica writing tests/) is its work, not an attack
        if (d.kind === "allow" && mayWriteAll(as, atk.command)) continue;
        const ok = d.kind === "deny" || (d.kind === "ask" && !atk.deny && !defaultDeny && !NO_SHELL.includes(as));
        if (!ok || !d.reason) bypasses.push(`${as}: ${JSON.stringify(atk.command)} [${atk.cls}] -> ${d.kind} ${d.reason ?? ""}`);
      }
    }
    expect(runs).toBeGreaterThanOrEqual(200 * CALLERS.length);
    expect(bypasses, `${bypasses.length} bypasses:\n${bypasses.join("\n")}`).toEqual([]);
  });

  it("the roles without a shell tool are refused every command", () => {
    for (const as of NO_SHELL) for (const cmd of ORDINARY.common!) expect(run(as, cmd).kind, `${as}: ${cmd}`).toBe("deny");
  });
});

describe("zero false blocks", () => {
  it("every role with a shell runs the ordinary read-only commands and its own allowed commands without asking", () => {
    const blocks: string[] = [];
    for (const as of [...SHELL_ROLES, ORCHESTRATOR]) {
      const own = ORDINARY[as === ORCHESTRATOR ? "orchestrator" : as] ?? [];
      expect(own.length + ORDINARY.common!.length, as).toBeGreaterThan(10);
      for (const cmd of [...ORDINARY.common!, ...own]) {
        const d = run(as, cmd);
        if (d.kind !== "allow") blocks.push(`${as}: ${JSON.stringify(cmd)} -> ${d.kind} ${d.reason ?? ""}`);
      }
    }
    expect(blocks, `${blocks.length} false blocks:\n${blocks.join("\n")}`).toEqual([]);
  });

  it("every role writes its own artifacts", () => {
    const own: Record<string, string> = { flint: ".pebble/spec.md", slate: ".pebble/blueprint.md", mica: "tests/b.test.ts", jade: "src/new.ts", onyx: ".pebble/review.md", quartz: ".pebble/verification.md", coral: ".github/workflows/ci.yml", chalk: "CHANGELOG.md" };
    for (const r of pipeline.roles) {
      const d = decide(JSON.stringify(payload({ tool: "Write", input: { file_path: path.join(P, own[r.id]!), content: "x" }, role: r.id, cwd: P })), { CLAUDE_PROJECT_DIR: P }, r.id);
      expect(d.kind, `${r.id}: ${d.reason}`).toBe("allow");
    }
  });
});

describe("the script agrees with the in-process table", () => {
  it("on a sample of attacks and ordinary commands, through node", async () => {
    const sample: [string, string][] = [];
    for (let i = 0; i < ATTACKS.length; i += 9) sample.push([CALLERS[i % CALLERS.length]!, ATTACKS[i]!.command]);
    for (const cmd of ORDINARY.jade!.slice(0, 6)) sample.push(["jade", cmd]);
    for (const cmd of ORDINARY.orchestrator!.slice(0, 4)) sample.push([ORCHESTRATOR, cmd]);
    const script = path.join(P, GUARD_PATH);
    const results = await Promise.all(
      sample.map(async ([as, cmd]) => {
        const role = as === ORCHESTRATOR ? {} : { role: as };
        const r = await runGuard(script, payload({ tool: "Bash", input: { command: fill(cmd) }, ...role, cwd: P }), guardEnv(P), as);
        const kind = r.code === 2 ? "deny" : r.stdout ? (JSON.parse(r.stdout) as { hookSpecificOutput: { permissionDecision: string } }).hookSpecificOutput.permissionDecision : "none";
        return { as, cmd, kind, want: run(as, cmd).kind };
      }),
    );
    for (const x of results) expect(x.kind, `${x.as}: ${x.cmd}`).toBe(x.want);
  });
});
