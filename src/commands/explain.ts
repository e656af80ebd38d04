// harness explain CODE: the text behind a loss or diagnostic code (the same text MAPPING.md shows).
import { LOSS_CODES, lossInfo, type LossCode } from "../adapter/fidelity.js";
import { DIAGNOSTIC_CODES } from "../codes.js";
import { lossRemedy } from "../emit/mapping.js";
import { UsageError } from "../errors.js";
import { closest } from "../schema/diagnose.js";
import { out } from "../ui.js";

export function explain(code: string): number {
  const upper = code.toUpperCase();
  if (upper in LOSS_CODES) {
    const info = lossInfo(upper as LossCode);
    out(`${upper} (loss, ${info.severity}${info.limit ? ", host limit" : ""})`);
    out(`  ${info.text}.`);
    const remedy = lossRemedy(upper as LossCode);
    if (remedy) out(`  What to do: ${remedy}.`);
    out(`  To accept it: accepted_losses: [{ host: <host>, constraint: <constraint>, loss: ${upper}, reason: "…" }] in pipeline.yaml.`);
    if (info.severity === "error") out("  Unaccepted, it makes build and check exit 1.");
    return 0;
  }
  if (upper in DIAGNOSTIC_CODES) {
    out(`${upper} (${upper.startsWith("W_") ? "warning" : "error"})`);
    out(`  ${DIAGNOSTIC_CODES[upper]}`);
    return 0;
  }
  const known = [...Object.keys(LOSS_CODES), ...Object.keys(DIAGNOSTIC_CODES)].sort();
  const near = closest(upper, known);
  throw new UsageError(`no code "${code}". ${near ? `Did you mean "${near}"? ` : ""}Known codes: ${known.join(", ")}.`);
}
