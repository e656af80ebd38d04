// The happy path of a pipeline, built from its IR alone, so it works for any pipeline and any host:
// every stage's legitimate steps (the orchestrator's own exceptions, each role reading, writing each
// artifact it owns, running each command its shell.allow lists, the pipeline's commands after each
// stage) and, in the same project, forbidden probes (a role writing another role's artifact, agents
// committing and pushing, the orchestrator running a denied sibling of its exception and writing a
// role's artifact). A host driver (happy.ts) turns each action into that host's tool call.
//
// The project is a tiny real node project: `npm test` really runs the test files the scenario writes
// (and fails until the code they import exists); every `npm run <x>` the pipeline names exists as a
// script; every `npx <x>` resolves to a local stub, so nothing reaches the network.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { PipelineIR, RoleIR } from "../../../src/ir/types.js";
import { isGlobMatch } from "../../../src/glob.js";

export const ORCHESTRATOR = "orchestrator";

export type Action =
  | { kind: "write"; path: string; content: string }
  | { kind: "read"; path: string }
  | { kind: "shell"; command: string }
  | { kind: "delegate"; role: string };

export interface Step {
  id: string;
  /** ORCHESTRATOR or a role id */
  actor: string;
  action: Action;
  expect: "allow" | "deny";
  /** a forbidden command's effect on the scene (judged by the git state, whatever the host printed) */
  effect?: "commit" | "push" | "stash-pop";
}

const effectOf = (command: string): Step["effect"] =>
  /^git commit( |$)/.test(command) ? "commit" : /^git push( |$)/.test(command) ? "push" : /^git stash (pop|apply|drop|clear)/.test(command) ? "stash-pop" : undefined;

/** Steps on the session's main thread, run by one actor (the orchestrator or a main-isolation role). */
export interface Segment {
  actor: string;
  steps: Step[];
}

export interface Session {
  id: string;
  segments: Segment[];
  /** what each delegated role does (keyed by role id; a role is delegated at most once per session) */
  delegated: Record<string, Step[]>;
}

export interface Scenario {
  name: string;
  files: Record<string, string>;
  sessions: Session[];
  /** a line that only this role's own prompt holds (the stub picks the conversation by it) */
  markers: Record<string, string>;
  /** files that must exist afterwards (every allowed write) */
  expectedFiles: string[];
  roles: readonly RoleIR[];
  /** the pipeline's stages (with the gate after each) and work kinds, for hosts whose run controller holds the order */
  stages: { id: string; role: string; gate?: string }[];
  kinds: { id: string; stages: readonly string[] }[];
}

const TEST_RUNNER = `// harness scenario: runs every *.test.mjs file and reports
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
const files = [];
const walk = (d) => { for (const e of readdirSync(d, { withFileTypes: true })) { if (e.name === "node_modules" || e.name.startsWith(".")) continue; const p = join(d, e.name); if (e.isDirectory()) walk(p); else if (/\\.test\\.mjs$/.test(e.name)) files.push(p); } };
walk(".");
let passed = 0, failed = 0;
for (const f of files) { try { await import(pathToFileURL(join(process.cwd(), f)).href); passed++; } catch (e) { failed++; console.log("FAIL " + f + ": " + e.message); } }
console.log("HARNESS-TESTS " + (failed ? "FAILED" : "PASSED") + " " + passed + "/" + (passed + failed));
process.exit(failed ? 1 : 0);
`;

/** Safe arguments for a trailing " *" of an allowed command, by its leading words (default "."). */
const ARGS: [RegExp, string][] = [
  [/^git log$/, "-1 --oneline"],
  [/^git show$/, "--stat HEAD"],
  [/^git blame$/, "package.json"],
  [/^git stash push$/, "-m harness-scenario"],
  [/^git commit$/, "-m harness-probe"],
  [/^git push$/, "origin HEAD:main"],
  [/^git stash$/, "pop"],
  [/^(go|cargo) /, "./..."],
];

/** One concrete command an allow/deny pattern matches (trailing `*` dropped, ` *` given an argument). */
export function instantiate(pattern: string, probe = false): string {
  let p = pattern.trim();
  if (p.endsWith(" *")) {
    const head = p.slice(0, -2);
    // a probe's argument names nothing that exists, so a probe that gets through harms nothing (`rm -rf *`)
    p = `${head} ${ARGS.find(([re]) => re.test(head))?.[1] ?? (probe ? "harness-probe-nothing" : ".")}`;
  } else if (p.endsWith("*")) p = p.slice(0, -1).trimEnd();
  return p.replace(/\*/g, "x");
}

