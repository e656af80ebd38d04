// harness report: compile in memory and write one static HTML page (default out/report.html): the
// matrix of every host × role × constraint, the losses, and the recorded runs. Written atomically;
// nothing else is touched. Not part of `harness check`: it holds the runs of this checkout.
import { spawn } from "node:child_process";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { CONSTRAINTS } from "../adapter/fidelity.js";
import { proofFor } from "../emit/mapping.js";
import { renderReport } from "../emit/report-page.js";
import { displayPath } from "../load/load.js";
import { readRunRecords } from "../run-records.js";
import { out, err } from "../ui.js";
import { prepare, type CommonOptions } from "./prepare.js";

export interface ReportPageOptions extends Omit<CommonOptions, "out"> {
  /** The HTML file to write. */
  out?: string;
  open?: boolean;
  /** The project whose .harness/runs/ the page shows (default: the working directory). */
  project?: string;
  quiet?: boolean;
}

export async function reportPage(options: ReportPageOptions): Promise<number> {
  const file = path.resolve(options.out ?? "out/report.html");
  const outDir = path.resolve("out"); // where `harness build` puts each host's MAPPING.md
  const prepared = await prepare({ ...options, out: outDir });
  const { pipeline } = prepared;
  const link = (host: string) => path.relative(path.dirname(file), path.join(outDir, host, "MAPPING.md")).split(path.sep).join("/");
  const { runs, unreadable } = readRunRecords(path.resolve(options.project ?? "."));
  const html = renderReport({
    title: pipeline.title,
    rolesDir: pipeline.rolesDir,
    constraints: CONSTRAINTS,
    roles: pipeline.roles.map((r) => r.id),
    hosts: prepared.outputs.map((o) => ({
      id: o.adapter.id,
      name: o.adapter.displayName,
      checked: o.adapter.checkedAgainst.basis === "docs" ? `${o.adapter.checkedAgainst.program} documentation of ${o.adapter.checkedAgainst.version} (not proven on the real host)` : `checked against ${o.adapter.checkedAgainst.program} ${o.adapter.checkedAgainst.version}`,
      mapping: link(o.adapter.id),
      cells: o.fidelity.map((r) => ({ role: r.role, constraint: r.constraint, level: r.level, how: r.how, ...(r.loss ? { loss: r.loss } : {}), proof: proofFor(o.adapter, pipeline, r.level, r.constraint) })),
    })),
    losses: prepared.losses.map((l) => ({ host: l.host, role: l.role, constraint: l.record.constraint, loss: l.record.loss!, severity: l.severity, ...(l.accepted ? { accepted: l.accepted } : {}), where: `${l.file}:${l.line}:${l.column}` })),
    runs,
    unreadable,
  });
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.harness-tmp-${process.pid}`;
  writeFileSync(tmp, html);
  renameSync(tmp, file);
  if (!options.quiet) out(`${displayPath(file)}: ${prepared.outputs.length} hosts, ${pipeline.roles.length} roles, ${runs.length} runs`);
  if (options.open) openInBrowser(file);
  return 0;
}

/** The platform's opener, detached; a missing one is a note, not a failure (the file is written). */
function openInBrowser(file: string): void {
  const [cmd, args] = process.platform === "darwin" ? ["open", [file]] : process.platform === "win32" ? ["cmd", ["/c", "start", "", file]] : ["xdg-open", [file]];
  try {
    const child = spawn(cmd, args as string[], { detached: true, stdio: "ignore" });
    child.on("error", () => err(`could not start ${cmd}; open ${displayPath(file)} in a browser`));
    child.unref();
  } catch {
    err(`could not start ${cmd}; open ${displayPath(file)} in a browser`);
  }
}
