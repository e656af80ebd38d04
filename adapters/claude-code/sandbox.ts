// `harness run --sandbox` on Claude Code: each stage's session is started with its own `--settings`
// file that turns on Claude Code's OS sandbox (bubblewrap + socat on Linux) for everything Bash
// starts, and denies writes to the role's never-write folders there and to the Write/Edit tools.
// Measured on 2.1.332 (../shared/reports/claude-sandbox.md, and test/hosts/run-sandbox.test.ts):
// - the sandbox is session-wide, so only a session of its own per role (which harness run starts)
//   can carry a role's denies; front matter cannot set it;
// - it enforces folder and file prefixes only: a glob deny (`**/*.test.*`) is silently not
//   enforced, so such globs stay with the guard and the stage-end audit (sandboxGlobOnly names them);
// - `./x` in a --settings file outside the project is not applied: every path here is `//absolute`;
// - without allowUnsandboxedCommands:false, `dangerouslyDisableSandbox` runs unsandboxed under
//   bypass, and a project's excludedCommands run outside it; without failIfUnavailable a missing
//   bwrap only prints a warning and the session runs unsandboxed.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/** The programs Claude Code's Linux sandbox needs, found on PATH. */
export const SANDBOX_TOOLS = ["bwrap", "socat"] as const;

export const SANDBOX_FIX = "Install them (`apt-get install bubblewrap socat`, or your system's packages), or run without --sandbox";

function onPath(program: string, env: NodeJS.ProcessEnv): string | null {
  for (const dir of (env.PATH ?? "").split(path.delimiter).filter(Boolean)) {
    const file = path.join(dir, program);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      if (fs.statSync(file).isFile()) return file;
    } catch {
      /* not here */
    }
  }
  return null;
}

/** null when bwrap and socat are on PATH; otherwise which are missing and the fix. */
export function sandboxToolsProblem(env: NodeJS.ProcessEnv = process.env): string | null {
  if (process.platform !== "linux") return `--sandbox: harness drives Claude Code's sandbox on Linux only (bubblewrap); this is ${process.platform}. Run without --sandbox`;
  const missing = SANDBOX_TOOLS.filter((t) => !onPath(t, env));
  if (!missing.length) return null;
  return `--sandbox: Claude Code's sandbox needs ${missing.join(" and ")} on PATH, and ${missing.length > 1 ? "they are" : "it is"} not there. ${SANDBOX_FIX}`;
}

const GLOB_CHARS = /[*?[\]{}!()+@]/;

/**
 * The plain path a never-write glob denies, when the sandbox can hold it exactly: `dir/**` is the
 * folder `dir`, a glob-free path is that file or folder. Anything else (a `*` inside a name, `**`
 * before the end) is null: the sandbox would silently not enforce it.
 */
export function plainPrefix(glob: string): string | null {
  const g = glob.replace(/^\.\//, "");
  const body = g.endsWith("/**") ? g.slice(0, -3) : g;
  if (!body || GLOB_CHARS.test(body) || body.startsWith("/") || body.split("/").some((s) => s === ".." || s === "." || s === "")) return null;
  return body;
}

/** The never-write globs the sandbox cannot hold: only the guard and the stage-end audit do. */
export const sandboxGlobOnly = (neverWrite: readonly string[]) => neverWrite.filter((g) => plainPrefix(g) === null);

/** The git folder that holds hooks and config (a linked worktree's is outside the project), absolute. */
function gitCommonDir(root: string): string {
  const r = spawnSync("git", ["rev-parse", "--path-format=absolute", "--git-common-dir"], { cwd: root, encoding: "utf8", timeout: 30_000, killSignal: "SIGKILL" });
  const dir = r.status === 0 ? r.stdout.trim() : "";
  return dir || path.join(root, ".git");
}

/** Paths no sandboxed command may write whatever the role: harness's state, the audit's inputs and record, the installed enforcement. */
export function alwaysDenied(root: string): string[] {
  const git = gitCommonDir(root);
  return [path.join(root, ".harness"), path.join(root, ".claude"), ...["hooks", "config", "info", "harness-audit"].map((p) => path.join(git, p))];
}

export interface SandboxSettings {
  /** the --settings object, serialized with JSON.stringify */
  settings: Record<string, unknown>;
  /**
   * The denied folders (from `dir/**` globs), absolute. One that does not exist is mounted as a
   * placeholder that is not a folder (measured: `readdir("test")` in the sandbox gave ENOTDIR), which
   * breaks a test runner that looks for it; the driver makes the missing ones empty for the session.
   */
  folders: string[];
  /** never-write globs left to the guard and the audit */
  globOnly: string[];
}

function realpath(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

/** Claude Code's `//abs` spelling of an absolute path (`/abs` is relative to the settings file's source). */
const abs = (p: string) => `/${path.resolve(p)}`;

/** The --settings object of one sandboxed session: `root` the project, `settingsDir` where this file lives (outside the project). */
export function sandboxSettings(root: string, neverWrite: readonly string[], settingsDir: string): SandboxSettings {
  // both spellings when the project is reached through a symbolic link: which one Claude Code
  // matches against is not measured, and a deny that names the other would silently not apply
  const roots = [...new Set([path.resolve(root), realpath(root)])];
  const prefixes = neverWrite.map(plainPrefix).filter((p): p is string => p !== null).flatMap((p) => roots.map((r) => path.join(r, p)));
  const folders = [...new Set(neverWrite.filter((g) => g.endsWith("/**") && plainPrefix(g) !== null).map((g) => path.resolve(root, plainPrefix(g)!)))].sort();
  const denied = [...new Set([...prefixes, ...roots.flatMap(alwaysDenied), settingsDir].map((p) => path.resolve(p)))].sort();
  return {
    settings: {
      sandbox: {
        enabled: true,
        // refuse to start rather than run unsandboxed after a warning
        failIfUnavailable: true,
        // dangerouslyDisableSandbox is ignored and a project's excludedCommands do not apply
        allowUnsandboxedCommands: false,
        // a sandboxed command is still asked through the role's own permission rules and guard
        autoAllowBashIfSandboxed: false,
        filesystem: { denyWrite: denied.map(abs) },
      },
      // the Write and Edit tools are not sandboxed: the same paths as deny rules (merged into the sandbox too)
      permissions: { deny: denied.flatMap((p) => [`Edit(${abs(p)})`, `Edit(${abs(p)}/**)`]) },
    },
    folders,
    globOnly: sandboxGlobOnly(neverWrite),
  };
}

/**
 * Make the denied folders that do not exist, empty, for one session (see SandboxSettings.folders);
 * the returned function removes the ones made here that are still empty, deepest first. Only
 * folders inside the project; what git tracks is unchanged (git has no empty folders).
 */
export function makeMissingFolders(root: string, folders: readonly string[]): () => void {
  const made: string[] = [];
  const top = path.resolve(root);
  for (const f of folders) {
    if (!f.startsWith(`${top}${path.sep}`)) continue;
    const chain: string[] = [];
    for (let d = f; d !== top && !fs.existsSync(d); d = path.dirname(d)) chain.unshift(d);
    for (const d of chain) {
      try {
        fs.mkdirSync(d);
        made.push(d);
      } catch {
        break; // a file in the way, or a race: the sandbox's placeholder then stands, as without this step
      }
    }
  }
  return () => {
    for (const d of made.reverse()) {
      try {
        fs.rmdirSync(d);
      } catch {
        /* not empty (a write the scope check will judge), or gone */
      }
    }
  };
}