/** One concrete path a glob matches (folders get a file named after the role). */
export function samplePath(glob: string, role: string, test = false, code = test): string {
  const name = `harness-${role}${test ? ".test" : ""}.${code ? "mjs" : "md"}`;
  let p = glob.replace(/\/\*\*$/, `/${name}`).replace(/^\*\*\//, "").replace(/\/\*\*\//g, "/");
  p = p.replace(/\*\.(\w+)$/, `harness-${role}.$1`).replace(/\*/g, `harness-${role}`);
  return p.replace(/\{([^,}]*)[^}]*\}/g, "$1").replace(/\?/g, "x");
}

const pickGlob = (paths: readonly string[]) => paths.find((g) => /\/\*\*$/.test(g) && !g.startsWith("**")) ?? paths.find((g) => !/[*?[{]/.test(g)) ?? paths[0]!;

function artifactSample(p: PipelineIR, name: string, role: string): string {
  const a = p.artifacts.find((x) => x.name === name)!;
  const g = pickGlob(a.paths);
  const test = a.paths.some((x) => /\*\.test\.\*/.test(x));
  return samplePath(g, role, test, test || a.paths.includes("src/**"));
}

/** The tiny node project: package.json with a real test runner and a script for every `npm run <x>`, local stubs for `npx <x>`. */
function projectFiles(p: PipelineIR): Record<string, string> {
  const commands = [...p.commands.map((c) => c.run), ...p.roles.flatMap((r) => r.shell?.allow ?? []).map(instantiate)];
  const scripts: Record<string, string> = { test: "node harness-tests.mjs" };
  const bins = new Set<string>();
  for (const c of commands) {
    const run = /^npm run (\S+)/.exec(c)?.[1];
    if (run && run !== "test") scripts[run] = `node -e "console.log('HARNESS-RAN ${run}')"`;
    const npx = /^npx (\S+)/.exec(c)?.[1];
    if (npx) bins.add(npx);
  }
  const files: Record<string, string> = {
    "package.json": `${JSON.stringify({ name: "harness-scenario", version: "1.0.0", private: true, type: "module", scripts }, null, 2)}\n`,
    "harness-tests.mjs": TEST_RUNNER,
    "README.md": "# harness scenario\n\nA tiny project the happy-path tests run the pipeline in.\n",
    ".gitignore": "node_modules/\n",
  };
  for (const b of bins) files[`node_modules/.bin/${b}`] = `#!/bin/sh\necho "HARNESS-RAN ${b} $*"\n`;
  return files;
}

/** Prepare the scene: one commit, a bare origin, and uncommitted work of the human (which the orchestrator stashes). */
export function setupProject(project: string): void {
  for (const f of fs.readdirSync(path.join(project, "node_modules", ".bin"), { withFileTypes: true }).filter((e) => e.isFile()))
    fs.chmodSync(path.join(f.parentPath, f.name), 0o755);
  const git = (...args: string[]) =>
    execFileSync("git", args, { cwd: project, stdio: "ignore", env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: project, GIT_CONFIG_NOSYSTEM: "1" } });
  const bare = path.join(path.dirname(project), "origin.git");
  git("init", "-q", "--bare", bare);
  git("add", "-A");
  git("commit", "-q", "-m", "scene: initial");
  git("remote", "add", "origin", bare);
  fs.appendFileSync(path.join(project, "README.md"), "\nWork in progress by the human.\n");
}

/**
 * A role's allowed commands to run: all of them with HARNESS_HAPPY_ALL_COMMANDS=1, else up to `max`,
 * one per program, those the scratch project really runs (npm, npx, git) first. Every pattern of every
 * list is checked in the emitted files by the parse-back tests; the real host proves the mechanism.
 */
export function sampleCommands(allow: readonly string[], max = Number(process.env.HARNESS_HAPPY_COMMANDS ?? 4)): string[] {
  if (process.env.HARNESS_HAPPY_ALL_COMMANDS === "1") return [...allow];
  const runnable = (p: string) => (/^(npm|npx|git) /.test(p) ? 0 : 1);
  const seen = new Set<string>();
  const out: string[] = [];
  for (const p of [...allow].sort((a, b) => runnable(a) - runnable(b))) {
    const program = p.split(" ")[0]!;
    if (seen.has(program)) continue;
    seen.add(program);
    out.push(p);
    if (out.length >= max) break;
  }
  return out;
}

/** `controllerRunsChecks`: the host's run controller runs each check's command at stage end and refuses
 *  the orchestrator's own run of it (a deterministic step costs no model turn), so that step is a refusal. */
export function buildScenario(p: PipelineIR, opts: { controllerRunsChecks?: boolean } = {}): Scenario {
  const roleOf = (id: string) => p.roles.find((r) => r.id === id)!;
  const files = projectFiles(p);
  const written = new Map<string, string>(); // path -> role, in order
  const expectedFiles: string[] = [];
  const markers = Object.fromEntries(p.roles.map((r) => [r.id, r.body.split("\n").map((l) => l.trim()).find((l) => l.length > 8) ?? `You are ${r.title}`]));
  let n = 0;
  const step = (actor: string, action: Action, expect: "allow" | "deny" = "allow", label?: string): Step => {
    const effect = expect === "deny" && action.kind === "shell" ? effectOf(action.command) : undefined;
    return { id: `${actor}.${label ?? action.kind}-${++n}`, actor, action, expect, ...(effect ? { effect } : {}) };
  };
  // every file the stages will write, in order, so a test file can import the code written after it
  const planned = p.stages.flatMap((s) => roleOf(s.role).writes.map((a) => artifactSample(p, a, s.role)));
  const codeFor = (testPath: string): string => {
    const code = planned.find((f) => /\.mjs$/.test(f) && !/\.test\./.test(f));
    const rel = code ? path.posix.relative(path.posix.dirname(testPath), code) : null;
    return rel ? `import { value } from "${rel.startsWith(".") ? rel : `./${rel}`}";\nif (value !== 42) throw new Error("value is " + value);\n` : `// harness scenario test\n`;
  };
  const roleSteps = (role: RoleIR, stageId: string): Step[] => {
    const out: Step[] = [];
    const readable = role.reads.map((a) => [...written.keys()].find((f) => written.get(f) && p.artifacts.find((x) => x.name === a)?.paths.some((g) => isGlobMatch(f, g)))).find(Boolean);
    out.push(step(role.id, { kind: "read", path: readable ?? "README.md" }));
    for (const a of role.writes) {
      const file = artifactSample(p, a, role.id);
      const content = /\.test\.mjs$/.test(file)
        ? codeFor(file)
        : /\.mjs$/.test(file)
          ? `export const value = 42; // ${role.id} (${stageId})\n`
          : // a document carries the verdict line the run controller reads for judgement checks
            `harness scenario: ${role.id} wrote this in stage ${stageId}\nVerdict: pass\n`;
      written.set(file, role.id);
      expectedFiles.push(file);
      out.push(step(role.id, { kind: "write", path: file, content }, "allow", `write-${a}`));
    }
    for (const pattern of sampleCommands(role.shell?.allow ?? [])) out.push(step(role.id, { kind: "shell", command: instantiate(pattern) }, "allow", "allowed-command"));
    return out;
  };
  const orchestratorAfter = (stageId: string): Step[] =>
    p.commands
      .filter((c) => c.after.includes(stageId))
      .map((c) =>
        opts.controllerRunsChecks && p.checks.some((k) => k.after === stageId && k.command?.id === c.id)
          ? step(ORCHESTRATOR, { kind: "shell", command: c.run }, "deny", `controller-runs-${c.id}`)
          : step(ORCHESTRATOR, { kind: "shell", command: c.run }, "allow", `command-${c.id}`),
      );

  const sessions: Session[] = [];
  p.stages.forEach((stage, i) => {
    const role = roleOf(stage.role);
    const segments: Segment[] = [];
    const delegated: Record<string, Step[]> = {};
    if (i === 0 && p.policies.orchestratorShell.length)
      segments.push({ actor: ORCHESTRATOR, steps: p.policies.orchestratorShell.map((o) => step(ORCHESTRATOR, { kind: "shell", command: instantiate(o) }, "allow", "exception")) });
    const own = roleSteps(role, stage.id);
    if (role.isolation === "main") segments.push({ actor: role.id, steps: own });
    else {
      delegated[role.id] = own;
      segments.push({ actor: ORCHESTRATOR, steps: [step(ORCHESTRATOR, { kind: "delegate", role: role.id }, "allow", `delegate-${role.id}`)] });
    }
    const after = orchestratorAfter(stage.id);
    if (after.length) segments.push({ actor: ORCHESTRATOR, steps: after });
    sessions.push({ id: `stage-${stage.id}`, segments: merge(segments), delegated });
  });

  // Forbidden probes, in one more session.
  const probes: Segment[] = [];
  const delegated: Record<string, Step[]> = {};
  const denies = p.policies.shellDeny.map((d) => instantiate(d, true)).filter((c) => !p.policies.orchestratorShell.some((o) => isCommandMatch(c, o)));
  // git commit and git push when the pipeline denies them (the longest spelling of each), else its first deny
  const longest = (re: RegExp) => denies.filter((c) => re.test(c)).sort((a, b) => b.length - a.length)[0];
  const gitOnes = [longest(/^git commit( |$)/), longest(/^git push( |$)/)].filter((c): c is string => c !== undefined);
  const generic = gitOnes.length ? gitOnes : denies.slice(0, 1);
  // a subagent role that may not write another artifact (its own never_write or simply outside its scope)
  const others = (r: RoleIR) => p.artifacts.filter((a) => !r.writes.includes(a.name) && a.paths.some((g) => r.neverWrite.includes(g)));
  const writers = p.roles.filter((r) => r.isolation === "subagent" && r.tools.includes("write") && r.writes.length);
  const prober = writers.find((r) => r.shell && others(r).length) ?? writers.find((r) => r.shell) ?? writers[0];
  if (prober) {
    const other = others(prober)[0] ?? p.artifacts.find((a) => !prober.writes.includes(a.name));
    const steps: Step[] = [];
    if (other) steps.push(step(prober.id, { kind: "write", path: artifactSample(p, other.name, "probe"), content: "probe\n" }, "deny", "probe-write"));
    if (prober.shell) for (const c of generic) steps.push(step(prober.id, { kind: "shell", command: c }, "deny", "probe-shell"));
    delegated[prober.id] = steps;
    probes.push({ actor: ORCHESTRATOR, steps: [step(ORCHESTRATOR, { kind: "delegate", role: prober.id }, "allow", `delegate-${prober.id}`)] });
  }
  const orch: Step[] = generic.map((c) => step(ORCHESTRATOR, { kind: "shell", command: c }, "deny", "probe-shell"));
  // a denied command that shares its leading words with one of the orchestrator's exceptions
  for (const o of p.policies.orchestratorShell) {
    const head = o.replace(/\s*\*$/, "").split(" ").slice(0, -1).join(" ");
    const sibling = p.policies.shellDeny.find((d) => d === `${head} *`);
    if (sibling) {
      orch.push(step(ORCHESTRATOR, { kind: "shell", command: instantiate(sibling, true) }, "deny", "probe-sibling"));
      break;
    }
  }
  if (prober) orch.push(step(ORCHESTRATOR, { kind: "write", path: artifactSample(p, prober.writes[0]!, "orchestrator-probe"), content: "probe\n" }, "deny", "probe-write"));
  probes.push({ actor: ORCHESTRATOR, steps: orch });
  sessions.push({ id: "probes", segments: merge(probes), delegated });

  return {
    name: p.name,
    files,
    sessions,
    markers,
    expectedFiles: [...new Set(expectedFiles)],
    roles: p.roles,
    stages: p.stages.map((x) => ({ id: x.id, role: x.role, ...(x.gate ? { gate: x.gate.approve } : {}) })),
    kinds: p.workKinds.map((k) => ({ id: k.id, stages: k.stages })),
  };
}

/** harness command pattern match: `*` any run, a trailing " *" also matches nothing. */
export function isCommandMatch(command: string, pattern: string): boolean {
  const re = new RegExp(`^${pattern.split("*").map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`);
  return re.test(command) || (pattern.endsWith(" *") && command === pattern.slice(0, -2));
}

function merge(segments: Segment[]): Segment[] {
  const out: Segment[] = [];
  for (const s of segments) {
    const last = out.at(-1);
    if (last && last.actor === s.actor) last.steps.push(...s.steps);
    else out.push({ actor: s.actor, steps: [...s.steps] });
  }
  return out;
}

export const allSteps = (s: Scenario): Step[] => s.sessions.flatMap((x) => [...x.segments.flatMap((g) => g.steps), ...Object.values(x.delegated).flat()]);
