// harness build: compile in memory, refuse unsafe targets before touching disk, then write atomically.
// Quiet by default: one line per host; losses are listed only when the user must act (an unaccepted
// error, or a warning the previous build did not report, remembered in the manifest), or with -v.
import path from "node:path";
import { lossInfo } from "../adapter/fidelity.js";
import { applyPlans, HostStager, isFolderOrMissing, NOT_A_FOLDER, Staging, type PlanProblem, type StagedFile, type WritePlan } from "../stage.js";
import { builtHostFolders, removeBuiltHost, manifestFrom, MANIFEST_FILE, sha256 } from "../fileset.js";
import { outputLines } from "../cache/digest.js";
import { startRecording } from "../cache/record.js";
import { displayPath } from "../load/load.js";
import { isBlocking } from "../losses.js";
import { color, out, err, keepOutput } from "../ui.js";
import { commandLine, prepare, type CommonOptions, type Prepared } from "./prepare.js";
import { acceptanceYaml, lossKey, printHostLosses, printWarnings } from "./report.js";
import { UsageError, type Diagnostic } from "../errors.js";
import { ignoredWarning } from "../gitignore.js";

/** A host folder the pipeline no longer targets, and the files build had to leave in it. */
type Leftover = { name: string; dir: string; host: string; left: string[] };

export interface BuildOptions extends CommonOptions {
  /** The command line a cached no-op is recorded for (default: this process's). */
  argv?: readonly string[];
  /** Watch mode: one staging folder for every rebuild of the process (discarded when it stops). */
  staging?: Staging;
  quiet?: boolean;
  verbose?: boolean;
  force?: boolean;
}

/** Returns the exit code: 0 ok, 1 unaccepted error-level losses (files are still written, and the summary says so). */
export async function build(options: BuildOptions): Promise<number> {
  return (await buildOnce(options)).code;
}

/** One build: the exit code and what it wrote (watch mode reports the counts). */
export async function buildOnce(options: BuildOptions): Promise<{ code: number; plans: WritePlan[] }> {
  // Files are staged as they are rendered (stage.ts); out/ itself changes only in applyPlans.
  const outDir = path.resolve(options.out);
  const recorder = startRecording(path.resolve(options.roles), options.argv);
  if (!isFolderOrMissing(outDir)) throw new UsageError(`${displayPath(outDir)}: error E_OUT_DIR ${NOT_A_FOLDER}`);
  const staging = options.staging ?? new Staging(outDir);
  let applied = false;
  const stagers = new Map<string, HostStager>();
  const plans: WritePlan[] = [];
  let prepared;
  try {
    prepared = await prepare(options, (host, dir) => {
      const stager = new HostStager(host, dir, staging, options.force ?? false);
      stagers.set(host, stager);
      return stager.stage;
    });
    const problems: PlanProblem[] = [];
    for (const o of prepared.outputs) {
      const plan = stagers.get(o.adapter.id)!.plan(o.files, prepared.warningKeys(o.adapter.id));
      if ("message" in plan) problems.push(plan);
      else plans.push(plan);
    }
    if (problems.length) throw new UsageError(problems.map((p) => `${displayPath(p.dir)}: error E_OUT_DIR ${p.message}`).join("\n"));
    applyPlans(plans);
    applied = true;
  } finally {
    // after applyPlans it holds only empty folders; watch mode keeps them for its next rebuild
    if (applied && options.staging) staging.keepFolders(plans);
    else staging.discard();
  }
  const ignored = options.quiet ? null : ignoredWarning(prepared.outDir, `Commit it anyway by adding "!/${path.basename(prepared.outDir)}/" after that line, build into another --out, or use \`harness install\` and \`harness check --installed\`.`);
  // A host taken off pipeline.yaml's targets loses its out/ folder: the files harness wrote, nothing else.
  const orphans = options.host?.length ? [] : builtHostFolders(prepared.outDir).filter((f) => !plans.some((p) => p.host === f.name || p.host === f.host));
  const leftovers: Leftover[] = orphans.map((f) => ({ ...f, left: removeBuiltHost(f.dir) }));
  const code = printBuild(prepared, plans, options, ignored, leftovers);
  // What the same command prints when it runs again on what was just written: nothing to write,
  // and the warnings just recorded in the manifests are no longer new.
  if (recorder && plans.every((p) => p.stray.length === 0)) {
    const again = plans.map((p) => ({ ...p, write: [], remove: [], previousWarnings: [...new Set(prepared.warningKeys(p.host))].sort() }));
    // a folder that kept files is still there (and warned about) the next time; a removed one is not
    const { lines } = keepOutput(false, () => printBuild(prepared, again, options, ignored, leftovers.filter((f) => f.left.length)));
    const hosts: Record<string, string> = {};
    for (const o of prepared.outputs) {
      const manifest = manifestFrom(o.adapter.id, o.files, prepared.warningKeys(o.adapter.id));
      hosts[o.adapter.id] = outputLines([...o.files, { path: MANIFEST_FILE, sha256: sha256(manifest), executable: false }]);
    }
    recorder.save({ out: prepared.outDir, hosts, printed: lines, code });
  }
  return { code, plans };
}

