// The runtime of the stage-end scope audit, kept as JavaScript source text (pasted verbatim into
// the generated script after its imports and `const POLICY = {…}`), so the output is
// byte-identical however harness itself runs.
//
// Rules for editing: ES2022 that Node 20 runs as a module; free variables `fs`, `path`, `cp`
// (node:child_process), `fileURLToPath`, POLICY. A String.raw template: never write a backtick or
// the dollar-brace pair. No dependencies: git (plumbing only) does the hashing.
//
// How it works (all git calls use a private index file and never touch the work tree's index,
// HEAD, refs or config):
//   start <key> <role>  copy .git/index to <gitdir>/harness-audit/<key>.index (its stat cache makes
//                       the next step cheap), `git add -A` into it, `git write-tree` -> the start tree.
//   stop  <key>         `git add -A` again into a copy of the start index, diff the start tree with
//                       it; every created/modified/deleted/type-changed path outside the role's
//                       scope is restored (created paths removed, the rest checked out of the start
//                       tree); then it audits again until nothing out of scope is left (a restored
//                       .gitignore can reveal files it hid). The verdict is written next to the state.
//   report              the parent's tool call that waited for the stage (Claude Code Agent,
//                       Codex wait_agent): every audited stage it names with a failed or missing
//                       verdict is reported (exit 2, the reasons on stderr, which the host hands to
//                       the orchestrator's model), so a stage whose audit could not run is failed.
// Paths ignored by .gitignore / .git/info/exclude / core.excludesFile (as they were at the start)
// are not audited; changes to those rules are: every .gitignore and .gitattributes is protected (one
// that ignores itself is staged into the audit's tree too), and .git/info is guarded. A repository
// created inside the project, or a FIFO where a tracked file was, would keep git from seeing files:
// it is removed first (auditBlockers), and the next pass judges what it hid.
export const AUDIT_RUNTIME_SOURCE = String.raw`
const AUDIT_DIR_NAME = "harness-audit";
const AUDIT_MAX_PASSES = 3;
const AUDIT_STALE_MS = 7 * 24 * 3600 * 1000;

function auditOneLine(s, max) {
  let t = String(s).replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ").replace(/ {2,}/g, " ").trim();
  if (t.length > max) t = t.slice(0, max - 1) + "\u2026";
  return t;
}
/** A path as shown in a report: JSON-quoted when it holds anything unusual (newlines, quotes). */
function auditShowPath(p) { return /^[\x21-\x7e ]+$/.test(p) && !p.includes('"') ? p : JSON.stringify(p); }

function auditKey(raw) {
  const s = String(raw == null ? "" : raw);
  if (/^[A-Za-z0-9._-]{1,100}$/.test(s) && !/^\.+$/.test(s)) return s;
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 16777619) >>> 0; }
  return "k" + h.toString(16) + "-" + s.replace(/[^A-Za-z0-9]/g, "").slice(0, 40);
}

// Roles name their globs by index into POLICY.globs (each glob stored once): resolved here, once.
for (const [id, r] of Object.entries(POLICY.roles).concat(POLICY.orchestrator.map((r, i) => ["main-session scope " + i, r]))) {
  const glob = (i) => {
    if (!POLICY.globs[i]) throw new Error("audit policy: " + id + " names no glob " + i);
    return POLICY.globs[i];
  };
  r.write = r.write.map(glob);
  r.neverWrite = r.neverWrite.map(glob);
}

const auditReCache = new Map();
// fold: a never-write list where the file system may fold case (macOS, Windows), as the guard reads it:
// without case, and on Windows without a name's trailing dots and spaces
function auditMatch(globs, rel, fold) {
  const f = fold && (process.platform === "darwin" || process.platform === "win32");
  if (f && process.platform === "win32") rel = rel.split("/").map((c) => c === "." || c === ".." ? c : c.replace(/[. ]+$/, "")).join("/");
  for (const g of globs) {
    const flags = f && !g.flags.includes("i") ? g.flags + "i" : g.flags;
    let re = auditReCache.get(g.re + "/" + flags);
    if (!re) { re = new RegExp(g.re, flags); auditReCache.set(g.re + "/" + flags, re); }
    if (re.test(rel)) return g;
  }
  return null;
}

/** Is the project-relative path writable by any of these roles? Never-write (at any depth) and protect win. */
function auditInScope(policy, roles, rel) {
  if (auditMatch(policy.protect, rel, true) || auditMatch(policy.never, rel, true)) return false;
  for (const id of roles) {
    const r = policy.roles[id];
    if (!r) continue;
    if (auditMatch(r.write, rel) && !auditMatch(r.neverWrite, rel, true)) return true;
  }
  return false;
}

/** The project root: the host's project variable, else the folder the script is installed in. */
function auditProjectRoot(input) {
  const fromEnv = POLICY.projectEnv ? process.env[POLICY.projectEnv] : "";
  if (fromEnv) return path.resolve(fromEnv);
  let here = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < POLICY.scriptPath.split("/").length - 1; i++) here = path.dirname(here);
  return here;
}

function auditContext(root) {
  auditCheckRepoFiles(root);
  const out = auditGit(null, ["rev-parse", "--show-toplevel", "--absolute-git-dir", "--git-common-dir"], { cwd: root }).split("\n");
  const top = fs.realpathSync(out[0]);
  const gitDir = out[1];
  const commonDir = path.resolve(root, out[2]);
  const realRoot = fs.realpathSync(root);
  const prefix = path.relative(top, realRoot).split(path.sep).join("/");
  if (prefix.startsWith("..")) throw new Error("the project " + root + " is not inside its git work tree " + top);
  const dir = path.join(gitDir, AUDIT_DIR_NAME);
  fs.mkdirSync(dir, { recursive: true });
  auditBlobUse(dir);
  // paths from git are byte strings (latin1): names that are not valid UTF-8 survive the round trip
  return { top: top, gitDir: gitDir, commonDir: commonDir, root: realRoot, prefix: prefix, prefixL: Buffer.from(prefix, "utf8").toString("latin1"), dir: dir, excludesFile: null, fold: auditFoldsCase(top) };
}

/** Does the file system at the top level fold case (its .git found as .GIT, the same file)? git's core.ignoreCase as the disk has it. */
function auditFoldsCase(top) {
  // r8: by a name no stage can have planted: a hard link .GIT beside a linked worktree's .git file made
  // a case-sensitive disk read as folding, and the audit's git took a new Tests/a.test.ts for tests/'s
  // (an empty folder: another hook's git, running beside this one, never adds it to a snapshot)
  const n = ".harness-case-" + process.pid + "-" + crypto.randomBytes(6).toString("hex");
  const lower = path.join(top, n);
  try { fs.mkdirSync(lower); }
  catch (e) { try { const a = fs.lstatSync(path.join(top, ".git")), b = fs.lstatSync(path.join(top, ".GIT")); return a.ino === b.ino && a.dev === b.dev && a.isDirectory(); } catch (e2) { return false; } }
  try { const a = fs.lstatSync(lower), b = fs.lstatSync(path.join(top, n.toUpperCase())); return a.ino === b.ino && a.dev === b.dev; }
  catch (e) { return false; }
  finally { try { fs.rmdirSync(lower); } catch (e) { /* gone */ } }
}

function auditFile(ctx, key, ext) { return path.join(ctx.dir, key + "." + ext); }
function auditReadJson(p) { return JSON.parse(auditReadText(p)); }
function auditWriteJson(p, v) { const t = p + ".tmp" + process.pid; fs.writeFileSync(t, JSON.stringify(v, null, 1) + "\n"); fs.renameSync(t, p); }
function auditReadOr(p, dflt) { const b = auditReadRegular(p); return b === null ? dflt : b; }

/** The user's global excludes file as git would read it (content only; copied at start). */
function auditGlobalExcludes(ctx) {
  let p = "";
  // the repository's own setting wins; git reads the user's, which the audit's git does not (runtime-io.ts)
  try { p = auditConfigLast(ctx, "core.excludesFile"); } catch (e) { p = ""; }
  if (!p) for (const [k, v] of auditUserConfig()) if (k === "core.excludesfile") p = v.startsWith("~/") && process.env.HOME ? path.join(process.env.HOME, v.slice(2)) : v;
  if (!p) {
    const xdg = process.env.XDG_CONFIG_HOME || (process.env.HOME ? path.join(process.env.HOME, ".config") : "");
    p = xdg ? path.join(xdg, "git", "ignore") : "";
  }
  return p ? auditReadOr(p, Buffer.alloc(0)) : Buffer.alloc(0);
}

/** Project-relative form (byte string) of a path relative to the git top level; null when outside the project. */
function auditRel(ctx, p) {
  if (!ctx.prefixL) return p;
  return p.startsWith(ctx.prefixL + "/") ? p.slice(ctx.prefixL.length + 1) : null;
}
/** A byte-string path as text for glob matching (invalid UTF-8 becomes U+FFFD, which no glob names). */
function auditText(p) { return Buffer.from(p, "latin1").toString("utf8"); }
/** A byte-string path as shown in a report: its UTF-8 text, or \xNN escapes where it is not valid UTF-8. */
function auditShown(p) {
  const b = Buffer.from(p, "latin1"), t = b.toString("utf8");
  return Buffer.from(t, "utf8").equals(b) ? t : p.replace(/[\x80-\xff]/g, (c) => "\\x" + c.charCodeAt(0).toString(16));
}
/** The absolute path of a byte-string path below the git top level, as a Buffer fs accepts. */
function auditAbs(ctx, p) { return Buffer.concat([Buffer.from(ctx.top + "/", "utf8"), Buffer.from(p, "latin1")]); }

/** Roles of the stages running now (their write scopes are allowed to others and between stages). */
function auditActiveRoles(ctx, except) {
  const activeDir = path.join(ctx.dir, "active");
  const out = [];
  let names = [];
  try { names = fs.readdirSync(activeDir); } catch (e) { names = []; }
  for (const other of names) {
    if (other === except) continue;
    let b = null;
    try { b = auditReadRegular(path.join(activeDir, other)); } catch (e) { throw new Error("the audit's record of a running stage is damaged (" + auditOneLine(e.message, 200) + ")"); }
    if (b !== null) out.push(b.toString("utf8")); // null: ended meanwhile
  }
  return out;
}

// ---------------------------------------------------------------- start

function auditStart(key, role, session) {
  const ctx = auditContext(auditProjectRoot());
  auditSweep(ctx);
  // between stages only where the main thread is the orchestrator: in an ordinary session it may write anything
  const chain = session && auditIsRun(ctx, session) ? auditChainLoad(ctx, session) : null;
  const excludes = auditFile(ctx, key, "excludes");
  if (chain) auditCopy(chain.excludes, excludes); else fs.writeFileSync(excludes, auditGlobalExcludes(ctx));
  ctx.excludesFile = excludes;
  const index = auditFile(ctx, key, "index");
  // the stat cache comes from the audit's own index of the last boundary when there is one
  if (chain) auditCopy(chain.index, index); else auditPrivateIndex(ctx, index);
  const peers = auditActiveRoles(ctx, key);
  let guarded, mark = null, before = [], tree = null;
  if (chain) {
    // the tree and the enforcement files must be as the last boundary left them, unless a running
    // stage or the orchestrator owns the change: anything else is put back, and this stage fails
    guarded = chain.guarded;
    ctx.unlisted = chain.unlisted;
    ctx.dotgits = chain.dotgits;
    before = auditRestoreGuarded(ctx, guarded).concat(auditCheckObjects(ctx, chain.t, chain.tree, index));
    const r = auditRestoreOutside(ctx, key, chain.tree, index, (rel) => auditInScope(POLICY, peers, rel) || auditOrchestratorOwns(rel), index);
    before = before.concat(r.violations);
    for (const v of before) v.when = "before";
    if (r.saved && before.length) before[0].saved = r.saved;
    // r9: the start tree is the one the restore's last pass found clean, never a second snapshot: a
    // leftover process that wrote a test again between that pass and a new "git add" (inotify on the
    // restore) had it taken as the stage's start, so the report said "restored" and the file stayed
    tree = r.tree;
  } else { mark = auditBlobBegin(key); guarded = auditSnapGuarded(ctx); }
  if (tree === null) tree = auditSnapshot(ctx, index);
  const unlisted = ctx.shut || [];
  const dotgits = auditDotGits(ctx, index);
  const activeDir = path.join(ctx.dir, "active");
  fs.mkdirSync(activeDir, { recursive: true });
  for (const other of fs.readdirSync(activeDir)) {
    if (other === key) continue;
    const pd = path.join(ctx.dir, "peers", other);
    fs.mkdirSync(pd, { recursive: true });
    fs.writeFileSync(path.join(pd, key), role);
  }
  auditSaveRealIndex(ctx, key);
  auditWriteJson(auditFile(ctx, key, "state"), { format: 2, key: key, role: role, session: session || null, gitDir: ctx.gitDir, ticks: auditTicks(), objects: Date.now(), unlisted: unlisted, dotgits: dotgits, tree: tree, peers: peers, guarded: guarded, repo: auditRepoState(ctx), before: before });
  auditBlobEnd(mark);
  fs.rmSync(auditFile(ctx, key, "verdict"), { force: true });
  fs.writeFileSync(path.join(activeDir, key), role);
}

/** Remove state files of stages that never ended, after a week, and the snapshot blobs nothing names. */
function auditSweep(ctx) {
  const now = Date.now();
  for (const sub of ["", "chain", "active"]) {
    let names = [];
    try { names = fs.readdirSync(path.join(ctx.dir, sub)); } catch (e) { names = []; }
    for (const f of names) {
      const p = path.join(ctx.dir, sub, f);
      try { if (fs.statSync(p).isFile() && now - fs.statSync(p).mtimeMs > AUDIT_STALE_MS) fs.rmSync(p, { force: true }); } catch (e) { /* raced */ }
    }
  }
  auditBlobPrune(ctx.dir);
}

// ---------------------------------------------------------------- stop

/** Remove a created path, then the folders it leaves empty (empty folders are invisible to git). */
function auditRemove(ctx, p) {
  fs.rmSync(auditAbs(ctx, p), { recursive: true, force: true });
  let d = path.posix.dirname(p);
  while (d && d !== "." && d !== "/") {
    const absD = auditAbs(ctx, d);
    let entries;
    try { entries = fs.readdirSync(absD); } catch (e) { break; }
    if (entries.length) break;
    fs.rmdirSync(absD);
    d = path.posix.dirname(d);
  }
}

function auditCheckout(ctx, tree, paths, key) {
  if (!paths.length) return;
  const idx = auditFile(ctx, key, "restore-index");
  const env = { GIT_INDEX_FILE: idx };
  try {
    auditGit(ctx, ["read-tree", tree], { env: env });
    // a folder standing where a file must come back: remove it first (its files were out of scope too)
    for (const p of paths) {
      let st = null;
      try { st = fs.lstatSync(auditAbs(ctx, p)); } catch (e) { st = null; }
      if (st && st.isDirectory()) fs.rmSync(auditAbs(ctx, p), { recursive: true, force: true });
    }
    auditGit(ctx, ["checkout-index", "-f", "-z", "--stdin"], { env: env, input: Buffer.from(paths.join("\0") + "\0", "latin1") });
  } finally {
    fs.rmSync(idx, { force: true });
  }
}

const AUDIT_KIND = { A: "created", D: "deleted", M: "modified", T: "type changed" };

/**
 * Put back every change since "tree" that keep(projectRel, change) does not accept: created paths
 * removed, the rest checked out of "tree", until nothing is left (a restored .gitignore can reveal
 * files it hid). "baseIndex" holds the stat cache for "tree"; the index of the final tree is copied
 * to "saveIndex" when given. Returns { violations, tree } (the tree now on disk).
 */
function auditRestoreOutside(ctx, key, tree, baseIndex, keep, saveIndex) {
  const work = auditFile(ctx, key, "work-index");
  const violations = [];
  const seen = new Set();
  let now = tree, changed = null;
  ctx.opening = true;
  ctx.base = { tree: tree, keep: keep };
  try {
    for (let pass = 1; ; pass++) {
      if (fs.existsSync(baseIndex)) auditCopy(baseIndex, work); else fs.rmSync(work, { force: true });
      let blocked, all = null;
      try { now = auditSnapshot(ctx, work); all = auditChanges(ctx, tree, work); blocked = auditBlockers(ctx, work, all); if (!blocked.length) blocked = auditNewDotGits(ctx, work); }
      catch (e) { blocked = auditBlockers(ctx, work, null); if (!blocked.length) throw e; }
      // opened whatever the scope (what it holds is judged by the next pass); a violation only where the
      // scope does not hold it (r8: jade's own test leaving src/fixtures/locked shut failed its stage)
      for (const v of (ctx.opened || []).splice(0)) {
        const rel = auditRel(ctx, v.top);
        const top = v.top;
        delete v.top;
        if (rel === null || !keep(auditText(rel), { path: top, status: "M" })) violations.push(v);
      }
      // never judged by scope: whatever hid the files is removed, and the next pass judges them
      if (blocked.length) {
        if (pass > AUDIT_MAX_PASSES) throw new Error("these paths keep git from auditing the tree and could NOT be removed: " + blocked.slice(0, 5).map((b) => auditShowPath(auditShown(b.path))).join(", ") + "; remove them by hand");
        for (const b of blocked) {
          if (seen.has(b.path)) continue;
          seen.add(b.path);
          const rel = auditRel(ctx, b.path);
          violations.push({ path: auditShown(rel === null ? b.path : rel), kind: b.kind, restored: true });
          try { fs.rmSync(auditAbs(ctx, b.remove), { recursive: true, force: true }); } catch (e) { /* seen again next pass */ }
        }
        continue;
      }
      if (pass === 1) changed = now;
      const out = all.filter((c) => {
        const rel = auditRel(ctx, c.path);
        if (rel !== null && auditMatch(POLICY.exempt, auditText(rel))) return false;
        const own = rel === null ? undefined : auditControllerChange(ctx, auditText(rel), c);
        if (own !== undefined) return own;
        return rel === null || !keep(auditText(rel), c);
      });
      if (!out.length) break;
      // fail loudly, never "restored" with the file still there
      if (pass > AUDIT_MAX_PASSES) throw new Error("these changes outside the scope could NOT be restored and are still in the work tree: " + out.slice(0, 5).map((c) => auditShowPath(auditShown(c.path))).join(", ") + "; remove or restore them by hand (git status)");
      for (const c of out) {
        if (seen.has(c.path)) continue;
        seen.add(c.path);
        const rel = auditRel(ctx, c.path);
        violations.push({ path: auditShown(rel === null ? c.path : rel), kind: AUDIT_KIND[c.status] || c.status, restored: true });
      }
      // a path that cannot be put back stays in the next pass, and after the last one fails the stage loudly
      for (const c of out) if (c.status === "A") try { auditRemove(ctx, c.path); } catch (e) { /* seen again next pass */ }
      try { auditCheckout(ctx, tree, out.filter((c) => c.status !== "A").map((c) => c.path), key); } catch (e) { /* seen again next pass */ }
    }
    if (saveIndex) auditCopy(work, saveIndex);
  } finally {
    ctx.opening = false;
    fs.rmSync(work, { force: true });
  }
  // what was put back stays in git's object store: the report names the tree to take it from
  return { violations: violations, tree: now, saved: violations.length ? changed : null };
}

function auditStop(key, roleHint) {
  // a repository configuration replaced by a FIFO is put back from this stage's snapshot before git runs
  const early = [];
  auditUndoGitMove(auditProjectRoot(), key, early);
  const ctx = auditContextRestoring(auditProjectRoot(), (gd) => auditReadJson(path.join(gd, AUDIT_DIR_NAME, key + ".state")).guarded, early);
  const statePath = auditFile(ctx, key, "state");
  let state;
  try { state = auditReadJson(statePath); } catch (e) { throw new Error("no stage-start snapshot for this stage (" + (e.code || e.message) + ")"); }
  if (state.format !== 2) throw new Error("the stage-start snapshot has an unknown format (" + state.format + ")");
  if (roleHint && state.role !== roleHint) throw new Error("the stage-start snapshot belongs to " + state.role + ", not " + roleHint);
  ctx.excludesFile = auditFile(ctx, key, "excludes");
  ctx.unlisted = state.unlisted;
  ctx.dotgits = state.dotgits;
  if (!fs.existsSync(ctx.excludesFile)) throw new Error("the stage-start excludes copy is missing");
  const peersDir = path.join(ctx.dir, "peers", key);
  let late = [];
  try { late = fs.readdirSync(peersDir); } catch (e) { late = []; }
  late = late.map((f) => auditReadText(path.join(peersDir, f)));
  const allowed = [state.role].concat(state.peers || [], late);
  // processes the stage left behind first (beside other stages, whose processes look the same, this is skipped)
  const alone = allowed.length === 1 && auditActiveRoles(ctx, key).length === 0;
  const leftover = alone ? auditWaitForLeftovers(ctx, state.ticks) : [];
  // then the enforcement files: the tree audit below runs with the git configuration they hold
  const index = auditFile(ctx, key, "index");
  const violations = (state.before || []).concat(early, leftover, auditRestoreGuarded(ctx, state.guarded), auditRestoreRepo(ctx, key, state.repo), auditCheckObjects(ctx, state.objects, state.tree, index));
  const kept = auditFile(ctx, key, "end-index");
  let r;
  try { r = auditRestoreOutside(ctx, key, state.tree, index, (rel) => auditInScope(POLICY, allowed, rel), kept); }
  catch (e) { throw leftover.length ? new Error(e.message + "; still running after the stage ended: " + leftover.map((x) => x.path).join(", ")) : e; }
  // the end of this stage is the next boundary: what changes after it belongs to no stage
  if (state.session) auditChainSave(ctx, state.session, r.tree, kept, ctx.excludesFile, state.guarded);
  fs.rmSync(kept, { force: true });
  return { ctx: ctx, role: state.role, allowed: allowed, violations: violations.concat(r.violations), saved: r.saved || (state.before || []).map((v) => v.saved).find(Boolean) || null };
}

function auditFinishState(ctx, key) {
  for (const ext of ["index", "excludes", "state", "real-index"]) fs.rmSync(auditFile(ctx, key, ext), { force: true });
  fs.rmSync(path.join(ctx.dir, "active", key), { force: true });
  fs.rmSync(path.join(ctx.dir, "peers", key), { recursive: true, force: true });
  auditBlobPrune(ctx.dir);
}

/** Audit one stage and record its verdict; never throws (an error is a failed verdict). */
function auditStopAndRecord(key, roleHint) {
  let verdict, ctx = null;
  try {
    const r = auditStop(key, roleHint);
    // the stop's own context: the verdict and the state live in its git folder, which nothing after
    // auditContextRestoring moves (a moved folder was put back before it); asking git again cost a process
    ctx = r.ctx;
    verdict = { key: key, role: r.role, ok: r.violations.length === 0, violations: r.violations, saved: r.saved };
  } catch (e) {
    verdict = { key: key, role: roleHint || null, ok: false, error: auditOneLine(e && e.message ? e.message : String(e), 600), violations: [] };
  }
  try {
    if (!ctx) ctx = auditContext(auditProjectRoot());
    auditWriteJson(auditFile(ctx, key, "verdict"), verdict);
    if (!verdict.error) auditFinishState(ctx, key);
    // r7: whatever the verdict, the stage is no longer running: a stage whose audit could not run kept its
    // record here, and every later stage's audit allowed its write scope (and looked for no leftover process)
    else { fs.rmSync(path.join(ctx.dir, "active", key), { force: true }); fs.rmSync(path.join(ctx.dir, "peers", key), { recursive: true, force: true }); }
  } catch (e) {
    verdict.ok = false;
    verdict.error = (verdict.error ? verdict.error + "; " : "") + "the verdict could not be recorded: " + auditOneLine(e.message || String(e), 200);
  }
  return verdict;
}

function auditViolationLine(x) {
  if (x.repo) return "  - " + x.path + " (" + x.kind + "; " + (x.restored ? "put back" + (x.path === ".git/index" ? "" : "; the commits stay in git under that id") : "NOT restored: fix it by hand") + ")";
  if (x.process) return "  - " + x.path + " (still running after the stage ended: stop it; what it writes from now on is restored at the next boundary)";
  const done = x.restored === false ? "NOT restored: fix it by hand" : x.kind === "created" || x.removed ? "removed" : "restored";
  return "  - " + auditShowPath(x.path) + " (" + x.kind + (x.when === "before" ? " before the stage started, by no stage" : "") + "; " + done + ")";
}

function auditSavedLine(tree) { return "The changed files are kept in git: a human who wants one back runs git restore --source=" + tree + " -- <path>."; }

function auditDescribe(v) {
  const who = (v.role || "a pipeline role") + " (stage " + v.key + ")";
  if (v.error) return "harness audit: stage FAILED: " + who + ": the stage-end scope audit could not run (" + v.error + "), so its changes are unverified; treat the stage as failed and have a human check the work tree (git status).";
  const lines = ["harness audit: stage FAILED: " + who + " changed paths outside its write scope or the files that control enforcement; harness restored them to their state at the start of the stage:"];
  for (const x of v.violations.slice(0, 50)) lines.push(auditViolationLine(x));
  if (v.violations.length > 50) lines.push("  - \u2026 and " + (v.violations.length - 50) + " more");
  if (v.saved) lines.push(auditSavedLine(v.saved));
  lines.push("Treat this stage as failed: its other changes are kept; do not retry the same way. Report the paths above.");
  return lines.join("\n");
}
`;

