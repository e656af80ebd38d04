// The stage-end scope audit, shared by every host whose hooks mark the start and the end of a
// stage (a subagent's run): the generated script, its policy, its fidelity records and its limits.
// A host adapter supplies only the wiring (which hook calls `start`, `stop` and `report`), in its
// own audit.ts. See runtime.ts for what the script does.
//
// Why an audit: a command filter cannot be complete for a role that writes code which its allowed
// test command then runs. The audit looks at what changed in the work tree, whatever wrote it, and
// puts back everything outside the role's write scope (the same globs the guard uses: the role's
// write globs minus its never-write globs, picomatch with dot files, compiled to RegExp here).
import { globRegExp } from "../../glob.js";
import type { FidelityRecord } from "../fidelity.js";
import type { Lowered } from "../types.js";
import type { PipelineIR, RoleIR } from "../../ir/types.js";
import { sortKeys } from "../../emit/render.js";
import { AUDIT_MAIN_SOURCE, AUDIT_RUNTIME_SOURCE } from "./runtime.js";
import { AUDIT_BOUNDARY_SOURCE, AUDIT_PROCESS_SOURCE, AUDIT_REPO_SOURCE } from "./runtime-boundary.js";
import { GUARDED_FILES, type GuardedFile } from "./enforcement.js";
import { AUDIT_CONTROLLER_SOURCE } from "./runtime-controller.js";
import { AUDIT_IO_SOURCE } from "./runtime-io.js";
import { AUDIT_BLOBS_SOURCE } from "./runtime-blobs.js";
import { AUDIT_SNAPSHOT_SOURCE } from "./runtime-snapshot.js";
import { AUDIT_OBJECTS_SOURCE } from "./runtime-objects.js";
import { AUDIT_GIT_SOURCE } from "./runtime-git.js";
import { AUDIT_SIGNED_SOURCE } from "./runtime-signed.js";
import { STATE_KEY_SOURCE } from "../state-key.js";
import { CONTROLLER_STATE_SOURCE } from "../controller/runtime-state.js";
import { byCodeUnit } from "../../compare.js";
import { HOST_SETTINGS_FILES, anyDepth } from "../guard/policy.js";
import { HOOK_CLEAN_ENV, HOOK_FIND_NODE, HOOK_SYSTEM_PATH_FIRST } from "../guard/hook-command.js";

export interface AuditGlob {
  glob: string;
  re: string;
  flags: string;
}
/** A role's scope as indexes into AuditPolicy.globs: the pipeline-wide never-write globs are stored once, not per role. */
export interface AuditRole {
  write: number[];
  neverWrite: number[];
}
export interface AuditPolicy {
  format: 3;
  pipeline: string;
  host: string;
  /** Where the script lives, relative to the project root (it finds the root from its own location). */
  scriptPath: string;
  /** Environment variable holding the project root when the host sets one (CLAUDE_PROJECT_DIR). */
  projectEnv: string | null;
  /** Hosts with no report hook: the stop hook blocks once so the stage itself hears the verdict. */
  stopBlocks: boolean;
  /** Paths no audited role may change: the host's hook scripts and settings. */
  protect: AuditGlob[];
  /** Paths the host itself manages while a stage runs (e.g. its worktrees): not audited. */
  exempt: AuditGlob[];
  /** The pipeline's never-write globs at any depth, as the guard applies them: no role may change these. */
  never: AuditGlob[];
  /** The files that control enforcement (enforcement.ts): restored and failed whatever the scope. */
  guarded: readonly GuardedFile[];
  /** Every glob of every role, once, sorted. */
  globs: AuditGlob[];
  roles: Record<string, AuditRole>;
  /** The main-session roles' scopes: what the orchestrator may change between stages. */
  orchestrator: AuditRole[];
  /** Judge between stages in every session (scope repository), or only in sessions whose orchestrator's commands were audited (a pipeline run). */
  betweenEverySession: boolean;
  /** The run controller's state folder on a host that wires one: controller-owned, verified, never exempt. */
  controller: { stateDir: string } | null;
}

