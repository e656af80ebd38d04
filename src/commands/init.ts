// harness init: write a starter pipeline that builds clean on every registered host. The minimal
// template's accepted losses are derived here, by compiling it for every host, from the losses no
// role change can fix (host limits), each with its reason and a comment; so a new host's limits
// appear without editing the template. The pebble template is the bundled roles/ as shipped.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isMap, isSeq, parseDocument, type Document, type YAMLSeq } from "yaml";
import { lossInfo } from "../adapter/fidelity.js";
import type { AdapterRegistry } from "../adapter/types.js";
import { compileHost } from "../compile.js";
import { UsageError } from "../errors.js";
import { readPipeline } from "../ir/normalize.js";
import { displayPath, PIPELINE_FILE } from "../load/load.js";
import { collectLosses } from "../losses.js";
import { projectTop } from "../project-root.js";
import { out } from "../ui.js";
import { acceptancesFor } from "./report.js";

export const TEMPLATES = ["minimal", "pebble"] as const;
export type Template = (typeof TEMPLATES)[number];

export interface InitOptions {
  registry: AdapterRegistry;
  template: string;
  roles: string;
  /** The user passed --roles (then it is taken as given, relative to the current folder). */
  rolesNamed?: boolean;
}

/** The page init's steps point at; test/init.test.ts checks it exists and is shipped. */
export const INSTALL_DOC = "docs/install.md in the agent-harness package";

/** The package root: the nearest folder above this module with roles/pipeline.yaml (dist/cli/chunks or src/commands). */
export function packageRoot(from = path.dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "package.json")) && existsSync(path.join(dir, "roles", PIPELINE_FILE))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`harness cannot find its bundled roles/ above ${from}`);
  }
}

export function templateDir(template: Template, root = packageRoot()): string {
  return template === "pebble" ? path.join(root, "roles") : path.join(root, "templates", template);
}

/** The template's files as they will be written: name → text. Compiles it for every registered host. */
export async function renderTemplate(template: Template, registry: AdapterRegistry, targetDir: string, root = packageRoot()): Promise<Map<string, string>> {
  const dir = templateDir(template, root);
  const files = new Map<string, string>();
  for (const name of readdirSync(dir).filter((n) => n === PIPELINE_FILE || n.endsWith(".md")).sort()) files.set(name, readFileSync(path.join(dir, name), "utf8"));
  // The editor hint points at the schema shipped in the installed package.
  const schema = path.relative(path.resolve(targetDir), path.join(root, "schema", "pipeline.schema.json")).split(path.sep).join("/");
  const pipelineText = files.get(PIPELINE_FILE)!.replace(/^# yaml-language-server: \$schema=\S+/, `# yaml-language-server: $schema=${schema}`);
  if (template === "pebble") {
    files.set(PIPELINE_FILE, pipelineText);
    return files;
  }
  const { pipeline } = readPipeline(dir, { knownHosts: Object.keys(registry) });
  const losses = [];
  for (const host of Object.keys(registry).sort()) {
    const adapter = await registry[host]!();
    const lowered = compileHost(pipeline, adapter);
    losses.push(...collectLosses(pipeline, host, lowered.fidelity).filter((l) => !l.accepted && l.severity !== "info" && lossInfo(l.record.loss!).limit));
  }
  files.set(PIPELINE_FILE, withAcceptances(pipelineText, losses.length ? acceptancesFor(losses) : []));
  return files;
}

function withAcceptances(text: string, entries: Record<string, string>[]): string {
  if (!entries.length) return text;
  const doc: Document = parseDocument(text);
  if (!isMap(doc.contents)) throw new Error("template pipeline.yaml is not a mapping");
  const seq = doc.createNode(entries.map((e) => ({ host: e.host, constraint: e.constraint, loss: e.loss, reason: e.reason }))) as YAMLSeq;
  seq.items.forEach((item, i) => {
    const e = entries[i]!;
    (item as { commentBefore?: string }).commentBefore = ` ${e.host}: a host limit, no role change removes it (\`harness explain ${e.loss}\`).`;
  });
  const intro =
    " Losses a host forces whatever the roles say (harness init found them by compiling this pipeline for\n every registered host). Replace each reason with your own, or remove the entry and stop building\n for that host. harness build lists any loss that still needs you.";
  const existing = doc.get("accepted_losses");
  if (isSeq(existing)) {
    // The template's own acceptances come first; the derived ones follow under the same key.
    (seq.items[0] as { commentBefore?: string }).commentBefore = `${intro}\n${(seq.items[0] as { commentBefore?: string }).commentBefore}`;
    existing.items.push(...seq.items);
  } else {
    const pair = doc.createPair("accepted_losses", seq);
    doc.contents.items.push(pair as never);
    (pair.key as { commentBefore?: string }).commentBefore = intro;
    (pair.key as { spaceBefore?: boolean }).spaceBefore = true;
  }
  return doc.toString({ lineWidth: 0 });
}

export async function init(options: InitOptions): Promise<number> {
  if (!(TEMPLATES as readonly string[]).includes(options.template))
    throw new UsageError(`no template "${options.template}". Templates: ${TEMPLATES.join(" (3 roles: plan, build, review), ")} (the bundled eight-role process).`);
  // From a subfolder of a project, the default roles/ belongs in the project root, never in src/roles/.
  const top = projectTop(process.cwd());
  if (!options.rolesNamed && top !== path.resolve(process.cwd()))
    throw new UsageError(`this is a subfolder of the project at ${top}; harness init writes roles/ in the project root. Run it there (cd ${JSON.stringify(displayPath(top))}), or pass --roles to write here on purpose.`);
  const target = path.resolve(options.roles);
  const files = await renderTemplate(options.template as Template, options.registry, target);
  const shown = displayPath(target);
  if (existsSync(target) && readdirSync(target).length > 0) {
    const clash = [...files.keys()].filter((n) => existsSync(path.join(target, n)));
    throw new UsageError(`${shown} already holds files${clash.length ? ` (${clash.join(", ")})` : ""}; harness init never overwrites. Pass --roles with a new folder, or move that one away.`);
  }
  mkdirSync(target, { recursive: true });
  for (const [name, text] of files) {
    const tmp = path.join(target, `.${name}.harness-tmp-${process.pid}`);
    writeFileSync(tmp, text);
    renameSync(tmp, path.join(target, name));
  }
  const roles = [...files.keys()].filter((n) => n.endsWith(".md")).map((n) => n.replace(/\.md$/, ""));
  const flag = options.roles === "roles" ? "" : ` --roles ${shown}`;
  out(`wrote ${shown}/: ${PIPELINE_FILE} and ${roles.length} roles (${roles.join(", ")}), template ${options.template}`);
  out("next:");
  out(`  1. edit ${shown}/*.md (one role each) and ${shown}/${PIPELINE_FILE}; docs/reference/role.md and docs/reference/pipeline.md list every field`);
  out(`  2. npx harness build${flag}        writes out/<host>/ for every host; out/<host>/MAPPING.md says what each host enforces`);
  out(`  3. npx harness install${flag}      merges each host's files into the project, keeping your own settings (${INSTALL_DOC})`);
  out(`  4. commit ${shown}/, the installed files and harness.lock.json, and run npx harness check --installed${flag} in CI`);
  return 0;
}
