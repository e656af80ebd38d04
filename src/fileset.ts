// The only module that touches out/: manifests, planned writes, atomic renames, and drift.
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, rmdirSync } from "node:fs";
import path from "node:path";
import type { RenderedFile } from "./emit/render.js";
import { renderJson } from "./emit/render.js";
import { byCodeUnit } from "./compare.js";

export const MANIFEST_FILE = ".harness-manifest.json";

export interface Manifest {
  generator: "harness";
  host: string;
  files: Record<string, string>; // posix path → sha256 of content
  /** Unaccepted warning-level losses this build reported, so the next build lists only new ones. */
  warnings?: string[];
}

export const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

export function manifestFor(host: string, files: readonly RenderedFile[], warnings: readonly string[] = []): RenderedFile {
  const manifest: Manifest = { generator: "harness", host, files: Object.fromEntries(files.map((f) => [f.path, sha256(f.content)])) };
  if (warnings.length) manifest.warnings = [...new Set(warnings)].sort();
  return { path: MANIFEST_FILE, content: renderJson(manifest), executable: false };
}

export function readManifest(hostDir: string): Manifest | null {
  const file = path.join(hostDir, MANIFEST_FILE);
  if (!existsSync(file)) return null;
  try {
    const data = JSON.parse(readFileSync(file, "utf8")) as Manifest;
    if (data.generator !== "harness" || typeof data.files !== "object" || data.files === null) return null;
    return data;
  } catch {
    return null;
  }
}

/** Every file under dir, as sorted POSIX paths relative to dir. */
export function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const entry of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(child);
      else out.push(child);
    }
  };
  if (existsSync(dir)) walk("");
  return out.sort();
}

export interface WritePlan {
  host: string;
  dir: string;
  write: RenderedFile[]; // new or changed, manifest included
  remove: string[]; // listed in the old manifest, no longer produced
  unchanged: number;
  /** Files harness did not write and will not touch: the user deletes them. */
  stray: string[];
  /** The warnings the previous build recorded in its manifest. */
  previousWarnings: string[];
}

export type PlanProblem = { host: string; dir: string; message: string };

/** Decide what a build would do to one host folder, or why it must refuse. Reads only. */
export function planWrite(host: string, dir: string, files: readonly RenderedFile[], options: { warnings?: readonly string[]; force?: boolean } = {}): WritePlan | PlanProblem {
  const all = [...files, manifestFor(host, files, options.warnings)];
  const present = listFiles(dir);
  const manifest = readManifest(dir);
  if (!manifest && present.length > 0)
    return {
      host,
      dir,
      message: `holds ${present.length} file(s) but no ${MANIFEST_FILE}, so harness did not write it. Choose an empty or harness-built --out folder, or move those files away.`,
    };
  if (manifest && manifest.host !== host)
    return { host, dir, message: `its manifest says it was built for "${manifest.host}", not "${host}". Use a separate folder per host.` };
  const owned = new Set(Object.keys(manifest?.files ?? {}));
  const isPresent = new Set(present);
  for (const f of files) {
    if (isPresent.has(f.path) && !owned.has(f.path))
      return { host, dir, message: `${f.path} exists but harness did not write it (not in ${MANIFEST_FILE}). Move it away; harness never overwrites files it does not own.` };
  }
  // Each present file is read once: equal to what harness would write means unchanged (and not a
  // hand edit to refuse); only a file that differs is hashed against the manifest.
  const byPath = new Map(all.map((f) => [f.path, f]));
  const onDisk = new Map<string, string>();
  for (const rel of present) if (owned.has(rel) || byPath.has(rel)) onDisk.set(rel, readFileSync(path.join(dir, rel), "utf8"));
  const edited = Object.entries(manifest?.files ?? {})
    .filter(([rel, hash]) => {
      const text = onDisk.get(rel);
      return text !== undefined && text !== byPath.get(rel)?.content && sha256(text) !== hash;
    })
    .map(([rel]) => rel)
    .sort();
  if (edited.length && !options.force)
    return {
      host,
      dir,
      message: `${edited.join(", ")} ${edited.length === 1 ? "was" : "were"} edited by hand since harness wrote ${edited.length === 1 ? "it" : "them"}; a build would overwrite the edit. Move the change into the roles folder (or revert the file), or run the build with --force to overwrite.`,
    };
  const write: RenderedFile[] = [];
  let unchanged = 0;
  for (const f of all) {
    const same = onDisk.get(f.path) === f.content && isExecutable(path.join(dir, f.path)) === f.executable;
    if (same) unchanged++;
    else write.push(f);
  }
  const produced = new Set(all.map((f) => f.path));
  const remove = [...owned].filter((p) => !produced.has(p) && isPresent.has(p)).sort();
  const stray = present.filter((p) => !owned.has(p) && !produced.has(p));
  return { host, dir, write, remove, unchanged, stray, previousWarnings: manifest?.warnings ?? [] };
}

