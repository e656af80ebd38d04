// harness install | uninstall | check --installed: put the compiled hosts into a project root (merging
// the files it shares with the project), take them out again, and verify them against the lock.
import { createTwoFilesPatch } from "diff";
import fs, { existsSync, statSync } from "node:fs";
import path from "node:path";
import type { AdapterRegistry } from "../adapter/types.js";
import { compileHost, MAPPING_FILE } from "../compile.js";
import { InputError, UsageError } from "../errors.js";
import { readPipeline } from "../ir/normalize.js";
import { displayPath } from "../load/load.js";
import { collectLosses, findings, isBlocking } from "../losses.js";
import { applyWrites, type ApplyHooks, type Write } from "../install/apply.js";
import { LOCK_FILE, LOCK_VERSION, readLock, sourceDigest, type Lock } from "../install/lock.js";
import { pending, planInstall, planUninstall, type AdoptedKey, type FileChange, type HostFiles, type Plan } from "../install/plan.js";
import { readCurrent, shownRoot } from "../install/safe-path.js";
import { color, err, out } from "../ui.js";
import { isGitRoot } from "../project-root.js";
import { resolveHosts } from "./prepare.js";
import { hostFieldProblems } from "../adapter/host-fields.js";
import { protectedConflicts } from "../adapter/protected.js";
import { printWarnings } from "./report.js";
import { IMPORT_RECORD } from "../import/record.js";
import { driftReport, wayOut } from "./installed-report.js";

export interface InstallOptions {
  registry: AdapterRegistry;
  version: string;
  roles?: string;
  into?: string;
  host?: string[];
  dryRun?: boolean;
  force?: boolean;
  json?: boolean;
  quiet?: boolean;
  /** With --dry-run: the full diff instead of the summary. */
  verbose?: boolean;
  /** Tests only: fail a step of the apply on purpose. */
  hooks?: ApplyHooks;
}

function projectRoot(into: string | undefined): string {
  const root = path.resolve(into ?? ".");
  if (!existsSync(root) || !statSync(root).isDirectory()) throw new UsageError(`--into ${into}: no such folder. Create the project folder first.`);
  return root;
}

/** Install problems name files relative to the project root; show them relative to the current folder. */
async function located<T>(root: string, action: () => T | Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof InputError && error.constructor !== InputError)
      throw new InputError(error.diagnostics.map((d) => ({ ...d, position: { ...d.position, file: displayPath(path.join(root, d.position.file)) } })));
    throw error;
  }
}

interface Compiled {
  outputs: HostFiles[];
  /** Installed hosts that pipeline.yaml no longer lists: install removes their files. */
  dropped: string[];
  roles: string[];
  blocking: number;
  header: Omit<Lock, "files" | "hosts">;
  adopt: ReadonlyMap<string, string>;
  adoptHosts: ReadonlyMap<string, string>;
  adoptKeys: ReadonlyMap<string, readonly AdoptedKey[]>;
}

/** The agent files `harness import` read into this roles folder (roles/.harness-import.json): path → SHA-256. */
function importedOriginals(rolesDir: string): { adopt: Map<string, string>; adoptHosts: Map<string, string>; adoptKeys: Map<string, AdoptedKey[]> } {
  const out = { adopt: new Map<string, string>(), adoptHosts: new Map<string, string>(), adoptKeys: new Map<string, AdoptedKey[]>() };
  let record: { files?: { path?: unknown; sha256?: unknown; host?: unknown; key?: unknown }[] };
  try {
    record = JSON.parse(fs.readFileSync(path.join(rolesDir, IMPORT_RECORD), "utf8")) as typeof record;
  } catch {
    return out;
  }
  for (const f of Array.isArray(record.files) ? record.files : [])
    if (typeof f.path === "string" && typeof f.sha256 === "string" && f.key !== undefined) {
      // an agent entry inside a shared config (opencode.json agent.<name>): that key only, never the file
      if (Array.isArray(f.key) && f.key.length && f.key.every((k) => typeof k === "string") && typeof f.host === "string")
        out.adoptKeys.set(f.path, [...(out.adoptKeys.get(f.path) ?? []), { key: f.key as string[], sha256: f.sha256, host: f.host }]);
    } else if (typeof f.path === "string" && typeof f.sha256 === "string") {
      out.adopt.set(f.path, f.sha256);
      if (typeof f.host === "string") out.adoptHosts.set(f.path, f.host);
    }
  return out;
}

