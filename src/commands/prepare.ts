// Shared by build, check and diff: read the roles, pick hosts, compile everything in memory.
import path from "node:path";
import type { AdapterRegistry } from "../adapter/types.js";
import { compileHost, type HostOutput } from "../compile.js";
import type { RenderedFile } from "../emit/render.js";
import { InputError, UsageError, type Diagnostic } from "../errors.js";
import { hostFieldProblems } from "../adapter/host-fields.js";
import { hostLimitWarnings } from "../adapter/limits.js";
import { protectedConflicts } from "../adapter/protected.js";
import { readPipeline } from "../ir/normalize.js";
import type { PipelineIR } from "../ir/types.js";
import { collectLosses, findings, unusedAcceptances, type Finding, type Loss } from "../losses.js";
import { closest } from "../schema/diagnose.js";
import { lossKey } from "./report.js";

export interface CommonOptions {
  /** The host registry (adapters/index.ts), passed in by src/cli.ts so src/ never imports adapters/. */
  registry: AdapterRegistry;
  roles: string;
  out: string;
  host?: string[];
  strict?: boolean;
}

export interface Prepared<F extends { path: string } = RenderedFile> {
  pipeline: PipelineIR;
  outputs: HostOutput<F>[];
  losses: Loss[];
  findings: Finding[];
  warnings: Diagnostic[];
  outDir: string;
  hostDir(host: string): string;
  /** Unaccepted warning-level losses of a host, as keys the manifest remembers. */
  warningKeys(host: string): string[];
}

/** The command the user would type again: `harness build` plus the folders they chose. */
export function commandLine(command: string, options: Pick<CommonOptions, "roles" | "out">): string {
  const quote = (s: string) => (/^[\w./@:-]+$/.test(s) ? s : JSON.stringify(s));
  return ["harness", command, ...(options.roles !== "roles" ? ["--roles", quote(options.roles)] : []), ...(options.out !== "out" ? ["--out", quote(options.out)] : [])].join(" ");
}

export function resolveHosts(requested: readonly string[] | undefined, pipeline: PipelineIR, registry: AdapterRegistry): string[] {
  const HOST_IDS = Object.keys(registry);
  for (const h of requested ?? []) {
    if (!HOST_IDS.includes(h)) {
      const near = closest(h, HOST_IDS);
      throw new UsageError(`unknown host "${h}". ${near ? `Did you mean "${near}"? ` : ""}Known hosts: ${HOST_IDS.join(", ")}.`);
    }
  }
  if (requested && requested.length) return [...new Set(requested)].sort();
  return [...(pipeline.targets ?? HOST_IDS)].sort();
}

/**
 * `hosts:` used to select the hosts as well as map their models; now only `targets:` selects. A
 * pipeline whose `hosts:` names fewer hosts than it now builds is told once, where the key is.
 */
export function hostsSelectionWarning(pipeline: PipelineIR, registry: AdapterRegistry): Diagnostic | undefined {
  const listed = Object.keys(pipeline.hosts);
  const all = Object.keys(registry);
  if (pipeline.targets || !listed.length || all.every((h) => listed.includes(h))) return undefined;
  const at = pipeline.source.fields["hosts"] ?? { line: 1, column: 1 };
  return {
    code: "W_HOSTS_NOT_TARGETS",
    severity: "warning",
    position: { file: pipeline.source.file, line: at.line, column: at.column },
    field: "hosts",
    message: `maps models and no longer selects hosts, so every host is built (${all.join(", ")}). To build only ${listed.join(", ")}, add targets: [${listed.join(", ")}].`,
  };
}

/** `keep(host, dir)`: what each host's output holds of a rendered file (compileHost); by default the file. */
export async function prepare(options: CommonOptions): Promise<Prepared>;
export async function prepare<F extends { path: string }>(options: CommonOptions, keep: (host: string, dir: string) => (file: RenderedFile) => F): Promise<Prepared<F>>;
export async function prepare(options: CommonOptions, keep?: (host: string, dir: string) => (file: RenderedFile) => { path: string }): Promise<Prepared<{ path: string }>> {
  const { pipeline, warnings } = readPipeline(path.resolve(options.roles), { knownHosts: Object.keys(options.registry) });
  const hosts = resolveHosts(options.host, pipeline, options.registry);
  const adapters = await Promise.all(hosts.map((h) => options.registry[h]!()));
  const problems = adapters.flatMap((a) => [...hostFieldProblems(pipeline, a), ...protectedConflicts(pipeline, a)]);
  if (problems.length) throw new InputError(problems);
  const outDir = path.resolve(options.out);
  const outputs = adapters.map((a) => (keep ? compileHost(pipeline, a, keep(a.id, path.join(outDir, a.id))) : compileHost(pipeline, a)));
  const losses = outputs.flatMap((o) => collectLosses(pipeline, o.adapter.id, o.fidelity));
  const found = outputs.flatMap((o) => findings(pipeline, o.adapter.id, o.fidelity, options.strict ?? false));
  return {
    pipeline,
    outputs,
    losses,
    findings: found,
    warnings: [
      ...warnings,
      ...(options.host?.length ? [] : [hostsSelectionWarning(pipeline, options.registry)].filter((d): d is Diagnostic => d !== undefined)),
      ...unusedAcceptances(pipeline, hosts, losses),
      ...outputs.flatMap((o) => hostLimitWarnings(pipeline, o.adapter.id, o.prompts, o.files)),
    ],
    outDir,
    hostDir: (host) => path.join(outDir, host),
    warningKeys: (host) => losses.filter((l) => l.host === host && l.severity === "warning" && !l.accepted).map(lossKey),
  };
}
