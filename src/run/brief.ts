// The prompt of each stage session, built by the runner from the pipeline's briefing items, the
// artifacts and the earlier stages' short reports (never their transcripts).
import type { PipelineIR, RoleIR, StageIR } from "../ir/types.js";
import type { StageRecord } from "../runs/record.js";

export interface BriefInput {
  pipeline: PipelineIR;
  stage: StageIR;
  role: RoleIR;
  request: string;
  kind: string;
  /** the latest short report of each earlier stage, in run order */
  reports: readonly { stage: string; role: string; report: string }[];
  /** the role asks the human (ask-human tool) but the session is headless */
  asksHuman: boolean;
  /** the message artifacts the role reads: the latest final message of the stage that handed each back */
  messages?: readonly { artifact: string; stage: string; text: string }[];
}

const artifactLine = (p: PipelineIR, name: string) => {
  const a = p.artifacts.find((x) => x.name === name);
  if (a?.message) return `- ${name}: no file; ${a.description}`;
  return a ? `- ${name}: ${a.paths.join(", ")} (${a.description})` : `- ${name}`;
};

export function stageBrief(b: BriefInput): string {
  const { pipeline: p, stage, role } = b;
  const out: string[] = [];
  out.push(`You are ${role.title}, running the "${stage.id}" stage of the ${p.title} pipeline, started by \`harness run\` (work kind: ${b.kind}).`);
  out.push("", "## Why", `The request, in the human's words: ${JSON.stringify(b.request)}`);
  if (stage.description) out.push(`This stage: ${stage.description}`);
  out.push("", "## Read");
  if (role.reads.length) out.push(...role.reads.map((n) => artifactLine(p, n)));
  else out.push("- no earlier artifact; read what the request needs in the repository");
  for (const name of role.reads.filter((n) => p.artifacts.find((a) => a.name === n)?.message)) {
    const m = b.messages?.find((x) => x.artifact === name);
    out.push("", `### ${name} (the final message of the ${m ? m.stage : "earlier"} stage, passed on by harness)`, m ? m.text : "(no stage of this run has handed it back yet)");
  }
  if (b.reports.length) {
    out.push("", "Reports of the earlier stages (latest of each):");
    for (const r of b.reports) out.push("", `### ${r.stage} (${r.role})`, r.report);
  }
  const isMessage = (n: string) => p.artifacts.find((a) => a.name === n)?.message === true;
  const files = role.writes.filter((n) => !isMessage(n));
  const handBack = role.writes.filter(isMessage);
  out.push("", "## Done", role.done, "Write:", ...(files.length ? files.map((n) => artifactLine(p, n)) : ["- nothing"]));
  if (handBack.length) out.push("Hand back in your final reply, not in a file (harness passes it on to the stages that read it):", ...handBack.map((n) => artifactLine(p, n)));
  out.push("End your reply with your report. Its first line is `Status: done | blocked | needs-human`; a stage that gives a verdict adds a `Verdict:` line.");
  if (b.asksHuman)
    out.push(
      "No human is in this session. When you need answers that change what gets built, write nothing yet: reply `Status: needs-human` followed by `Questions:` and the questions; harness asks the human and resumes this session with the answers.",
    );
  out.push("", "## Off limits", role.forbidden);
  if (role.write.length) out.push(`You may write only: ${role.write.join(", ")}.`);
  if (role.neverWrite.length) out.push(`Never write: ${role.neverWrite.join(", ")}.`);
  out.push("Never commit, push or start other agents. harness runs the pipeline's commands and checks after you finish.");
  out.push("", "The pipeline briefs every stage on:", ...p.briefing.map((x) => `- ${x}`));
  return `${out.join("\n")}\n`;
}

/**
 * What the earlier stages hand on to `e` (the run's entries before it): the latest short report of each
 * stage, and each message artifact the role reads as the whole final reply of the latest stage whose
 * role hands it back. A stage whose message is passed on is not briefed a second time as a report.
 */
export function handedOn(p: PipelineIR, stages: readonly StageRecord[], e: StageRecord, role: RoleIR): Pick<BriefInput, "reports" | "messages"> {
  const before = stages.slice(0, stages.indexOf(e));
  const writes = (s: StageRecord, artifact: string) => p.roles.find((r) => r.id === s.role)?.writes.includes(artifact) === true;
  const messages = role.reads.flatMap((artifact) => {
    const from = [...before].reverse().find((s) => s.message !== undefined && writes(s, artifact));
    return from ? [{ artifact, stage: from.stage, text: from.message! }] : [];
  });
  const latest = new Map<string, StageRecord>();
  for (const s of before) if (s.report && s.stage !== e.stage) latest.set(s.stage, s);
  const reports = [...latest.values()].filter((s) => !messages.some((m) => m.stage === s.stage)).map((s) => ({ stage: s.stage, role: s.role, report: s.report! }));
  return { reports, messages };
}

export function classifyBrief(p: PipelineIR, request: string): string {
  const kinds = p.workKinds.map((k) => `- ${k.id}: ${k.description}`);
  return [`Classify this request for the ${p.title} pipeline into exactly one work kind.`, `Request: ${JSON.stringify(request)}`, "", "Work kinds:", ...kinds, "", "Answer with the work kind's id alone, nothing else. Do not use any tool."].join("\n");
}
