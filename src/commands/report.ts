// Printing losses and warnings, grouped by host and role.
import { formatDiagnostic, type Diagnostic } from "../errors.js";
import type { Loss } from "../losses.js";
import { color, err } from "../ui.js";

export function printWarnings(warnings: readonly Diagnostic[]): void {
  for (const w of warnings) err(color.yellow(formatDiagnostic(w)));
}

export function printLosses(losses: readonly Loss[], verbose: boolean): void {
  // Accepted losses and info are listed with -v; the summary line still counts them.
  const shown = losses.filter((l) => verbose || (l.severity !== "info" && !l.accepted));
  const hosts = [...new Set(shown.map((l) => l.host))];
  for (const host of hosts) {
    err(color.bold(`${host}: losses`));
    const mine = shown.filter((l) => l.host === host);
    for (const role of [...new Set(mine.map((l) => l.role ?? "(pipeline)"))]) {
      err(`  ${role}`);
      for (const l of mine.filter((x) => (x.role ?? "(pipeline)") === role)) {
        const tag = l.accepted ? color.dim(`${l.severity}, accepted`) : l.severity === "error" ? color.red("error") : l.severity === "warning" ? color.yellow("warning") : color.dim("info");
        err(`    ${l.record.constraint.padEnd(12)} ${l.record.level.padEnd(10)} ${(l.record.loss ?? "").padEnd(24)} ${tag}  ${color.dim(`${l.file}:${l.line}:${l.column}${l.record.field ? ` ${l.record.field}` : ""}`)}`);
        if (verbose && l.accepted) err(color.dim(`      accepted because: ${l.accepted}`));
      }
    }
  }
}