export interface AuditOptions {
  host: string;
  scriptPath: string;
  projectEnv: string | null;
  stopBlocks: boolean;
  protect: readonly string[];
  /** Paths the host itself manages while a stage runs; not audited (listed in its gaps). */
  exempt?: readonly string[];
  /** The roles the host can audit (those that run where its start/stop hooks fire). */
  roles: readonly RoleIR[];
  /** Roles of the main session: their scopes are the orchestrator's between stages (default: the pipeline's main-session roles). */
  mainRoles?: readonly RoleIR[];
  /** Every session is a pipeline run (scope repository): the check between stages holds in all of them. */
  betweenEverySession?: boolean;
  /** The host wires the run controller: its state under `<stateDir>/controller/` is verified at every audit (runtime-controller.ts). */
  controller?: { stateDir: string };
  /** a fixed home for the controller's key and records instead of the account's (tests only) */
  controllerHome?: string;
  /** a fixed home for the audit's key and witnesses instead of the account's (tests only) */
  auditHome?: string;
  /** a shorter time limit for the audit's git than the one under the hosts' hook timeouts (tests only) */
  timeLimitMs?: number;
  /** Project paths of the enforcement files harness installs for this host (installedEnforcement): guarded byte for byte, wherever the ignore rules hide them. */
  installed?: readonly string[];
}

/**
 * The files harness emits that hold enforcement (those under the host's protected paths: hook scripts,
 * guard, audit, controller, settings, role definitions), and the audit script itself: taken from the
 * emitted files, so a file added to an adapter is guarded without a hand list (r3 A7).
 */
export function installedEnforcement(emitted: readonly string[], protect: readonly string[], auditScript: string): string[] {
  const res = protect.map((g) => globRegExp(g));
  return [...new Set([...emitted, auditScript])].filter((p) => res.some((re) => re.test(p))).sort(byCodeUnit);
}

/** Files that change what git shows the audit (ignore rules) and what it hashes (attributes, filters), at any depth. */
export const AUDIT_RULE_GLOBS = ["**/.gitignore", "**/.gitattributes"] as const;

