// Imported agents → roles/<id>.md and a pipeline.yaml skeleton (one stage per role, in the order
// found, targets = the hosts imported from), with every loss the build would report on those hosts
// listed as accepted for review, and roles/.harness-import.json: what came from where (install
// adopts exactly those originals).
import { createHash } from "node:crypto";
import { renderMarkdown, renderYaml, renderJson } from "../emit/render.js";
import { ID_PATTERN, TEMPERATURES } from "../schema/vocabulary.js";
import { byCodeUnit } from "../compare.js";
import type { FoundFile } from "./sources.js";
import type { FieldReport, ImportedAgent } from "./types.js";

export { IMPORT_RECORD } from "./record.js";

export interface ImportedRole {
  id: string;
  agent: ImportedAgent;
  report: FieldReport[];
}

export function roleId(name: string, taken: Set<string>, host: string): string {
  let id = name.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/\.agent$/, "").replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  if (!/^[a-z]/.test(id)) id = `agent-${id}`.replace(/-+$/, "");
  if (!ID_PATTERN.test(id)) id = "agent";
  let unique = taken.has(id) ? `${id}-${host}` : id;
  for (let n = 2; taken.has(unique); n++) unique = `${id}-${host}-${n}`;
  taken.add(unique);
  return unique;
}

const titleOf = (id: string) => id.split("-").map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(" ");

/** Up to three distinct temperatures become the pipeline's classes; more are rounded to the nearest. */
export function temperatureClasses(values: readonly number[]): Record<string, number> {
  const distinct = [...new Set(values)].sort((a, b) => a - b);
  if (!distinct.length) return {};
  const pick: Record<string, number> = distinct.length === 1 ? { neutral: distinct[0]! } : distinct.length === 2 ? { cold: distinct[0]!, warm: distinct[1]! } : { cold: distinct[0]!, neutral: distinct[Math.floor((distinct.length - 1) / 2)]!, warm: distinct.at(-1)! };
  return pick;
}
export function classOf(classes: Record<string, number>, value: number): string {
  let best = "neutral";
  let d = Infinity;
  for (const c of TEMPERATURES) if (classes[c] !== undefined && Math.abs(classes[c]! - value) < d) (best = c), (d = Math.abs(classes[c]! - value));
  return best;
}

const WRITE_TOOLS = ["edit", "write", "all"];
const ORDER = ["isolation", "worktree", "model", "temperature", "tools", "reads", "writes", "permissions", "max_turns", "effort", "skills", "mcp_servers", "memory", "initial_prompt", "background", "hosts"];

export function roleFile(r: ImportedRole, classes: Record<string, number>): string {
  const a = r.agent;
  const from = a.key ? `${a.path} ${a.key.join(".")}` : a.path; // an entry of a shared config: its key too
  const fm: Record<string, unknown> = { title: titleOf(r.id), description: a.description?.trim() || `Imported from ${from}.` };
  if (!a.description?.trim()) r.report.push({ field: "description", status: "added", to: `"Imported from ${from}." (the original has none)` });
  const role: Record<string, unknown> = { isolation: "subagent", ...a.role };
  if (a.temperature !== undefined) {
    role.temperature = classOf(classes, a.temperature);
    if (classes[role.temperature as string] !== a.temperature) r.report.push({ field: "temperature", status: "not representable", to: `${a.temperature} became ${role.temperature} (${classes[role.temperature as string]}): a pipeline has three temperature classes` });
  }
  const tools = (role.tools as string[] | undefined) ?? [];
  if (!tools.length) {
    role.tools = ["read"];
    r.report.push({ field: "tools", status: "added", to: "[read] (the original grants none a role can list)" });
  }
  const perms = (role.permissions as Record<string, unknown> | undefined) ?? {};
  if (tools.some((t) => WRITE_TOOLS.includes(t)) && !perms.write) {
    role.permissions = { write: ["**"], ...perms };
    r.report.push({ field: "permissions.write", status: "added", to: '["**"]: the original has no path limit; narrow it to what the role writes' });
  }
  for (const k of ORDER) if (role[k] !== undefined) fm[k] = role[k];
  fm.forbidden = `Nothing beyond the limits below (imported from ${from}; say what this role must never do).`;
  fm.done = `The task it was given is complete (imported from ${from}; say what done means for this role).`;
  r.report.push({ field: "forbidden, done", status: "added", to: "placeholders to edit (harness roles state both)" });
  const body = a.body.trim() ? a.body : `You are ${titleOf(r.id)}.\n`;
  if (!a.body.trim()) r.report.push({ field: "body", status: "added", to: "a one-line prompt (the original has none)" });
  return renderMarkdown(fm, body);
}

export interface PipelineParts {
  name: string;
  roles: ImportedRole[];
  targets: string[];
  classes: Record<string, number>;
  accepted: { host: string; role?: string; constraint: string; loss?: string; reason: string }[];
}

export function pipelineFile(p: PipelineParts): string {
  const ids = p.roles.map((r) => r.id);
  const spawns = p.roles.some((r) => ((r.agent.role.tools as string[] | undefined) ?? []).includes("spawn-agent"));
  const data: Record<string, unknown> = {
    name: p.name,
    title: titleOf(p.name),
    description: `Imported by harness import from ${[...new Set(p.roles.map((r) => r.agent.path.split("/").slice(0, 2).join("/")))].join(", ")}. Order the stages, add the artifacts each role reads and writes, and review the accepted losses.`,
    artifacts: {},
    work_kinds: { default: { description: "Every request, through every stage in order.", stages: ids } },
    stages: ids.map((id) => ({ id, role: id })),
    ...(spawns ? { policies: { nested_agents: true } } : {}),
    ...(Object.keys(p.classes).length ? { temperatures: p.classes } : {}),
    targets: p.targets,
    ...(p.accepted.length ? { accepted_losses: p.accepted } : {}),
  };
  return `# Written by harness import. Edit freely: re-running the import refuses to overwrite it without --force.\n\n${renderYaml(data)}`;
}

/** A shared-config entry the import leaves alone: it tunes one of the host's own agents (agent.build). */
export interface LeftEntry {
  host: string;
  path: string;
  key: [string, string];
}

export function importRecord(found: readonly FoundFile[], roles: readonly ImportedRole[], left: readonly LeftEntry[] = []): string {
  const byPath = new Map(roles.filter((r) => !r.agent.key).map((r) => [r.agent.path, r] as const));
  return renderJson({
    version: 1,
    // an agent inside a shared config is its key there (install takes away that key only, never the file)
    files: found.flatMap((f): Record<string, unknown>[] =>
      f.config
        ? roles.flatMap((r) => [
            ...(r.agent.key && r.agent.path === f.path ? [{ key: r.agent.key, sha256: r.agent.valueSha }] : []),
            // an entry merged into an agent file's role (the same agent on its host) is adopted with it
            ...(r.agent.merged ?? []).filter((m) => m.path === f.path).map((m) => ({ key: m.key, sha256: m.valueSha })),
          ].map((k) => ({ host: f.host, path: f.path, key: k.key, role: r.id, sha256: k.sha256 })))
        : [{ host: f.host, path: f.path, role: byPath.get(f.path)?.id, sha256: createHash("sha256").update(f.bytes).digest("hex") }],
    ),
    fields: Object.fromEntries(roles.map((r) => [r.id, r.report])),
    ...(left.length ? { left: left.map((l) => ({ ...l, why: `settings of ${l.host}'s own agent ${l.key[1]}: left in place` })) } : {}),
  });
}

export const sortedIds = (roles: readonly ImportedRole[]) => roles.map((r) => r.id).sort(byCodeUnit);
