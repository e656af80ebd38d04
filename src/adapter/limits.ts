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
  // The roles that have a skill file: one pass over the files, not one per role (at 1,000 roles a
  // scan per role was two million path tests and as many short-lived strings).
  let skills: Set<string> | undefined;
  const hasSkill = (id: string) => (skills ??= skillRoles(files)).has(id);
  for (const limit of LIMITS) {
    if (!limit.hosts.includes(host)) continue;
    for (const role of pipeline.roles) {
      if (limit.what === "description" && !hasSkill(role.id)) continue;
      const text = limit.what === "prompt" ? (prompts[role.id] ?? "") : role.description;
      if (text.length <= limit.max) continue; // UTF-16 units are never fewer than characters: most builds stop here
      const length = [...text].length;
      if (length > limit.max) out.push(warning(role, limit, host, length));
    }
  }
  return out;
}

/** The role ids of files at <anything>/skills/<role>/SKILL.md. */
function skillRoles(files: readonly { path: string }[]): Set<string> {
  const ids = new Set<string>();
  for (const f of files) {
    if (!f.path.endsWith("/SKILL.md")) continue;
    const parts = f.path.split("/");
    if (parts.length >= 4 && parts[parts.length - 3] === "skills") ids.add(parts[parts.length - 2]!);
  }
  return ids;
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