/** The summary: a line per host, the losses that need the user, strays and orphaned hosts. Returns the exit code. */
function printBuild(prepared: Prepared<StagedFile>, plans: readonly WritePlan[], options: BuildOptions, ignored: Diagnostic | null, leftovers: readonly Leftover[]): number {
  const blocking = prepared.losses.filter(isBlocking);
  if (!options.quiet) {
    printWarnings(ignored ? [...prepared.warnings, ignored] : prepared.warnings);
    for (const plan of plans) {
      const o = prepared.outputs.find((x) => x.adapter.id === plan.host)!;
      const losses = prepared.losses.filter((l) => l.host === plan.host);
      const count = (s: string) => losses.filter((l) => l.severity === s && !l.accepted).length;
      const accepted = losses.filter((l) => l.accepted).length;
      const need = count("error") + count("warning");
      out(
        `${color.bold(plan.host.padEnd(12))} ${displayPath(plan.dir)}: ${o.files.length + 1} files, ${plan.write.length} written, ${plan.remove.length} removed · ` +
          (need ? color.yellow(`${count("error")} error, ${count("warning")} warning loss(es)`) : "no unaccepted losses") +
          color.dim(` (${accepted} accepted, ${count("info")} info${options.verbose ? "" : "; -v lists them"})`),
      );
    }
    for (const plan of plans) {
      const mapping = `${displayPath(plan.dir)}/MAPPING.md`;
      const losses = prepared.losses.filter((l) => l.host === plan.host);
      if (options.verbose) printHostLosses(plan.host, mapping, losses, "every loss");
      else {
        const fresh = losses.filter((l) => isBlocking(l) || (l.severity === "warning" && !l.accepted && !plan.previousWarnings.includes(lossKey(l))));
        printHostLosses(plan.host, mapping, fresh, "losses that need you");
      }
      for (const rel of plan.stray) err(color.yellow(`${displayPath(path.join(plan.dir, rel))}: warning W_STRAY not written by harness, so harness leaves it alone (and check reports it). Delete it if you do not need it.`));
    }
    for (const folder of leftovers)
      if (!folder.left.length) out(`${color.bold(folder.host.padEnd(12))} ${displayPath(folder.dir)}: removed (${displayPath(prepared.pipeline.source.file)} no longer targets it)`);
      else
        err(color.yellow(`${displayPath(folder.dir)}: warning W_ORPHANED_HOST a harness build for "${folder.host}", which ${displayPath(prepared.pipeline.source.file)} no longer targets, holds ${folder.left.length} file(s) harness did not write or that were edited (${folder.left.slice(0, 3).join(", ")}${folder.left.length > 3 ? ", …" : ""}), so harness left the folder alone. Delete it, or list the host under targets again.`));
  }
  for (const f of prepared.findings) err(color.red(`${f.file}:${f.line}:${f.column}: error E_FIDELITY ${f.message}`));
  if (blocking.length) {
    const file = prepared.pipeline.source.file;
    const hasKey = "accepted_losses" in prepared.pipeline.source.fields;
    const limits = blocking.every((l) => lossInfo(l.record.loss!).limit);
    err(color.red(`${blocking.length} unaccepted error-level loss(es).${limits ? " Each is a host limit that no role change fixes." : ""} To accept ${limits ? "them" : "what you cannot fix"}, ${hasKey ? `add under accepted_losses: in ${file}` : `paste into ${file}`} (edit each reason):`));
    err(acceptanceYaml(blocking, hasKey));
  }
  const written = plans.reduce((n, p) => n + p.write.length, 0);
  if (blocking.length || prepared.findings.length)
    err(`Exit 1, and ${written} file(s) written: ${plans.length === 1 ? displayPath(plans[0]!.dir) : displayPath(prepared.outDir)} is up to date so you can read ${plans.length === 1 ? "its MAPPING.md" : "each host's MAPPING.md"}; \`${commandLine("check", options)}\` fails until every error-level loss is accepted or fixed.`);
  return blocking.length || prepared.findings.length ? 1 : 0;
}

