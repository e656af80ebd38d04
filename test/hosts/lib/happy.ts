// Plays a Scenario (scenario.ts) on a real host, session by session, in ONE scratch project, and
// says for every step whether the host let it happen: "allowed", "refused" or "not reached" (the
// session ended before the step, e.g. an OpenCode ask in `opencode run`). A host is a HostDriver:
// how it starts a session as the orchestrator or as a role, which tool call each action becomes,
// and how it reports a tool result. Evidence: files on disk (writes), the tool results the host sent
// back to the scripted model (reads, commands), the delegated role's conversation reaching the stub.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { createHostEnv, type HostEnv } from "./env.js";
import { run, type RunResult } from "./run.js";
import type { Conversation, ModelRequest, Step as StubStep, Stub } from "./stubs.js";
import { ORCHESTRATOR, setupProject, type Scenario, type Segment, type Session, type Step } from "./scenario.js";

export type Outcome = "allowed" | "refused" | "not reached";

export interface StepResult {
  step: Step;
  session: string;
  outcome: Outcome;
  /** the tool result text (shortened) */
  detail: string;
}

/** A tool result as the host sent it back to the model. */
export interface ToolResult {
  text: string;
  isError?: boolean;
}

/** One host process run: its main conversation and the delegated roles' conversations. */
export interface HostSession {
  label: string;
  /** the actor whose main thread this is (ORCHESTRATOR or a role) */
  actor: string;
  /** scripted calls of the main thread and of each delegated role: the step each call stands for (null = a helper call) */
  calls: Record<string, (StubStep | ((req: ModelRequest) => StubStep))[]>;
  stepOfCall: Record<string, (string | null)[]>;
  /** conversation name -> marker ("" for the main thread) */
  markers: Record<string, string>;
}

export interface HostDriver {
  host: string;
  label: string;
  startStub(script: Conversation[]): Promise<Stub>;
  /** prepare the scratch env once (provider config, env vars) */
  prepare(env: HostEnv, scenario: Scenario): void;
  /** point the env at this session's stub */
  useStub(env: HostEnv, stub: Stub): void;
  /** host sessions for one scenario session */
  plan(session: Session, scenario: Scenario, project: string): HostSession[];
  /** the host process for one host session */
  command(hs: HostSession, scenario: Scenario, env: HostEnv): { bin: string; args: string[] };
  /** tool results in the body of a model request, in order */
  results(body: Record<string, unknown>): ToolResult[];
  /** did a shell command run (not refused by a rule, hook, prompt or sandbox)? */
  shellRan(r: ToolResult): boolean;
  timeoutMs?: number;
  /** folders where a worktree-isolated role's writes land (besides the project) */
  worktrees?(project: string): string[];
  /** the host's run controller runs the checks' commands and refuses the orchestrator's own run of them */
  controllerRunsChecks?: boolean;
}

export interface HappyRun {
  results: StepResult[];
  env: HostEnv;
  runs: RunResult[];
  durationMs: number;
  /** one line per step that did not go as expected */
  surprises(): string[];
  table(): string;
  dispose(): void;
}

const short = (s: string) => s.replace(/\s+/g, " ").trim().slice(0, 300);

export async function runHappy(driver: HostDriver, scenario: Scenario, tree: string, bin: string, only?: (s: Session) => boolean): Promise<HappyRun> {
  const t0 = Date.now();
  const env = createHostEnv({ tree, label: `hp-${driver.label}` });
  for (const [rel, content] of Object.entries(scenario.files)) {
    const p = path.join(env.project, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, content);
  }
  // npm must never reach a registry (npm audit, npx): offline, no retries
  Object.assign(env.env, { npm_config_offline: "true", npm_config_fetch_retries: "0", npm_config_update_notifier: "false" });
  // one stub for the whole run; each host session swaps in its own conversations (the stub reads the array per request)
  const script: Conversation[] = [];
  const stub = await driver.startStub(script);
  driver.prepare(env, scenario);
  driver.useStub(env, stub);
  // the host's stub routing (OpenCode's and Kilo's project config) goes into the initial commit, so the
  // orchestrator's own `git stash push` cannot take it away mid-run
  setupProject(env.project);
  const results: StepResult[] = [];
  const runs: RunResult[] = [];
  try {
  for (const session of scenario.sessions.filter((s) => !only || only(s))) {
    for (const hs of driver.plan(session, scenario, env.project)) {
      script.splice(
        0,
        script.length,
        ...Object.entries(hs.calls)
          .filter(([name]) => hs.markers[name])
          // a role's report opens with its status line (the run controller reads it at stage end)
          .map(([name, steps]) => ({ name, when: hs.markers[name], steps, final: `Status: done (${name})` })),
        ...Object.entries(hs.calls)
          .filter(([name]) => !hs.markers[name])
          .map(([name, steps]) => ({ name, steps })),
      );
      const from = stub.log.length;
      const before = gitScene(env.project);
      const { bin: cmd, args } = driver.command(hs, scenario, env);
      const start = () => run(cmd === "" ? bin : cmd, args, { cwd: env.project, env: { ...env.env, ...(cmd === "" ? {} : { CODEX_BIN: bin, COPILOT_BIN: bin, QWEN_BIN: bin, PI_BIN: bin, DROID_BIN: bin }) }, timeoutMs: driver.timeoutMs ?? 180_000 });
      let r = await start();
      // Codex 0.171 sometimes fails to build its sandbox before the session starts ("failed to enumerate
      // unreadable glob paths"): no model request was made, nothing ran; such a start is tried once more.
      // Refusals and anything that reached the model are never retried.
      if (r.code !== 0 && stub.log.length === from && /fs sandbox helper failed/.test(r.stderr + r.stdout)) r = await start();
      const log = stub.log.slice(from);
      runs.push(r);
      if (process.env.HARNESS_HOSTS_VERBOSE) process.stderr.write(`[happy ${driver.label}] ${session.id}/${hs.label}: exit ${r.code} in ${r.durationMs} ms${r.timedOut ? " TIMED OUT" : ""}\n${r.stderr.slice(-1500)}\n`);
      const allSteps = [...session.segments.flatMap((g) => g.steps), ...Object.values(session.delegated).flat()];
      for (const [conv, ids] of Object.entries(hs.stepOfCall)) {
        const last = log.filter((l) => l.conversation === conv && l.request).pop();
        const got = last ? driver.results(last.request!.body) : [];
        ids.forEach((id, i) => {
          if (id === null) return;
          const step = allSteps.find((s) => s.id === id)!;
          const res = got[i];
          let outcome: Outcome;
          if (!res) outcome = "not reached";
          else outcome = judge(driver, step, res, env.project, log, before);
          results.push({ step, session: `${session.id}/${hs.label}`, outcome, detail: res ? short(res.text) : `(no result; ${describe(r)})` });
        });
      }
    }
  }
  } finally {
    await stub.close();
  }
  const surprises = () =>
    results
      .filter((x) => (x.step.expect === "allow") !== (x.outcome === "allowed"))
      .map((x) => `${x.step.expect === "allow" ? "FALSE BLOCK" : "NOT REFUSED"} ${x.step.id} [${x.session}] ${label(x.step)}: ${x.outcome}: ${x.detail}`);
  return {
    results,
    env,
    runs,
    durationMs: Date.now() - t0,
    surprises,
    table: () => results.map((x) => `${x.step.expect === "allow" ? " " : "!"} ${x.outcome.padEnd(11)} ${x.step.id.padEnd(36)} ${label(x.step)}`).join("\n"),
    dispose: () => env.dispose(),
  };
}

