// Pieces of a role's IR that come from one field each: its tools, its model, its per-host block.
import { byCodeUnit } from "../compare.js";
import { ALL_TOOLS, CANONICAL_TOOLS, EXTRA_TOOLS, MCP_TOOL, MODEL_TIERS, type CanonicalTool, type ExtraTool, type ModelTier } from "../schema/vocabulary.js";
import type { McpToolIR } from "./types.js";

export interface RoleTools {
  tools: CanonicalTool[];
  extra: ExtraTool[];
  mcp: McpToolIR[];
  all: boolean;
}

/**
 * `all` grants every canonical tool but spawn-agent (starting agents is a process decision the
 * role states by listing it), every extra tool, and every MCP tool.
 */
export function roleTools(written: readonly string[]): RoleTools {
  const entries = written.map((e) => (e.startsWith("mcp:") ? e : e.toLowerCase()));
  const all = entries.includes(ALL_TOOLS);
  const tools = CANONICAL_TOOLS.filter((t) => entries.includes(t) || (all && t !== "spawn-agent"));
  const extra = EXTRA_TOOLS.filter((t) => entries.includes(t) || all);
  const seen = new Map<string, McpToolIR>();
  for (const e of entries) {
    const m = MCP_TOOL.exec(e);
    if (m) seen.set(`${m[1]}/${m[2]}`, { server: m[1]!, tool: m[2]! });
  }
  // a server's "*" covers its named tools: keep the widest entry only
  const mcp = [...seen.values()].filter((t) => t.tool === "*" || !seen.has(`${t.server}/*`)).sort((a, b) => byCodeUnit(a.server, b.server) || byCodeUnit(a.tool, b.tool));
  return { tools, extra, mcp, all };
}

export function roleModel(model: string | undefined): { model?: ModelTier; modelId?: string } {
  if (model === undefined) return {};
  return (MODEL_TIERS as readonly string[]).includes(model) ? { model: model as ModelTier } : { modelId: model };
}

/** `hosts:` in a role: `model` pins apart, the rest host-native fields; hosts in code-unit order. */
export function roleHosts(hosts: Readonly<Record<string, Record<string, unknown>>> | undefined): { hostModels?: Record<string, string>; hostFields?: Record<string, Record<string, unknown>> } {
  if (!hosts) return {};
  const hostModels: Record<string, string> = {};
  const hostFields: Record<string, Record<string, unknown>> = {};
  for (const id of Object.keys(hosts).sort(byCodeUnit)) {
    const { model, ...rest } = hosts[id]!;
    if (typeof model === "string") hostModels[id] = model;
    if (Object.keys(rest).length) hostFields[id] = rest;
  }
  return { ...(Object.keys(hostModels).length ? { hostModels } : {}), ...(Object.keys(hostFields).length ? { hostFields } : {}) };
}
