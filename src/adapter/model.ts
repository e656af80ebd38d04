// Which model a role gets on one host. Nothing is implied: a role that names no model gets none
// (the host's default), whatever the pipeline maps; only a tier the role names is looked up.
import type { PipelineIR, RoleIR } from "../ir/types.js";
import { INHERIT } from "../schema/vocabulary.js";

export interface HostModel {
  /** The host model id to emit; undefined = emit none (or `inherit` where the host has it). */
  id?: string;
  /**
   * pin: the role's `hosts.<host>.model`; id: the role's own model id; tier: a mapped tier;
   * unmapped: a tier this host does not map (a loss); default: the role names no model or `inherit`.
   */
  from: "pin" | "id" | "tier" | "unmapped" | "default";
}

export function hostModel(pipeline: PipelineIR, role: RoleIR, host: string): HostModel {
  const named = role.hostModels?.[host] ?? role.modelId;
  if (named !== undefined) return named === INHERIT ? { from: "default" } : { id: named, from: role.hostModels?.[host] !== undefined ? "pin" : "id" };
  if (role.model === undefined) return { from: "default" };
  const id = pipeline.hosts[host]?.models[role.model];
  return id === undefined ? { from: "unmapped" } : { id, from: "tier" };
}

/** The host's default applies because the role asked for it (no model, or `inherit`): not a loss. */
export const modelIsDefault = (pipeline: PipelineIR, role: RoleIR, host: string): boolean => hostModel(pipeline, role, host).from === "default";

/** "(no model: the host's default)" text for MAPPING rows. */
export const DEFAULT_MODEL_HOW = "no model named: the host's default";
