// The process constraints a host without a wired run controller still reports: stage order (and the
// work kind) and the hop cap, at `instructed`, with the reason the controller does not hold them there.
import type { FidelityRecord } from "../fidelity.js";
import type { PipelineIR } from "../../ir/types.js";

/** Why each host without the controller keeps the process `instructed` (MAPPING.md says it). */
export const CONTROLLER_ABSENT: Readonly<Record<string, string>> = {
  "gemini-cli": "the run controller is not wired on Gemini CLI yet (it has no SubagentStop, only AfterTool on invoke_agent)",
  opencode: "OpenCode plugins hang offline, so no process hook can be proven on the real host",
  kilo: "Kilo plugins (OpenCode's) hang offline, so no process hook can be proven on the real host",
  cursor: "Cursor has no CLI here, so no process hook can be proven on the real host",
  antigravity: "Antigravity has no CLI here, so no process hook can be proven on the real host",
};

export function instructedProcessRecords(pipeline: PipelineIR, host: string, who: string): FidelityRecord[] {
  const why = CONTROLLER_ABSENT[host] ?? "no run controller on this host";
  return [
    { role: null, constraint: "order", level: "instructed", how: `${who} runs the work kind's stages in order (${why})`, loss: "L_ORDER_INSTRUCTED" },
    { role: null, constraint: "hop-cap", level: "instructed", how: `${who} stops after ${pipeline.policies.maxHops} delegations (${why})`, loss: "L_ORDER_INSTRUCTED" },
  ];
}
