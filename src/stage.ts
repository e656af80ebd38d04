// harness build's writes. Each file is staged as soon as it is rendered: hashed for the manifest,
// compared with what is on disk, and written to a staging folder when it changed. Nothing in a host
// folder changes until every host compiled and none refuses the build; then the staged files are
// renamed into place, each host's manifest last (a host folder that did not exist is renamed whole).
// A refused or failed build removes the staging folder, so it leaves out/ as it found it.
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { RenderedFile } from "./emit/render.js";
import { byCodeUnit } from "./compare.js";
import { knownOnDisk, remember, statusBeforeRead } from "./stage-memo.js";
import { listFiles, MANIFEST_FILE, manifestFrom, pruneEmptyDirs, readManifest, sha256, type Manifest } from "./fileset.js";

/** What a build keeps of a rendered file: its hash, and where its new bytes wait (null: unchanged). */
export interface StagedFile {
  path: string;
  sha256: string;
  executable: boolean;
  staged: string | null;
}

export interface WritePlan {
  host: string;
  dir: string;
  write: { path: string; staged: string }[]; // new or changed, manifest included
  remove: string[]; // listed in the old manifest, no longer produced
  unchanged: number;
  /** Files harness did not write and will not touch: the user deletes them. */
  stray: string[];
  /** The warnings the previous build recorded in its manifest. */
  previousWarnings: string[];
  /** The staged host folder, when the host folder did not exist: it is moved into place whole. */
  whole: string | null;
}

export type PlanProblem = { host: string; dir: string; message: string };

const STAGING_PREFIX = ".harness-staging-";

export const NOT_A_FOLDER = "is a file, not a folder, so harness cannot build into it. Move the file away, or choose another --out.";

export function isFolderOrMissing(dir: string): boolean {
  return !existsSync(dir) || statSync(dir).isDirectory();
}

/** The staging folder: <out>/.harness-staging-<pid>/<host>/<path>, on the same file system as out/. */
export class Staging {
  readonly root: string;
  private readonly made = new Set<string>();
  private created: string | undefined; // the first folder of out/ this build created, if any

  constructor(readonly outDir: string) {
    this.root = path.join(outDir, `${STAGING_PREFIX}${process.pid}`);
    removeDeadStaging(outDir);
  }

  write(host: string, rel: string, content: string | Uint8Array, executable: boolean): string {
    const file = path.join(this.root, host, rel);
    const folder = path.dirname(file);
    if (!this.made.has(folder)) {
      if (this.made.size === 0 && !existsSync(this.outDir)) this.created = mkdirSync(this.outDir, { recursive: true });
      mkdirSync(folder, { recursive: true });
      this.made.add(folder);
    }
    try {
      writeFileSync(file, content);
    } catch (error) {
      // A kept folder (watch mode) that someone removed since: make it again.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      mkdirSync(folder, { recursive: true });
      writeFileSync(file, content);
    }
    if (executable) chmodSync(file, 0o755);
    return file;
  }

  /**
   * After applyPlans, keep the (now empty) staging folders for the next build of this process
   * (watch mode: making and removing them was most of a rebuild's file-system time). A host folder
   * that was moved into place whole took its staged folders with it.
   */
  keepFolders(plans: readonly WritePlan[]): void {
    for (const plan of plans) {
      if (!plan.whole) continue;
      for (const folder of this.made) if (folder === plan.whole || folder.startsWith(`${plan.whole}${path.sep}`)) this.made.delete(folder);
    }
  }

  /** Remove the staging folder, and out/ too when this build created it and it is still empty. */
  discard(): void {
    if (this.made.size === 0) return;
    this.made.clear();
    rmSync(this.root, { recursive: true, force: true });
    if (!this.created) return;
    for (let dir = this.outDir; ; dir = path.dirname(dir)) {
      if (!existsSync(dir) || readdirSync(dir).length > 0) return;
      rmdirSync(dir);
      if (dir === this.created) return;
    }
  }
}

