// harness diff: how two hosts (or all) realise the same pipeline, role by role.
import type { AdapterRegistry } from "../adapter/types.js";
import { UsageError } from "../errors.js";
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
}

const LEVEL_COLOR: Record<string, (s: string) => string> = {
  native: color.green,
  guard: color.cyan,
  audit: color.magenta,
  instructed: color.yellow,
  lost: color.red,
};
const paint = (level: string) => level.split("+").map((l) => (LEVEL_COLOR[l] ?? color.dim)(l)).join("+");
const pad = (s: string, n: number) => s + " ".repeat(Math.max(0, n - s.length));
const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

export async function diff(hosts: string[], options: DiffOptions): Promise<number> {
  if (!options.all && hosts.length !== 2) throw new UsageError("harness diff needs two hosts (e.g. `harness diff claude-code codex`), or --all for every host.");
  const prepared = await prepare({ registry: options.registry, roles: options.roles, out: options.out, ...(options.all ? {} : { host: hosts }) });
  if (options.role && !prepared.pipeline.roles.some((r) => r.id === options.role))
    throw new UsageError(`no role "${options.role}". Roles: ${prepared.pipeline.roles.map((r) => r.id).join(", ")}.`);
  // Keep the order the user asked for (A then B).
  const outputs = options.all ? prepared.outputs : hosts.map((h) => prepared.outputs.find((o) => o.adapter.id === h)!);
  const result = diffHosts(prepared.pipeline, outputs, options.role);
  if (options.json) out(JSON.stringify(result, null, 2));
  else if (options.all || outputs.length > 2) printMatrix(result);
  else printPair(result);
  return 0;
}

function levelsOf(row: RoleDiff["constraints"][number], host: string): string {
  return row.sides[host]!.map((s) => s.level).join("+") || "—";
}

function printPair(d: HostDiff): void {
  const [a, b] = d.hosts as [string, string];
  for (const role of d.roles) {
    out(color.bold(`${role.role}`));
    for (const row of role.constraints) {
      const mark = row.same ? " " : color.yellow("≠");
      const sa = row.sides[a]!.map((s) => s.how).join("; ") || "—";
      const sb = row.sides[b]!.map((s) => s.how).join("; ") || "—";
      out(`  ${mark} ${pad(row.constraint, 12)} ${pad(a, 12)} ${paint(pad(levelsOf(row, a), 10))} ${clip(sa, 90)}`);
      out(`    ${pad("", 12)} ${pad(b, 12)} ${paint(pad(levelsOf(row, b), 10))} ${clip(sb, 90)}`);
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

function printMatrix(d: HostDiff): void {
  const width = Math.max(10, ...d.hosts.map((h) => h.length)) + 2;
  out(`${pad("role", 12)} ${pad("constraint", 12)} ${d.hosts.map((h) => pad(h, width)).join("")}`);
  for (const role of d.roles)
    for (const row of role.constraints) out(`${pad(role.role, 12)} ${pad(row.constraint, 12)} ${d.hosts.map((h) => paint(pad(levelsOf(row, h), width))).join("")}`);
}