function isExecutable(file: string): boolean {
  if (process.platform === "win32") return false;
  return (statSync(file).mode & 0o111) !== 0;
}

/** Apply plans: each file via temp + rename; the manifest of each host last. */
export function applyPlans(plans: readonly WritePlan[]): void {
  const made = new Set<string>(); // folders already created: one mkdir per folder, not per file
  for (const plan of plans) {
    const ordered = [...plan.write].sort((a, b) => Number(a.path === MANIFEST_FILE) - Number(b.path === MANIFEST_FILE));
    for (const f of ordered) {
      const target = path.join(plan.dir, f.path);
      const folder = path.dirname(target);
      if (!made.has(folder)) {
        mkdirSync(folder, { recursive: true });
        made.add(folder);
      }
      const tmp = `${target}.harness-tmp-${process.pid}`;
      writeFileSync(tmp, f.content);
      if (f.executable) chmodSync(tmp, 0o755);
      renameSync(tmp, target);
    }
    for (const rel of plan.remove) {
      rmSync(path.join(plan.dir, rel), { force: true });
      pruneEmptyDirs(plan.dir, path.dirname(rel));
    }
  }
}

function pruneEmptyDirs(root: string, rel: string): void {
  let current = rel;
  while (current && current !== ".") {
    const dir = path.join(root, current);
    if (!existsSync(dir) || readdirSync(dir).length > 0) return;
    rmdirSync(dir);
    current = path.dirname(current);
  }
}

export type DriftKind = "changed" | "missing" | "stray";
export interface Drift {
  host: string;
  path: string; // relative to the host folder
  kind: DriftKind;
  expected?: string;
  actual?: string;
  /** Changed since harness wrote it (its hash differs from the manifest's): a hand edit. */
  edited?: boolean;
}

/** Compare what would be built with what is on disk. Reads only. */
export function findDrift(host: string, dir: string, files: readonly RenderedFile[], warnings: readonly string[] = []): Drift[] {
  const all = [...files, manifestFor(host, files, warnings)];
  const recorded = readManifest(dir)?.files ?? {};
  const present = new Set(listFiles(dir));
  const drift: Drift[] = [];
  for (const f of all) {
    const target = path.join(dir, f.path);
    if (!present.has(f.path)) drift.push({ host, path: f.path, kind: "missing", expected: f.content });
    else {
      const actual = readFileSync(target, "utf8");
      // Only a file that differs is hashed: it is a hand edit when it no longer matches what harness wrote.
      const edited = actual !== f.content && Object.prototype.hasOwnProperty.call(recorded, f.path) && sha256(actual) !== recorded[f.path];
      if (actual !== f.content) drift.push({ host, path: f.path, kind: "changed", expected: f.content, actual, ...(edited ? { edited: true } : {}) });
    }
    present.delete(f.path);
  }
  for (const p of present) drift.push({ host, path: p, kind: "stray", actual: safeRead(path.join(dir, p)) });
  return drift.sort((a, b) => byCodeUnit(a.path, b.path));
}

function safeRead(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

/** Host folders under outDir that a harness build wrote (they hold a manifest). */
export function builtHostFolders(outDir: string): { name: string; dir: string; host: string }[] {
  if (!existsSync(outDir)) return [];
  const found: { name: string; dir: string; host: string }[] = [];
  for (const entry of readdirSync(outDir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const manifest = readManifest(path.join(outDir, entry.name));
    if (manifest) found.push({ name: entry.name, dir: path.join(outDir, entry.name), host: manifest.host });
  }
  return found.sort((a, b) => (a.name < b.name ? -1 : 1));
}
