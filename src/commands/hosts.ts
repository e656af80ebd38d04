// harness hosts: what every registered host can enforce, from the adapters' own declarations.
import type { AdapterRegistry } from "../adapter/types.js";
import { CANONICAL_TOOLS } from "../schema/vocabulary.js";
import { out } from "../ui.js";

const pad = (s: string, n: number) => s + " ".repeat(Math.max(0, n - s.length));

export async function hosts(registry: AdapterRegistry): Promise<number> {
  const adapters = await Promise.all(Object.keys(registry).sort().map((id) => registry[id]!()));
  const yes = (b: boolean) => (b ? "yes" : "no");
  const rows: [string, ...string[]][] = [
    ["", ...adapters.map((a) => a.id)],
    ["checked against", ...adapters.map((a) => `${a.checkedAgainst.program} ${a.checkedAgainst.version}`)],
    ["subagents", ...adapters.map((a) => yes(a.capabilities.subagents))],
    ["commands", ...adapters.map((a) => yes(a.capabilities.commands))],
    ["per-role tools", ...adapters.map((a) => yes(a.capabilities.perRoleTools))],
    ["per-role paths", ...adapters.map((a) => a.capabilities.perRolePaths)],
    ["per-role shell", ...adapters.map((a) => a.capabilities.perRoleShell)],
    ["hooks", ...adapters.map((a) => yes(a.capabilities.hooks))],
    ["temperature", ...adapters.map((a) => yes(a.capabilities.temperature))],
    ["tools missing", ...adapters.map((a) => CANONICAL_TOOLS.filter((t) => a.tools[t] === null).join(" ") || "none")],
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)) + 2);
  for (const r of rows) out(r.map((c, i) => pad(c, widths[i]!)).join("").trimEnd());
  out();
  for (const a of adapters) out(`${pad(a.id, widths[0]!)}proven on the real host: ${Object.keys(a.proofs).sort().join(", ") || "nothing yet"}`);
  out();
  out("native = the host's own config enforces it; guard = a generated hook; none = prompt only. Per pipeline, out/<host>/MAPPING.md says how each constraint is realised.");
  return 0;
}
