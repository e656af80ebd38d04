// The run controller's process model: what the generated controller hook needs to hold one pipeline
// run to its process (order, work kinds, gates, checks with commands, judgement verdicts, caps),
// compiled from the Pipeline IR. Host-neutral; each host embeds it with its shim (adapters/<host>/).
// Small on purpose: it is parsed before every tool call of a bound session.
import type { PipelineIR } from "../../ir/types.js";
import { roleById } from "../../ir/lookup.js";
import { HARNESS_STATE_DIR } from "../../schema/vocabulary.js";

export interface ControllerCheck {
  id: string;
  /** the command line the controller runs at stage end; absent = a judgement check */
  run?: string;
  /** the pipeline command's id (for logs) */
  cmd?: string;
  expect: "pass" | "fail";
  retries: number;
  /** "human" or the stage that may run next when the check fails */
  onFailure: string;
}

export interface ControllerStage {
  id: string;
  role: string;
  /** runs in the orchestrator's session (its start is its first write to its artifact) */
  main?: 1;
  /** parallel group: stages with one group number may run in any order */
  group: number;
  /** the condition name when the stage is conditional (it may be skipped, with a reason) */
  when?: string;
  /** a repair stage: the stage it repairs; it runs only when a check of that stage routes to it, then that stage runs again */
  repair?: string;
  /** the gate after this stage: its name (the artifact) and the artifact's path */
  gate?: { name: string; path: string };
  /** the single-document artifacts the role writes: each must exist and be non-empty at stage end */
  docs: string[];
  /** the document whose `Verdict:` line decides the stage's judgement checks */
  verdictDoc?: string;
  /** no document, but the role hands back a message artifact: its final message's `Verdict:` line decides them */
  verdictMsg?: 1;
  checks: ControllerCheck[];
  /** pipeline commands to run after the stage that no check judges (logged, never a verdict) */
  steps: { id: string; run: string }[];
}

export interface ControllerModel {
  v: 1;
  pipeline: string;
  /** the prompt that starts (or continues) a run: the pipeline's command */
  entry: string;
  stateDir: string;
  stages: ControllerStage[];
  kinds: Record<string, string[]>;
  loop: { stages: string[]; max: number; onExhausted: string } | null;
  maxHops: number;
}

/** `entry`: how the host's human starts the pipeline (Claude Code `/<name>`, Codex `$<name>`). */
export function compileControllerModel(pipeline: PipelineIR, entry = `/${pipeline.name}`): ControllerModel {
  const artifact = (name: string) => pipeline.artifacts.find((a) => a.name === name);
  const stages: ControllerStage[] = pipeline.stages.map((s) => {
    const role = roleById(pipeline, s.role)!;
    // a worktree role writes in its own checkout: its documents are not in the project at stage end
    const docs = role.worktree ? [] : role.writes.map(artifact).filter((a) => a?.document).map((a) => a!.paths[0]!);
    const checks = pipeline.checks.filter((c) => c.after === s.id);
    const judged = checks.some((c) => !c.command);
    const gateDoc = s.gate ? artifact(s.gate.approve) : undefined;
    const checkCommands = new Set(checks.map((c) => c.command?.id).filter(Boolean));
    return {
      id: s.id,
      role: s.role,
      ...(role.isolation === "main" ? { main: 1 as const } : {}),
      group: s.group,
      ...(s.when ? { when: s.when.id } : {}),
      ...(s.repairFor ? { repair: s.repairFor } : {}),
      ...(s.gate && gateDoc?.document ? { gate: { name: s.gate.approve, path: gateDoc.paths[0]! } } : {}),
      docs,
      ...(judged && docs.length ? { verdictDoc: docs[0]! } : judged && verdictInMessage(pipeline, s.role) ? { verdictMsg: 1 as const } : {}),
      checks: checks.map((c) => ({
        id: c.id,
        ...(c.command ? { run: c.command.run, cmd: c.command.id } : {}),
        expect: c.expect,
        retries: c.retries,
        onFailure: c.onFailure,
      })),
      steps: pipeline.commands.filter((c) => c.after.includes(s.id) && !checkCommands.has(c.id)).map((c) => ({ id: c.id, run: c.run })),
    };
  });
  return {
    v: 1,
    pipeline: pipeline.name,
    entry,
    stateDir: HARNESS_STATE_DIR,
    stages,
    // a kind that runs a stage runs its repair stages too (they are no step unless a check routes there)
    kinds: Object.fromEntries(pipeline.workKinds.map((k) => [k.id, [...k.stages, ...pipeline.stages.filter((s) => s.repairFor && k.stages.includes(s.repairFor) && !k.stages.includes(s.id)).map((s) => s.id)]])),
    loop: pipeline.loop ? { stages: [...pipeline.loop.stages], max: pipeline.loop.maxRounds, onExhausted: pipeline.loop.onExhausted } : null,
    maxHops: pipeline.policies.maxHops,
  };
}

/** A subagent stage with no document whose role hands back a message artifact: the controller reads its verdict from the final message. */
export function verdictInMessage(pipeline: PipelineIR, roleId: string): boolean {
  const role = roleById(pipeline, roleId)!;
  const docs = role.worktree ? [] : role.writes.filter((n) => pipeline.artifacts.find((a) => a.name === n)?.document);
  return role.isolation === "subagent" && !docs.length && role.writes.some((n) => pipeline.artifacts.find((a) => a.name === n)?.message);
}

/** The shell step through which the orchestrator declares the work kind (the controller records it and refuses the call). */
export const KIND_STEP = ": harness kind";
/** The shell step that records a skipped conditional stage with its reason. */
export const SKIP_STEP = ": harness skip";
