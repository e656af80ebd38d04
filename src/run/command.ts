// harness run: refuse unless the host files are installed and in sync, start or resume a run,
// and give the runner its terminal, its output and its Ctrl-C.
import { spawnSync } from "node:child_process";
import { GIT_TIMEOUT_MS, gitTimedOut } from "./workspace.js";
import path from "node:path";
import readline from "node:readline";
import type { AdapterRegistry } from "../adapter/types.js";
import { UsageError } from "../errors.js";
import { readPipeline } from "../ir/normalize.js";
import { readLock } from "../install/lock.js";
import { newRunId, readRecord, RecordError, RUN_ID, writeRecord, type RunRecord } from "../runs/record.js";
import { watchGroups } from "../adapter/process-group.js";
import type { HostDriver } from "../adapter/runner.js";
import { stream } from "../ui.js";
import { progressLine } from "./progress.js";
import { classify, newRecord, planKind } from "./plan.js";
import { Runner, type RunEvent, type RunIO } from "./runner.js";
import { lockHeld, processStart, readLock as readRunLock, removeLock, stopLeftovers, writeLock, type RunLock } from "./lock.js";
import { digestProblem, saveDigest } from "./trust.js";

export interface RunOptions {
  registry: AdapterRegistry;
  version: string;
  roles?: string;
  host?: string;
  kind?: string;
  approve?: string[];
  resume?: string;
  json?: boolean;
  /** run every session in the host's OS sandbox (Claude Code: bubblewrap + socat) */
  sandbox?: boolean;
}

const EXIT: Record<RunRecord["status"], number> = { passed: 0, stopped: 1, failed: 1, running: 1, "waiting-gate": 3, interrupted: 130 };

/** The hosts whose adapter has a `runner`, with their drivers' loaders. */
async function drivers(registry: AdapterRegistry): Promise<Map<string, () => Promise<HostDriver>>> {
  const out = new Map<string, () => Promise<HostDriver>>();
  for (const [id, load] of Object.entries(registry)) {
    const runner = (await load()).runner;
    if (runner) out.set(id, runner);
  }
  return out;
}

function pickHost(root: string, requested: string | undefined, drivable: readonly string[]): string {
  const installed = readLock(root)?.hosts ?? [];
  if (requested) {
    if (!drivable.includes(requested)) throw new UsageError(`--host ${requested}: harness run drives ${drivable.join(", ")} so far. Pick one of those, or run the pipeline inside ${requested} with its own command.`);
    return requested;
  }
  const candidates = installed.filter((h) => drivable.includes(h));
  if (candidates.length === 1) return candidates[0]!;
  if (candidates.length === 0) throw new UsageError(`no host harness run can drive is installed here (installed: ${installed.join(", ") || "none"}; drivable: ${drivable.join(", ")}). Run \`harness install --host claude-code\` and commit the result.`);
  throw new UsageError(`several installed hosts can run the pipeline (${candidates.join(", ")}). Pick one with --host.`);
}

/** Lines typed on stdin, one at a time; null once stdin ends. The prompt goes to stderr (stdout may be --json). */
function lineReader(tty: boolean) {
  let rl: readline.Interface | null = null;
  const queue: string[] = [];
  let closed = false;
  let waiting: ((v: string | null) => void) | null = null;
  const open = () => {
    rl = readline.createInterface({ input: process.stdin, output: tty ? process.stderr : undefined, terminal: tty });
    rl.on("line", (l) => (waiting ? (waiting(l), (waiting = null)) : queue.push(l)));
    rl.on("close", () => {
      closed = true;
      waiting?.(null);
      waiting = null;
    });
    // Ctrl-C while readline holds the terminal (raw mode): no answer, and the run is interrupted
    rl.on("SIGINT", () => {
      waiting?.(null);
      waiting = null;
      process.emit("SIGINT");
    });
  };
  return {
    ask(prompt: string): Promise<string | null> {
      if (!rl) open();
      stream(2).write(`${prompt}`);
      if (queue.length) return Promise.resolve(queue.shift()!);
      if (closed) return Promise.resolve(null);
      return new Promise((resolve) => (waiting = resolve));
    },
    close: () => rl?.close(),
  };
}