export const AUDIT_MAIN_SOURCE = String.raw`
function auditInput() {
  const raw = fs.readFileSync(0, "utf8");
  const v = raw.trim() ? JSON.parse(raw) : {};
  if (!v || typeof v !== "object" || Array.isArray(v)) throw new Error("the hook input is not a JSON object");
  return v;
}
function auditPick(v, names) { for (const n of names) if (typeof v[n] === "string" && v[n]) return v[n]; return ""; }
function auditParseMaybe(v) { if (typeof v !== "string") return v; try { return JSON.parse(v); } catch (e) { return v; } }

/** Agent ids a parent's tool call names: Claude Code Agent (tool_response.agentId), Codex wait_agent (targets, status keys). */
function auditReportedIds(input) {
  const ids = new Set();
  const resp = auditParseMaybe(input.tool_response);
  const args = auditParseMaybe(input.tool_input) || {};
  if (resp && typeof resp === "object") {
    for (const k of ["agentId", "agent_id"]) if (typeof resp[k] === "string") ids.add(resp[k]);
    if (resp.status && typeof resp.status === "object") for (const k of Object.keys(resp.status)) ids.add(k);
  }
  if (Array.isArray(args.targets)) for (const t of args.targets) if (typeof t === "string") ids.add(t);
  return [...ids];
}

/** Did the tool response say this agent has finished? (A background launch has not: its stop audits it.) */
function auditCompleted(resp, id) {
  if (!resp || typeof resp !== "object") return false;
  if (resp.status === "completed") return true;
  const st = resp.status && typeof resp.status === "object" ? resp.status[id] : null;
  return Boolean(st && typeof st === "object" && !("running" in st) && !("pending_init" in st));
}

function auditMain() {
  const t0 = Date.now();
  const mode = process.argv[2];
  let code = 0;
  let msg = "";
  try {
    if (mode === "run-start" || mode === "run-stop") {
      // a launcher around one whole session: node harness-audit.mjs run-start <role> <key>
      const role = process.argv[3], key = auditKey(process.argv[4]);
      if (!POLICY.roles[role]) throw new Error("no audited role " + JSON.stringify(role));
      if (mode === "run-start") auditStart(key, role, "");
      else { const v = auditStopAndRecord(key, role); if (!v.ok) { code = 3; msg = auditDescribe(v); } else msg = "harness audit: " + role + " stayed inside its write scope."; }
    } else {
      const input = auditInput();
      const role = auditPick(input, ["agent_type", "agentType"]);
      const id = auditPick(input, ["agent_id", "agentId"]);
      const session = auditPick(input, ["session_id", "sessionId"]);
      if (mode === "between") {
        // the orchestrator's own command or turn end; a stage's own commands are judged at its stop
        if (!id && session) {
          const v = auditBetween(session, auditPick(auditParseMaybe(input.tool_input) || {}, ["command", "cmd"]));
          if (v && v.violations.length) { msg = auditDescribeBetween(v); code = input.stop_hook_active ? 0 : 2; }
        }
      } else if (mode === "start") {
        if (POLICY.roles[role]) {
          if (!id) throw new Error("the SubagentStart input has no agent_id");
          try { auditStart(auditKey(id), role, session); }
          catch (e) { code = 1; msg = "harness audit: could not record the start of " + role + "'s stage (" + auditOneLine(e.message || String(e), 300) + "); the stage will be reported as failed."; }
        }
      } else if (mode === "stop") {
        if (POLICY.roles[role]) {
          if (!id) throw new Error("the SubagentStop input has no agent_id");
          const v = auditStopAndRecord(auditKey(id), role);
          if (!v.ok) {
            msg = auditDescribe(v);
            // hosts without a report hook tell the stage itself, once (a second stop is let through)
            code = POLICY.stopBlocks && !input.stop_hook_active ? 2 : 0;
          }
        }
      } else if (mode === "report") {
        const failed = [];
        const spawned = auditParseMaybe(input.tool_input) || {};
        const resp = auditParseMaybe(input.tool_response);
        const ids = auditReportedIds(input);
        let ctx = null;
        try { ctx = auditContext(auditProjectRoot()); } catch (e) { ctx = null; }
        for (const raw of ids) {
          const key = auditKey(raw);
          if (!ctx) { failed.push({ key: key, role: null, ok: false, error: "the audit cannot find the git repository", violations: [] }); continue; }
          const vp = auditFile(ctx, key, "verdict");
          const sp = auditFile(ctx, key, "state");
          let v = null;
          const done = auditCompleted(resp, raw);
          if (fs.existsSync(vp)) v = auditReadJson(vp);
          else if (fs.existsSync(sp)) { if (done) v = auditStopAndRecord(key, ""); }
          else if (done && POLICY.roles[spawned.subagent_type])
            v = { key: key, role: spawned.subagent_type, ok: false, error: "no record of this stage's start (the SubagentStart hook did not run)", violations: [] };
          if (v && !v.ok) failed.push(v);
          if (v) fs.rmSync(vp, { force: true });
        }
        if (failed.length) { code = 2; msg = failed.map(auditDescribe).join("\n\n"); }
      } else throw new Error("unknown mode " + JSON.stringify(mode) + " (expected start, stop, report, between, run-start or run-stop)");
    }
  } catch (e) {
    code = 2;
    msg = "harness audit: " + auditOneLine(e && e.message ? e.message : String(e), 600) + " (fail closed: the stage counts as failed).";
  }
  if (msg) fs.writeSync(2, msg + "\n");
  // the audit's own time, without node's start-up (for measurements)
  if (process.env.HARNESS_AUDIT_TIMING === "1") fs.writeSync(2, "harness audit: " + mode + " took " + (Date.now() - t0) + " ms\n");
  process.exit(code);
}
auditMain();
`;
