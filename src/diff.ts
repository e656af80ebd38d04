// Semantic comparison of two hosts' output: per role, how each constraint is realised on each side,
// which files each side gets, and how the prompts differ once host syntax is set aside.
import { diffLines } from "diff";
import { CONSTRAINTS, type Constraint, type FidelityRecord } from "./adapter/fidelity.js";
import type { HostOutput } from "./compile.js";
import type { PipelineIR } from "./ir/types.js";

export interface ConstraintSide {
  level: string; // "native" | "guard" | "audit" | "instructed" | "lost" | "—" (no record: not applicable)
  how: string;
  loss?: string;
}

export interface ConstraintRow {
  constraint: Constraint;
  sides: Record<string, ConstraintSide[]>;
  same: boolean;
}

export interface RoleDiff {
  role: string; // or "(pipeline)"
  constraints: ConstraintRow[];
  files: Record<string, string[]>;
  prompt?: { same: boolean; patch: { added: boolean; removed: boolean; value: string }[] };
}

export interface HostDiff {
  hosts: string[];
  roles: RoleDiff[];
  sharedFiles: Record<string, string[]>;
}

const PIPELINE = "(pipeline)";

function sidesFor(records: readonly FidelityRecord[], role: string | null, constraint: Constraint): ConstraintSide[] {
  return records
    .filter((r) => r.role === role && r.constraint === constraint)
    .map((r) => ({ level: r.level, how: r.how, ...(r.loss ? { loss: r.loss } : {}) }));
}

/** Files that belong to a role: its id is one of the path's segments or file-name stems. */
export function filesOfRole(paths: readonly string[], role: string): string[] {
  return paths.filter((p) => p.split("/").some((seg) => seg === role || seg.split(".")[0] === role));
}

/** Host syntax that differs for no semantic reason: argument placeholders, host-specific notes. */
export function normalizePrompt(text: string): string {
  return text
    .replace(/\$ARGUMENTS/g, "<request>")
    .split("\n")
    .map((l) => l.trimEnd())
    .join("\n");
}

export function diffHosts(pipeline: PipelineIR, outputs: readonly HostOutput[], onlyRole?: string): HostDiff {
  const hosts = outputs.map((o) => o.adapter.id);
  const roleIds = pipeline.roles.map((r) => r.id).filter((id) => !onlyRole || id === onlyRole);
  const roles: RoleDiff[] = [];
  for (const role of [...roleIds, ...(onlyRole ? [] : [null])]) {
    const constraints: ConstraintRow[] = [];
    for (const c of CONSTRAINTS) {
      const sides = Object.fromEntries(outputs.map((o) => [o.adapter.id, sidesFor(o.fidelity, role, c)]));
      if (Object.values(sides).every((s) => s.length === 0)) continue;
      const levels = Object.values(sides).map((s) => s.map((x) => x.level).join("+") || "—");
      constraints.push({ constraint: c, sides, same: levels.every((l) => l === levels[0]) });
    }
    const entry: RoleDiff = {
      role: role ?? PIPELINE,
      constraints,
      files: Object.fromEntries(outputs.map((o) => [o.adapter.id, role ? filesOfRole(o.files.map((f) => f.path), role) : []])),
    };
    if (role && outputs.length === 2) {
      const [a, b] = outputs.map((o) => normalizePrompt(o.prompts[role] ?? ""));
      const patch = diffLines(a!, b!).map((p) => ({ added: Boolean(p.added), removed: Boolean(p.removed), value: p.value }));
      entry.prompt = { same: a === b, patch };
    }
    roles.push(entry);
  }
  const owned = new Set(pipeline.roles.flatMap((r) => outputs.flatMap((o) => filesOfRole(o.files.map((f) => f.path), r.id))));
  const sharedFiles = Object.fromEntries(outputs.map((o) => [o.adapter.id, o.files.map((f) => f.path).filter((p) => !owned.has(p))]));
  return { hosts, roles, sharedFiles };
}
