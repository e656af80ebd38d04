// What a host does with the role fields beyond the core constraints (effort, MCP, skills, memory, an
// initial prompt, background, extra tools), and the defaults a role did not ask for. Run by
// compileHost after each adapter's lower(): an adapter reports the features it lowers; every one a
// role uses that the adapter does not report gets a `lost` record here, so a host added later (or one
// that has no such field) never drops a field silently. And a model or temperature the role never
// named is the host's default by the role's own choice: not a loss.
import type { FidelityRecord, LossCode } from "./fidelity.js";
import type { Adapter } from "./types.js";
import type { PipelineIR, RoleIR } from "../ir/types.js";
import type { Constraint, ExtraTool } from "../schema/vocabulary.js";
import { modelIsDefault, DEFAULT_MODEL_HOW } from "./model.js";

interface Feature {
  constraint: Constraint;
  loss: LossCode;
  field: string;
  used(role: RoleIR): string | undefined; // what the role asks for, for the row, or undefined
}

const FEATURES: readonly Feature[] = [
  { constraint: "effort", loss: "L_EFFORT_UNSUPPORTED", field: "effort", used: (r) => (r.effort ? `effort ${r.effort}` : undefined) },
  { constraint: "mcp", loss: "L_MCP_UNSUPPORTED", field: "tools", used: (r) => mcpText(r) },
  { constraint: "skills", loss: "L_SKILLS_UNSUPPORTED", field: "skills", used: (r) => (r.skills?.length ? `skills ${r.skills.join(", ")}` : undefined) },
  { constraint: "memory", loss: "L_MEMORY_UNSUPPORTED", field: "memory", used: (r) => (r.memory ? `memory ${r.memory}` : undefined) },
  { constraint: "initial-prompt", loss: "L_INITIAL_PROMPT_UNSUPPORTED", field: "initial_prompt", used: (r) => (r.initialPrompt ? "an initial prompt" : undefined) },
  { constraint: "background", loss: "L_BACKGROUND_UNSUPPORTED", field: "background", used: (r) => (r.background !== undefined ? `background: ${r.background}` : undefined) },
];

function mcpText(r: RoleIR): string | undefined {
  const parts = [
    ...(r.mcpTools ?? []).map((t) => `mcp:${t.server}/${t.tool}`),
    ...(r.mcpServers ? [`servers ${(Array.isArray(r.mcpServers) ? r.mcpServers : Object.keys(r.mcpServers)).join(", ")}`] : []),
  ];
  return parts.length ? parts.join(", ") : undefined;
}

export function settleRoleFeatures(adapter: Adapter, pipeline: PipelineIR, records: readonly FidelityRecord[]): FidelityRecord[] {
  // The features each role uses, then which of those the adapter reported: a key per record (13,000
  // a host at 1,000 roles) was most of this function's time, and most roles use no feature.
  const used = new Map<string, Map<Constraint, string>>();
  for (const role of pipeline.roles)
    for (const f of FEATURES) {
      const what = f.used(role);
      if (!what) continue;
      let byConstraint = used.get(role.id);
      if (!byConstraint) used.set(role.id, (byConstraint = new Map()));
      byConstraint.set(f.constraint, what);
    }
  const reported = new Set<string>();
  const out: FidelityRecord[] = [];
  const byId = new Map(pipeline.roles.map((r) => [r.id, r] as const));
  for (const r of records) {
    if (r.role !== null && used.get(r.role)?.has(r.constraint)) reported.add(`${r.role}\u0000${r.constraint}`);
    out.push(settleDefault(adapter, pipeline, r, r.role === null ? undefined : byId.get(r.role)));
  }
  for (const role of pipeline.roles) {
    const features = used.get(role.id);
    for (const f of FEATURES) {
      const what = features?.get(f.constraint);
      if (what && !reported.has(`${role.id}\u0000${f.constraint}`)) out.push({ role: role.id, constraint: f.constraint, level: "lost", how: `${adapter.displayName} has no per-agent field for ${what}; not emitted`, loss: f.loss, field: f.field });
    }
    if (role.starts?.length && !adapter.roleFeatures?.leads)
      out.push({ role: role.id, constraint: "spawn", level: "instructed", how: `${adapter.displayName} cannot limit which agents a lead starts: only the prompt names ${role.starts.join(", ")}`, loss: "L_SPAWN_INSTRUCTED", field: "starts" });
    const missing = missingExtraTools(adapter, role);
    if (missing.length) out.push({ role: role.id, constraint: "tools", level: "lost", how: `no ${adapter.displayName} tool for ${missing.join(", ")}; dropped (narrower)`, loss: "L_TOOL_MISSING", field: "tools" });
    if (role.allTools && !adapter.roleFeatures?.allTools)
      out.push({ role: role.id, constraint: "tools", level: "lost", how: `"all" is written as every canonical tool; ${adapter.displayName} gets no open-ended tool list (MCP and other host tools are not granted)`, loss: "L_TOOL_MISSING", field: "tools" });
  }
  return out;
}

function missingExtraTools(adapter: Adapter, role: RoleIR): ExtraTool[] {
  if (role.allTools && adapter.roleFeatures?.allTools) return [];
  return (role.extraTools ?? []).filter((t) => !adapter.roleFeatures?.extraTools?.[t]);
}

/** A model or temperature row for a role that named none: the host's default is what it asked for. */
function settleDefault(adapter: Adapter, pipeline: PipelineIR, r: FidelityRecord, role: RoleIR | undefined): FidelityRecord {
  if (!role || (r.constraint !== "model" && r.constraint !== "temperature")) return r;
  if (r.constraint === "model" && r.loss === "L_MODEL_UNMAPPED" && modelIsDefault(pipeline, role, adapter.id))
    return { role: r.role, constraint: "model", level: "native", how: `${DEFAULT_MODEL_HOW} (the role names ${role.modelId ? role.modelId : "no model"})`, field: "model" };
  if (r.constraint === "temperature" && !role.temperature) return { role: r.role, constraint: "temperature", level: "native", how: "no temperature named: the host's default", field: "temperature" };
  return r;
}
