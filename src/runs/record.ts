// The run record (RUN-RECORD.md): <project>/.harness/runs/<run-id>.json, one file per run, written by
// `harness run` (source "runner") and by the generated in-host run controller (source "controller").
// This module is the one definition the reader and the runner's writer share: the shape, the key
// order, the atomic write, and a reader that says exactly what is wrong with a file it cannot use.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export const RUNS_DIR = ".harness/runs";
export const RUN_ID = /^\d{8}T\d{6}Z-[0-9a-f]{6}$/;

export type RunStatus = "running" | "waiting-gate" | "passed" | "stopped" | "failed" | "interrupted";
export type StageStatus = "pending" | "running" | "done" | "blocked" | "needs-human" | "failed" | "skipped" | "refused";
export const RUN_STATUSES: readonly RunStatus[] = ["running", "waiting-gate", "passed", "stopped", "failed", "interrupted"];
export const STAGE_STATUSES: readonly StageStatus[] = ["pending", "running", "done", "blocked", "needs-human", "failed", "skipped", "refused"];

export interface CheckRecord {
  check: string;
  command: string | null; // null: a judgement check decided by the stage's declared status/verdict
  expect: "pass" | "fail";
  exit: number | null;
  passed: boolean;
  durationMs: number;
  log: string | null;
}

export type Tokens = { input: number; output: number; costUsd?: number } | { premiumRequests: number };

export interface StageRecord {
  stage: string;
  role: string;
  status: StageStatus;
  started: string | null;
  ended: string | null;
  retries: number;
  round: number;
  session: string | null;
  files: string[];
  checks: CheckRecord[];
  verdict: string | null;
  tokens: Tokens | null;
  reason: string | null;
  /** optional: the stage's short report (its final reply, capped), briefed to later stages */
  report?: string;
  /** optional (runner): the stage's whole final reply, kept when its role hands back a message artifact (`kind: message`), for the briefs of the stages that read it */
  message?: string;
  /** optional (runner): what the next session of this pending stage is told (a failed check's output, gate feedback) */
  note?: string;
}

export interface GateRecord {
  gate: string;
  artifact: string;
  sha256: string;
  decision: "approved" | "feedback" | "void";
  at: string;
  channel: "tty" | "flag" | "prompt" | "resume";
  /** optional: the human's feedback */
  feedback?: string;
}

export interface CapRecord {
  used: number;
  max: number;
}

export interface RunRecord {
  version: 1;
  id: string;
  source: "runner" | "controller";
  host: string;
  session: string | null;
  pipeline: string;
  request: string;
  kind: string | null;
  status: RunStatus;
  ending: string | null;
  started: string;
  ended: string | null;
  stages: StageRecord[];
  gates: GateRecord[];
  caps: { loop: CapRecord | null; hops: CapRecord; retries: Record<string, CapRecord> };
  budget: { tokens: CapRecord } | null;
  /** `harness run --sandbox`: every session ran in the host's OS sandbox (kept on --resume) */
  sandbox?: true;
}

/** `<UTC yyyymmddThhmmssZ>-<6 hex>`: sorts by start time. */
export function newRunId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}Z$/, "Z");
  return `${stamp}-${crypto.randomBytes(3).toString("hex")}`;
}

export const recordPath = (root: string, id: string) => path.join(root, RUNS_DIR, `${id}.json`);
export const logDir = (root: string, id: string) => path.join(root, RUNS_DIR, id);

// Keys in the documented order, whatever order the object was built in; optional fields last.
function orderedStage(s: StageRecord): StageRecord {
  const o: StageRecord = {
    stage: s.stage,
    role: s.role,
    status: s.status,
    started: s.started,
    ended: s.ended,
    retries: s.retries,
    round: s.round,
    session: s.session,
    files: [...s.files],
    checks: s.checks.map((c) => ({ check: c.check, command: c.command, expect: c.expect, exit: c.exit, passed: c.passed, durationMs: c.durationMs, log: c.log })),
    verdict: s.verdict,
    tokens: s.tokens,
    reason: s.reason,
  };
  if (s.report !== undefined) o.report = s.report;
  if (s.message !== undefined) o.message = s.message;
  if (s.note !== undefined) o.note = s.note;
  return o;
}