/** What the audit cannot do; adapters list these under MAPPING.md's Known gaps. */
export const AUDIT_GAPS: readonly string[] = [
  "it cannot undo what leaves the repository: a push, a network call, a write outside the project folder other than to the files that control enforcement (a symbolic link in scope that points outside is followed by whatever writes through it); no layer catches these. Outside the project and the listed files that leaves every other file of the account: among what the hosts read, the model's instruction files in the home (~/.claude/CLAUDE.md, ~/.codex/AGENTS.md, ~/.gemini/GEMINI.md, user output styles and prompts: text, which the guard and the audit do not obey), Claude Code's plugin data (~/.claude/plugins/data) and marketplace clones (~/.claude/plugins/marketplaces: they run nothing until a human installs or updates a plugin from them), the hosts' caches, logs and session transcripts, programs a guarded JSON settings file names past its first 64, or by a relative path or through a variable other than $HOME; files a command in a guarded TOML or JSONC file names (Codex's notify and mcp_servers), or a manifest inside a guarded folder (an extension's, an agent's front matter), or a script a named program runs in turn; programs on the PATH in folders the user can write (~/.local/bin, ~/.cargo/bin, pyenv's shims, nvm's node): replaced, they run in place of git, cargo or pytest in every later command, and no layer catches it; Python's user site-packages (a .pth file or usercustomize.py there runs in every later python, pytest included) and node's global modules; the editors' plugin folders other than ~/.vim/plugin and ~/.config/nvim (~/.vim/pack, ~/.local/share/nvim, ~/.emacs.d's packages); the start-up files of tools the list does not name (R's .Rprofile, Julia's startup.jl, IPython's startup folder, irb's .irbrc, sbt's plugins, direnv's direnvrc); a job a stage's code schedules (crontab, at, a systemd timer or transient unit: no process of the stage's is left, and what it writes before the session's next boundary is restored there, after the last one by no layer); the build tools' configuration in the folders above the project (a .cargo/config.toml, a go.work, a pytest.ini there); and a .git folder moved away and replaced by a gitdir: file between stages (the stop of the stage that moved it moves it back and fails the stage; the orchestrator's own commands are not followed there)",
  "paths ignored by the project's ignore rules as they were at the start of the stage (.gitignore, .git/info/exclude, the user's core.excludesFile) are not audited: build output, caches and dependencies live there. No stage may change those rules or the attributes git hashes with: a created, modified or deleted .gitignore or .gitattributes at any depth, one that ignores itself included, is restored and fails the stage, so a tool that writes a self-ignoring .gitignore (pytest's .pytest_cache, ruff's and mypy's caches, a Python 3.13 venv) fails the stage unless the project's ignore rules already cover its folder; the files that control enforcement are audited even where ignored, and so is every host's settings or hook file below the root that the rules hide (one they list, or in an ignored folder named like a host's, .vscode/, or one level inside an ignored folder)",
  "the attributes the project has at the start (text and eol conversion, ident, working-tree-encoding) apply when the audit hashes: a difference they convert away (line endings under text=auto, the text inside $Id$) is not seen; no layer catches it. The filter programs the repository's configuration defines never run in the audit (each is taken as cat: a clean script in a role's scope could make any file hash as the original), so a changed file such a filter handles is hashed as it is on disk, and the one the audit restores comes back as the index holds it (cleaned)",
  "a folder or file its owner could not read at the start of the stage (mode 311, 000) is not audited inside, as git cannot read it; one a stage shuts is opened for its owner again at the stage's end and judged, and the stage fails; one owned by another account fails the stage loudly; so does a folder deeper than the system's path limit in the stage's own scope (one created outside it is removed)",
  "empty folders are invisible to git: one an agent creates is not reported, and a folder left empty after a restore is removed. So are FIFOs, sockets and devices: one created where no tracked file was is not reported (one standing where a tracked file was is removed and the file restored)",
  "submodules and nested repositories that exist at the start of the stage count as one path (their checked-out commit), not file by file: a change inside one's work tree, never-write files included, is not seen, and one without a commit stops the audit (the stage fails). One created during the stage (git init, git clone, a .git file, a git worktree add inside the project) is undone by removing its .git whatever the scope, so a role that makes one fails its stage; a linked worktree it adds outside the project (git worktree add ../x) fails the stage too, and the commondir the audit removes from its .git/worktrees entry leaves that worktree broken, and the files it hid are then judged one by one; so is a path named .git that is no repository (a plain folder or file, whose contents git never reads), in a folder git lists",
  "while stages run in parallel, each stage's audit allows the write scopes of the stages running beside it (the tree cannot tell who wrote a file), and leftover processes are not looked for; a stage whose stop and report never ran (the host was killed) counts as running, beside every later stage, until its record is a week old",
  "writer, not time: a change inside the stage's scope is accepted whoever's code wrote it, so code another role wrote (a test file) that writes inside the scope while the stage runs the tests counts as the stage's work; nothing in a hook can tell which file's code made a write, so no layer catches it (the orchestrator's review of the diff is the only check)",
  "git compares whole seconds: a rewrite that keeps a file's size and modification time, made in the same second as the file's previous change, can be missed; no layer catches it. Index flags (skip-worktree, assume-unchanged) and configuration that loosens git's stat checks hide nothing: the audit hashes with its own index and fixed settings",
  "the files that control enforcement (host settings in the project and the home, what the hosts load from the home besides them (Claude Code's plugins and user agents, commands and skills, every other host's user-level agents (Copilot CLI's, which it loads in place of the project's, Codex's, Gemini CLI's, Qwen Code's, OpenCode's and Kilo's, Factory Droid's droids, Cursor's), OpenCode and Kilo plugins, tools, agents and modes in each of their config folders (the global one, OPENCODE_CONFIG_DIR's, KILO_CONFIG_DIR's, and the project's .opencode, .kilo and .kilocode, wherever the ignore rules hide them), Gemini CLI and Qwen Code extensions, Pi's extensions and settings, Antigravity's hooks and permissions, Factory Droid's settings, hooks and MCP configuration in the home and the project, MCP configurations, the project's .env, .gemini/.env and .qwen/.env, which Gemini CLI and Qwen Code load into the environment of every hook and command they start, and every program a guarded JSON settings file names as a command by an absolute or home path (hooks, status lines, apiKeyHelper; one over 1 MB, a binary, by its inode, size and times, failing the stage unrestored); the build tools' home configuration (cargo, go, pip); a folder's files are snapshotted by content hash in .git/harness-audit/blobs, up to 128 MB in all: over that, every stage fails until a human makes room), .git/config, .git/hooks, .git/info's exclude, attributes, sparse-checkout and grafts, .git/objects/info/alternates, a rebase, cherry-pick or am left in progress in .git (its todo's exec lines), what the human's next git commit starts (the editor's start-up files ~/.vimrc, ~/.exrc, ~/.vim/vimrc and plugin, ~/.config/nvim, ~/.emacs and init.el; gpg's gpg.conf and gpg-agent.conf; gitk's settings), gradle's init scripts and gradle.properties, bun's ~/.bunfig.toml, the git and shell start-up files in the home (login and logout files of bash, zsh, also under ZDOTDIR, and fish; .bash_aliases, .bashrc.d, fish's conf.d and functions, oh-my-zsh's custom folder, environment.d, autostart, the user's systemd services, ssh's config), the package-manager configuration in the project and the home (.npmrc, .yarnrc, .yarnrc.yml, .pnpmfile.cjs, pnpm's rc) and npm's global npmrc (<node's prefix>/etc/npmrc, or NPM_CONFIG_GLOBALCONFIG): src/adapter/audit/enforcement.ts lists them; every file harness installs under the host's protected paths (hook scripts, guard, audit, run controller, settings, role definitions), wherever the ignore rules hide it; each submodule's git configuration and hooks below .git/modules (nested too) and each linked worktree's .git/worktrees/*/config.worktree, one created during the stage included; the git folder's commondir and each submodule's and linked worktree's (a path there moves the configuration and hooks git runs with); the folder core.hooksPath names at the start of the stage; the user's global excludes file (core.excludesFile, by default ~/.config/git/ignore), whose patterns decide what the next stage's audit ignores; the file core.attributesFile names, whose filters and drivers the human's git applies; a listed path that is a symbolic link is compared by the file it names too, a file with other hard links is put back in place, and permission bits are compared and put back; the git configuration GIT_CONFIG_GLOBAL or GIT_CONFIG_SYSTEM names in the host's environment) are restored at the end of the stage that changed them, or at the next boundary of the session; until then the change is live for the rest of that stage. A file the list does not name is not guarded, except what a guarded git configuration includes (include.path and includeIf.*.path, followed 8 deep whatever the condition), and a guarded folder replaced by a symbolic link fails the stage without being rebuilt",
  "refs other than the current branch (other branches, tags, the stash) are not audited; HEAD, the current branch, what is staged in the index and the replace refs (refs/replace, which every git reads in place of the objects they name; the audit's git never does) are put back at the end of the stage that changed them",
  "git's object store is checked for what was written since the last boundary: a loose object, a pack, a commit graph or a multi-pack index whose content is not the object its name says is removed, and so is a file of Git LFS's store (.git/lfs/objects; not one lfs.storage moves elsewhere) that does not hash to its name (an object the work tree still holds is hashed again); an object rewritten before the session's first boundary, or after its last one, is trusted. A pack written during the stage is verified in full by git (verify-pack) at its end (an older one git only freshened, its index untouched, by its bytes' hash against its name); a loose object too large to inflate in memory (over 2 GB) counts as rewritten, which fails the stage (its file stays in the work tree). Replace refs made between stages are not put back (the audit's own git never reads them)",
  "the audit's git never reads the user's git configuration (/etc/gitconfig, ~/.gitconfig, ~/.config/git/config and what they include; only safe.directory, core.excludesFile and core.hooksPath are taken from them, from regular files): one that code replaces with a FIFO is restored and fails the stage like any other change to those files. The repository's own configuration (and what it includes), HEAD, index and packed-refs, and the audit's own state, are read only as regular files: a configuration file replaced by a FIFO is put back from the stage's (or the session's last boundary's) snapshot before git runs, and fails the stage; anything else there fails the stage at once, naming it. What else git opens while it hashes the tree (a .gitignore or .gitattributes anywhere in it, a loose ref) cannot hold the audit past its own time limit (45 s for a start, 100 s for the rest, under the hosts' 60 s and 120 s hook timeouts): git is stopped and the stage fails, naming the file where it is a .gitignore or .gitattributes. A work tree whose unignored files git cannot hash within that limit fails every stage the same way, loudly (the message says so): the audit has no partial mode. Such a FIFO stays until a human removes it, and every boundary fails until then",
  "the audit hashes file content without the filters (clean, smudge) the user's git configuration defines, such as Git LFS: a file such a filter handles that the audit restores comes back as what the index holds for it (an LFS pointer) until the human's git checks it out again",
  "the audit's state under .git/harness-audit/ that grants something (the records of running stages that lend their write scopes, each stage's start snapshot with the hashes of its index, excludes and .git/index copies, the verdicts, the record of each session's last boundary) is signed with a key kept outside the project (~/.local/state/harness/audit.key in the account's home from the passwd database, never $HOME), bound to the project and the record's name, and the last signature of each stage and boundary is kept there too: a record a program rewrote, copied from another project, session or stage, replayed or deleted lends no scope and fails the stage or the boundary; a program that reads or replaces that key (code run by an allowed command runs as the same user) could forge them, or one that deletes the records outside the project along with the project's could make a stage look never started: tamper-evident, not tamper-proof. The audit script itself is not covered: the guard keeps the agents' own tools off it, but a copy that code a stage ran rewrites is what runs at that stage's stop and every later hook, and decides their verdicts; no layer catches it",
  "changes are found when the stage ends, not when they happen: until then an out-of-scope file exists and later commands of the same stage can read it",
  "processes a stage leaves behind are found only on Linux (/proc) and only when they work in the repository (their folder or an open file there); the stop waits 3 s for them, then fails the stage by name; what they write later is restored at the next boundary of the session",
  "between stages: what changes after a stage's end is restored at the session's next boundary (the next stage's start, which then fails); a write after the session's last boundary, and what is staged or committed between stages, is found by no hook, and the next session's first stage takes the tree as it finds it",
];

