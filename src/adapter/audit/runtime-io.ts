// What the audit reads, and what its git reads, when code a stage ran may have replaced any of it by a
// FIFO or a device: JavaScript source pasted into the generated script after runtime.ts (same rules:
// ES2022, free variables fs, path, os, cp, POLICY; a String.raw template, so never a backtick or the
// dollar-brace pair).
//
// A FIFO opened for reading holds the reader until something writes to it: forever. So
//   - the audit's own reads (its state, the chain, the snapshots, the files that control enforcement)
//     open a path only when it is a regular file, without blocking, and check it again once open;
//   - the audit's git never reads the user's git configuration (/etc/gitconfig, ~/.gitconfig,
//     ~/.config/git/config and what they include), which any code a role ran can replace: git runs
//     with GIT_CONFIG_SYSTEM and GIT_CONFIG_GLOBAL at /dev/null, and the one setting it needs from
//     there (safe.directory, for a repository another account owns) is read here, from regular
//     files only, and passed with -c; a FIFO there is a changed enforcement file (restored, failed);
//   - the repository's own configuration, which git must read, is checked before git starts;
//   - what git reads that no check can list (a .gitignore or .gitattributes anywhere in the tree)
//     cannot hold the audit past its own time limit, under the hosts' hook timeouts (60 s for a
//     start, 120 s for the rest): git is stopped, and the stage fails naming the file.
export const AUDIT_IO_SOURCE = String.raw`
const AUDIT_T0 = Date.now();
// AUDIT_TIME_LIMIT_MS: a shorter limit, set by tests only (renderAuditScript timeLimitMs)
const AUDIT_BUDGET_MS = typeof AUDIT_TIME_LIMIT_MS === "number" ? AUDIT_TIME_LIMIT_MS : /start$/.test(process.argv[2] || "") ? 45000 : 100000;

function auditFileKind(st) {
  return st.isFIFO() ? "a FIFO" : st.isSocket() ? "a socket" : st.isCharacterDevice() || st.isBlockDevice() ? "a device" : st.isDirectory() ? "a folder" : "not a regular file";
}
function auditNotRegular(p, kind) {
  const e = new Error(auditShowPath(String(p)) + " is " + kind + ", not a regular file: code a stage ran put it there, and reading it would wait forever; remove it (a human restores the file)");
  e.notRegular = String(p);
  e.kind = kind;
  return e;
}

/** A regular file's bytes (following a symbolic link); null when there is none. Anything else throws, and is never opened blocking. */
function auditReadRegular(p) {
  let st;
  try { st = fs.statSync(p); } catch (e) { if (e.code === "ENOENT" || e.code === "ENOTDIR") return null; throw e; }
  if (!st.isFile()) throw auditNotRegular(p, auditFileKind(st));
  // swapped between the stat and the open: a FIFO opened non-blocking returns at once, and fstat tells
  const fd = fs.openSync(p, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK || 0));
  try {
    const now = fs.fstatSync(fd);
    if (!now.isFile()) throw auditNotRegular(p, auditFileKind(now));
    return fs.readFileSync(fd);
  } finally { fs.closeSync(fd); }
}
/** Throws when p exists and is not a regular file (following a symbolic link); opens nothing. */
function auditCheckRegular(p) {
  let st;
  try { st = fs.statSync(p); } catch (e) { return; }
  if (!st.isFile()) throw auditNotRegular(p, auditFileKind(st));
}
/**
 * A settings file's bytes for what the audit reads out of it (its includes, the programs it names):
 * null when there is none, it is no regular file, or it is over the snapshot's whole limit (r6: the
 * text of a 600 MB file a stage wrote threw out of the stop before anything was put back; the file
 * itself is a change, restored from the snapshot).
 */
function auditReadSettings(p) {
  let b = null;
  try { const st = fs.statSync(p); if (st.isFile() && st.size <= AUDIT_GUARDED_MAX) b = auditReadRegular(p); } catch (e) { b = null; }
  return b !== null && b.length <= AUDIT_GUARDED_MAX ? b : null;
}
function auditReadText(p) { const b = auditReadRegular(p); if (b === null) { const e = new Error("ENOENT: no such file " + p); e.code = "ENOENT"; throw e; } return b.toString("utf8"); }
/** fs.copyFileSync for a source that must be a regular file (a missing one throws ENOENT, as copyFileSync does). */
function auditCopy(src, dst) {
  const b = auditReadRegular(src);
  if (b === null) { const e = new Error("ENOENT: no such file " + src); e.code = "ENOENT"; throw e; }
  fs.writeFileSync(dst, b);
}

/** Entries [key, value] of one git configuration text, as git reads them (without its includes); null when git cannot read it. */
function auditConfigEntries(text) {
  const env = { PATH: process.env.PATH || "/usr/bin:/bin", LC_ALL: "C", GIT_DIR: "/dev/null", GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_SYSTEM: "/dev/null", GIT_CONFIG_GLOBAL: "/dev/null" };
  const r = cp.spawnSync("git", ["config", "--file", "-", "--no-includes", "--null", "--list"], { input: text, encoding: "latin1", env: env, timeout: 10000, killSignal: "SIGKILL" });
  if (r.error || r.status !== 0) return null;
  const out = [];
  for (const rec of r.stdout.split("\u0000")) {
    const nl = rec.indexOf("\n");
    if (nl > 0) out.push([rec.slice(0, nl).toLowerCase(), Buffer.from(rec.slice(nl + 1), "latin1").toString("utf8")]);
  }
  return out;
}

/** include.path and includeIf.*.path of a git configuration file, absolute (whether or not they exist). */
function auditIncludesOf(file, entries, home) {
  const out = [];
  for (const [k, v0] of entries) {
    if (!/^include(if\..*)?\.path$/.test(k) || v0 === "") continue;
    let v = v0;
    if (v.startsWith("~/") && home) v = path.join(home, v.slice(2));
    else if (v.startsWith("%(prefix)/")) continue; // git's own install prefix: not a file a stage writes
    out.push([k === "include.path", path.resolve(path.dirname(file), v)]);
  }
  return out;
}

/** The user's git configuration files in the order git reads them, as git finds them from this environment. */
function auditUserConfigFiles() {
  const home = process.env.HOME || "";
  const out = [];
  if (!process.env.GIT_CONFIG_NOSYSTEM) out.push(process.env.GIT_CONFIG_SYSTEM || "/etc/gitconfig");
  if (process.env.GIT_CONFIG_GLOBAL) out.push(process.env.GIT_CONFIG_GLOBAL);
  else {
    const xdg = process.env.XDG_CONFIG_HOME || (home ? path.join(home, ".config") : "");
    if (xdg) out.push(path.join(xdg, "git", "config"));
    if (home) out.push(path.join(home, ".gitconfig"));
  }
  return out.filter((f) => f !== "/dev/null");
}

let auditUserConfigCache = null;
/** The user's git configuration, flattened: [key, value] in git's order, include.path followed 8 deep (includeIf is not: its condition is git's), from regular files only. */
function auditUserConfig() {
  if (auditUserConfigCache) return auditUserConfigCache;
  const home = process.env.HOME || "";
  const out = [];
  const read = (file, depth) => {
    let b = null;
    b = auditReadSettings(file); // not a regular file, or too large: a changed enforcement file, restored and failed by the guarded snapshot
    if (b === null || !/safe|excludesfile|attributesfile|hookspath|include/i.test(b.toString("latin1"))) return;
    const entries = auditConfigEntries(b);
    if (!entries) return;
    for (const e of entries) {
      if (e[0] === "include.path" && depth < 8) { for (const [plain, inc] of auditIncludesOf(file, [e], home)) if (plain) read(inc, depth + 1); }
      else out.push(e);
    }
  };
  for (const f of auditUserConfigFiles()) read(f, 0);
  auditUserConfigCache = out;
  return out;
}

/** The -c arguments carried over from the user's configuration: safe.directory only (a repository another account owns). */
function auditUserConfigArgs() {
  const out = [];
  for (const [k, v] of auditUserConfig()) if (k === "safe.directory") out.push("-c", "safe.directory=" + v);
  return out;
}

/**
 * core.hooksPath, core.excludesFile and core.attributesFile as git reads them ({ key: [[scope, value]] },
 * lower-case keys, git's order; the audit's own -c among them as scope "command"): one git process for
 * the three, not one per key (a stage's start ran four, and every git a hook starts delays the host's
 * tool call). null when that git fails otherwise than with exit 1 (none set): each key is then asked
 * alone, as before. Kept on the context: only a stage's start asks, before anything it does changes them.
 */
function auditCoreFiles(ctx) {
  if (ctx.coreFiles !== undefined) return ctx.coreFiles;
  let raw;
  try { raw = auditGit(ctx, ["config", "--show-scope", "-z", "--path", "--get-regexp", "^core\\.(hookspath|excludesfile|attributesfile)$"]); }
  catch (e) { ctx.coreFiles = e && e.status === 1 ? {} : null; return ctx.coreFiles; } // exit 1: none set
  const out = {};
  const f = raw.split("\u0000");
  for (let i = 0; i + 1 < f.length; i += 2) {
    const nl = f[i + 1].indexOf("\n");
    if (nl < 0) { ctx.coreFiles = null; return null; } // a key without a value: as git answers that key alone
    const k = f[i + 1].slice(0, nl);
    (out[k] = out[k] || []).push([f[i], f[i + 1].slice(nl + 1)]);
  }
  ctx.coreFiles = out;
  return out;
}

/** [[scope, value]] of one of those keys, as "git config --show-scope -z --path --get-all" gives them; throws when it is unset (git's exit 1). */
function auditConfigAll(ctx, key) {
  const all = auditCoreFiles(ctx);
  if (all) { const e = all[key.toLowerCase()]; if (!e) throw new Error("git config: " + key + " is unset"); return e; }
  const f = auditGit(ctx, ["config", "--show-scope", "-z", "--path", "--get-all", key]).split("\u0000");
  const out = [];
  for (let i = 0; i + 1 < f.length; i += 2) out.push([f[i], f[i + 1]]);
  return out;
}

/** The value "git config --path <key>" prints, trimmed (the last one; the audit's own -c is not yet set for this key); throws when unset. */
function auditConfigLast(ctx, key) {
  const all = auditCoreFiles(ctx);
  if (!all) return auditGit(ctx, ["config", "--path", key]).trim();
  const e = (all[key.toLowerCase()] || []).filter((x) => x[0] !== "command");
  if (!e.length) throw new Error("git config: " + key + " is unset");
  return e[e.length - 1][1].trim();
}

/**
 * A stage's code moved the repository's git folder away and left a "gitdir:" file in its place
 * (r5): git follows the file, so the audit would judge the moved folder, and its hooks stay live for
 * the human's next commit. Where this stage's own state, which moved with the folder, says the git
 * folder was <work tree>/.git at the start, the folder is moved back (a violation in out) before
 * anything else runs. A linked worktree's .git file (its state names another git folder) is left.
 */
function auditUndoGitMove(root, key, out) {
  let d, dot = null;
  try { d = fs.realpathSync(path.resolve(root)); } catch (e) { return; }
  for (let i = 0; i < 256; i++) {
    const p = path.join(d, ".git");
    if (fs.existsSync(p) || auditIsLink(p)) { dot = p; break; }
    if (path.dirname(d) === d) return;
    d = path.dirname(d);
  }
  let st;
  try { st = fs.lstatSync(dot); } catch (e) { return; }
  if (!st.isFile()) return;
  let m = null;
  try { m = /^gitdir: *(.+?)\s*$/m.exec(auditReadText(dot)); } catch (e) { return; } // no regular file: git refuses it too
  if (!m) return;
  const moved = path.resolve(path.dirname(dot), m[1]);
  let state;
  try { state = JSON.parse(auditReadText(path.join(moved, AUDIT_DIR_NAME, key + ".state"))); } catch (e) { return; }
  if (!state || state.gitDir !== dot) return;
  fs.rmSync(dot, { force: true });
  fs.renameSync(moved, dot);
  out.push({ path: ".git", kind: "moved to " + auditShowPath(moved) + " and replaced by a gitdir: file", restored: true, guarded: true });
}
function auditIsLink(p) { try { return fs.lstatSync(p).isSymbolicLink(); } catch (e) { return false; } }

/** The repository's own configuration and the files git opens first: each must be a regular file (or none) before git starts. A refusal carries the repository's folders (e.repo). */
function auditCheckRepoFiles(root) {
  const found = { gitDir: null, common: null };
  try { auditCheckRepoFilesIn(root, found); } catch (e) { if (e && typeof e === "object") e.repo = found; throw e; }
}
function auditCheckRepoFilesIn(root, found) {
  let d = path.resolve(root), gitDir = null;
  for (let i = 0; i < 256 && !gitDir; i++) {
    const dot = path.join(d, ".git");
    let st = null;
    try { st = fs.statSync(dot); } catch (e) { st = null; } // a .git that is a link to the folder is the folder
    if (st && st.isDirectory()) gitDir = dot;
    else if (st) {
      const m = /^gitdir: *(.+?)\s*$/m.exec(auditReadText(dot));
      if (m) gitDir = path.resolve(d, m[1]);
      else return;
    }
    if (path.dirname(d) === d) break;
    d = path.dirname(d);
  }
  if (!gitDir) return;
  let common = gitDir;
  const cd = auditReadRegular(path.join(gitDir, "commondir"));
  if (cd !== null) common = path.resolve(gitDir, cd.toString("utf8").trim());
  found.gitDir = gitDir;
  found.common = common;
  // [path, is a configuration file]: what the repository's configuration includes is read by git too
  const files = [[path.join(common, "config"), true], [path.join(gitDir, "config.worktree"), true], [path.join(common, "config.worktree"), true],
    [path.join(gitDir, "HEAD"), false], [path.join(gitDir, "index"), false], [path.join(common, "packed-refs"), false]];
  const seen = new Set();
  for (let i = 0; i < files.length && i < 64; i++) {
    const [f, config] = files[i];
    if (seen.has(f)) continue;
    seen.add(f);
    const b = config ? auditReadRegular(f) : (auditCheckRegular(f), null);
    if (b === null || !config || !/include/i.test(b.toString("latin1"))) continue;
    for (const [, inc] of auditIncludesOf(f, auditConfigEntries(b) || [], process.env.HOME || "")) files.push([inc, true]);
  }
}

/**
 * auditContext, after putting back each repository configuration file that code replaced by a FIFO
 * or a device, from the last snapshot of the files that control enforcement (snaps(gitDir): that
 * snapshot, by absolute path). Each file put back is a violation in out; one with no snapshot fails.
 */
function auditContextRestoring(root, snaps, out) {
  for (let i = 0; ; i++) {
    try { return auditContext(root); } catch (e) {
      const p = e && e.notRegular, repo = e && e.repo;
      let snap = null;
      if (p && repo && repo.gitDir && i < 8) { try { const all = snaps(repo.gitDir); snap = all ? all[p] : null; } catch (e2) { snap = null; } }
      if (!snap || snap.t !== "file") throw e;
      auditBlobUse(path.join(repo.gitDir, AUDIT_DIR_NAME));
      auditPutPath(p, snap);
      out.push({ path: repo.common && p.startsWith(repo.common + "/") ? ".git/" + p.slice(repo.common.length + 1) : p, kind: "replaced by " + e.kind, restored: true, guarded: true });
    }
  }
}

/** After git ran out of time: files in the tree that git would open and wait on (a .gitignore or .gitattributes that is no regular file), looked for for 2 s at most. */
function auditSpecialFiles(ctx) {
  const out = [], end = Date.now() + 2000;
  const dirs = [ctx.top];
  for (const f of [ctx.excludesFile, path.join(ctx.gitDir, "info", "exclude"), path.join(ctx.gitDir, "info", "attributes")]) {
    if (!f) continue;
    try { const st = fs.statSync(f); if (!st.isFile()) out.push(f); } catch (e) { /* none */ }
  }
  while (dirs.length && Date.now() < end && out.length < 10) {
    const d = dirs.shift();
    let ents = [];
    try { ents = fs.readdirSync(d, { withFileTypes: true }); } catch (e) { continue; }
    for (const e of ents) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) { if (e.name !== ".git") dirs.push(p); continue; }
      if (e.name !== ".gitignore" && e.name !== ".gitattributes") continue;
      try { if (!fs.statSync(p).isFile()) out.push(path.relative(ctx.top, p)); } catch (e2) { /* a dangling link: git skips it */ }
    }
  }
  return out;
}

/** The time git may still take in this audit (at least 1 s). */
function auditGitTimeLeft() { return Math.max(1000, AUDIT_T0 + AUDIT_BUDGET_MS - Date.now()); }

function auditGitTimedOut(ctx, args) {
  const found = ctx ? auditSpecialFiles(ctx) : [];
  return new Error("git " + args[0] + " did not finish within the audit's time limit (" + (AUDIT_BUDGET_MS / 1000) + " s): " +
    (found.length ? "it waits on " + found.map((f) => auditShowPath(f)).join(", ") + ", which is no regular file (a FIFO or a device code a stage put there); remove it" : "no file it would wait on was found: the files git does not ignore may be too many to hash in that time (ignore build output and dependencies in .gitignore), or a file it reads is a FIFO or a device that code a stage put there (a .gitignore or .gitattributes in the tree, or a file in .git)"));
}
`;
