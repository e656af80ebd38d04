// What one run can need in delegations (hops): every delegated stage once (a repair stage too), one
// more for each retry of a check that sends work back to a delegated stage (two through a repair
// stage: it, then the stage it repairs), and the delegated loop stages again for each extra loop
// round. The default max_hops is this number; a lower max_hops is a warning, because the
// orchestrator would stop a run that is still within its own retry and loop limits.
import type { PipelineFileData } from "../schema/pipeline.js";

export interface HopNeed {
  total: number;
  delegated: number;
  retries: number;
  loop: number;
}

export function hopNeed(pipeline: PipelineFileData, isolationOf: (role: string) => string | undefined): HopNeed {
  const stages = pipeline.stages.flatMap((e) => ("parallel" in e ? e.parallel : [e]));
  const roleOf = new Map<string, string>();
  for (const s of stages) if (!roleOf.has(s.id)) roleOf.set(s.id, s.role);
  const delegatedStage = (id: string) => {
    const role = roleOf.get(id);
    return role !== undefined && isolationOf(role) === "subagent";
  };
  const delegated = stages.filter((s) => delegatedStage(s.id)).length;
  const repairFor = new Map(stages.filter((s) => s.repair_for).map((s) => [s.id, s.repair_for!] as const));
  // a retry through a repair stage runs the repair stage, then the repaired stage again
  const perRetry = (c: PipelineFileData["checks"][number]) => (delegatedStage(c.on_failure) ? 1 : 0) + (repairFor.has(c.on_failure) && delegatedStage(c.after) ? 1 : 0);
  const retries = pipeline.checks.filter((c) => c.on_failure !== "human").reduce((n, c) => n + c.retries * perRetry(c), 0);
  const loop = pipeline.loop ? (pipeline.loop.max_rounds - 1) * pipeline.loop.stages.filter(delegatedStage).length : 0;
  return { total: delegated + retries + loop, delegated, retries, loop };
}

export function describeNeed(n: HopNeed): string {
  return `${n.delegated} delegated stage(s) + ${n.retries} check retr${n.retries === 1 ? "y" : "ies"} + ${n.loop} loop re-run(s)`;
}