/**
 * Render the audit script again once every wrapper has added its files (the guard, the run controller
 * come after the audit): its list of installed enforcement files then names them all.
 */
export function withInstalledEnforcement(lowered: Lowered, auditPath: string, render: (emitted: readonly string[]) => string): Lowered {
  const at = lowered.files.findIndex((f) => f.path === auditPath);
  if (at < 0) return lowered;
  const files = [...lowered.files];
  const emitted = files.map((f) => f.path);
  const { path, install } = files[at]!;
  const executable = files[at]!.kind === "text" && files[at]!.executable === true;
  // Made when rendered, like src/adapter/lazy.ts's files; a spread of the file it replaces would
  // make that one's text too (a getter, when lazy), only to drop it.
  files[at] = {
    path,
    kind: "text",
    ...(executable ? { executable: true } : {}),
    ...(install ? { install } : {}),
    get text() {
      return render(emitted);
    },
  };
  return { ...lowered, files };
}

/** The fixed list and the installed files (as project files), each project path once. */
function guardedFiles(installed: readonly string[]): GuardedFile[] {
  const listed = new Set(GUARDED_FILES.filter((g) => g.base === "project").map((g) => g.path));
  return [...GUARDED_FILES, ...installed.filter((p) => !listed.has(p)).map((p): GuardedFile => ({ base: "project", path: p }))];
}

