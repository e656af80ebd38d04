// A prompt or description longer than a host documents it takes is a warning (W_HOST_LIMIT), at the
// role field it comes from: the host would cut it or refuse the file, and the build would not say.
// Measured on what the host receives (`prompts`: the role's full prompt with harness's limits).
import type { Diagnostic } from "../errors.js";
import type { PipelineIR, RoleIR } from "../ir/types.js";

interface Limit {
  hosts: readonly string[];
  what: "prompt" | "description";
  max: number;
  where: string; // what the host puts it in
  source: string;
}

const LIMITS: readonly Limit[] = [
  // "The prompt ... maximum of 30,000 characters": custom agents configuration,
  // https://docs.github.com/en/copilot/reference/custom-agents-configuration (hosts note: others.md §Copilot).
  { hosts: ["copilot"], what: "prompt", max: 30_000, where: "a custom agent's prompt (.github/agents/<role>.agent.md)", source: "docs.github.com/en/copilot/reference/custom-agents-configuration" },
  // Agent Skills: "description ... Max 1024 characters", https://agentskills.io/specification. Codex
  // writes each role that starts as a command as a skill (.codex/skills/<role>/SKILL.md, description = the role's).
  { hosts: ["codex"], what: "description", max: 1024, where: "a skill's description (.codex/skills/<role>/SKILL.md)", source: "agentskills.io/specification" },
];

export function hostLimitWarnings(pipeline: PipelineIR, host: string, prompts: Readonly<Record<string, string>>, files: readonly { path: string }[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const limit of LIMITS) {
    if (!limit.hosts.includes(host)) continue;
    for (const role of pipeline.roles) {
      if (limit.what === "description" && !files.some((f) => f.path.endsWith(`/skills/${role.id}/SKILL.md`))) continue;
      const text = limit.what === "prompt" ? (prompts[role.id] ?? "") : role.description;
      if (text.length <= limit.max) continue; // UTF-16 units are never fewer than characters: most builds stop here
      const length = [...text].length;
      if (length > limit.max) out.push(warning(role, limit, host, length));
    }
  }
  return out;
}

function warning(role: RoleIR, limit: Limit, host: string, length: number): Diagnostic {
  const field = limit.what === "prompt" ? "prompt" : "description";
  const at = (limit.what === "description" ? role.source.fields["description"] : undefined) ?? { line: 1, column: 1 };
  const extra = limit.what === "prompt" ? " (with the limits harness adds)" : "";
  return {
    code: "W_HOST_LIMIT",
    severity: "warning",
    position: { file: role.source.file, line: at.line, column: at.column },
    field,
    message: `${length} characters${extra}; ${host} takes at most ${limit.max} in ${limit.where} (${limit.source}). Shorten it, or move detail into a file the role reads.`,
  };
}