async function compile(options: InstallOptions, root: string, lock: Lock | null, hostsFromLock: boolean): Promise<Compiled> {
  const rolesDir = path.resolve(options.roles ?? "roles");
  const known = Object.keys(options.registry);
  const { pipeline, warnings } = readPipeline(rolesDir, { knownHosts: known });
  if (!options.quiet && !options.json) printWarnings(warnings);
  for (const h of lock?.hosts ?? [])
    if (!known.includes(h)) throw new UsageError(`${displayPath(path.join(root, LOCK_FILE))} lists host "${h}", which this harness does not know. Use the harness version that installed it.`);
  // An installed host stays installed while pipeline.yaml lists it; one taken off the list is removed.
  const listed = resolveHosts(undefined, pipeline, options.registry);
  const kept = (lock?.hosts ?? []).filter((h) => listed.includes(h) || options.host?.includes(h));
  const requested = hostsFromLock && lock ? (options.host?.length ? options.host : kept) : resolveHosts(options.host, pipeline, options.registry);
  resolveHosts(requested, pipeline, options.registry); // validates the ids
  const hosts = [...new Set([...requested, ...kept])].sort();
  const adapters = await Promise.all(hosts.map((h) => options.registry[h]!()));
  const fieldProblems = adapters.flatMap((a) => [...hostFieldProblems(pipeline, a), ...protectedConflicts(pipeline, a)]);
  if (fieldProblems.length) throw new InputError(fieldProblems);
  const compiled = adapters.map((a) => compileHost(pipeline, a));
  const blocking = compiled.flatMap((o) => collectLosses(pipeline, o.adapter.id, o.fidelity).filter(isBlocking)).length + compiled.flatMap((o) => findings(pipeline, o.adapter.id, o.fidelity, false)).length;
  return {
    // MAPPING.md documents out/<host>/; it is not a file any host reads, so it is not installed.
    outputs: compiled.map((o) => ({ host: o.adapter.id, files: o.files.filter((f) => f.path !== MAPPING_FILE) })),
    roles: pipeline.roles.map((r) => r.id),
    dropped: (lock?.hosts ?? []).filter((h) => !hosts.includes(h)),
    blocking,
    ...importedOriginals(rolesDir),
    header: { lockVersion: LOCK_VERSION, generator: "harness", version: options.version, source: { roles: path.relative(root, rolesDir).split(path.sep).join("/") || ".", digest: sourceDigest(rolesDir) } },
  };
}

const action = (c: FileChange) => (c.before === c.after && !c.fixMode ? (c.problems.length ? "kept" : "unchanged") : c.before === null ? "create" : c.after === null ? "remove" : "update");

function writesFor(root: string, plan: Plan): Write[] {
  // A link's target is written once, whichever planned paths lead to it; the link itself is kept.
  const writes: Write[] = [...new Map(pending(plan).map((c) => [c.target ?? c.path, { path: c.target ?? c.path, content: c.after, executable: c.executable }])).values()];
  const lockNow = readCurrent(root, LOCK_FILE);
  if (lockNow !== plan.lockAfter) writes.push({ path: LOCK_FILE, content: plan.lockAfter, executable: false });
  return writes;
}

/** Shared files and changes as unified diffs; a new harness-only file as one line (its bytes are out/<host>/'s). */
function printDiff(root: string, plan: Plan, writes: readonly Write[]): void {
  for (const w of writes) {
    const before = readCurrent(root, w.path);
    const change = plan.changes.find((c) => (c.target ?? c.path) === w.path);
    if (before === null && change?.mode === "whole" && w.content !== null) {
      out(`+++ b/${w.path}\t(new file, ${w.content.split("\n").length - 1} lines)`);
      continue;
    }
    const patch = createTwoFilesPatch(`a/${w.path}`, `b/${w.path}`, before ?? "", w.content ?? "", before === null ? "(new file)" : "", w.content === null ? "(removed)" : "", { context: 3 });
    out(patch.split("\n").slice(1).join("\n").replace(/\n$/, ""));
  }
}