/** picomatch's RegExp, with `s` so that `.` also matches a newline (a legal file-name character). */
export function auditGlob(glob: string): AuditGlob {
  const re = globRegExp(glob);
  return { glob, re: re.source, flags: re.flags.includes("s") ? re.flags : `${re.flags}s` };
}

/** Roles that can change files at all (edit, write or a shell): the ones worth auditing. */
export function canWrite(role: RoleIR): boolean {
  return role.tools.includes("edit") || role.tools.includes("write") || role.shell !== null;
}

export function compileAuditPolicy(pipeline: PipelineIR, o: AuditOptions): AuditPolicy {
  const sortedRoles = [...o.roles].sort((a, b) => byCodeUnit(a.id, b.id));
  const mainRoles = [...(o.mainRoles ?? pipeline.roles.filter((r) => r.isolation === "main"))].sort((a, b) => byCodeUnit(a.id, b.id));
  const globs = [...new Set([...sortedRoles, ...mainRoles].flatMap((r) => [...r.write, ...r.neverWrite]))].sort(byCodeUnit);
  const index = new Map(globs.map((g, i) => [g, i]));
  const scope = (r: RoleIR): AuditRole => ({ write: r.write.map((g) => index.get(g)!), neverWrite: r.neverWrite.map((g) => index.get(g)!) });
  const roles: Record<string, AuditRole> = {};
  for (const r of sortedRoles) roles[r.id] = scope(r);
  // every role's never-write holds the pipeline's at the root; the guard also applies them at any depth
  const never = [...new Set(pipeline.policies.neverWrite.flatMap(anyDepth))].sort(byCodeUnit);
  const policy: AuditPolicy = {
    format: 3,
    pipeline: pipeline.name,
    host: o.host,
    scriptPath: o.scriptPath,
    projectEnv: o.projectEnv,
    stopBlocks: o.stopBlocks,
    // the ignore and attribute files decide what the audit sees and how it hashes: no stage may change one (r3 A1, A2)
    // and every host's settings and hook files at any depth, whatever never_write says: the guard refuses
    // the same set (HOST_SETTINGS_FILES), so the audit never keeps what the guard would have refused (r4)
    protect: [...new Set([...o.protect, ...AUDIT_RULE_GLOBS, ...HOST_SETTINGS_FILES.flatMap(anyDepth)])].map(auditGlob),
    exempt: (o.exempt ?? []).map(auditGlob),
    never: never.map(auditGlob),
    guarded: guardedFiles(o.installed ?? []),
    globs: globs.map(auditGlob),
    roles,
    orchestrator: mainRoles.filter((r) => r.write.length).map(scope),
    betweenEverySession: o.betweenEverySession ?? false,
    controller: o.controller ? { stateDir: o.controller.stateDir } : null,
  };
  // fail the build, not the hook, if a compiled expression is invalid
  for (const g of [...policy.protect, ...policy.exempt, ...policy.never, ...policy.globs]) new RegExp(g.re, g.flags);
  return policy;
}