/** The record's bytes: 2-space JSON in the documented key order, one trailing newline. */
export function serializeRecord(r: RunRecord): string {
  const ordered: RunRecord = {
    version: 1,
    id: r.id,
    source: r.source,
    host: r.host,
    session: r.session,
    pipeline: r.pipeline,
    request: r.request,
    kind: r.kind,
    status: r.status,
    ending: r.ending,
    started: r.started,
    ended: r.ended,
    stages: r.stages.map(orderedStage),
    gates: r.gates.map((g) => ({ gate: g.gate, artifact: g.artifact, sha256: g.sha256, decision: g.decision, at: g.at, channel: g.channel, ...(g.feedback !== undefined ? { feedback: g.feedback } : {}) })),
    caps: { loop: r.caps.loop, hops: r.caps.hops, retries: r.caps.retries },
    budget: r.budget,
    ...(r.sandbox ? { sandbox: true as const } : {}),
  };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

/** Write atomically (temp file + rename in the same folder); returns the bytes written. */
export function writeRecord(root: string, r: RunRecord): string {
  const file = recordPath(root, r.id);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const bytes = serializeRecord(r);
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(3).toString("hex")}.tmp`;
  fs.writeFileSync(tmp, bytes);
  fs.renameSync(tmp, file);
  return bytes;
}

export class RecordError extends Error {}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const nullableString = (v: unknown) => v === null || typeof v === "string";

/** Check a parsed record's shape; returns the first problem, or null. Unknown extra keys are allowed (optional fields). */
export function recordProblem(v: unknown): string | null {
  if (!isObj(v)) return "not a JSON object";
  if (v.version !== 1) return `version is ${JSON.stringify(v.version)}, this harness reads version 1`;
  for (const k of ["id", "host", "pipeline", "request", "started"]) if (typeof v[k] !== "string") return `"${k}" must be a string`;
  if (!RUN_ID.test(v.id as string)) return `"id" ${JSON.stringify(v.id)} is not <yyyymmddThhmmssZ>-<6 hex>`;
  if (v.source !== "runner" && v.source !== "controller") return `"source" must be "runner" or "controller"`;
  for (const k of ["session", "kind", "ending", "ended"]) if (!nullableString(v[k])) return `"${k}" must be a string or null`;
  if (!RUN_STATUSES.includes(v.status as RunStatus)) return `"status" ${JSON.stringify(v.status)} is not one of ${RUN_STATUSES.join(", ")}`;
  if (!Array.isArray(v.stages)) return `"stages" must be a list`;
  for (const [i, s] of v.stages.entries()) {
    if (!isObj(s) || typeof s.stage !== "string" || typeof s.role !== "string") return `stages[${i}] needs "stage" and "role"`;
    if (!STAGE_STATUSES.includes(s.status as StageStatus)) return `stages[${i}].status ${JSON.stringify(s.status)} is not one of ${STAGE_STATUSES.join(", ")}`;
    if (!Array.isArray(s.checks) || !Array.isArray(s.files)) return `stages[${i}] needs "files" and "checks" lists`;
  }
  if (!Array.isArray(v.gates)) return `"gates" must be a list`;
  if (!isObj(v.caps)) return `"caps" must be an object`;
  if (v.budget !== null && !isObj(v.budget)) return `"budget" must be an object or null`;
  return null;
}

/** Read and check one record; RecordError names the file and the problem. */
export function readRecord(root: string, id: string): { record: RunRecord; bytes: string } {
  const file = recordPath(root, id);
  const shown = path.join(RUNS_DIR, `${id}.json`);
  let bytes: string;
  try {
    bytes = fs.readFileSync(file, "utf8");
  } catch {
    throw new RecordError(`${shown}: no such run. \`harness runs\` lists the runs of this project.`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes);
  } catch (e) {
    throw new RecordError(`${shown}: not valid JSON (${(e as Error).message}). The file was cut short or edited by hand; it cannot be read.`);
  }
  const problem = recordProblem(parsed);
  if (problem) throw new RecordError(`${shown}: ${problem}. The file was not written by harness or was edited by hand.`);
  if ((parsed as RunRecord).id !== id) throw new RecordError(`${shown}: its "id" is ${(parsed as RunRecord).id}, not ${id}. The file was renamed or edited by hand.`);
  return { record: parsed as RunRecord, bytes };
}

/** Every run of the project, newest first; files that cannot be read come back as problems. */
export function listRecords(root: string): { records: RunRecord[]; problems: string[] } {
  const dir = path.join(root, RUNS_DIR);
  if (!fs.existsSync(dir)) return { records: [], problems: [] };
  const ids = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .map((f) => f.slice(0, -5))
    .sort()
    .reverse();
  const records: RunRecord[] = [];
  const problems: string[] = [];
  for (const id of ids) {
    if (!RUN_ID.test(id)) {
      problems.push(`${RUNS_DIR}/${id}.json: not a run record name (<yyyymmddThhmmssZ>-<6 hex>.json); ignored`);
      continue;
    }
    try {
      records.push(readRecord(root, id).record);
    } catch (e) {
      problems.push((e as Error).message);
    }
  }
  return { records, problems };
}