/** Conflicts and files harness does not own stop the whole install; hand edits are kept file by file. */
const stops = (code: string) => code === "W_CONFLICT" || code === "W_NOT_OWNED";
const blocked = (plan: Plan) => plan.changes.some((c) => c.problems.some((p) => stops(p.code)));

/** Problems that stop the install are errors (and come first); what install keeps is a warning. */
function printProblems(root: string, plan: Plan, roles: readonly string[] = []): number {
  let n = 0;
  const all = plan.changes.flatMap((c) => c.problems.map((p) => ({ c, p })));
  for (const { c, p } of [...all.filter((x) => stops(x.p.code)), ...all.filter((x) => !stops(x.p.code))]) {
    const stop = stops(p.code) && blocked(plan);
    const message = p.code === "W_NOT_OWNED" ? `${p.message}. ${wayOut(c.path, roles, c.hosts)}.` : p.message;
    err(`${displayPath(path.join(root, c.path))}:${p.line}:${p.column}: ${stop ? color.red("error") : color.yellow("warning")} ${p.code} ${message}`);
    n++;
  }
  return n;
}

/** Outside git the audit cannot record a stage, and the lock should be committed: say so, once. */
function warnOutsideGit(root: string): void {
  for (let dir = root; ; dir = path.dirname(dir)) {
    if (isGitRoot(dir)) return;
    if (path.dirname(dir) === dir) break;
  }
  err(`${shownRoot(root)}: ${color.yellow("warning")} W_NOT_GIT is not in a git repository. The stage-end audit works from git, so every audited stage would fail closed; and harness.lock.json is meant to be committed. Run \`git init\` (then commit), or install into the repository's folder.`);
}

function json(root: string, plan: Plan, extra: Record<string, unknown>): void {
  out(JSON.stringify({ ...extra, root: shownRoot(root), changes: plan.changes.map((c) => ({ path: c.path, action: action(c), mode: c.mode, hosts: c.hosts, state: c.state, problems: c.problems })), lock: plan.lockAfter === plan.lockBefore ? "unchanged" : plan.lockAfter === null ? "removed" : "written" }, null, 2));
}

function summary(root: string, hosts: readonly string[], plan: Plan, verb: string, dryRun = false, why = ""): void {
  for (const host of hosts) {
    const mine = plan.changes.filter((c) => c.hosts.includes(host));
    const count = (a: string) => mine.filter((c) => action(c) === a).length;
    const shared = mine.filter((c) => c.mode !== "whole").map((c) => `${c.path} (${c.mode === "merge" ? "merged" : "block"})`);
    const counts = dryRun
      ? `would create ${count("create")}, update ${count("update")}, remove ${count("remove")}; ${count("unchanged")} unchanged`
      : `${count("create")} created, ${count("update")} updated, ${count("remove")} removed, ${count("unchanged")} unchanged${count("kept") ? `, ${count("kept")} kept as edited` : ""}`;
    out(`${color.bold(host.padEnd(12))} ${verb} ${shownRoot(root)}: ${why}${counts}${shared.length ? color.dim(` · shared: ${shared.join(", ")}`) : ""}`);
  }
}

/** A dry run: the problems first, then a line per host; the full diff only with -v. */
function dryRun(root: string, plan: Plan, writes: readonly Write[], hosts: readonly string[], verb: string, options: InstallOptions, roles: readonly string[]): void {
  printProblems(root, plan, roles);
  if (options.verbose) return printDiff(root, plan, writes);
  summary(root, hosts, plan, verb, true);
  if (blocked(plan)) err(color.red(`${verb === "into" ? "install" : "uninstall"} would stop on the error(s) above; nothing was written (dry run).`));
  else if (!options.quiet) out(color.dim(`nothing written (dry run); -v prints the full diff`));
}

function blockedMessage(plan: Plan, force: boolean): string {
  const conflicts = plan.changes.some((c) => c.problems.some((p) => p.code === "W_CONFLICT"));
  return `Nothing was installed. Resolve the error(s) above${conflicts && !force ? " (or use --force to take over conflicting keys; uninstall gives them back)" : ""}, then run harness install again.`;
}

