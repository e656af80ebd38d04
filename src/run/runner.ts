// The control flow of `harness run`: which stage runs next, the checks between stages, retries,
// caps, verdicts, gates and the budget. Every decision comes from this process's memory (the record
// object it holds) and from exit codes; the record on disk is only written, never read back here.
import type { CheckIR, PipelineIR, StageIR } from "../ir/types.js";
import type { CheckRecord, RunRecord, StageRecord } from "../runs/record.js";
import { handedOn, stageBrief } from "./brief.js";
import type { HostDriver } from "../adapter/runner.js";
import { addTokens, pendingEntry } from "./plan.js";
import { declaredCondition, declaredStatus, declaredVerdict, PASSING_VERDICTS, questions, shortReport } from "./report.js";
import { fileSha } from "./trust.js";
import { changedBetween, outOfScope, runCommand, snapshot, tail } from "./workspace.js";

export type RunEvent = { event: string } & Record<string, unknown>;

export interface RunIO {
  /** a human at a terminal can answer gates */
  tty: boolean;
  /** ask the human; null when nobody answers (end of input) */
  ask(prompt: string): Promise<string | null>;
  event(e: RunEvent): void;
}

export interface RunnerContext {
  root: string;
  pipeline: PipelineIR;
  driver: HostDriver;
  io: RunIO;
  /** gates approved on the command line (`--approve spec,blueprint`), by artifact or stage id */
  approve: ReadonlySet<string>;
  signal: AbortSignal;
  /** write the record (and its digest) */
  persist(r: RunRecord): void;
  now?: () => Date;
}

const MAX_QUESTION_ROUNDS = 10;
const APPROVE = /^(approve|approved|a|y|yes)$/i;

export class Runner {
  private readonly p: PipelineIR;
  constructor(
    private readonly ctx: RunnerContext,
    private readonly r: RunRecord,
  ) {
    this.p = ctx.pipeline;
  }

  private now = () => (this.ctx.now ?? (() => new Date()))().toISOString();
  private save = () => this.ctx.persist(this.r);

  private end(status: RunRecord["status"], ending: string | null): RunRecord {
    this.r.status = status;
    this.r.ending = ending;
    this.r.ended = status === "waiting-gate" || status === "interrupted" ? null : this.now();
    this.save();
    this.ctx.io.event({ event: "end", id: this.r.id, status, ending, ...(status === "waiting-gate" || status === "interrupted" ? { resume: `harness run --resume ${this.r.id}` } : {}) });
    return this.r;
  }

  private stop(e: StageRecord, status: StageRecord["status"], reason: string, run: RunRecord["status"] = "stopped"): RunRecord {
    e.status = status;
    e.reason = reason;
    e.ended = this.now();
    this.ctx.io.event({ event: "stage", stage: e.stage, role: e.role, status, round: e.round, reason, tokens: e.tokens });
    return this.end(run, `${e.stage}: ${reason}`);
  }

  private interrupted(e: StageRecord | null): RunRecord {
    if (e) {
      e.status = "pending";
      e.reason = "interrupted";
      e.ended = this.now();
    }
    return this.end("interrupted", `interrupted${e ? ` during ${e.stage}` : ""} (Ctrl-C); resume with \`harness run --resume ${this.r.id}\``);
  }

  private stageOf = (e: StageRecord) => this.p.stages.find((s) => s.id === e.stage)!;
  private roleOf = (e: StageRecord) => this.p.roles.find((x) => x.id === e.role)!;
  private artifactPath = (name: string) => this.p.artifacts.find((a) => a.name === name)!.paths[0]!;

  /** The gate a done stage still needs, with its artifact's current sha256. */
  private gateNeeded(): { e: StageRecord; stage: StageIR; path: string; sha: string | null } | null {
    for (const e of this.r.stages) {
      if (e.status !== "done") continue;
      const stage = this.stageOf(e);
      if (!stage.gate) continue;
      const path = this.artifactPath(stage.gate.approve);
      const sha = fileSha(this.ctx.root, path);
      const last = [...this.r.gates].reverse().find((g) => g.gate === stage.gate!.approve);
      if (!last || last.decision !== "approved" || last.sha256 !== sha) return { e, stage, path, sha };
    }
    return null;
  }

