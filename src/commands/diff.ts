// harness diff: how two hosts (or all) realise the same pipeline, role by role.
import type { AdapterRegistry } from "../adapter/types.js";
import { UsageError } from "../errors.js";
import { closest } from "../schema/diagnose.js";
import { diffHosts, type HostDiff, type RoleDiff } from "../diff.js";
import { color, out } from "../ui.js";
import { prepare } from "./prepare.js";

export interface DiffOptions {
  registry: AdapterRegistry;
  roles: string;
  out: string;
  role?: string;
  json?: boolean;
  all?: boolean;
  wide?: boolean;
}

/** Whether pipeline.yaml accepts a loss of this host × role × constraint (marked in the output). */
type Accepted = (host: string, role: string, constraint: string) => boolean;

// colour names, not picocolors' functions: the palette is chosen per command line (src/ui.ts)
const LEVEL_COLOR: Record<string, "green" | "cyan" | "magenta" | "yellow" | "red"> = {
  native: "green",
  guard: "cyan",
  audit: "magenta",
  instructed: "yellow",
  lost: "red",
};
const paint = (level: string) => level.split("+").map((l) => color[LEVEL_COLOR[l] ?? "dim"](l)).join("+");
const pad = (s: string, n: number) => s + " ".repeat(Math.max(0, n - s.length));
const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

export async function diff(hosts: string[], options: DiffOptions): Promise<number> {
  if (!options.all && hosts.length !== 2) throw new UsageError("harness diff needs two hosts (e.g. `harness diff claude-code codex`), or --all for every host (or --all with the hosts to compare).");
  const prepared = await prepare({ registry: options.registry, roles: options.roles, out: options.out, ...(hosts.length ? { host: hosts } : {}) });
  if (options.role && !prepared.pipeline.roles.some((r) => r.id === options.role)) {
    const ids = prepared.pipeline.roles.map((r) => r.id);
    const near = closest(options.role, ids);
    throw new UsageError(`no role "${options.role}". ${near ? `Did you mean "${near}"? ` : ""}Roles: ${ids.join(", ")}.`);
  }
  // Keep the order the user asked for (A then B …).
  const outputs = hosts.length ? [...new Set(hosts)].map((h) => prepared.outputs.find((o) => o.adapter.id === h)!) : prepared.outputs;
  const result = diffHosts(prepared.pipeline, outputs, options.role);
  const accepted: Accepted = (host, role, constraint) =>
    prepared.losses.some((l) => l.accepted && l.host === host && (l.role ?? "(pipeline)") === role && l.record.constraint === constraint);
  if (options.json) out(JSON.stringify(result, null, 2));
  else if (options.all || outputs.length !== 2) printMatrix(result, accepted);
  else printPair(result, accepted, options.wide ? Infinity : 90);
  return 0;
}

function levelsOf(row: RoleDiff["constraints"][number], host: string): string {
  // Each level once, in order: a role realised by eleven instructed records reads "instructed".
  return [...new Set(row.sides[host]!.map((s) => s.level))].join("+") || "—";
}

function printPair(d: HostDiff, accepted: Accepted, width: number): void {
  const [a, b] = d.hosts as [string, string];
  const how = (row: RoleDiff["constraints"][number], host: string, role: string) =>
    `${accepted(host, role, row.constraint) ? color.dim("(accepted loss) ") : ""}${clip(row.sides[host]!.map((s) => s.how).join("; ") || "—", width)}`;
  for (const role of d.roles) {
    out(color.bold(`${role.role}`));
    for (const row of role.constraints) {
      const mark = row.same ? " " : color.yellow("≠");
      out(`  ${mark} ${pad(row.constraint, 12)} ${pad(a, 12)} ${paint(pad(levelsOf(row, a), 10))} ${how(row, a, role.role)}`);
      out(`    ${pad("", 12)} ${pad(b, 12)} ${paint(pad(levelsOf(row, b), 10))} ${how(row, b, role.role)}`);
    }
    if (role.role !== "(pipeline)") {
      out(`    ${pad("files", 12)} ${pad(a, 12)} ${role.files[a]!.join(", ") || "—"}`);
      out(`    ${pad("", 12)} ${pad(b, 12)} ${role.files[b]!.join(", ") || "—"}`);
    }
    if (role.prompt) {
      if (role.prompt.same) out(`    ${pad("prompt", 12)} identical after host syntax is normalised`);
      else {
        out(`    ${pad("prompt", 12)} differs (${color.red(`- ${a}`)} ${color.green(`+ ${b}`)}):`);
        for (const part of role.prompt.patch.filter((p) => p.added || p.removed))
          for (const line of part.value.replace(/\n$/, "").split("\n")) out(`      ${part.added ? color.green(`+ ${line}`) : color.red(`- ${line}`)}`);
      }
    }
    out();
  }
  out(color.bold("shared files"));
  for (const h of d.hosts) out(`  ${pad(h, 12)} ${d.sharedFiles[h]!.join(", ")}`);
}

function printMatrix(d: HostDiff, accepted: Accepted): void {
  // Every column as wide as its widest cell, plus two spaces: cells never run together.
  const rows = d.roles.flatMap((role) => role.constraints.map((row) => ({ role: role.role, row })));
  const roleWidth = Math.max(4, ...rows.map((r) => r.role.length)) + 2;
  const constraintWidth = Math.max(10, ...rows.map((r) => r.row.constraint.length)) + 2;
  const cell = (row: RoleDiff["constraints"][number], host: string, role: string) => `${levelsOf(row, host)}${accepted(host, role, row.constraint) ? "*" : ""}`;
  const widths = d.hosts.map((h) => Math.max(h.length, ...rows.map((r) => cell(r.row, h, r.role).length)) + 2);
  out(`${pad("role", roleWidth)}${pad("constraint", constraintWidth)}${d.hosts.map((h, i) => pad(h, widths[i]!)).join("")}`.trimEnd());
  for (const { role, row } of rows)
    out(`${pad(role, roleWidth)}${pad(row.constraint, constraintWidth)}${d.hosts.map((h, i) => paint(pad(cell(row, h, role), widths[i]!))).join("")}`.trimEnd());
  out(color.dim("* a loss that pipeline.yaml accepts. Levels: native, guard, audit, instructed, lost; a+b = realised both ways (e.g. a prompt and a launcher)."));
}
