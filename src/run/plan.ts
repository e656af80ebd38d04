// A run's starting state: the record the runner keeps in memory, the stages a work kind plans, the
// classifying session, and the token accounting.
import type { PipelineIR, StageIR } from "../ir/types.js";
import type { RunRecord, StageRecord } from "../runs/record.js";
import { classifyBrief } from "./brief.js";
import type { SessionResult } from "../adapter/runner.js";
import type { RunnerContext } from "./runner.js";

export function newRecord(o: { id: string; host: string; pipeline: PipelineIR; request: string; started: Date; budget: number | null }): RunRecord {
  const retries: Record<string, { used: number; max: number }> = {};
  for (const c of o.pipeline.checks) retries[c.id] = { used: 0, max: c.retries };
  return {
    version: 1,
    id: o.id,
    source: "runner",
    host: o.host,
    session: null,
    pipeline: o.pipeline.name,
    request: o.request,
    kind: null,
    status: "running",
    ending: null,
    started: o.started.toISOString(),
    ended: null,
    stages: [],
    gates: [],
    caps: { loop: o.pipeline.loop ? { used: 0, max: o.pipeline.loop.maxRounds } : null, hops: { used: 0, max: o.pipeline.policies.maxHops }, retries },
    budget: o.budget === null ? null : { tokens: { used: 0, max: o.budget } },
  };
}

export const pendingEntry = (s: StageIR, round: number): StageRecord => ({ stage: s.id, role: s.role, status: "pending", started: null, ended: null, retries: 0, round, session: null, files: [], checks: [], verdict: null, tokens: null, reason: null });

/** Plan the run for a work kind: one pending entry per stage, in the kind's order. A repair stage is
 *  no step of the plan: a failing check inserts it (src/run/runner.ts). */
export function planKind(r: RunRecord, p: PipelineIR, kind: string): void {
  const k = p.workKinds.find((w) => w.id === kind)!;
  r.kind = kind;
  r.stages = k.stages.map((id) => p.stages.find((s) => s.id === id)!).filter((s) => !s.repairFor).map((s) => pendingEntry(s, 1));
}

/** Ask a short session for the work kind; null (with the answer) when it is not one of the kinds. */
export async function classify(ctx: RunnerContext, r: RunRecord): Promise<{ kind: string | null; answer: string; result: SessionResult }> {
  const result = await ctx.driver.run({ role: null, prompt: classifyBrief(ctx.pipeline, r.request), resume: null, cwd: ctx.root, write: [], neverWrite: ctx.pipeline.policies.neverWrite, signal: ctx.signal });
  addTokens(r, result);
  const answer = result.text.trim();
  const word = answer.toLowerCase().replace(/[`*."']/g, "").trim();
  return { kind: ctx.pipeline.workKinds.some((k) => k.id === word) ? word : null, answer, result };
}

export function addTokens(r: RunRecord, s: SessionResult, e?: StageRecord): void {
  if (!s.tokens) return;
  if (e) {
    if (e.tokens && "input" in e.tokens && "input" in s.tokens) e.tokens = { input: e.tokens.input + s.tokens.input, output: e.tokens.output + s.tokens.output, ...(s.tokens.costUsd !== undefined ? { costUsd: (e.tokens.costUsd ?? 0) + s.tokens.costUsd } : {}) };
    else if (e.tokens && "premiumRequests" in e.tokens && "premiumRequests" in s.tokens) e.tokens = { premiumRequests: e.tokens.premiumRequests + s.tokens.premiumRequests };
    else e.tokens = s.tokens;
  }
  if (r.budget && "input" in s.tokens) r.budget.tokens.used += s.tokens.input + s.tokens.output;
}