  /** Run until the pipeline passes, stops, waits at a gate or is interrupted. */
  async drive(resumed: boolean): Promise<RunRecord> {
    this.r.status = "running";
    this.r.ending = null;
    this.r.ended = null;
    this.save();
    let first = resumed;
    for (;;) {
      if (this.ctx.signal.aborted) return this.interrupted(null);
      const need = this.gateNeeded();
      if (need) {
        const last = [...this.r.gates].reverse().find((g) => g.gate === need.stage.gate!.approve);
        if (last?.decision === "approved") {
          // an approved artifact changed: the approval no longer holds
          this.r.gates.push({ gate: last.gate, artifact: need.path, sha256: need.sha ?? "", decision: "void", at: this.now(), channel: resumed ? "resume" : "tty" });
          const later = this.r.stages.some((s) => s.status !== "pending" && this.r.stages.indexOf(s) > this.r.stages.indexOf(need.e));
          if (!first && later) return this.end("stopped", `${need.path} changed after the ${last.gate} gate approved it; the approval is void. Review it, then \`harness run --resume ${this.r.id}\``);
        }
        const outcome = await this.gate(need.e, need.stage, need.path, need.sha);
        if (outcome) return outcome;
        continue;
      }
      first = false;
      const e = this.r.stages.find((s) => s.status === "pending");
      if (!e) break;
      const outcome = await this.stage(e);
      if (outcome) return outcome;
    }
    return this.end("passed", null);
  }

  private async gate(e: StageRecord, stage: StageIR, path: string, sha: string | null): Promise<RunRecord | null> {
    const gate = stage.gate!;
    if (sha === null) return this.stop(e, "failed", `${path} is missing; the ${gate.approve} gate cannot be asked`, "failed");
    const record = (decision: "approved" | "feedback", channel: "tty" | "flag", feedback?: string) => {
      this.r.gates.push({ gate: gate.approve, artifact: path, sha256: sha, decision, at: this.now(), channel, ...(feedback !== undefined ? { feedback } : {}) });
      this.ctx.io.event({ event: "gate", gate: gate.approve, artifact: path, sha256: sha, decision, channel });
      this.save();
    };
    if (this.ctx.approve.has(gate.approve) || this.ctx.approve.has(stage.id)) {
      record("approved", "flag");
      return null;
    }
    if (!this.ctx.io.tty) {
      this.ctx.io.event({ event: "gate-wait", gate: gate.approve, artifact: path, sha256: sha, ask: gate.ask });
      return this.end("waiting-gate", `waiting at the ${gate.approve} gate (${path}); approve it from a terminal with \`harness run --resume ${this.r.id}\`, or \`harness run --resume ${this.r.id} --approve ${gate.approve}\``);
    }
    for (;;) {
      const answer = await this.ctx.io.ask(`${gate.ask.trim()}\n(${path}, sha256 ${sha.slice(0, 12)}) approve / feedback> `);
      if (this.ctx.signal.aborted) return this.interrupted(null);
      if (answer === null) return this.end("waiting-gate", `no answer at the ${gate.approve} gate; \`harness run --resume ${this.r.id}\` asks again`);
      const a = answer.trim();
      if (!a) continue;
      if (fileSha(this.ctx.root, path) !== sha) return this.end("stopped", `${path} changed while the ${gate.approve} gate was asked; \`harness run --resume ${this.r.id}\` asks again`);
      if (APPROVE.test(a)) {
        record("approved", "tty");
        return null;
      }
      record("feedback", "tty", a);
      // the stage reruns in its own session with the human's feedback; later gates ask again
      e.status = "pending";
      e.note = `The human read ${path} at the ${gate.approve} gate and asks for changes:\n${a}\nRevise it, then report again.`;
      this.save();
      return null;
    }
  }

