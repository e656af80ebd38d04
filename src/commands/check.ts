// harness check: compile in memory and compare with out/. Exit 1 on drift; writes nothing.
import { createTwoFilesPatch } from "diff";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { UsageError } from "../errors.js";
import { findDrift, readManifest, type Drift } from "../fileset.js";
import { displayPath } from "../load/load.js";
import { isBlocking } from "../losses.js";
import { color, out, err } from "../ui.js";
import { prepare, type CommonOptions } from "./prepare.js";
import { printWarnings } from "./report.js";
import { ignoredWarning } from "../gitignore.js";

export interface CheckOptions extends CommonOptions {
  json?: boolean;
  quiet?: boolean;
  maxDiffLines?: number;
}

export function shortDiff(d: Drift, maxLines: number): string {
  const patch = createTwoFilesPatch(`out/${d.host}/${d.path}`, `harness build (${d.path})`, d.actual ?? "", d.expected ?? "", "on disk", "from roles/", { context: 2 });
  const lines = patch.split("\n").slice(2).filter((l) => l !== "");
  return lines.length > maxLines ? [...lines.slice(0, maxLines), `… ${lines.length - maxLines} more diff lines`].join("\n") : lines.join("\n");
}

/** Host folders harness built earlier that the pipeline no longer lists. An unknown host is a usage error. */
function orphanedHosts(outDir: string, built: readonly string[], known: readonly string[]): Drift[] {
  if (!existsSync(outDir)) return [];
  const found: Drift[] = [];
  for (const entry of readdirSync(outDir, { withFileTypes: true })) {
    if (!entry.isDirectory() || built.includes(entry.name)) continue;
    const manifest = readManifest(path.join(outDir, entry.name));
    if (!manifest) continue;
    if (!known.includes(manifest.host))
      throw new UsageError(`${displayPath(path.join(outDir, entry.name))} was built for host "${manifest.host}", which this harness does not know. Remove the folder, or use the harness version that knows that host.`);
    found.push({ host: entry.name, path: "", kind: "stray" });
  }
  return found;
}

export async function check(options: CheckOptions): Promise<number> {
  const prepared = await prepare(options);
  const drift = prepared.outputs.flatMap((o) => findDrift(o.adapter.id, prepared.hostDir(o.adapter.id), o.files));
  if (!options.host?.length) drift.push(...orphanedHosts(prepared.outDir, prepared.outputs.map((o) => o.adapter.id), Object.keys(options.registry)));
  const blocking = prepared.losses.filter(isBlocking);
  if (options.json) {
    out(
      JSON.stringify(
        {
          ok: drift.length === 0 && blocking.length === 0 && prepared.findings.length === 0,
          hosts: prepared.outputs.map((o) => o.adapter.id),
          drift: drift.map((d) => ({ host: d.host, path: d.path ? `${displayPath(prepared.hostDir(d.host))}/${d.path}` : displayPath(prepared.hostDir(d.host)), kind: d.path ? d.kind : "orphaned-host" })),
          findings: prepared.findings,
          losses: blocking.map((l) => ({ host: l.host, role: l.role, constraint: l.record.constraint, code: l.record.loss, file: l.file, line: l.line, column: l.column })),
        },
        null,
        2,
      ),
    );
  } else {
    if (!options.quiet) printWarnings(prepared.warnings);
    for (const d of drift) {
      const where = d.path ? `${displayPath(prepared.hostDir(d.host))}/${d.path}` : displayPath(prepared.hostDir(d.host));
      const what = !d.path ? `is a harness build for "${d.host}", which pipeline.yaml no longer lists (orphaned host; delete the folder or list the host)` : d.kind === "changed" ? "differs from what roles/ produce" : d.kind === "missing" ? "is missing" : "is not produced by harness (stray)";
      err(`${color.red(`E_DRIFT`)} ${where} ${what}`);
      if (!options.quiet && d.kind !== "missing" && d.path) err(color.dim(shortDiff(d, options.maxDiffLines ?? 20)));
    }
    for (const l of blocking) err(`${color.red("E_LOSS")} ${l.file}:${l.line}:${l.column}: ${l.host} ${l.role ?? ""} ${l.record.constraint} is ${l.record.level} (${l.record.loss}). Accept it in pipeline.yaml with a reason, or change the role.`);
    for (const f of prepared.findings) err(`${color.red("E_FIDELITY")} ${f.message}`);
    const ignored = drift.length && drift.every((d) => d.kind === "missing") ? ignoredWarning(prepared.outDir, "That is why its files are missing here: un-ignore it and commit them.") : null;
    if (ignored) printWarnings([ignored]);
    if (drift.length) err(`${drift.length} file(s) out of sync. Run \`harness build\` and commit the result.`);
    else if (!options.quiet && !blocking.length && !prepared.findings.length) out(`${color.green("ok")} ${prepared.outputs.map((o) => `${o.adapter.id} (${o.files.length + 1} files)`).join(", ")} in sync with ${displayPath(prepared.pipeline.source.file)}`);
  }
  return drift.length || blocking.length || prepared.findings.length ? 1 : 0;
}
