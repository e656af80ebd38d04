// Which fidelity records are losses, their severity, and whether pipeline.yaml accepts them.
import { LOSS_CODES, type FidelityRecord, type Severity } from "./adapter/fidelity.js";
import type { Diagnostic } from "./errors.js";
import type { AcceptedLossIR, PipelineIR } from "./ir/types.js";

export interface Loss {
  host: string;
  role: string | null;
  record: FidelityRecord;
  severity: Severity;
  accepted?: string; // the reason given in pipeline.yaml
  file: string;
  line: number;
  column: number;
}

export function collectLosses(pipeline: PipelineIR, host: string, fidelity: readonly FidelityRecord[]): Loss[] {
  const out: Loss[] = [];
  const roleById = new Map(pipeline.roles.map((r) => [r.id, r] as const));
  const accepting = acceptancesFor(pipeline).get(host);
  for (const record of fidelity) {
    if (!record.loss) continue;
    const role = record.role ? roleById.get(record.role) : undefined;
    const at = (role ? fieldPosition(role.source.fields, record.field) : fieldPosition(pipeline.source.fields, record.field ?? PIPELINE_FIELD[record.constraint])) || { line: 1, column: 1 };
    const accepted = accepting?.get(record.constraint)?.find((a) => matches(a, host, record));
    const severity = severityOf(record, role?.source.fields);
    const file = role?.source.file ?? pipeline.source.file;
    // two literals, not a spread: same key order, and no generic object copy per record
    out.push(
      accepted
        ? { host, role: record.role, record, severity, accepted: accepted.reason, file, line: at.line, column: at.column }
        : { host, role: record.role, record, severity, file, line: at.line, column: at.column },
    );
  }
  return out;
}

// Losses and acceptances grouped by host, then constraint, which an acceptance must name: each
// record is compared with the few acceptances of its group, not all of them (records grow with roles).
type Groups<T> = Map<string, Map<string, T[]>>;
const acceptanceMemo = new WeakMap<PipelineIR, Groups<AcceptedLossIR>>();
function acceptancesFor(pipeline: PipelineIR): Groups<AcceptedLossIR> {
  let groups = acceptanceMemo.get(pipeline);
  if (!groups) acceptanceMemo.set(pipeline, (groups = group(pipeline.acceptedLosses, (a) => a.host, (a) => a.constraint)));
  return groups;
}
/** Groups that keep the list's order (so find() still returns the first match). */
function group<T>(list: readonly T[], host: (x: T) => string, constraint: (x: T) => string): Groups<T> {
  const groups: Groups<T> = new Map();
  for (const x of list) {
    let byConstraint = groups.get(host(x));
    if (!byConstraint) groups.set(host(x), (byConstraint = new Map()));
    const members = byConstraint.get(constraint(x));
    if (members) members.push(x);
    else byConstraint.set(constraint(x), [x]);
  }
  return groups;
}

const matches = (a: AcceptedLossIR, host: string, record: FidelityRecord) =>
  a.host === host && a.constraint === record.constraint && (a.role === undefined || a.role === record.role) && (a.loss === undefined || a.loss === record.loss);

/** A role that names no model tier asked for nothing in particular: the host default is what it asked for. */
function severityOf(record: FidelityRecord, roleFields: Readonly<Record<string, unknown>> | undefined): Severity {
  if (record.loss === "L_MODEL_UNMAPPED" && roleFields && !("model" in roleFields)) return "info";
  return LOSS_CODES[record.loss!].severity;
}

/** An acceptance that matches no loss is itself a warning: it would hide a future regression. */
export function unusedAcceptances(pipeline: PipelineIR, builtHosts: readonly string[], losses: readonly Loss[]): Diagnostic[] {
  const byGroup = group(losses, (l) => l.host, (l) => l.record.constraint);
  return pipeline.acceptedLosses
    .filter((a) => builtHosts.includes(a.host))
    .filter((a) => !byGroup.get(a.host)?.get(a.constraint)?.some((l) => matches(a, l.host, l.record)))
    .map((a) => {
      const at = pipeline.source.fields["accepted_losses"] ?? { line: 1, column: 1 };
      return {
        code: "W_ACCEPT_UNUSED",
        severity: "warning" as const,
        position: { file: pipeline.source.file, line: at.line, column: at.column },
        field: `accepted_losses[${a.index}]`,
        message: `accepts a loss of "${a.constraint}"${a.loss ? ` (${a.loss})` : ""}${a.role ? ` for ${a.role}` : ""} on ${a.host}, but there is none. Remove the entry.`,
      };
    });
}

export const isBlocking = (l: Loss) => l.severity === "error" && !l.accepted;

/** Where a pipeline-wide constraint comes from in pipeline.yaml. */
const PIPELINE_FIELD: Partial<Record<string, string>> = {
  "git-deny": "policies.shell_deny",
  "never-write": "policies.never_write",
  spawn: "policies.nested_agents",
  gates: "stages",
  checks: "checks",
  "loop-cap": "loop",
  order: "stages",
  "hop-cap": "policies.max_hops",
};

/** Where a constraint comes from in a role file: the field, or the nearest field that implies it. */
const FALLBACK: Record<string, string[]> = {
  "permissions.write": ["writes", "permissions"],
  "permissions.never_write": ["permissions", "writes"],
  "permissions.shell": ["permissions", "tools"],
};
function fieldPosition(fields: Readonly<Record<string, { line: number; column: number }>>, field: string | undefined) {
  if (!field) return undefined;
  if (fields[field]) return fields[field];
  for (const f of FALLBACK[field] ?? []) if (fields[f]) return fields[f];
  return undefined;
}

export interface Finding {
  host: string;
  role: string | null;
  constraint: string;
  message: string;
  file: string;
  line: number;
  column: number;
}

/**
 * Under --strict: every record of a constraint the pipeline marks required must be `native` or
 * `guard`, accepted or not. And on every host, every role must be accounted for: present with
 * fidelity records (an adapter that silently skipped a role is a finding, never a pass).
 */
export function findings(pipeline: PipelineIR, host: string, fidelity: readonly FidelityRecord[], strict: boolean): Finding[] {
  const out: Finding[] = [];
  const required = pipeline.source.fields["required_enforcement"] ?? { line: 1, column: 1 };
  const recorded = new Set(fidelity.map((r) => r.role));
  for (const role of pipeline.roles)
    if (!recorded.has(role.id))
      out.push({ host, role: role.id, constraint: "role", file: role.source.file, line: 1, column: 1, message: `role ${role.id} has no fidelity record on ${host}: the adapter neither emitted it nor recorded a loss. This is a harness bug; please report it.` });
  if (strict)
    for (const r of fidelity)
      if (pipeline.requiredEnforcement.includes(r.constraint) && (r.level === "instructed" || r.level === "lost"))
        out.push({
          host,
          role: r.role,
          constraint: r.constraint,
          file: pipeline.source.file,
          line: required.line,
          column: required.column,
          message: `${r.constraint} is required (required_enforcement) but ${r.level} on ${host}${r.role ? ` for ${r.role}` : ""} (${r.how.length > 100 ? `${r.how.slice(0, 99)}…` : r.how}). --strict fails until the host enforces it; accepting the loss does not satisfy --strict. Drop "${r.constraint}" from required_enforcement or stop building for ${host}.`,
        });
  return out;
}