  private async stage(e: StageRecord): Promise<RunRecord | null> {
    const stage = this.stageOf(e);
    const role = this.roleOf(e);
    const { caps, budget } = this.r;
    if (stage.when) {
      const said = this.r.stages.map((s) => (s.report ? declaredCondition(s.report, stage.when!.id) : null)).filter((x) => x !== null);
      if (!said.includes(true)) {
        e.status = "skipped";
        e.reason = `${stage.when.id}: ${said.length ? "no earlier report says yes" : "no earlier report says it holds"}`;
        this.ctx.io.event({ event: "stage", stage: e.stage, role: e.role, status: "skipped", reason: e.reason });
        this.save();
        return null;
      }
    }
    if (caps.hops.used >= caps.hops.max) return this.stop(e, "refused", `hop cap reached (${caps.hops.used}/${caps.hops.max} stage sessions, policies.max_hops)`);
    if (budget && budget.tokens.used >= budget.tokens.max) return this.stop(e, "refused", `token budget spent (${budget.tokens.used}/${budget.tokens.max}, pipeline.yaml budget.tokens)`);
    const loop = this.p.loop;
    if (loop && caps.loop && loop.stages.includes(e.stage) && caps.loop.used === 0) caps.loop.used = 1;
    const handsBack = role.writes.some((n) => this.p.artifacts.find((a) => a.name === n)?.message);
    const asksHuman = role.tools.includes("ask-human");
    const brief = () => stageBrief({ pipeline: this.p, stage, role, request: this.r.request, kind: this.r.kind ?? "", asksHuman, ...handedOn(this.p, this.r.stages, e, role) });
    let prompt = e.note ?? brief();
    if (e.note && !e.session) prompt = `${brief()}\n${e.note}\n`;
    let resume = e.note ? e.session : null;
    for (;;) {
      caps.hops.used++;
      e.status = "running";
      e.started ??= this.now();
      e.ended = null;
      e.reason = null;
      delete e.note;
      this.save();
      this.ctx.io.event({ event: "stage-start", stage: e.stage, role: e.role, round: e.round, retry: e.retries });
      const before = snapshot(this.ctx.root);
      let result = await this.ctx.driver.run({ role: e.role, prompt, resume, cwd: this.ctx.root, write: role.write, neverWrite: role.neverWrite, signal: this.ctx.signal });
      for (let round = 0; ; round++) {
        if (result.interrupted || this.ctx.signal.aborted) return this.interrupted(e);
        e.session = result.session ?? e.session;
        addTokens(this.r, result, e);
        if (result.error || result.exit !== 0) return this.stop(e, "failed", result.error ?? `the ${this.ctx.driver.program} session exited ${result.exit}`, "failed");
        e.report = shortReport(result.text);
        // a message artifact is passed on whole (capped only so a runaway reply cannot bloat the record)
        if (handsBack) e.message = shortReport(result.text, 64 * 1024);
        if (!(asksHuman && declaredStatus(result.text) === "needs-human" && round < MAX_QUESTION_ROUNDS)) break;
        // a role that asks the human, headless: its questions go to whoever runs the runner
        const q = questions(result.text);
        this.ctx.io.event({ event: "question", stage: e.stage, role: e.role, questions: q });
        const answer = await this.ctx.io.ask(`${role.title} asks:\n${q}\nanswer> `);
        if (this.ctx.signal.aborted) return this.interrupted(e);
        if (!answer?.trim()) return this.stop(e, "needs-human", `${role.title} has questions nobody answered; answer them with \`harness run --resume ${this.r.id}\` on a terminal`);
        this.save();
        result = await this.ctx.driver.run({ role: e.role, prompt: `The human answers:\n${answer.trim()}`, resume: e.session, cwd: this.ctx.root, write: role.write, neverWrite: role.neverWrite, signal: this.ctx.signal });
      }
      e.files = [...new Set([...e.files, ...changedBetween(before, snapshot(this.ctx.root))])].sort();
      const status = declaredStatus(result.text);
      e.verdict = declaredVerdict(result.text);
      if (status === null) return this.stop(e, "failed", "the report has no `Status: done | blocked | needs-human` line", "failed");
      if (status === "blocked") return this.stop(e, "blocked", `${role.title} is blocked: ${firstLines(result.text)}`);
      if (status === "needs-human" || e.verdict === "needs-human") return this.stop(e, "needs-human", `${role.title} needs the human: ${firstLines(result.text)}`);
      const outside = outOfScope(role, e.files);
      if (outside.length) return this.stop(e, "refused", `changed ${outside.join(", ")} outside ${role.id}'s write scope`);
      const missing = role.writes.map((n) => this.p.artifacts.find((a) => a.name === n)!).filter((a) => a.document && fileSha(this.ctx.root, a.paths[0]!) === null);
      if (missing.length) return this.stop(e, "failed", `did not write ${missing.map((a) => a.paths[0]).join(", ")}`, "failed");
      const failure = await this.checks(e, status, e.verdict);
      if (failure === "interrupted") return this.interrupted(e);
      if (failure === null) {
        e.status = "done";
        e.ended = this.now();
        this.ctx.io.event({ event: "stage", stage: e.stage, role: e.role, status: "done", round: e.round, retries: e.retries, verdict: e.verdict, tokens: e.tokens, started: e.started });
        this.save();
        return null;
      }
      const next = this.onFailure(e, failure.check, failure.output);
      if (next !== "retry") return next;
      // the same stage again: resume its session with the failure output
      if (caps.hops.used >= caps.hops.max) return this.stop(e, "refused", `hop cap reached (${caps.hops.used}/${caps.hops.max} stage sessions, policies.max_hops)`);
      if (budget && budget.tokens.used >= budget.tokens.max) return this.stop(e, "refused", `token budget spent (${budget.tokens.used}/${budget.tokens.max}, pipeline.yaml budget.tokens)`);
      e.retries++;
      prompt = `The check "${failure.check.id}" failed after your stage (${failure.check.description.trim()}):\n${failure.output}\nFix it within your scope, then report again.`;
      resume = e.session;
    }
  }