export async function install(options: InstallOptions): Promise<number> {
  const root = projectRoot(options.into);
  return located(root, async () => {
    const lock = readLock(root);
    const compiled = await compile(options, root, lock, false);
    if (compiled.blocking) {
      err(color.red(`${compiled.blocking} unaccepted error-level loss(es); nothing was installed. Run \`harness build\` to see them, then accept each in pipeline.yaml or change the role.`));
      return 1;
    }
    const plan = planInstall({ root, outputs: compiled.outputs, lock, force: options.force ?? false, header: compiled.header, adopt: compiled.adopt, adoptHosts: compiled.adoptHosts, adoptKeys: compiled.adoptKeys });
    const writes = writesFor(root, plan);
    const hosts = compiled.outputs.map((o) => o.host);
    if (!options.json) warnOutsideGit(root);
    if (options.dryRun) {
      if (options.json) json(root, plan, { dryRun: true, hosts });
      else dryRun(root, plan, writes, [...hosts, ...compiled.dropped], "into", options, compiled.roles);
      return plan.changes.some((c) => c.problems.length) ? 1 : 0;
    }
    if (blocked(plan)) {
      // A file harness needs is the project's own, or a key conflicts: installing the rest would
      // leave a host half installed (agents without their config), so nothing is written.
      if (options.json) json(root, plan, { dryRun: false, installed: false, hosts });
      else {
        printProblems(root, plan, compiled.roles);
        err(color.red(blockedMessage(plan, options.force ?? false)));
      }
      return 1;
    }
    applyWrites(root, writes, options.hooks);
    if (options.json) {
      json(root, plan, { dryRun: false, hosts, ...(compiled.dropped.length ? { removedHosts: compiled.dropped } : {}) });
      return plan.changes.some((c) => c.problems.length) ? 1 : 0;
    }
    const kept = printProblems(root, plan, compiled.roles); // what was kept comes first
    if (!options.quiet) {
      summary(root, hosts, plan, "into");
      summary(root, compiled.dropped, plan, "from", false, "no longer listed in pipeline.yaml: ");
    }
    return kept ? 1 : 0;
  });
}

export async function uninstall(options: InstallOptions): Promise<number> {
  const root = projectRoot(options.into);
  return located(root, () => {
    const lock = readLock(root);
    if (!lock) throw new UsageError(`${displayPath(path.join(root, LOCK_FILE)) || LOCK_FILE} does not exist, so harness installed nothing here (or the lock was deleted: restore it from git).`);
    for (const h of options.host ?? [])
      if (!lock.hosts.includes(h)) throw new UsageError(`host "${h}" is not installed here. Installed: ${lock.hosts.join(", ") || "none"}.`);
    const hosts = options.host?.length ? [...new Set(options.host)].sort() : lock.hosts;
    const plan = planUninstall(root, lock, hosts, options.force ?? false);
    const writes = writesFor(root, plan);
    if (options.dryRun) {
      if (options.json) json(root, plan, { dryRun: true, hosts });
      else dryRun(root, plan, writes, hosts, "from", options, []);
      return plan.changes.some((c) => c.problems.length) ? 1 : 0;
    }
    applyWrites(root, writes, options.hooks);
    if (options.json) {
      json(root, plan, { dryRun: false, hosts });
      return plan.changes.some((c) => c.problems.length) ? 1 : 0;
    }
    const kept = printProblems(root, plan);
    if (!options.quiet) summary(root, hosts, plan, "from");
    return kept ? 1 : 0;
  });
}

/** `harness check --installed`: a fresh compile against the lock and the files on disk. Writes nothing. */
export async function checkInstalled(options: InstallOptions): Promise<number> {
  const root = projectRoot(options.into);
  return located(root, async () => {
    const lock = readLock(root);
    const compiled = await compile(options, root, lock, true);
    const plan = planInstall({ root, outputs: compiled.outputs, lock, force: false, header: compiled.header, adopt: compiled.adopt, adoptHosts: compiled.adoptHosts, adoptKeys: compiled.adoptKeys });
    const code = driftReport(root, plan, lock, compiled.outputs.map((o) => o.host), compiled.blocking, options, compiled.roles);
    if (!options.json) for (const o of compiled.outputs) for (const w of (await options.registry[o.host]!()).installedWarnings?.(o.files.map((f) => f.path), process.env) ?? []) err(`${color.yellow("W_HOST_HOME_OVERRIDE")} ${w}`);
    return code;
  });
}
