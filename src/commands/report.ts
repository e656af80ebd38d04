// Printing losses and warnings: compiler-style lines, grouped by host, and the YAML that accepts a host limit.
import { lossInfo } from "../adapter/fidelity.js";
import { formatDiagnostic, type Diagnostic } from "../errors.js";
import type { Loss } from "../losses.js";
import { color, err } from "../ui.js";
import { yaml } from "../load/yaml-lazy.js";

export function printWarnings(warnings: readonly Diagnostic[]): void {
  for (const w of warnings) err(color.yellow(formatDiagnostic(w)));
}

/** Identifies one loss across builds (the manifest remembers these for warnings). */
export const lossKey = (l: Loss) => `${l.role ?? "(pipeline)"} ${l.record.constraint} ${l.record.loss}`;

/** `file:line:col: severity CODE host role constraint is level: what it means. What to do.` */
export function formatLoss(l: Loss): string {
  const info = lossInfo(l.record.loss!);
  const fix = l.accepted ? `accepted: ${l.accepted}` : info.limit ? `Host limit: no role change fixes it on ${l.host}; ${info.fix ?? "accept it"}.` : info.fix ? `Fix: ${info.fix}.` : "";
  const where = l.record.field ? ` (${l.record.field})` : "";
  return `${l.file}:${l.line}:${l.column}: ${l.severity} ${l.record.loss} ${l.host} ${l.role ?? "(pipeline)"} ${l.record.constraint}${where} is ${l.record.level}: ${info.text}. ${fix}`.trimEnd();
}

/** Print one host's listing: a pointer to MAPPING.md, then one line per loss. */
export function printHostLosses(host: string, mapping: string, losses: readonly Loss[], why: string): void {
  if (!losses.length) return;
  err(color.bold(`${host}: ${why} (${mapping} explains each; \`harness explain CODE\`)`));
  for (const l of losses) {
    const line = formatLoss(l);
    err(l.accepted || l.severity === "info" ? color.dim(line) : l.severity === "error" ? color.red(line) : color.yellow(line));
  }
}

/**
 * accepted_losses entries that would accept these losses: one per host × constraint × code, for the
 * whole host when every role with that loss has it (a host limit), else per role.
 */
export function acceptancesFor(losses: readonly Loss[]): Record<string, string>[] {
  const groups = new Map<string, Loss[]>();
  for (const l of losses) {
    const key = `${l.host}\u0000${l.record.constraint}\u0000${l.record.loss}`;
    groups.set(key, [...(groups.get(key) ?? []), l]);
  }
  const entries: Record<string, string>[] = [];
  for (const group of groups.values()) {
    const first = group[0]!;
    const info = lossInfo(first.record.loss!);
    const reason = `${first.host}: ${info.text}`;
    const base = { host: first.host, constraint: first.record.constraint, loss: first.record.loss! };
    if (info.limit) entries.push({ ...base, reason });
    else for (const role of [...new Set(group.map((l) => l.role))]) entries.push({ ...base, ...(role ? { role } : {}), reason: `${reason} (say why that is acceptable for ${role ?? "the pipeline"})` });
  }
  return entries;
}

/** The YAML to paste: the whole key when the file has none yet, else the list items to add under it. */
export function acceptanceYaml(losses: readonly Loss[], hasKey: boolean): string {
  const entries = acceptancesFor(losses);
  const text = yaml().stringify(hasKey ? entries : { accepted_losses: entries }, { lineWidth: 0 });
  return text.trimEnd();
}