  /** Run the stage's checks in order; the first failing one (with its output), or null when all pass. */
  private async checks(e: StageRecord, status: string, verdict: string | null): Promise<{ check: CheckIR; output: string } | null | "interrupted"> {
    for (const c of this.p.checks.filter((x) => x.after === e.stage)) {
      let rec: CheckRecord;
      let output: string;
      if (c.command) {
        const n = e.checks.filter((x) => x.check === c.id).length + 1;
        const run = await runCommand(this.ctx.root, this.r.id, c.command.run, `${e.stage}-${c.id}-${e.round}-${n}.log`, this.ctx.signal);
        if (run.interrupted) return "interrupted";
        const passed = c.expect === "pass" ? run.exit === 0 : run.exit !== 0 && run.exit !== null;
        rec = { check: c.id, command: c.command.run, expect: c.expect, exit: run.exit, passed, durationMs: run.durationMs, log: run.log };
        output = `\`${c.command.run}\` exited ${run.exit} (expected to ${c.expect}):\n${tail(run.output)}`;
      } else {
        // a judgement check: the stage's declared status and verdict decide it
        const passed = status === "done" && (verdict === null || PASSING_VERDICTS.has(verdict));
        rec = { check: c.id, command: null, expect: c.expect, exit: null, passed, durationMs: 0, log: null };
        output = `${e.role} reported ${verdict ? `verdict ${verdict}` : `status ${status}`}:\n${e.report ?? ""}`;
      }
      e.checks.push(rec);
      this.ctx.io.event({ event: "check", stage: e.stage, check: c.id, passed: rec.passed, exit: rec.exit, expect: rec.expect, log: rec.log });
      this.save();
      if (!rec.passed) return { check: c, output };
    }
    return null;
  }