export async function runCommand(request: string | undefined, o: RunOptions): Promise<number> {
  const root = process.cwd();
  // each stage's changes are compared with its role's scope through git: no work tree, no run
  const inside = spawnSync("git", ["rev-parse", "--is-inside-work-tree"], { cwd: root, stdio: "ignore", timeout: GIT_TIMEOUT_MS, killSignal: "SIGKILL" });
  if (inside.error && (inside.error as NodeJS.ErrnoException).code === "ETIMEDOUT") throw new UsageError(gitTimedOut("git rev-parse"));
  if (inside.status !== 0)
    throw new UsageError("harness run needs a git work tree: it checks every stage's changed files against the role's write scope with git. Run it in the project's repository (or `git init` first).");
  const rolesDir = path.resolve(o.roles ?? "roles");
  const drivable = await drivers(o.registry);
  let record: RunRecord;
  let host: string;
  let crashed: RunLock | null = null;
  if (o.resume) {
    if (request) throw new UsageError("--resume continues a recorded run: give no request with it.");
    if (o.kind) throw new UsageError("--resume continues a recorded run with its own work kind: drop --kind.");
    if (!RUN_ID.test(o.resume)) throw new UsageError(`--resume ${o.resume}: not a run id. \`harness runs\` lists the runs of this project.`);
    let bytes: string;
    try {
      ({ record, bytes } = readRecord(root, o.resume));
    } catch (e) {
      if (e instanceof RecordError) throw new UsageError(`--resume ${o.resume}: ${e.message}`);
      throw e;
    }
    const problem = digestProblem(root, record.id, bytes);
    if (problem) throw new UsageError(`--resume ${o.resume}: ${problem}. Start a new run instead.`);
    if (record.source !== "runner") throw new UsageError(`--resume ${o.resume}: this run was recorded by the in-host run controller; continue it in ${record.host}.`);
    const lock = readRunLock(root, record.id);
    if (lock && lockHeld(lock)) throw new UsageError(`--resume ${o.resume}: the run is still going in process ${lock.pid}. Let it finish, or stop it with Ctrl-C there, then resume.`);
    // a `running` record whose runner is gone: it crashed or was killed, and is resumed like an interrupted one
    if (record.status === "running") crashed = lock ?? { pid: 0, start: null, groups: [] };
    else if (record.status !== "waiting-gate" && record.status !== "interrupted") throw new UsageError(`--resume ${o.resume}: the run is ${record.status}${record.ending ? ` (${record.ending})` : ""}; only a run waiting at a gate, interrupted, or left running by a runner that is gone can be resumed. Start a new run.`);
    if (o.host && o.host !== record.host) throw new UsageError(`--resume ${o.resume}: the run uses ${record.host}, not ${o.host}. Drop --host.`);
    host = record.host;
  } else {
    if (!request?.trim()) throw new UsageError('harness run needs a request, e.g. harness run "add a --json flag to list".');
    host = pickHost(root, o.host, [...drivable.keys()]);
    record = null as unknown as RunRecord;
  }
  // the installed files must be the ones roles/ produce now: the runner relies on their limits
  const { checkInstalled } = await import("../commands/install.js");
  if ((await checkInstalled({ registry: o.registry, version: o.version, roles: rolesDir, into: root, host: [host], quiet: true })) !== 0)
    throw new UsageError(`harness run: the installed host files are missing or out of sync with ${path.relative(root, rolesDir) || "."}/ (listed above). Run \`harness install --host ${host}\`, commit the result, then run again.`);
  const { pipeline } = readPipeline(rolesDir, { knownHosts: Object.keys(o.registry) });
  if (o.kind && !pipeline.workKinds.some((k) => k.id === o.kind)) throw new UsageError(`--kind ${o.kind}: not a work kind of ${pipeline.name} (${pipeline.workKinds.map((k) => k.id).join(", ")}).`);
  const approve = new Set((o.approve ?? []).flatMap((a) => a.split(",")).map((a) => a.trim()).filter(Boolean));
  const gates = new Set(pipeline.stages.flatMap((s) => (s.gate ? [s.gate.approve, s.id] : [])));
  for (const a of approve) if (!gates.has(a)) throw new UsageError(`--approve ${a}: ${pipeline.name} has no such gate (${[...new Set(pipeline.stages.flatMap((s) => (s.gate ? [s.gate.approve] : [])))].join(", ") || "none"}).`);

  const load = drivable.get(host);
  if (!load) throw new UsageError(`--resume ${o.resume}: the run uses ${host}, which harness run does not drive (it drives ${[...drivable.keys()].join(", ")}).`);
  let driver = await load();
  // a sandboxed run stays sandboxed on --resume, whatever the flags: never unsandboxed without a word
  const sandbox = Boolean(o.sandbox || (o.resume && record.sandbox));
  if (sandbox) {
    if (!driver.sandboxed) throw new UsageError(`--sandbox: harness run drives the sandbox of claude-code only so far, not ${host}'s. Run without --sandbox, or with --host claude-code.`);
    const problem = driver.sandboxProblem?.() ?? null;
    if (problem) throw new UsageError(`${problem}.${o.resume && !o.sandbox ? " This run was started with --sandbox, so it resumes only in the sandbox." : ""}`);
    driver = driver.sandboxed();
  }
  const tty = Boolean(process.stdin.isTTY);
  const showProgress = !o.json && Boolean(stream(2).isTTY);
  const reader = lineReader(tty);
  const started = Date.now();
  const io: RunIO = {
    tty,
    ask: (p) => reader.ask(`${p}`),
    event(e: RunEvent) {
      if (o.json) stream(1).write(`${JSON.stringify({ ...e, at: new Date().toISOString() })}\n`);
      else {
        const line = progressLine(e, showProgress, started);
        if (line) stream(2).write(`${line}\n`);
      }
    },
  };
  const controller = new AbortController();
  let unwatch: (() => void) | null = null;
  const onSignal = () => controller.abort();
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    if (!o.resume) record = newRecord({ id: newRunId(), host, pipeline, request: request!.trim(), started: new Date(), budget: pipeline.budget?.tokens ?? null });
    if (sandbox) record.sandbox = true;
    const persist = (r: RunRecord) => saveDigest(root, r.id, writeRecord(root, r));
    const ctx = { root, pipeline, driver, io, approve, signal: controller.signal, persist };
    const runner = new Runner(ctx, record);
    // this process owns the run until it ends: its pid and live process groups, for a later --resume
    const own = (groups: readonly number[]) => writeLock(root, record.id, { pid: process.pid, start: processStart(process.pid), groups: [...groups] });
    own([]);
    unwatch = watchGroups(own);
    if (!o.resume) {
      persist(record);
      io.event({ event: "run", id: record.id, host, pipeline: pipeline.name, request: record.request });
    } else io.event({ event: "resume", id: record.id, host, status: record.status });
    if (crashed) {
      const stopped = await stopLeftovers(root, crashed);
      for (const s of record.stages.filter((x) => x.status === "running")) {
        s.status = "pending";
        s.reason = "the runner stopped during this stage (it crashed or was killed); run again on --resume";
      }
      io.event({ event: "recovered", id: record.id, stopped });
    }
    if (record.kind === null) {
      // an interrupted classification is asked again on --resume
      const kind = o.kind ?? (await classify(ctx, record)).kind;
      if (controller.signal.aborted) return EXIT[(await runner.drive(true)).status];
      if (!kind) {
        record.status = "failed";
        record.ending = `the classifying session named no work kind of ${pipeline.name}; pass --kind (${pipeline.workKinds.map((k) => k.id).join(", ")})`;
        record.ended = new Date().toISOString();
        persist(record);
        io.event({ event: "end", id: record.id, status: record.status, ending: record.ending });
        return 1;
      }
      planKind(record, pipeline, kind);
      io.event({ event: "kind", id: record.id, kind, stages: record.stages.map((s) => s.stage) });
    }
    const end = await runner.drive(Boolean(o.resume));
    return EXIT[end.status];
  } finally {
    unwatch?.();
    if (record?.id) removeLock(root, record.id);
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    reader.close();
  }
}