function header(o: AuditOptions): string {
  const lines = [
    `harness stage-end scope audit (${o.host}). Generated by harness from the pipeline definition; do not edit, rebuild instead.`,
    "",
    "  node " + o.scriptPath + " start    (hook input on stdin: agent_id, agent_type) records the tree at the start of a stage",
    "  node " + o.scriptPath + " stop     (same) compares, restores every change outside the role's write scope, records a verdict",
    "  node " + o.scriptPath + " report   (the parent's tool call that waited for the stage) exit 2 + reasons when a stage failed",
    "  node " + o.scriptPath + " between  (the orchestrator's own command, no agent_id) judges what changed since the session's last boundary",
    "  node " + o.scriptPath + " run-start|run-stop <role> <key>   the same around one whole session (launchers)",
    "Every stage also snapshots the files that control enforcement (host settings in the project and the home, .git/config, .git/hooks):",
    "any change to them is put back and fails the stage.",
    "State lives in <git dir>/harness-audit/; the work tree's index, HEAD and refs are never touched.",
    "Any error fails the stage (fail closed). Limits:",
    ...AUDIT_GAPS.map((g) => "  - " + g),
  ];
  return lines.map((l) => (l ? "// " + l : "//")).join("\n");
}

/** The full text of the audit script for this pipeline and host. */
export function renderAuditScript(pipeline: PipelineIR, o: AuditOptions): string {
  const policy = compileAuditPolicy(pipeline, o);
  return [
    header(o),
    'import cp from "node:child_process";',
    'import crypto from "node:crypto";',
    'import fs from "node:fs";',
    'import os from "node:os";',
    'import path from "node:path";',
    'import { fileURLToPath } from "node:url";',
    'import zlib from "node:zlib";',
    "",
    "const POLICY = " + JSON.stringify(sortKeys(policy), null, 2) + ";",
    ...(o.timeLimitMs === undefined ? [] : [`const AUDIT_TIME_LIMIT_MS = ${JSON.stringify(o.timeLimitMs)};`]),
    `const AUDIT_KEY_HOME = ${o.auditHome === undefined ? "null" : JSON.stringify(o.auditHome)};`,
    AUDIT_RUNTIME_SOURCE.trim(),
    "",
    STATE_KEY_SOURCE.trim(),
    "",
    AUDIT_SIGNED_SOURCE.trim(),
    "",
    AUDIT_GIT_SOURCE.trim(),
    "",
    AUDIT_IO_SOURCE.trim(),
    "",
    AUDIT_BLOBS_SOURCE.trim(),
    "",
    AUDIT_SNAPSHOT_SOURCE.trim(),
    "",
    AUDIT_CONTROLLER_SOURCE.trim(),
    ...(policy.controller ? ["", `const CTL_HOME = ${o.controllerHome === undefined ? "null" : JSON.stringify(o.controllerHome)};`, CONTROLLER_STATE_SOURCE.trim()] : []),
    "",
    AUDIT_BOUNDARY_SOURCE.trim(),
    "",
    AUDIT_PROCESS_SOURCE.trim(),
    "",
    AUDIT_REPO_SOURCE.trim(),
    "",
    AUDIT_OBJECTS_SOURCE.trim(),
    "",
    AUDIT_MAIN_SOURCE.trim(),
    "",
  ].join("\n");
}