  /** A failed check: retry the stage, send the work back into the loop, or stop. */
  private onFailure(e: StageRecord, c: CheckIR, output: string): "retry" | RunRecord | null {
    const { caps } = this.r;
    const cap = caps.retries[c.id]!;
    if (c.onFailure === "human") return this.stop(e, "failed", `check ${c.id} failed; it goes to the human (on_failure: human)`);
    const loop = this.p.loop;
    const intoLoop = loop && caps.loop && c.onFailure !== e.stage && loop.stages.includes(c.onFailure) && loop.stages.includes(e.stage);
    if (intoLoop && caps.loop!.used >= caps.loop!.max) return this.stop(e, "failed", `check ${c.id} failed in round ${caps.loop!.used} of ${caps.loop!.max}: ${loop!.onExhausted.trim()}`);
    if (cap.used >= cap.max) return this.stop(e, "failed", `check ${c.id} still fails after ${cap.max} retr${cap.max === 1 ? "y" : "ies"}`);
    cap.used++;
    if (c.onFailure === e.stage) return "retry";
    const repair = this.p.stages.find((s) => s.id === c.onFailure && s.repairFor === e.stage);
    if (repair) return this.toRepair(e, c, repair, output, intoLoop ? ++caps.loop!.used : e.round);
    // back to an earlier stage: it and every stage up to this one run again
    const plan = this.r.kind ? this.p.workKinds.find((k) => k.id === this.r.kind)!.stages : [];
    const from = plan.indexOf(c.onFailure);
    const to = plan.indexOf(e.stage);
    if (from < 0 || from > to) return this.stop(e, "failed", `check ${c.id} sends the work to ${c.onFailure}, which this ${this.r.kind} run does not go back to`);
    if (intoLoop) caps.loop!.used++;
    const round = intoLoop ? caps.loop!.used : e.round;
    e.status = "failed";
    e.reason = `check ${c.id} failed; back to ${c.onFailure}${intoLoop ? ` (round ${round})` : ""}`;
    e.ended = this.now();
    this.ctx.io.event({ event: "stage", stage: e.stage, role: e.role, status: "failed", round: e.round, reason: e.reason });
    const again = plan.slice(from, to + 1).map((id) => {
      const entry = pendingEntry(this.p.stages.find((s) => s.id === id)!, round);
      if (id === c.onFailure) {
        const last = [...this.r.stages].reverse().find((s) => s.stage === id);
        entry.session = last?.session ?? null;
        entry.note = `The check "${c.id}" failed after the ${e.stage} stage (${c.description.trim()}):\n${output}\nFix it within your scope, then report again.`;
      }
      return entry;
    });
    this.r.stages.splice(this.r.stages.indexOf(e) + 1, 0, ...again);
    // the loop's stages still ahead run in the new round too
    if (intoLoop) for (const s of this.r.stages.slice(this.r.stages.indexOf(e) + 1 + again.length)) if (s.status === "pending" && loop!.stages.includes(s.stage)) s.round = round;
    this.save();
    return null;
  }

  /** A repair stage after the failed one: it runs with the failure output, then the failed stage runs again. */
  private toRepair(e: StageRecord, c: CheckIR, repair: StageIR, output: string, round: number): null {
    e.status = "failed";
    e.reason = `check ${c.id} failed; to the repair stage ${repair.id}, then ${e.stage} again${round !== e.round ? ` (round ${round})` : ""}`;
    e.ended = this.now();
    this.ctx.io.event({ event: "stage", stage: e.stage, role: e.role, status: "failed", round: e.round, reason: e.reason });
    const fix = pendingEntry(repair, round);
    // a second repair continues the repair stage's own session
    fix.session = [...this.r.stages].reverse().find((s) => s.stage === repair.id)?.session ?? null;
    fix.note = `The check "${c.id}" failed after the ${e.stage} stage (${c.description.trim()}):\n${output}\nRepair what it found within your scope, then report; ${e.stage} runs again after you.`;
    this.r.stages.splice(this.r.stages.indexOf(e) + 1, 0, fix, pendingEntry(this.stageOf(e), round));
    this.save();
    return null;
  }
}

const firstLines = (t: string) => t.trim().split("\n").slice(0, 3).join(" / ").slice(0, 300);
