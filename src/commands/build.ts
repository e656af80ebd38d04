// harness build: compile in memory, refuse unsafe targets before touching disk, then write atomically.
import { applyPlans, planWrite, type PlanProblem, type WritePlan } from "../fileset.js";
import { displayPath } from "../load/load.js";
import { isBlocking } from "../losses.js";
import { color, out, err } from "../ui.js";
import { prepare, type CommonOptions } from "./prepare.js";
import { printLosses, printWarnings } from "./report.js";
import { UsageError } from "../errors.js";
import { ignoredWarning } from "../gitignore.js";
import path from "node:path";

export interface BuildOptions extends CommonOptions {
  quiet?: boolean;
  verbose?: boolean;
}

/** Returns the exit code: 0 ok, 1 unaccepted error-level losses (files are still written). */
export async function build(options: BuildOptions): Promise<number> {
  const prepared = await prepare(options);
  const plans: WritePlan[] = [];
  const problems: PlanProblem[] = [];
  for (const o of prepared.outputs) {
    const plan = planWrite(o.adapter.id, prepared.hostDir(o.adapter.id), o.files);
    if ("message" in plan) problems.push(plan);
    else plans.push(plan);
  }
  if (problems.length) throw new UsageError(problems.map((p) => `${displayPath(p.dir)}: ${p.message}`).join("\n"));
  applyPlans(plans);
  if (!options.quiet) {
    const ignored = ignoredWarning(prepared.outDir, `Commit it anyway by adding "!/${path.basename(prepared.outDir)}/" after that line, build into another --out, or use \`harness install\` and \`harness check --installed\`.`);
    printWarnings(ignored ? [...prepared.warnings, ignored] : prepared.warnings);
    for (const plan of plans) {
      const o = prepared.outputs.find((x) => x.adapter.id === plan.host)!;
      const losses = prepared.losses.filter((l) => l.host === plan.host);
      const count = (s: string) => losses.filter((l) => l.severity === s && !l.accepted).length;
      const accepted = losses.filter((l) => l.accepted).length;
      out(
        `${color.bold(plan.host.padEnd(12))} ${displayPath(plan.dir)}: ${o.files.length} files, ${plan.write.length} written, ${plan.unchanged} unchanged, ${plan.remove.length} removed` +
          color.dim(` · losses: ${count("error")} error, ${count("warning")} warning, ${count("info")} info, ${accepted} accepted (-v lists all)`),
      );
    }
    printLosses(prepared.losses, options.verbose ?? false);
  }
  for (const f of prepared.findings) err(`${color.red("E_FIDELITY")} ${f.message}`);
  const blocking = prepared.losses.filter(isBlocking);
  if (blocking.length) err(color.red(`${blocking.length} unaccepted error-level loss(es). Accept each in pipeline.yaml accepted_losses with a reason, or change the role.`));
  return blocking.length || prepared.findings.length ? 1 : 0;
}
