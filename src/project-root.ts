// Where the project is when a command runs from one of its subfolders, as git and npm find theirs:
// the nearest folder above that holds roles/pipeline.yaml, harness.lock.json or .harness/ (what
// install and the run controller write), or a package.json with a "harness" key (which may name the
// roles and out folders). The search stops at a git repository's top, as git's does: a repository
// nested in another (a submodule, a scratch checkout) is its own project, never its parent's.
// Only folders the user did not name are looked up.
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { LOCK_FILE } from "./install/lock.js";
import { PIPELINE_FILE } from "./load/load.js";

/** The folder run records live under (.harness/runs): a project that has run has it. */
const RUNS_TOP = ".harness";

export interface HarnessKey {
  roles?: string;
  out?: string;
}

/** package.json's "harness" key: null when there is none (or the file is not JSON). */
export function harnessKey(dir: string): HarnessKey | null {
  const file = path.join(dir, "package.json");
  if (!existsSync(file)) return null;
  try {
    const data = JSON.parse(readFileSync(file, "utf8")) as { harness?: unknown };
    if (data.harness === undefined || data.harness === null || data.harness === false) return null;
    const key = typeof data.harness === "object" ? (data.harness as Record<string, unknown>) : {};
    return { ...(typeof key.roles === "string" ? { roles: key.roles } : {}), ...(typeof key.out === "string" ? { out: key.out } : {}) };
  } catch {
    return null;
  }
}

/** The nearest folder at or above `from`, within its git repository, that is a harness project (or holds what install or a run wrote), with its package.json key. */
export function findProjectRoot(from: string): { root: string; key: HarnessKey | null } | null {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    const key = harnessKey(dir);
    if (key || existsSync(path.join(dir, "roles", PIPELINE_FILE)) || existsSync(path.join(dir, LOCK_FILE)) || existsSync(path.join(dir, RUNS_TOP))) return { root: dir, key };
    if (isGitRoot(dir) || path.dirname(dir) === dir) return null;
  }
}

/** A repository's top: .git is a folder with a HEAD, or a worktree's .git file. */
export function isGitRoot(dir: string): boolean {
  const git = path.join(dir, ".git");
  return existsSync(path.join(git, "HEAD")) || (existsSync(git) && statSync(git).isFile());
}

/** The top of the project `from` is in (the nearest package.json or .git), else `from` itself. */
export function projectTop(from: string): string {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "package.json")) || isGitRoot(dir)) return dir;
    if (path.dirname(dir) === dir) return path.resolve(from);
  }
}

const LOOKED_UP = ["roles", "out", "into"];
/** The commands that work on a project (its roles/, out/, installed files or run records); `runs show` as "show runs". */
const PROJECT_COMMANDS = new Set(["build", "check", "install", "uninstall", "diff", "report", "run", "runs", "show runs"]);

/**
 * Before a project command: when the user named none of its folders, run it from the project root
 * found above the current folder, with the folders package.json's "harness" key names.
 */
export function settle(cmd: Command): void {
  // `runs show` takes its --into from `runs` too
  const chain = cmd.name() === "show" && cmd.parent?.name() === "runs" ? [cmd, cmd.parent] : [cmd];
  if (!PROJECT_COMMANDS.has(chain.map((c) => c.name()).join(" "))) return;
  const named = chain.some((c) => LOOKED_UP.some((o) => c.getOptionValueSource(o) !== undefined && c.getOptionValueSource(o) !== "default"));
  if (named) return;
  const found = findProjectRoot(process.cwd());
  if (!found) return;
  if (found.root !== process.cwd()) process.chdir(found.root);
  if (found.key?.roles && cmd.getOptionValue("roles") !== undefined) cmd.setOptionValue("roles", found.key.roles);
  // report's --out is a file in the output folder
  if (found.key?.out && cmd.getOptionValue("out") !== undefined) cmd.setOptionValue("out", cmd.name() === "report" ? path.join(found.key.out, "report.html") : found.key.out);
}
