// A role's `hosts.<host>` block: the fields that host really reads (its adapter's roleFeatures.fields),
// checked before anything is written. A field the host ignores is an error (the seed rule), and one
// harness writes from a host-neutral field gets that field's harness spelling.
import type { Diagnostic } from "../errors.js";
import type { PipelineIR, RoleIR } from "../ir/types.js";
import { closest } from "../schema/diagnose.js";
import type { Adapter, HostFieldSpec } from "./types.js";

export function hostFieldProblems(pipeline: PipelineIR, adapter: Adapter): Diagnostic[] {
  const out: Diagnostic[] = [];
  const fields = adapter.roleFeatures?.fields ?? {};
  const owned = adapter.roleFeatures?.owned ?? {};
  for (const role of pipeline.roles) {
    const block = role.hostFields?.[adapter.id];
    if (!block) continue;
    for (const [key, value] of Object.entries(block)) {
      const field = `hosts.${adapter.id}.${key}`;
      const at = role.source.fields[field] ?? role.source.fields[`hosts.${adapter.id}`] ?? { line: 1, column: 1 };
      const problem = (message: string) => out.push({ code: "E_HOST_FIELD", severity: "error", position: { file: role.source.file, line: at.line, column: at.column }, field, message });
      if (Object.prototype.hasOwnProperty.call(owned, key)) {
        problem(`harness writes ${adapter.displayName}'s "${key}" itself. Set it in the role as ${owned[key]}.`);
        continue;
      }
      const spec = Object.prototype.hasOwnProperty.call(fields, key) ? fields[key] : undefined;
      if (!spec) {
        const known = Object.keys(fields);
        const near = closest(key, [...known, ...Object.keys(owned)]);
        const hint = near ? (known.includes(near) ? ` Did you mean "${near}"?` : ` Did you mean "${near}" (in the role: ${owned[near]})?`) : "";
        problem(`${adapter.displayName} does not read "${key}" in an agent file.${hint} Fields it reads here: ${known.length ? known.join(", ") : "none"}; a model pin is "model".`);
        continue;
      }
      const bad = valueProblem(spec, value);
      if (bad) problem(`${bad}.`);
    }
  }
  return out;
}

function valueProblem(spec: HostFieldSpec, v: unknown): string | undefined {
  switch (spec.type) {
    case "enum":
      return typeof v === "string" && spec.values.includes(v) ? undefined : `${JSON.stringify(v)} is not one of ${spec.values.map((x) => JSON.stringify(x)).join(", ")}`;
    case "string":
      return typeof v === "string" && v.trim() ? undefined : "expected text";
    case "boolean":
      return typeof v === "boolean" ? undefined : "expected true or false";
    case "integer":
      return typeof v === "number" && Number.isSafeInteger(v) && v > 0 ? undefined : "expected a positive whole number";
    case "number":
      return typeof v === "number" && Number.isFinite(v) ? undefined : "expected a number";
    case "string-list":
      return Array.isArray(v) && v.every((x) => typeof x === "string" && x.trim()) ? undefined : "expected a list of names";
    case "string-or-list":
      return (typeof v === "string" && v.trim()) || (Array.isArray(v) && v.every((x) => typeof x === "string")) ? undefined : "expected text or a list of names";
    case "object":
      return v !== null && typeof v === "object" && !Array.isArray(v) ? undefined : "expected a mapping";
  }
}

/** The host-native fields a role sets for this host (already checked by hostFieldProblems). */
export const hostFieldsOf = (role: RoleIR, host: string): Readonly<Record<string, unknown>> => role.hostFields?.[host] ?? {};
