// harness import: a project's existing agents (Claude Code, OpenCode, Kilo, Codex, Gemini CLI,
// Copilot, Cursor) → roles/. Compiles in memory first (the skeleton must build on the hosts it came
// from, with each loss listed as accepted for review), then writes atomically; a second run with the
// same input changes nothing; a roles folder holding anything else is refused without --force.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AdapterRegistry } from "../adapter/types.js";
import { compileHost } from "../compile.js";
import { InputError, UsageError } from "../errors.js";
import { readPipeline } from "../ir/normalize.js";
import { collectLosses, isBlocking } from "../losses.js";
import { displayPath } from "../load/load.js";
import { IMPORT_SOURCES, findAgentFiles, type FoundFile } from "../import/sources.js";
import { CONFIG_FILES, mergeIntoFiles, readConfigAgents } from "../import/config.js";
import { BUILTIN_AGENTS } from "../import/opencode.js";
import type { ImportedAgent } from "../import/types.js";
import { IMPORT_RECORD, importRecord, pipelineFile, roleFile, roleId, temperatureClasses, type ImportedRole, type LeftEntry } from "../import/write.js";
import { hostFieldProblems } from "../adapter/host-fields.js";
import { protectedConflicts } from "../adapter/protected.js";
import { color, err, out } from "../ui.js";

export interface ImportOptions {
  registry: AdapterRegistry;
  from?: string[];
  roles: string;
  into: string;
  dryRun?: boolean;
  force?: boolean;
  quiet?: boolean;
}

