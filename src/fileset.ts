// out/ on disk: manifests, listing, drift. Writes are staged and applied in stage.ts.
import * as crypto from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmdirSync, rmSync } from "node:fs";
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

// crypto.hash (Node 20.12+) is the one-shot form: no Hash object (a stream) per file, ~20% less per
// hash; read from the namespace, so an older Node falls back instead of failing to import.
const oneShot = (crypto as { hash?: (algorithm: string, data: string | Uint8Array, encoding: "hex") => string }).hash;
export const sha256 = oneShot ? (text: string | Uint8Array): string => oneShot("sha256", text, "hex") : (text: string | Uint8Array): string => crypto.createHash("sha256").update(text).digest("hex");

export function manifestFor(host: string, files: readonly RenderedFile[], warnings: readonly string[] = []): RenderedFile {
  return { path: MANIFEST_FILE, content: manifestFrom(host, files.map((f) => ({ path: f.path, sha256: sha256(f.content) })), warnings), executable: false };
}

/** The manifest's text, from each file's hash. */
export function manifestFrom(host: string, files: readonly { path: string; sha256: string }[], warnings: readonly string[] = []): string {
  // a plain loop into a prototype-less object: fromEntries over 1,000s of pairs is several times slower
  const hashes: Record<string, string> = Object.create(null);
  for (const f of files) hashes[f.path] = f.sha256;
  const manifest: Manifest = { generator: "harness", host, files: hashes };
  if (warnings.length) manifest.warnings = [...new Set(warnings)].sort();
  return renderJson(manifest);
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

export function pruneEmptyDirs(root: string, rel: string): void {
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

/**
 * A host folder whose host the pipeline no longer lists: remove the files its manifest lists that
 * are still as harness wrote them, then the manifest. Returns what stays (edited or never harness's).
 */
export function removeBuiltHost(dir: string): string[] {
  const manifest = readManifest(dir);
  if (!manifest) return listFiles(dir);
  const left: string[] = [];
  for (const rel of listFiles(dir)) {
    if (rel === MANIFEST_FILE) continue;
    const hash = Object.prototype.hasOwnProperty.call(manifest.files, rel) ? manifest.files[rel] : undefined;
    if (hash === undefined || sha256(readFileSync(path.join(dir, rel))) !== hash) left.push(rel);
  }
  if (left.length) return left; // a folder with the team's own files keeps its manifest, so check can still say whose it is
  for (const rel of Object.keys(manifest.files)) {
    rmSync(path.join(dir, rel), { force: true });
    pruneEmptyDirs(dir, path.dirname(rel));
  }
  rmSync(path.join(dir, MANIFEST_FILE), { force: true });
  if (existsSync(dir) && readdirSync(dir).length === 0) rmdirSync(dir);
  return [];
}
