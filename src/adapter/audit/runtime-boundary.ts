// The audit's boundary between stages, as JavaScript source pasted into the generated script after
// runtime.ts (same rules: ES2022, free variables fs, path, os, cp, POLICY; a String.raw template,
// so never a backtick or the dollar-brace pair).
//
// Enforcement files (POLICY.guarded, see enforcement.ts): snapshotted byte for byte at a stage's
// start (the bytes in the blob folder, runtime-blobs.ts); at its end every change is put back and fails the stage. A file the host rewrites by itself
// (~/.claude.json) is compared without its volatile keys and put back only when something else changed.
//
// The chain: a stage's stop records the tree it left (and the audit's index for it, and the
// enforcement snapshot) per host session. The next boundary of that session — a stage's start, or
// the orchestrator's own command (mode `between`) — compares the tree with it first. What changed
// in between belongs to no stage: a detached child of a test run, the orchestrator's npm test running
// role code. It is put back unless a running stage or a main-session role may write it, and the
// stage (or the orchestrator's command) fails.
export const AUDIT_BOUNDARY_SOURCE = String.raw`

function auditHome() { return process.env.HOME || os.homedir(); }

/** The guarded files as [{ abs, shown, tree, volatile }] (absolute paths; each once). */
function auditGuardedList(ctx, snaps) {
  const out = [], seen = new Set();
  const add = (abs, shown, g, base) => { if (!seen.has(abs)) { seen.add(abs); out.push({ abs: abs, shown: shown, tree: g.tree === true, volatile: g.volatile || null, skip: g.skip ? new Set(g.skip) : null, base: base, git: g.gitConfig === true, found: g.found === true }); } };
  const home = auditHome();
  for (const g of POLICY.guarded) {
    if (g.base === "project") add(path.join(ctx.root, g.path), g.path, g, ctx.root);
    else if (g.base === "git") add(path.join(ctx.commonDir, g.path), ".git/" + g.path, g, ctx.commonDir);
    else if (g.base === "system") add(g.path, g.path, g, null);
    else {
      if (home) add(path.join(home, g.path), "~/" + g.path, g, home);
      const moved = g.env ? process.env[g.env] : "";
      if (moved && path.isAbsolute(moved)) add(path.join(moved, g.envPath), "$" + g.env + (g.envPath ? "/" + g.envPath : ""), g, moved);
    }
  }
  // the git configuration GIT_CONFIG_GLOBAL or GIT_CONFIG_SYSTEM names in the host's environment (r5):
  // the human's git, and every git a role runs, read it in place of ~/.gitconfig or /etc/gitconfig
  for (const f of auditUserConfigFiles()) if (path.isAbsolute(f)) add(f, f, { gitConfig: true }, null);
  // r9: npm's global configuration, <node's prefix>/etc/npmrc (NPM_CONFIG_GLOBALCONFIG moves it): the
  // user's own under nvm, fnm, volta or Homebrew; its node-options reach every later npm test (a
  // --require of a role's file that makes every expect pass), like the .npmrc files the list names
  const exe = String(process.execPath || "");
  const npmGlobal = process.env.NPM_CONFIG_GLOBALCONFIG || process.env.npm_config_globalconfig || (exe ? path.join(path.dirname(process.platform === "win32" ? exe : path.dirname(exe)), "etc", "npmrc") : "");
  if (path.isAbsolute(npmGlobal)) add(npmGlobal, npmGlobal, {}, null);
  // git folders no fixed list can name (r3 A5): each submodule's (.git/modules/**, nested) and each linked
  // worktree's configuration and hooks; one that appears during the stage counts as created
  // <git dir>/commondir (r4): git reads it in any repository, and a path there makes that folder's
  // config and hooks the repository's; snapshotted from the git folder, which it cannot move
  add(path.join(ctx.gitDir, "commondir"), ctx.gitDir === path.join(ctx.top, ".git") ? ".git/commondir" : path.join(ctx.gitDir, "commondir"), { found: true }, null);
  for (const e of auditFoundGitFiles(ctx.commonDir)) add(e.abs, ".git/" + path.relative(ctx.commonDir, e.abs).split(path.sep).join("/"), { tree: e.tree, gitConfig: !e.tree && !e.plain, found: true }, ctx.commonDir);
  // the folder core.hooksPath names, as read at the start (r3 A6: husky's self-ignored .husky/_); later
  // boundaries take it from the snapshot, so a hooks path set during the stage never names what is guarded
  if (!snaps) { const hooks = auditHooksPath(ctx); if (hooks) add(hooks, hooks, { tree: true }, null); }
  // the file core.excludesFile names (r4): its patterns decide which paths the next stage's audit
  // ignores, so a stage that adds one would hide the next stage's writes there
  if (!snaps) { const ex = auditExcludesPath(ctx); if (ex) add(ex, ex, { tree: false }, null); }
  // the file core.attributesFile names (r5): the human's git applies its filters, diff and merge
  // drivers (Git LFS's filter=lfs, a textconv) to every path; only its default place is listed
  if (!snaps) { const at = auditExcludesPath(ctx, "core.attributesFile"); if (at) add(at, at, { tree: false }, null); }
  // what a guarded git configuration includes (include.path, includeIf.*.path, whatever the condition,
  // and whether or not the file exists yet) controls git as much as the file itself: followed, 8 deep
  for (let i = 0; i < out.length; i++) {
    const e = out[i];
    if (!e.git || (e.depth || 0) >= 8) continue;
    for (const inc of auditGitIncludes(e.abs, home)) if (!seen.has(inc)) { seen.add(inc); out.push({ abs: inc, shown: inc, tree: false, volatile: null, base: null, git: true, depth: (e.depth || 0) + 1 }); }
  }
  // the programs a guarded settings file names as commands (r5: a hook's or a status line's script in
  // the home runs in every later session with the host's powers, outside any stage): each word of such
  // a command that is an absolute or home path is guarded too; a large one (a binary) by its inode,
  // size and times, its change failing the stage without a restore
  for (let i = 0; i < out.length; i++) {
    const e = out[i];
    if (e.tree || e.git || e.named || !/\.json$/i.test(e.abs)) continue;
    for (const f of auditCommandFiles(e.abs, home, e.volatile)) if (!seen.has(f)) { seen.add(f); out.push({ abs: f, shown: home && f.startsWith(home + "/") ? "~/" + f.slice(home.length + 1) : f, tree: false, volatile: null, base: null, named: true }); }
  }
  // the folders between a base and its files: one swapped for a symbolic link redirects every file below it
  const parents = [];
  for (const e of out) {
    if (!e.base) continue;
    for (let d = path.dirname(e.abs), shown = path.posix.dirname(e.shown); d.startsWith(e.base + "/"); d = path.dirname(d), shown = path.posix.dirname(shown)) {
      if (!seen.has(d)) { seen.add(d); parents.push({ abs: d, shown: shown, tree: false, volatile: null, base: null, parent: true }); }
    }
  }
  // a file an earlier snapshot holds (one a git configuration included) stays guarded, even where nothing includes it any more
  if (snaps) for (const abs of Object.keys(snaps)) if (!seen.has(abs) && !(snaps[abs].t === "dir" && !snaps[abs].e)) { seen.add(abs); parents.push({ abs: abs, shown: abs, tree: snaps[abs].t === "dir", volatile: null, base: null }); }
  return out.concat(parents);
}

/** Submodules' git folders below <common dir>/modules (a name may hold slashes; nested ones below their modules/), with their linked worktrees': [{ abs, tree, plain }] (plain: a commondir, no configuration). */
function auditFoundGitFiles(commonDir) {
  const out = [];
  const worktrees = (gitDir) => {
    let names = [];
    try { names = fs.readdirSync(path.join(gitDir, "worktrees")); } catch (e) { names = []; }
    for (const n of names.sort()) out.push({ abs: path.join(gitDir, "worktrees", n, "config.worktree"), tree: false }, { abs: path.join(gitDir, "worktrees", n, "commondir"), tree: false, plain: true });
  };
  const walk = (dir, depth) => {
    let entries = [];
    try { entries = fs.readdirSync(dir, { withFileTypes: true }); } catch (e) { entries = []; }
    for (const d of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (!d.isDirectory() || depth > 32) continue;
      const p = path.join(dir, d.name);
      if (fs.existsSync(path.join(p, "config")) || fs.existsSync(path.join(p, "HEAD"))) {
        out.push({ abs: path.join(p, "config"), tree: false }, { abs: path.join(p, "config.worktree"), tree: false }, { abs: path.join(p, "commondir"), tree: false, plain: true }, { abs: path.join(p, "hooks"), tree: true });
        worktrees(p);
        walk(path.join(p, "modules"), depth + 1);
      } else walk(p, depth + 1);
    }
  };
  worktrees(commonDir);
  walk(path.join(commonDir, "modules"), 0);
  return out;
}

/** The folder git runs hooks from when core.hooksPath is set (absolute; null when unset): the last value outside the audit's own -c. */
function auditHooksPath(ctx) {
  let f = [];
  try { f = auditConfigAll(ctx, "core.hooksPath"); } catch (e) { return null; } // exit 1: unset
  let v = null;
  for (const [scope, x] of f) if (scope !== "command" && x !== "") v = x;
  // the audit's git reads no user configuration (runtime-io.ts): the user's own setting, from regular files
  if (v === null) for (const [k, x] of auditUserConfig()) if (k === "core.hookspath" && x !== "") v = x.startsWith("~/") && process.env.HOME ? path.join(process.env.HOME, x.slice(2)) : x;
  return v === null ? null : path.resolve(ctx.top, v);
}

/** The file core.excludesFile (or another core.* file key) names (the repository's setting, else the user's, from regular files), absolute, or null. */
function auditExcludesPath(ctx, key) {
  key = key || "core.excludesFile";
  let f = [];
  try { f = auditConfigAll(ctx, key); } catch (e) { f = []; } // exit 1: unset
  let v = "";
  // "command": the audit's own -c (its stage-start copy of the excludes, /dev/null for the attributes), not the user's file
  for (const [scope, x] of f) if (scope !== "command" && x !== "") v = x;
  if (!v) for (const [k, x] of auditUserConfig()) if (k === key.toLowerCase()) v = x;
  if (!v) return null;
  if (v.startsWith("~/") && process.env.HOME) v = path.join(process.env.HOME, v.slice(2));
  return path.resolve(ctx.top, v);
}

/** The files a git configuration file includes, absolute, as git reads the keys (none when it has no include, or is no regular file). */
function auditGitIncludes(file, home) {
  let b;
  b = auditReadSettings(file); // a FIFO, or too large: no includes; the file itself is a changed enforcement file
  if (b === null || !/include/i.test(b.toString("latin1"))) return [];
  // unreadable for git: guards nothing more, and git refuses it too
  return auditIncludesOf(file, auditConfigEntries(b) || [], home).map((x) => x[1]);
}

/** May a main-session role (the orchestrator's own scope) write this project-relative path? */
function auditOrchestratorOwns(rel) {
  if (auditMatch(POLICY.protect, rel, true) || auditMatch(POLICY.never, rel, true)) return false;
  for (const r of POLICY.orchestrator) if (auditMatch(r.write, rel) && !auditMatch(r.neverWrite, rel, true)) return true;
  return false;
}

// ---------------------------------------------------------------- the chain of boundaries

function auditChainFiles(ctx, session) {
  const base = path.join(ctx.dir, "chain", auditKey(session));
  return { json: base + ".json", index: base + ".index", excludes: base + ".excludes", run: base + ".run" };
}

/** Is this session one whose main thread is the orchestrator? Every session (scope repository), or one whose orchestrator's commands were audited. */
function auditIsRun(ctx, session) { return POLICY.betweenEverySession || fs.existsSync(auditChainFiles(ctx, session).run); }

function auditChainLoad(ctx, session) {
  const f = auditChainFiles(ctx, session);
  let c;
  try { c = auditReadJson(f.json); } catch (e) { if (e.code === "ENOENT") return null; throw new Error("the record of the last stage's end is unreadable (" + (e.code || e.message) + ")"); }
  if (!c || c.format !== 1 || typeof c.tree !== "string" || !fs.existsSync(f.index) || !fs.existsSync(f.excludes)) throw new Error("the record of the last stage's end is incomplete");
  return { tree: c.tree, guarded: c.guarded, index: f.index, excludes: f.excludes, t: c.t, unlisted: c.unlisted, dotgits: c.dotgits };
}

function auditChainSave(ctx, session, tree, index, excludes, guarded) {
  const f = auditChainFiles(ctx, session);
  fs.mkdirSync(path.dirname(f.json), { recursive: true });
  const tmp = (p) => p + ".tmp" + process.pid;
  auditCopy(index, tmp(f.index)); fs.renameSync(tmp(f.index), f.index);
  if (excludes !== f.excludes) { auditCopy(excludes, tmp(f.excludes)); fs.renameSync(tmp(f.excludes), f.excludes); }
  auditWriteJson(f.json, { format: 1, tree: tree, guarded: guarded, t: Date.now(), unlisted: ctx.unlisted || [], dotgits: ctx.dotgits || null });
}

/** Paths the index file holds differently from HEAD (null when there is no HEAD). */
function auditDiffersFromHead(ctx, index) {
  let head;
  try { head = auditGit(ctx, ["rev-parse", "-q", "--verify", "HEAD^{tree}"]).trim(); } catch (e) { return null; }
  return new Set(auditChanges(ctx, head, index).map((c) => c.path));
}

// exactly one git stash with plain words (quoted ones without expansions): nothing chained, piped,
// substituted or on a second line rides on the exception (r3 A3: "git stash push && npm test")
const AUDIT_STASH_ONLY = /^[ \t]*git[ \t]+stash(?:[ \t]+(?:[A-Za-z0-9_@%+=:,.\/-]+|'[^'\n]*'|"[^"$\x60\\!\n]*"))*[ \t]*$/;

/**
 * The orchestrator's own step (Claude Code: PostToolUse on its Bash, and Stop): what changed since the
 * session's last boundary is judged like a stage of the main-session roles, beside the stages running
 * now. A command that is exactly a "git stash" (the orchestrator's own exception) may return paths to their committed state.
 */
function auditBetween(session, command) {
  let ctx;
  const early = [];
  // no repository: no stage has ended here; a repository configuration that is no regular file is put back from the last boundary, or fails loudly
  try { ctx = auditContextRestoring(auditProjectRoot(), (gd) => auditReadJson(path.join(gd, AUDIT_DIR_NAME, "chain", auditKey(session) + ".json")).guarded, early); }
  catch (e) { if (e && e.notRegular) throw e; return null; }
  if (!fs.existsSync(path.join(ctx.dir, "chain"))) return null;
  const chain = auditChainLoad(ctx, session);
  if (!chain) return null;
  // only the pipeline's own command carries this hook (scope pipeline): this session is a pipeline run
  if (!POLICY.betweenEverySession) fs.writeFileSync(auditChainFiles(ctx, session).run, "");
  const key = "between-" + auditKey(session);
  ctx.excludesFile = chain.excludes;
  ctx.unlisted = chain.unlisted;
  ctx.dotgits = chain.dotgits;
  const active = auditActiveRoles(ctx, "");
  const violations = early.concat(auditRestoreGuarded(ctx, chain.guarded), auditCheckObjects(ctx, chain.t, chain.tree, chain.index));
  let head = null;
  if (AUDIT_STASH_ONLY.test(command || "")) {
    const idx = auditFile(ctx, key, "head-index");
    try { auditCopy(chain.index, idx); auditSnapshot(ctx, idx); head = auditDiffersFromHead(ctx, idx); } finally { fs.rmSync(idx, { force: true }); }
  }
  const keep = (rel, c) => auditInScope(POLICY, active, rel) || auditOrchestratorOwns(rel) || (head !== null && !head.has(c.path));
  const kept = auditFile(ctx, key, "end-index");
  try {
    const r = auditRestoreOutside(ctx, key, chain.tree, chain.index, keep, kept);
    auditChainSave(ctx, session, r.tree, kept, chain.excludes, chain.guarded);
    return { violations: violations.concat(r.violations), saved: r.saved };
  } finally {
    fs.rmSync(kept, { force: true });
  }
}

function auditDescribeBetween(result) {
  const violations = result.violations;
  const lines = ["harness audit: FAILED: since the last stage ended, paths outside the orchestrator's write scope or the files that control enforcement changed, and no running stage may write them (a process a stage left behind, or code the orchestrator's own command ran); harness restored them:"];
  for (const x of violations.slice(0, 50)) lines.push(auditViolationLine(x));
  if (violations.length > 50) lines.push("  - \u2026 and " + (violations.length - 50) + " more");
  if (result.saved) lines.push(auditSavedLine(result.saved));
  lines.push("Treat the last stage and this step as failed; do not retry the same way. Report the paths above to the human.");
  return lines.join("\n");
}
`;