const describe = (r: RunResult) => `exit ${r.code}${r.timedOut ? ", timed out" : ""}: ${short(r.stderr.slice(-400))}`;

export function label(s: Step): string {
  const a = s.action;
  return a.kind === "shell" ? `run \`${a.command}\`` : a.kind === "delegate" ? `delegate to ${a.role}` : `${a.kind} ${a.path}`;
}

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, { cwd, encoding: "utf8", env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: cwd, GIT_CONFIG_NOSYSTEM: "1" } }).trim();

/** commits on HEAD, refs in the bare origin, stash entries */
function gitScene(project: string): { commits: number; originRefs: number; stashes: number } {
  const refs = git(path.join(path.dirname(project), "origin.git"), "for-each-ref");
  const stash = git(project, "stash", "list");
  return { commits: Number(git(project, "rev-list", "--count", "HEAD")), originRefs: refs ? refs.split("\n").length : 0, stashes: stash ? stash.split("\n").length : 0 };
}

function judge(driver: HostDriver, step: Step, res: ToolResult, project: string, log: Stub["log"], before: ReturnType<typeof gitScene>): Outcome {
  const a = step.action;
  if (step.effect) {
    // a forbidden git command got through only if the scene changed (a sandbox may let it start and fail)
    const now = gitScene(project);
    const through = step.effect === "commit" ? now.commits > before.commits : step.effect === "push" ? now.originRefs > before.originRefs : now.stashes < before.stashes;
    return through ? "allowed" : "refused";
  }
  switch (a.kind) {
    case "write": {
      const roots = [project, ...(driver.worktrees?.(project) ?? [])];
      return roots.some((root) => {
        const p = path.join(root, a.path);
        return fs.existsSync(p) && fs.readFileSync(p, "utf8") === a.content;
      })
        ? "allowed"
        : "refused";
    }
    case "read": {
      const p = path.join(project, a.path);
      // a file an earlier (refused) step never wrote: the read ran if the host says it is missing
      if (!fs.existsSync(p)) return /No such file|not found|does not exist|ENOENT/i.test(res.text) && !/denied|not allowed|refus/i.test(res.text) ? "allowed" : "refused";
      return res.text.includes(fs.readFileSync(p, "utf8").split("\n")[0]!.trim()) ? "allowed" : "refused";
    }
    case "delegate":
      return log.some((l) => l.conversation === a.role) ? "allowed" : "refused";
    case "shell": {
      if (!driver.shellRan(res)) return "refused";
      const proof = evidence(a.command);
      return !proof || proof.test(res.text) ? "allowed" : "refused";
    }
  }
}

/** What a command the scenario project knows prints when it really ran (npm scripts, npx stubs, the stash). */
export function evidence(command: string): RegExp | undefined {
  if (/^npm (test|run test)\b/.test(command)) return /HARNESS-TESTS (PASSED|FAILED)/;
  if (/^npm run \S+/.test(command)) return /HARNESS-RAN|HARNESS-TESTS|Missing script/;
  if (/^npx \S+/.test(command)) return /HARNESS-RAN/;
  if (/^git stash push\b/.test(command)) return /Saved working directory|No local changes to save/;
  return undefined;
}

/** Main-thread segments as one list of steps (hosts that run main-isolation roles in the orchestrator's session). */
export function mainSteps(segments: Segment[]): Step[] {
  return segments.flatMap((g) => g.steps);
}

/** Split a session into runs of one main-thread actor each (hosts where a main-isolation role is its own agent). */
export function byActor(session: Session): { actor: string; steps: Step[] }[] {
  return session.segments.map((g) => ({ actor: g.actor, steps: g.steps }));
}

export { ORCHESTRATOR };
