// harness hosts: what every registered host can enforce, from the adapters' own declarations.
import type { AdapterRegistry } from "../adapter/types.js";
import { CANONICAL_TOOLS } from "../schema/vocabulary.js";
import { out } from "../ui.js";
import type { Adapter } from "../adapter/types.js";

const pad = (s: string, n: number) => s + " ".repeat(Math.max(0, n - s.length));

export async function hosts(registry: AdapterRegistry, opts: { check?: boolean } = {}): Promise<number> {
  const adapters = await Promise.all(Object.keys(registry).sort().map((id) => registry[id]!()));
  if (opts.check) return checkInstalled(adapters);
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

/** `--check`: one line per host, pinned vs on PATH. Exit 0; a difference is information, not an error. */
async function checkInstalled(adapters: readonly Adapter[]): Promise<number> {
  const { checkHosts } = await import("./host-versions.js");
  const checks = await checkHosts(adapters);
  const w = Math.max(...checks.map((c) => c.id.length)) + 2;
  const pw = Math.max(...checks.map((c) => c.pinned.length)) + 2;
  for (const c of checks) {
    const installed =
      c.verdict === "docs only" ? "no CLI to install (docs)" : c.verdict === "not installed" ? "not on PATH" : `${c.installed.version ?? `? (${c.installed.error})`} ${c.installed.bin}`;
    out(`${pad(c.id, w)}pinned ${pad(c.pinned, pw)}installed ${installed}${c.verdict === "differs" ? "  DIFFERS" : c.verdict === "same" ? "  same" : ""}`);
  }
  const differ = checks.filter((c) => c.verdict === "differs").map((c) => c.id);
  if (differ.length) out(`\n${differ.join(", ")}: the installed CLI is not the version harness was proven against; its MAPPING.md claims may not hold.`);
  return 0;
}