// Processes a stage leaves running (Linux /proc; elsewhere this check is skipped and listed as a gap):
// started after the stage's start, not the hook's own ancestors nor hooks the host started with it, and
// working in the repository (their folder or an open file there). The stop waits for them a little,
// then audits; one still running fails the stage by name: what it writes later belongs to no stage and
// is caught at the next boundary.
export const AUDIT_PROCESS_SOURCE = String.raw`
const AUDIT_WAIT_MS = 3000;

function auditProcStat(pid) {
  const s = fs.readFileSync("/proc/" + pid + "/stat", "utf8");
  const f = s.slice(s.lastIndexOf(")") + 2).split(" ");
  return { state: f[0], ppid: Number(f[1]), start: Number(f[19]) };
}
/** This moment in the kernel's process clock (the start of this hook), or null without /proc. */
function auditTicks() { try { return auditProcStat(process.pid).start; } catch (e) { return null; } }

function auditProcTouches(pid, top) {
  const under = (t) => t === top || t.startsWith(top + "/");
  try { if (under(fs.readlinkSync("/proc/" + pid + "/cwd"))) return true; } catch (e) { return false; }
  let fds = [];
  try { fds = fs.readdirSync("/proc/" + pid + "/fd"); } catch (e) { fds = []; }
  for (const fd of fds) { try { if (under(fs.readlinkSync("/proc/" + pid + "/fd/" + fd))) return true; } catch (e) { /* closed meanwhile */ } }
  return false;
}

function auditLeftRunning(ctx, since) {
  let names;
  try { names = fs.readdirSync("/proc"); } catch (e) { return []; }
  const ancestors = new Set();
  for (let p = process.pid, i = 0; p > 1 && i < 64; i++) { ancestors.add(p); try { p = auditProcStat(p).ppid; } catch (e) { break; } }
  // other hooks of this event: started by the host (this hook's grandparent) with this hook's shell, within 0.1 s
  let host = -1, hookStart = Infinity;
  try { const sh = auditProcStat(process.ppid); host = sh.ppid; hookStart = sh.start - 10; } catch (e) { host = -1; }
  const out = [];
  for (const n of names) {
    if (!/^[0-9]+$/.test(n) || ancestors.has(Number(n))) continue;
    let st;
    try { st = auditProcStat(n); } catch (e) { continue; }
    if (st.state === "Z" || st.state === "X" || st.start < since) continue;
    if (st.ppid === host && st.start >= hookStart) continue;
    if (auditProcTouches(n, ctx.top)) out.push(Number(n));
  }
  return out;
}

function auditCmdline(pid) {
  try { return auditOneLine(fs.readFileSync("/proc/" + pid + "/cmdline", "utf8").split("\0").join(" "), 120); } catch (e) { return "ended"; }
}

/** Wait up to AUDIT_WAIT_MS for the stage's leftover processes; the ones still running, as violations. */
function auditWaitForLeftovers(ctx, since) {
  if (since == null) return [];
  const end = Date.now() + AUDIT_WAIT_MS;
  let left = auditLeftRunning(ctx, since);
  while (left.length && Date.now() < end) {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    left = auditLeftRunning(ctx, since);
  }
  return left.map((pid) => ({ path: "process " + pid + " (" + auditCmdline(pid) + ")", kind: "still running", restored: false, process: true }));
}
`;