/** Staging folders of builds that were killed before they could remove theirs (their process is gone). */
function removeDeadStaging(outDir: string): void {
  if (!existsSync(outDir)) return;
  for (const name of readdirSync(outDir)) {
    if (!name.startsWith(STAGING_PREFIX)) continue;
    const pid = Number(name.slice(STAGING_PREFIX.length));
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && !alive(pid)) rmSync(path.join(outDir, name), { recursive: true, force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

// Each file is hashed and then written: one UTF-8 encoding into a reused buffer serves both (the
// string would be encoded twice; a Buffer per file is off-heap memory V8 answers with more GC).
let scratch = Buffer.allocUnsafe(1 << 20);
/** The text's UTF-8 bytes, valid until the next call. */
function utf8(text: string): Buffer {
  if (scratch.length < text.length * 3) scratch = Buffer.allocUnsafe(text.length * 3);
  return scratch.subarray(0, scratch.write(text, "utf8"));
}

function isExecutable(file: string): boolean {
  if (process.platform === "win32") return false;
  return (statSync(file).mode & 0o111) !== 0;
}

/**
 * One host folder's part of a build. `stage` takes each rendered file (compileHost's keep); `plan`
 * then decides, exactly as a plan made from all the files at once would: refuse a folder harness
 * did not build, a file it does not own, or a hand edit (unless forced); otherwise write what
 * changed, remove what is no longer produced, and report strays.
 */
export class HostStager {
  private readonly present: Set<string>;
  private readonly manifest: Manifest | null;
  private readonly owned: Set<string>;
  private readonly problem: string | null;
  private readonly fresh: boolean;
  private readonly unowned: string[] = [];
  private readonly edited: string[] = [];

  constructor(
    readonly host: string,
    readonly dir: string,
    private readonly staging: Staging,
    private readonly force: boolean,
  ) {
    this.fresh = !existsSync(dir);
    const folder = isFolderOrMissing(dir);
    const present = folder ? listFiles(dir) : [];
    this.present = new Set(present);
    this.manifest = folder ? readManifest(dir) : null;
    this.owned = new Set(Object.keys(this.manifest?.files ?? {}));
    this.problem = !folder
      ? NOT_A_FOLDER
      : !this.manifest && present.length > 0
        ? `holds ${present.length} file(s) but no ${MANIFEST_FILE}, so harness did not write it. Choose an empty or harness-built --out folder, or move those files away.`
        : this.manifest && this.manifest.host !== host
          ? `its manifest says it was built for "${this.manifest.host}", not "${host}". Use a separate folder per host.`
          : null;
  }

  /** A build that will be refused stages nothing more. */
  private get refused(): boolean {
    return this.problem !== null || this.unowned.length > 0 || (this.edited.length > 0 && !this.force);
  }

  stage = (f: RenderedFile): StagedFile => {
    let same = false;
    if (this.problem === null && this.present.has(f.path)) {
      const target = path.join(this.dir, f.path);
      if (!this.owned.has(f.path)) this.unowned.push(f.path);
      else {
        // watch mode: the same text as last time, in a file untouched since (src/stage-memo.ts)
        const known = knownOnDisk(target, f.content);
        if (known && known.executable === f.executable) return { path: f.path, sha256: known.sha256, executable: f.executable, staged: null };
        const before = statusBeforeRead(target);
        const text = readFileSync(target, "utf8");
        if (text === f.content) {
          const executable = isExecutable(target);
          same = executable === f.executable;
          const bytes = utf8(f.content);
          const hash = sha256(bytes);
          remember(target, f.content, hash, executable, before);
          return { path: f.path, sha256: hash, executable: f.executable, staged: same || this.refused ? null : this.staging.write(this.host, f.path, bytes, f.executable) };
        }
        if (sha256(text) !== this.manifest!.files[f.path]) this.edited.push(f.path);
      }
    }
    const bytes = utf8(f.content);
    const hash = sha256(bytes);
    return { path: f.path, sha256: hash, executable: f.executable, staged: same || this.refused ? null : this.staging.write(this.host, f.path, bytes, f.executable) };
  };

  plan(files: readonly StagedFile[], warnings: readonly string[]): WritePlan | PlanProblem {
    const { host, dir } = this;
    if (this.problem) return { host, dir, message: this.problem };
    if (this.unowned.length) {
      const first = [...this.unowned].sort(byCodeUnit)[0]!;
      return { host, dir, message: `${first} exists but harness did not write it (not in ${MANIFEST_FILE}). Move it away; harness never overwrites files it does not own.` };
    }
    const paths = new Set(files.map((f) => f.path));
    const manifest = manifestFrom(host, files, warnings);
    // An owned file that is no longer produced is removed: refuse that too when it was edited by hand.
    // (A manifest that lists itself is such a file: the new one never lists itself.)
    const edited = [...this.edited];
    for (const [rel, hash] of Object.entries(this.manifest?.files ?? {}))
      if (!paths.has(rel) && this.present.has(rel) && sha256(readFileSync(path.join(dir, rel), "utf8")) !== hash) edited.push(rel);
    edited.sort();
    if (edited.length && !this.force)
      return {
        host,
        dir,
        message: `${edited.join(", ")} ${edited.length === 1 ? "was" : "were"} edited by hand since harness wrote ${edited.length === 1 ? "it" : "them"}; a build would overwrite the edit. Move the change into the roles folder (or revert the file), or run the build with --force to overwrite.`,
      };
    const write = files.flatMap((f) => (f.staged === null ? [] : [{ path: f.path, staged: f.staged }]));
    const onDisk = this.present.has(MANIFEST_FILE) ? readFileSync(path.join(dir, MANIFEST_FILE), "utf8") : undefined;
    if (onDisk !== manifest || isExecutable(path.join(dir, MANIFEST_FILE)))
      write.push({ path: MANIFEST_FILE, staged: this.staging.write(host, MANIFEST_FILE, manifest, false) });
    const produced = (p: string) => paths.has(p) || p === MANIFEST_FILE;
    const remove = [...this.owned].filter((p) => !produced(p) && this.present.has(p)).sort();
    const stray = [...this.present].filter((p) => !this.owned.has(p) && !produced(p));
    const whole = this.fresh ? path.join(this.staging.root, host) : null;
    return { host, dir, write, remove, unchanged: files.length + 1 - write.length, stray, previousWarnings: this.manifest?.warnings ?? [], whole };
  }
}

/** Move each plan's staged files into place, its manifest last, then remove what is no longer produced. */
export function applyPlans(plans: readonly WritePlan[]): void {
  const made = new Set<string>(); // folders already created: one mkdir per folder, not per file
  for (const plan of plans) {
    // A new host folder is one rename (atomic: its manifest comes with it), not one per file.
    if (plan.whole && !existsSync(plan.dir)) {
      mkdirSync(path.dirname(plan.dir), { recursive: true });
      try {
        renameSync(plan.whole, plan.dir);
        continue;
      } catch {
        // e.g. another file system under out/: file by file below
      }
    }
    for (const f of plan.write) {
      const target = path.join(plan.dir, f.path);
      const folder = path.dirname(target);
      if (!made.has(folder)) {
        mkdirSync(folder, { recursive: true });
        made.add(folder);
      }
      moveInto(f.staged, target);
    }
    for (const rel of plan.remove) {
      rmSync(path.join(plan.dir, rel), { force: true });
      pruneEmptyDirs(plan.dir, path.dirname(rel));
    }
  }
}

/** Rename; a host folder on another file system (a symlink) gets a copy beside the target, renamed. */
function moveInto(staged: string, target: string): void {
  try {
    renameSync(staged, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
    const tmp = `${target}.harness-tmp-${process.pid}`;
    copyFileSync(staged, tmp);
    renameSync(tmp, target);
  }
}