/** The files import would write into the roles folder: name → bytes. */
async function plan(options: ImportOptions, root: string): Promise<{ files: Map<string, string>; roles: ImportedRole[]; left: LeftEntry[] }> {
  const known = Object.keys(IMPORT_SOURCES);
  for (const h of options.from ?? []) if (!known.includes(h)) throw new UsageError(`harness import reads ${known.join(", ")}; not "${h}".`);
  const files = findAgentFiles(root, options.from?.length ? [...new Set(options.from)] : known);
  // agents inside a shared config (opencode.json `agent`), each with the file it came from
  const fromConfig = new Map<FoundFile, ImportedAgent[]>();
  for (const f of files.filter((x) => x.config))
    fromConfig.set(f, readConfigAgents(f.host as "opencode" | "kilo", f.path, f.bytes.toString("utf8"), (rel) => readInside(root, rel)));
  // an agent file's agent and the config entries of its name are one agent on OpenCode and Kilo
  const fromFile = new Map<FoundFile, ImportedAgent>();
  for (const f of files.filter((x) => !x.config)) fromFile.set(f, IMPORT_SOURCES[f.host]!.read(f.path, f.bytes.toString("utf8")));
  for (const host of ["opencode", "kilo"] as const)
    mergeIntoFiles(
      host,
      [...fromFile].filter(([f]) => f.host === host).map(([f, agent]) => ({ text: f.bytes.toString("utf8"), agent })),
      [...fromConfig].filter(([f]) => f.host === host).map(([f, agents]) => ({ path: f.path, text: f.bytes.toString("utf8"), agents })),
      (rel) => readInside(root, rel),
    );
  // An entry tuning one of the host's own agents (opencode.json agent.build: its model, its rules, or
  // disable) is no agent of the team's: as a role it would replace the built-in with a generated agent
  // of another mode and prompt. Left in the config, where the host keeps reading it.
  const left: LeftEntry[] = [];
  for (const [f, agents] of fromConfig)
    for (const a of [...agents])
      if (BUILTIN_AGENTS[f.host]?.includes(a.name)) {
        left.push({ host: f.host, path: f.path, key: a.key! });
        agents.splice(agents.indexOf(a), 1);
      }
  const found = files.filter((f) => !f.config || fromConfig.get(f)!.length || [...fromFile.values()].some((a) => a.merged?.some((m) => m.path === f.path)));
  const leftNote = left.length ? `; left in place, settings of the host's own agents: ${left.map((l) => `${l.path} ${l.key.join(".")}`).join(", ")}` : "";
  if (!found.length) throw new UsageError(`no agent files found in ${displayPath(root)} (${known.map((h) => [...IMPORT_SOURCES[h]!.dirs, ...(CONFIG_FILES[h] ?? []).map((c) => `${c} agent`)].join(", ")).join("; ")}${leftNote}). Pass --into with the project root, or write roles with \`harness init\`.`);
  const taken = new Set<string>(["pipeline"]);
  const roles: ImportedRole[] = found.flatMap((f) => {
    const agents = f.config ? fromConfig.get(f)! : [fromFile.get(f)!];
    return agents.map((agent) => {
      if (!f.config && f.bytes.includes(0)) agent.report.push({ field: "body", status: "not representable", to: "NUL bytes" });
      return { id: roleId(agent.name, taken, f.host), agent, report: agent.report };
    });
  });
  for (const r of roles) if (r.agent.description !== undefined) r.report.unshift({ field: "description", status: "mapped", to: "description" });
  for (const r of roles) r.report.unshift(r.id === r.agent.name ? { field: "name", status: "mapped", to: `the file name roles/${r.id}.md` } : { field: "name", status: "mapped", to: `the file name roles/${r.id}.md (${JSON.stringify(r.agent.name)} is not a plain role id, or another agent has it)` });
  const classes = temperatureClasses(roles.flatMap((r) => (r.agent.temperature !== undefined ? [r.agent.temperature] : [])));
  const targets = [...new Set(found.map((f) => f.host))].filter((h) => h in options.registry).sort();
  const name = roleId(path.basename(root) || "team", new Set(roles.map((r) => r.id)), "pipeline");
  const render = (accepted: Parameters<typeof pipelineFile>[0]["accepted"]) => {
    const files = new Map<string, string>();
    for (const r of roles) files.set(`${r.id}.md`, roleFile({ ...r, report: [...r.report] }, classes));
    files.set("pipeline.yaml", pipelineFile({ name, roles, targets, classes, accepted }));
    return files;
  };
  // compile the skeleton where it will be built, to list its losses as accepted (for review)
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "harness-import-"));
  try {
    const adapters = await Promise.all(targets.map((h) => options.registry[h]!()));
    const load = () => {
      for (const [n, text] of render([])) fs.writeFileSync(path.join(scratch, n), text);
      return readPipeline(scratch, { knownHosts: Object.keys(options.registry) }).pipeline;
    };
    let pipeline = load();
    // A host-native value the host itself ignores (a colour outside Claude Code's palette) is a
    // loss of the original, not an error of the import: report it and leave it out.
    const ignored = adapters.flatMap((a) => hostFieldProblems(pipeline, a));
    for (const p of ignored) {
      const [, host, key] = p.field!.split(".") as [string, string, string];
      const role = roles.find((r) => p.position && path.basename(p.position.file) === `${r.id}.md`)!;
      const block = (role.agent.role.hosts as Record<string, Record<string, unknown>>)[host]!;
      delete block[key];
      if (!Object.keys(block).length) delete (role.agent.role.hosts as Record<string, unknown>)[host];
      if (!Object.keys(role.agent.role.hosts as object).length) delete role.agent.role.hosts;
      const at = role.report.findIndex((f) => f.to === `hosts.${host}.${key}`);
      role.report.splice(at < 0 ? role.report.length : at, at < 0 ? 0 : 1, { field: key, status: "not representable", to: p.message.replace(/\.$/, "") + ` (${adapters.find((a) => a.id === host)!.displayName} ignores it)` });
    }
    if (ignored.length) pipeline = load();
    const problems = adapters.flatMap((a) => [...hostFieldProblems(pipeline, a), ...protectedConflicts(pipeline, a)]);
    if (problems.length) throw new InputError(problems);
    const accepted = adapters.flatMap((a) =>
      collectLosses(pipeline, a.id, compileHost(pipeline, a).fidelity)
        .filter(isBlocking)
        .map((l) => ({ host: a.id, ...(l.role ? { role: l.role } : {}), constraint: l.record.constraint, ...(l.record.loss ? { loss: l.record.loss } : {}), reason: `imported: ${l.record.how} (review)` })),
    );
    const files = render(accepted);
    for (const r of roles) roleFile(r, classes); // the report of what the role file added, once
    files.set(IMPORT_RECORD, importRecord(found, roles, left));
    return { files, roles, left };
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** A project file for a `{file:…}` prompt: a regular file inside the root (no symbolic link followed), or null. */
function readInside(root: string, rel: string): string | null {
  let at = root;
  for (const part of rel.split("/")) {
    at = path.join(at, part);
    try {
      if (fs.lstatSync(at).isSymbolicLink()) return null;
    } catch {
      return null;
    }
  }
  try {
    return fs.statSync(at).isFile() ? fs.readFileSync(at, "utf8") : null;
  } catch {
    return null;
  }
}

export async function importAgents(options: ImportOptions): Promise<number> {
  const root = path.resolve(options.into);
  const dir = path.resolve(options.roles);
  const { files, roles, left } = await plan(options, root);
  const existing = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  const same = existing.length === files.size && [...files].every(([n, text]) => existing.includes(n) && fs.readFileSync(path.join(dir, n), "utf8") === text);
  if (!options.quiet) printReport(roles, left, dir);
  if (same) {
    if (!options.quiet) out(`${displayPath(dir)}: unchanged (${roles.length} role(s)).`);
    return 0;
  }
  if (existing.length && !options.force)
    throw new UsageError(`${displayPath(dir)} already holds files (${existing.slice(0, 5).join(", ")}${existing.length > 5 ? ", …" : ""}); harness import never overwrites them. Pass --force to replace the files it writes, or --roles with a new folder.`);
  if (options.dryRun) {
    out(`dry run: would write ${files.size} file(s) into ${displayPath(dir)}.`);
    return 0;
  }
  fs.mkdirSync(dir, { recursive: true });
  const staged: [string, string][] = [];
  try {
    for (const [n, text] of files) {
      const tmp = path.join(dir, `.${n}.harness-tmp-${process.pid}`);
      fs.writeFileSync(tmp, text);
      staged.push([tmp, path.join(dir, n)]);
    }
    for (const [tmp, final] of staged) fs.renameSync(tmp, final);
  } finally {
    for (const [tmp] of staged) fs.rmSync(tmp, { force: true });
  }
  if (!options.quiet) out(`${displayPath(dir)}: ${files.size} file(s) written. Next: order the stages in pipeline.yaml, then \`harness build\`; \`harness install\` replaces the originals and keeps them for \`harness uninstall\`.`);
  return 0;
}

function printReport(roles: readonly ImportedRole[], left: readonly LeftEntry[], dir: string): void {
  for (const l of left) out(`${color.bold(`${l.path} ${l.key.join(".")}`)}: left in place (settings of ${l.host}'s own agent ${l.key[1]}, no agent of the team's; install leaves it)`);
  for (const r of roles) {
    out(`${color.bold(r.agent.key ? `${r.agent.path} ${r.agent.key.join(".")}` : r.agent.path)} → ${displayPath(path.join(dir, `${r.id}.md`))}`);
    for (const f of r.report) {
      const line = `  ${f.status.padEnd(17)} ${f.field} → ${f.to}`;
      if (f.status === "not representable") err(color.yellow(line));
      else out(line);
    }
  }
}
