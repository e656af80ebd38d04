// The process constraints a host without a wired run controller still reports: stage order (and the
// work kind) and the hop cap, at `instructed`, with the reason the controller does not hold them there.
import type { FidelityRecord } from "../fidelity.js";
import type { PipelineIR } from "../../ir/types.js";
import { verdictInMessage } from "./model.js";

/**
 * Where a controller reads a judgement check's verdict, as MAPPING.md's checks row says it: the stage
 * document's `Verdict:` line, or the final message's for a stage that hands its result back as a message.
 */
export function judgementVerdictHow(pipeline: PipelineIR): string {
  const inMessage = pipeline.stages.filter((s) => verdictInMessage(pipeline, s.role)).map((s) => s.id);
  const base = "judgement checks read the stage document's Verdict line";
  return inMessage.length ? `${base}, or the final message's for a stage that hands its result back as a message (${inMessage.join(", ")})` : base;
}

/** `why`: the host's reason the controller does not hold the process there (its adapter says it; MAPPING.md shows it). */
export function instructedProcessRecords(pipeline: PipelineIR, who: string, why = "no run controller on this host"): FidelityRecord[] {
  return [
    { role: null, constraint: "order", level: "instructed", how: `${who} runs the work kind's stages in order (${why})`, loss: "L_ORDER_INSTRUCTED" },
    { role: null, constraint: "hop-cap", level: "instructed", how: `${who} stops after ${pipeline.policies.maxHops} delegations (${why})`, loss: "L_ORDER_INSTRUCTED" },
  ];
}
