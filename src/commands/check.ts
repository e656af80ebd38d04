// harness check: compile in memory and compare with out/. Exit 1 on drift; writes nothing.
import { createTwoFilesPatch } from "diff";
import { UsageError } from "../errors.js";
import path from "node:path";
import { outputLines } from "../cache/digest.js";
import { startRecording } from "../cache/record.js";
import { builtHostFolders, findDrift, manifestFor, sha256, type Drift } from "../fileset.js";
import { displayPath } from "../load/load.js";
import { isBlocking } from "../losses.js";
import { color, out, err, keepOutput } from "../ui.js";
import { commandLine, prepare, type CommonOptions, type Prepared } from "./prepare.js";
import { formatLoss, printWarnings } from "./report.js";
import { ignoredWarning } from "../gitignore.js";

export interface CheckOptions extends CommonOptions {
  /** The command line a cached no-op is recorded for (default: this process's). */
  argv?: readonly string[];
  json?: boolean;
  quiet?: boolean;
  maxDiffLines?: number;
}

/** A unified diff from what is on disk (---) to what a build would write (+++). */
export function shortDiff(d: Drift, maxLines: number, where = `out/${d.host}/${d.path}`, rolesDir = "roles/"): string {
  const patch = createTwoFilesPatch(where, where, d.actual ?? "", d.expected ?? "", "on disk", `as built from ${rolesDir}`, { context: 2 });
  const lines = patch.split("\n").slice(1).filter((l) => l !== "");
  return lines.length > maxLines ? [...lines.slice(0, maxLines), `… ${lines.length - maxLines} more diff lines`].join("\n") : lines.join("\n");
}

/** Host folders harness built earlier that the pipeline no longer lists. An unknown host is a usage error. */
function orphanedHosts(outDir: string, built: readonly string[], known: readonly string[]): Drift[] {
  const found: Drift[] = [];
  for (const folder of builtHostFolders(outDir)) {
    if (built.includes(folder.name)) continue;
    if (!known.includes(folder.host))
      throw new UsageError(`${displayPath(folder.dir)} was built for host "${folder.host}", which this harness does not know. Remove the folder, or use the harness version that knows that host.`);
    found.push({ host: folder.name, path: "", kind: "stray" });
  }
  return found;
}

export async function check(options: CheckOptions): Promise<number> {
  const recorder = startRecording(path.resolve(options.roles), options.argv);
  const prepared = await prepare(options);
  const drift = prepared.outputs.flatMap((o) => findDrift(o.adapter.id, prepared.hostDir(o.adapter.id), o.files, prepared.warningKeys(o.adapter.id)));
  if (!options.host?.length) drift.push(...orphanedHosts(prepared.outDir, prepared.outputs.map((o) => o.adapter.id), Object.keys(options.registry)));
  const { result: code, lines } = keepOutput(true, () => printCheck(prepared, drift, options));
  // In sync: the same command in the same state prints the same, so a replay may answer for it.
  if (recorder && drift.length === 0) {
    const hosts: Record<string, string> = {};
    for (const o of prepared.outputs) {
      const all = [...o.files, manifestFor(o.adapter.id, o.files, prepared.warningKeys(o.adapter.id))];
      hosts[o.adapter.id] = outputLines(all.map((f) => ({ path: f.path, sha256: sha256(f.content), executable: f.executable })));
    }
    recorder.save({ out: prepared.outDir, hosts, printed: lines, code });
  }
  return code;
}

function printCheck(prepared: Prepared, drift: Drift[], options: CheckOptions): number {
  const blocking = prepared.losses.filter(isBlocking);
  const where = (d: Drift) => (d.path ? `${displayPath(prepared.hostDir(d.host))}/${d.path}` : displayPath(prepared.hostDir(d.host)));
  const rolesDir = prepared.pipeline.rolesDir;
  const rebuild = commandLine("build", options);
  if (options.json) {
    out(
      JSON.stringify(
        {
          ok: drift.length === 0 && blocking.length === 0 && prepared.findings.length === 0,
          hosts: prepared.outputs.map((o) => o.adapter.id),
          drift: drift.map((d) => ({ host: d.host, path: where(d), kind: d.path ? (d.edited ? "edited" : d.kind) : "orphaned-host" })),
          findings: prepared.findings,
          losses: blocking.map((l) => ({ host: l.host, role: l.role, constraint: l.record.constraint, code: l.record.loss, file: l.file, line: l.line, column: l.column })),
        },
        null,
        2,
      ),
    );
    return drift.length || blocking.length || prepared.findings.length ? 1 : 0;
  }
  if (options.quiet) {
    // Only what is wrong, one path or location per line; the exit code says the rest.
    for (const d of drift) out(where(d));
    for (const l of blocking) out(`${l.file}:${l.line}:${l.column}`);
    for (const f of prepared.findings) out(`${f.file}:${f.line}:${f.column}`);
    return drift.length || blocking.length || prepared.findings.length ? 1 : 0;
  }
  printWarnings(prepared.warnings);
  for (const d of drift) {
    const what = !d.path
      ? `is a harness build for "${d.host}", which ${displayPath(prepared.pipeline.source.file)} no longer targets (orphaned host). Run \`harness build\` to remove it (harness removes only the files it wrote), or list the host under targets again.`
      : d.kind === "stray"
        ? "is not produced by harness (stray); harness never deletes files it did not write. Delete it."
        : d.kind === "missing"
          ? `is missing. Run \`${rebuild}\` and commit the result.`
          : d.edited
            ? `was edited by hand since harness wrote it. Move the change into ${rolesDir} (or revert the file), then run \`${rebuild} --force\`.`
            : `differs from what ${rolesDir} produce. Run \`${rebuild}\` and commit the result.`;
    err(`${where(d)}: error E_DRIFT ${what}`);
    if (d.kind !== "missing" && d.path) err(color.dim(shortDiff(d, options.maxDiffLines ?? 20, where(d), rolesDir)));
  }
  for (const l of blocking) err(color.red(formatLoss(l)));
  for (const f of prepared.findings) err(color.red(`${f.file}:${f.line}:${f.column}: error E_FIDELITY ${f.message}`));
  const ignored = drift.length && drift.every((d) => d.kind === "missing") ? ignoredWarning(prepared.outDir, "That is why its files are missing here: un-ignore it and commit them.") : null;
  if (ignored) printWarnings([ignored]);
  const inSync = `${prepared.outputs.map((o) => `${o.adapter.id} (${o.files.length + 1} files)`).join(", ")} in sync with ${displayPath(prepared.pipeline.source.file)}`;
  if (drift.length) err(`${drift.length} path(s) out of sync; each line above says what fixes it.`);
  else if (blocking.length || prepared.findings.length)
    out(`files ${inSync}; failing on ${blocking.length} unaccepted error-level loss(es)${prepared.findings.length ? ` and ${prepared.findings.length} finding(s)` : ""} (\`${rebuild}\` prints the accepted_losses YAML to paste).`);
  else out(`${color.green("ok")} ${inSync}`);
  return drift.length || blocking.length || prepared.findings.length ? 1 : 0;
}