// What a stage's code can leave for the human's next commit without touching the work tree: entries it
// staged in the real index (git add of a rewritten test, then the file put back), and commits it made on
// the current branch. Recorded at the start; at the end the real index and the branch are put back when
// they changed (the commits stay in git's object store, named in the report).
export const AUDIT_REPO_SOURCE = String.raw`
function auditRepoState(ctx) {
  const real = path.join(ctx.gitDir, "index");
  let staged = "";
  // r6: an index a stage's code made unreadable (garbage in .git/index) threw out of the stop before
  // the tree was audited; it is staged changes like any other, and the copy from the start comes back
  if (fs.existsSync(real)) { try { staged = crypto.createHash("sha256").update(auditGit(ctx, ["ls-files", "-s", "-v", "-z"], { buffer: true })).digest("hex"); } catch (e) { staged = "unreadable"; } }
  let head = null, branch = null;
  try { head = auditGit(ctx, ["rev-parse", "-q", "--verify", "HEAD"]).trim(); } catch (e) { head = null; }
  try { branch = auditGit(ctx, ["symbolic-ref", "-q", "HEAD"]).trim(); } catch (e) { branch = null; }
  return { staged: staged, head: head, branch: branch, replace: auditReplaceRefs(ctx) };
}

function auditSaveRealIndex(ctx, key) {
  const real = path.join(ctx.gitDir, "index");
  if (fs.existsSync(real)) auditCopy(real, auditFile(ctx, key, "real-index")); else fs.rmSync(auditFile(ctx, key, "real-index"), { force: true });
}

function auditRestoreRepo(ctx, key, then) {
  if (!then) return [];
  const out = [];
  const now = auditRepoState(ctx);
  if (now.branch !== then.branch || now.head !== then.head) {
    if (then.branch) {
      if (then.head) auditGit(ctx, ["update-ref", "-m", "harness audit: restored", then.branch, then.head]);
      auditGit(ctx, ["symbolic-ref", "HEAD", then.branch]);
    } else if (then.head) auditGit(ctx, ["update-ref", "--no-deref", "-m", "harness audit: restored", "HEAD", then.head]);
    out.push({ path: "HEAD" + (then.branch ? " (" + then.branch + ")" : ""), kind: "moved to " + (now.head || "nothing") + (now.branch !== then.branch ? " on " + (now.branch || "a detached HEAD") : ""), restored: true, repo: true });
  }
  if (now.staged !== then.staged) {
    const saved = auditFile(ctx, key, "real-index");
    const real = path.join(ctx.gitDir, "index");
    if (fs.existsSync(saved)) { auditCopy(saved, real + ".harness-restore"); fs.renameSync(real + ".harness-restore", real); } else fs.rmSync(real, { force: true });
    out.push({ path: ".git/index", kind: "staged changes", restored: auditRepoState(ctx).staged === then.staged, repo: true });
  }
  return out.concat(auditRestoreReplaceRefs(ctx, then.replace));
}
`;