/**
 * The hook command for one mode, POSIX sh. `blocking`: fail closed when node is missing or the
 * script crashes (any exit code but 0 and 2 becomes 2, with a line saying so). A stop hook on a host
 * where exit 2 keeps the stage running is not blocking (a crash must not trap the agent in a loop):
 * its stage then has a snapshot and no verdict, and the report hook audits it or fails it.
 */
export function auditHookCommand(script: string, mode: "start" | "stop" | "report" | "between", blocking = true, projectDir?: string): string {
  // the same clean environment as the guard's line: a settings file's env (NODE_OPTIONS=--require=…
  // that exits 0) must not answer for the audit; its git is the system's where there is one
  const run = `${HOOK_SYSTEM_PATH_FIRST} "$harness_node" ${script} ${mode}`;
  if (!blocking) return `${HOOK_CLEAN_ENV}; ${HOOK_FIND_NODE} && ${run}; exit 0`;
  return [
    HOOK_CLEAN_ENV,
    // the orchestrator's own commands: nothing to compare before the session's first stage has ended
    ...(mode === "between" && projectDir ? [`{ [ -d "${projectDir}/.git" ] && ! [ -d "${projectDir}/.git/harness-audit/chain" ]; } && exit 0`] : []),
    `${HOOK_FIND_NODE} || { echo "harness audit: node is not on PATH, so the stage-end scope audit cannot run (fail closed)." >&2; exit 2; }`,
    run,
    `rc=$?`,
    `[ "$rc" -eq 0 ] || [ "$rc" -eq 2 ] || { echo "harness audit: the audit script failed (exit $rc) (fail closed)." >&2; exit 2; }`,
    `exit "$rc"`,
  ].join("; ");
}

/**
 * Insert audit records after the last record of the same role and constraint, so MAPPING.md shows
 * both layers together (guard first, then the audit that is the boundary).
 */
export function withAuditRecords(records: readonly FidelityRecord[], audit: readonly FidelityRecord[]): FidelityRecord[] {
  // A linked list with the last node per role and per (role, constraint): each insertion is O(1),
  // and the order is the one repeated splicing would give.
  type Node = { record: FidelityRecord; next: Node | null };
  const head: Node = { record: null as never, next: null };
  let tail = head;
  const lastOfRole = new Map<string | null, Node>();
  const lastOf = new Map<string | null, Map<string, Node>>(); // role → constraint → node
  const setLast = (r: FidelityRecord, node: Node) => {
    if (!lastOf.has(r.role)) lastOf.set(r.role, new Map());
    lastOf.get(r.role)!.set(r.constraint, node);
  };
  for (const record of records) {
    tail = tail.next = { record, next: null };
    lastOfRole.set(record.role, tail);
    setLast(record, tail);
  }
  for (const a of audit) {
    const anchor = lastOf.get(a.role)?.get(a.constraint) ?? lastOfRole.get(a.role) ?? tail;
    const node: Node = { record: a, next: anchor.next };
    anchor.next = node;
    if (anchor === tail) tail = node;
    if (!lastOfRole.has(a.role) || lastOfRole.get(a.role) === anchor) lastOfRole.set(a.role, node);
    setLast(a, node);
  }
  const out: FidelityRecord[] = [];
  for (let n = head.next; n; n = n.next) out.push(n.record);
  return out;
}

/** The write-scope and never-write records of the audited roles. */
export function auditRecords(roles: readonly RoleIR[], how: (role: RoleIR) => string): FidelityRecord[] {
  return roles.flatMap((role): FidelityRecord[] => [
    { role: role.id, constraint: "write-scope", level: "audit", how: how(role), field: "permissions.write" },
    { role: role.id, constraint: "never-write", level: "audit", how: how(role), field: "permissions.never_write" },
  ]);
}
