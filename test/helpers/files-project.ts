// A scratch project made of the given files (optionally a git repository), removed after each test.
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach } from "vitest";
import { tempDir } from "./cli.js";

/** Registers the clean-up in the calling file; the returned function makes one project per call. */
export function filesProjects(prefix: string, { git = false } = {}): (files: Record<string, string>) => string {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  return (files) => {
    const dir = tempDir(prefix);
    dirs.push(dir);
    for (const [p, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
      writeFileSync(path.join(dir, p), text);
    }
    if (git) execFileSync("git", ["init", "-q"], { cwd: dir });
    return dir;
  };
}
