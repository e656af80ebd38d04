// Every path harness reads or writes in a project stays inside the project root: no symlinked file is
// written through, and no symlinked folder may lead out of the root.
import { existsSync, lstatSync, readFileSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { InstallError } from "./errors.js";

function inside(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** Throws unless `rel` (POSIX, relative) can be written under `root` without leaving it (a final link is followed by linkTarget first). */
export function assertSafe(root: string, rel: string): void {
  if (rel.startsWith("/") || rel.split("/").includes("..")) throw new InstallError(rel, 1, 1, "E_INSTALL_PATH", "leaves the project root", "Report this: adapters must emit relative paths");
  const realRoot = realpathSync(root);
  const parts = rel.split("/");
  for (let i = 1; i <= parts.length; i++) {
    const p = path.join(root, ...parts.slice(0, i));
    let st;
    try {
      st = lstatSync(p);
    } catch {
      return; // nothing further exists yet; harness creates it
    }
    if (st.isSymbolicLink()) {
      if (i === parts.length) throw new InstallError(rel, 1, 1, "E_INSTALL_SYMLINK", "is a symbolic link; harness does not write through links", "Replace the link with a regular file, or remove it");
      if (!inside(realRoot, realpathSync(p)))
        throw new InstallError(parts.slice(0, i).join("/"), 1, 1, "E_INSTALL_SYMLINK", `is a symbolic link to ${realpathSync(p)}, outside the project`, "Harness writes only inside the project root; replace the link with a folder");
    } else if (i < parts.length && !st.isDirectory()) {
      throw new InstallError(parts.slice(0, i).join("/"), 1, 1, "E_INSTALL_PATH", `is a file, but harness needs a folder here for ${rel}`, "Move the file away");
    }
  }
}

/** The file's text (a link's target's), or null when it does not exist. Refuses unsafe paths and folders. */
export function readCurrent(root: string, rel: string): string | null {
  const target = linkTarget(root, rel);
  assertSafe(root, target);
  const file = path.join(root, target);
  if (!existsSync(file)) return null;
  if (statSync(file).isDirectory()) throw new InstallError(rel, 1, 1, "E_INSTALL_PATH", "is a folder, but harness installs a file here", "Move the folder away");
  return readFileSync(file, "utf8");
}

export function isExecutable(root: string, rel: string): boolean {
  const file = path.join(root, linkTarget(root, rel));
  return process.platform !== "win32" && existsSync(file) && (statSync(file).mode & 0o111) !== 0;
}

/** The project root as the user named it: "." for the current folder. */
export const shownRoot = (root: string) => (path.resolve(root) === process.cwd() ? "." : path.relative(process.cwd(), root).startsWith("..") ? root : path.relative(process.cwd(), root));

/**
 * Where a file that is a symbolic link leads (CLAUDE.md -> AGENTS.md), as a path relative to the
 * root: harness reads and writes the target and keeps the link. Only a link to an existing file
 * inside the project is followed; anything else is an error, and nothing is written.
 */
export function linkTarget(root: string, rel: string): string {
  const file = path.join(root, rel);
  let st;
  try {
    st = lstatSync(file);
  } catch {
    return rel;
  }
  if (!st.isSymbolicLink()) return rel;
  let real: string;
  try {
    real = realpathSync(file);
  } catch {
    throw new InstallError(rel, 1, 1, "E_INSTALL_SYMLINK", "is a symbolic link to a file that does not exist", "Create the file it points at, or replace the link with a regular file");
  }
  const realRoot = realpathSync(root);
  if (!inside(realRoot, real)) throw new InstallError(rel, 1, 1, "E_INSTALL_SYMLINK", `is a symbolic link to ${real}, outside the project`, "Harness writes only inside the project root; replace the link with a regular file");
  if (!statSync(real).isFile()) throw new InstallError(rel, 1, 1, "E_INSTALL_PATH", `is a symbolic link to a folder, but harness installs a file here`, "Replace the link with a regular file");
  const target = path.relative(realRoot, real).split(path.sep).join("/");
  assertSafe(root, target);
  return target;
}
