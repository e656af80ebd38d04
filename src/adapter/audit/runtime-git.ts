// The audit's git: how it runs git (never the user's configuration, no GIT_* variable of the hook's
// environment, fixed settings that compare content and not git's view of it, no filter programs), and
// how it snapshots the work tree into its own index (what git cannot read, what the ignore rules hide
// that still counts, what keeps git from seeing files). JavaScript source pasted into the generated
// script (same rules as runtime.ts: ES2022, free variables fs, path, cp, POLICY; a String.raw template,
// so never a backtick or the dollar-brace pair).
export const AUDIT_GIT_SOURCE = String.raw`
// ---------------------------------------------------------------- git plumbing

function auditGit(ctx, args, opts) {
  const o = opts || {};
  // never the user's git configuration, which code a stage ran can replace (by a FIFO: git would wait forever); runtime-io.ts
  // r7: no GIT_* variable of the hook's environment (a settings file's env reaches it): GIT_TRACE named a
  // file the audit's own git wrote after the restore (~/.bashrc), GIT_REPLACE_REF_BASE replacements;
  // and no replace refs (r7: refs/replace/<start tree> made a rewritten test compare as the start)
  const env = Object.assign({}, process.env);
  for (const k of Object.keys(env)) if (/^GIT_/i.test(k)) delete env[k];
  Object.assign(env, { GIT_OPTIONAL_LOCKS: "0", GIT_TERMINAL_PROMPT: "0", GIT_ATTR_NOSYSTEM: "1", GIT_NO_REPLACE_OBJECTS: "1", LC_ALL: "C", GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_SYSTEM: "/dev/null", GIT_CONFIG_GLOBAL: "/dev/null" }, o.env || {});
  // content, not git's view of it: no stat shortcuts a configuration could loosen, no sparse or split index
  const pre = auditUserConfigArgs().concat(["-c", "core.fsmonitor=false", "-c", "core.untrackedCache=false", "-c", "core.autocrlf=false", "-c", "core.safecrlf=false", "-c", "core.attributesFile=/dev/null",
    "-c", "core.ignoreStat=false", "-c", "core.trustctime=true", "-c", "core.checkStat=default", "-c", "core.fileMode=true", "-c", "core.sparseCheckout=false", "-c", "index.sparse=false", "-c", "core.splitIndex=false", "-c", "core.hooksPath=/dev/null",
    // r7: what the start's configuration could say against the file system: names that differ in case only (Tests/ beside
    // a tracked tests/) and links (a link replaced by a file of its text) are what the disk holds; objects read from
    // the packs themselves, never through a commit graph or a multi-pack index that could name other content
    "-c", "core.ignoreCase=" + (ctx && ctx.fold ? "true" : "false"), "-c", "core.commitGraph=false", "-c", "core.multiPackIndex=false"].concat(process.platform === "win32" ? [] : ["-c", "core.symlinks=true"]));
  if (ctx && ctx.excludesFile) { auditCheckRegular(ctx.excludesFile); pre.push("-c", "core.excludesFile=" + ctx.excludesFile); }
  if (ctx && args[0] !== "config") pre.push(...auditFilterArgs(ctx, env));
  if (env.GIT_INDEX_FILE) auditCheckRegular(env.GIT_INDEX_FILE);
  const r = cp.spawnSync("git", pre.concat(args), { cwd: (ctx && ctx.top) || o.cwd, env: env, input: o.input, maxBuffer: 1 << 30, encoding: o.buffer ? "buffer" : o.latin1 ? "latin1" : "utf8", timeout: auditGitTimeLeft(), killSignal: "SIGKILL" });
  if (r.error && r.error.code === "ETIMEDOUT") throw auditGitTimedOut(ctx, args);
  if (r.error) throw new Error("git " + args[0] + ": " + (r.error.code || r.error.message));
  if (r.status !== 0) { const e = new Error("git " + args[0] + " failed (exit " + r.status + "): " + auditOneLine(r.stderr, 300)); e.status = r.status; e.stderr = String(r.stderr); throw e; }
  if (o.warnings) o.warnings.push(String(r.stderr));
  return r.stdout;
}

/**
 * r7: the filter drivers the repository's configuration defines are programs git runs while the audit
 * hashes and restores (a clean = sh src/clean.sh in a role's scope made a rewritten test hash as the
 * original): each is replaced by cat, so the audit's git runs none of them (a long-running process
 * driver by an empty one, which git skips).
 */
let auditFilterCache = null;
function auditFilterArgs(ctx, env) {
  if (auditFilterCache && auditFilterCache.top === ctx.top) return auditFilterCache.args;
  const r = cp.spawnSync("git", ["-c", "core.hooksPath=/dev/null", "config", "-z", "--get-regexp", "^filter\\."], { cwd: ctx.top, env: env, encoding: "latin1", timeout: auditGitTimeLeft(), killSignal: "SIGKILL" });
  // exit 1 is "none set"; anything else leaves the drivers unknown, and they would run
  if (r.error || (r.status !== 0 && r.status !== 1)) throw new Error("git config: the repository's filter drivers could not be read (" + (r.error ? r.error.code || r.error.message : "exit " + r.status) + "), so the audit cannot keep them from running");
  const out = [], names = new Set(), proc = new Set();
  for (const rec of String(r.stdout || "").split("\u0000")) {
    const key = rec.split("\n")[0];
    const m = /^filter\.(.+)\.(clean|smudge|process|required)$/s.exec(key);
    if (m) names.add(m[1]);
    if (m && m[2] === "process") proc.add(m[1]);
  }
  // git splits a -c at its first "=": filter.a=b.clean=cat sets filter.a, and a=b's clean still runs
  for (const n of names) if (n.includes("=")) throw new Error("the filter driver " + JSON.stringify(n) + " in the repository's git configuration has a name git's -c cannot spell (it holds \"=\"), so the audit cannot keep it from running; rename it");
  for (const n of names) out.push("-c", "filter." + n + ".clean=cat", "-c", "filter." + n + ".smudge=cat", "-c", "filter." + n + ".required=false");
  for (const n of proc) out.push("-c", "filter." + n + ".process=");
  auditFilterCache = { top: ctx.top, args: out };
  return out;
}

const AUDIT_RULE_FILES = new Set([".gitignore", ".gitattributes"]);

/**
 * Stage every non-ignored file into the given index file, and the ignore and attribute files the
 * ignore rules hide (one can name itself): they decide what the audit sees and hashes, so they are
 * part of the tree (and protected, POLICY.protect). Returns the tree id.
 */
function auditSnapshot(ctx, indexFile) {
  const env = { GIT_INDEX_FILE: indexFile };
  // r7: a folder its owner can no longer list (chmod 311) hid the files a stage created in it, and the
  // stage passed; one a stage's code shut is opened for the owner again and added once more
  for (let i = 0; ; i++) {
    const warn = [];
    let failed = null;
    try { auditGit(ctx, ["add", "-A", "--ignore-errors", "--", "."], { env: env, latin1: true, warnings: warn }); }
    catch (e) { if (typeof e.stderr !== "string") throw e; failed = e; warn.push(e.stderr); }
    if (i < AUDIT_MAX_PASSES && auditOpenShut(ctx, warn.join("\n"))) continue;
    if (failed) throw failed;
    break;
  }
  // --directory: not into ignored folders, where no rule file has any effect
  const ignored = auditGit(ctx, ["ls-files", "-z", "-o", "-i", "--exclude-standard", "--directory"], { env: env, latin1: true }).split("\0").filter(Boolean);
  const hidden = ignored.filter((p) => !p.endsWith("/") && AUDIT_RULE_FILES.has(path.posix.basename(p))).concat(auditHiddenSettings(ctx, ignored));
  if (hidden.length) auditGit(ctx, ["add", "-f", "--pathspec-from-file=-", "--pathspec-file-nul"], { env: Object.assign({ GIT_LITERAL_PATHSPECS: "1" }, env), input: Buffer.from(hidden.join("\0") + "\0", "latin1") });
  return auditGit(ctx, ["write-tree"], { env: env }).trim();
}

/**
 * What keeps git from snapshotting the tree, found after "git add" failed or added a gitlink: a
 * repository created inside the project (its .git hides every file in it; with a commit git records
 * one gitlink, without one it refuses to add it), and a FIFO, socket or device standing where a tracked
 * file was (git can add only files, links and repositories). [{ path, kind, remove }] as byte strings.
 */
function auditBlockers(ctx, indexFile, changes) {
  const out = [];
  const isRepo = (p) => { try { fs.lstatSync(auditAbs(ctx, p + "/.git")); return true; } catch (e) { return false; } };
  const exempt = (p) => { const rel = auditRel(ctx, p); return rel !== null && auditMatch(POLICY.exempt, auditText(rel)); };
  const env = { GIT_INDEX_FILE: indexFile };
  if (changes) {
    // new ones only (A, or a file made a repository): a nested repository or submodule from the start keeps its .git
    for (const c of changes) if (c.newMode === "160000" && (c.status === "A" || c.status === "T") && isRepo(c.path) && !exempt(c.path)) out.push({ path: c.path + "/.git", kind: "created", remove: c.path + "/.git" });
    return out;
  }
  // without --directory, git names a repository inside an untracked folder as "path/"
  for (const p of auditGit(ctx, ["ls-files", "-z", "-o", "--exclude-standard"], { env: env, latin1: true }).split("\0")) {
    if (p.endsWith("/") && isRepo(p.slice(0, -1)) && !exempt(p.slice(0, -1))) out.push({ path: p + ".git", kind: "created", remove: p + ".git" });
    // r8: a name git refuses to add on any disk (.GIT, .Git: "invalid path"), which failed every audit until a human removed it
    const base = p.replace(/\/$/, "").split("/").pop();
    if (base !== ".git" && /^\.git$/i.test(base) && !exempt(p.replace(/\/$/, ""))) out.push({ path: p.replace(/\/$/, ""), kind: "created", remove: p.replace(/\/$/, "") });
  }
  for (const p of auditGit(ctx, ["ls-files", "-z"], { env: env, latin1: true }).split("\0")) {
    if (!p) continue;
    let st = null;
    try { st = fs.lstatSync(auditAbs(ctx, p)); } catch (e) { st = null; }
    if (st && !st.isFile() && !st.isSymbolicLink() && !st.isDirectory()) out.push({ path: p, kind: "replaced by a FIFO, socket or device", remove: p });
  }
  return out;
}

/** [{status, path, oldMode, newMode, newId}] between the start tree and the index file (raw diff, -z; paths as byte strings). */
function auditChanges(ctx, tree, indexFile) {
  const raw = auditGit(ctx, ["diff-index", "--cached", "-z", "--no-renames", "--raw", "--abbrev=40", tree], { env: { GIT_INDEX_FILE: indexFile }, latin1: true });
  const parts = raw.split("\0");
  const out = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const meta = parts[i];
    if (!meta) { i--; continue; }
    const m = /^:(\d{6}) (\d{6}) [0-9a-f]+ ([0-9a-f]+) ([A-Z])/.exec(meta);
    if (!m) throw new Error("unexpected git diff output: " + auditOneLine(meta, 120));
    out.push({ status: m[4], path: parts[i + 1], oldMode: m[1], newMode: m[2], newId: m[3] });
  }
  return out;
}

/** The real index, copied, with its skip-worktree and assume-unchanged flags cleared: git add then hashes those files too. */
function auditPrivateIndex(ctx, index) {
  const real = path.join(ctx.gitDir, "index");
  if (!fs.existsSync(real)) { fs.rmSync(index, { force: true }); return; }
  auditCopy(real, index);
  const env = { GIT_INDEX_FILE: index };
  const skip = [], assumed = [], all = [];
  for (const rec of auditGit(ctx, ["ls-files", "-v", "-z"], { env: env, latin1: true }).split("\0")) {
    if (rec.length < 3) continue;
    const tag = rec[0];
    all.push(rec.slice(2));
    if (tag === "S" || tag === "s") skip.push(rec.slice(2));
    if (tag >= "a" && tag <= "z") assumed.push(rec.slice(2));
  }
  const clear = (flag, paths) => { if (paths.length) auditGit(ctx, ["update-index", "-z", flag, "--stdin"], { env: env, input: Buffer.from(paths.join("\0") + "\0", "latin1") }); };
  clear("--no-skip-worktree", skip);
  clear("--no-assume-unchanged", assumed);
  // r8: a file with a filter attribute holds in the real index the id of what the human's filter made
  // of it (git-lfs's pointer, git-crypt's cipher text), the audit's git hashes its bytes (filters taken
  // as cat): its stat-clean entry would compare a byte-identical rewrite as modified, and the restore
  // wrote the filtered form into the work tree. Such entries are left out, so the audit hashes them itself.
  if (all.length) {
    const filtered = [];
    const f = auditGit(ctx, ["check-attr", "-z", "--stdin", "filter"], { env: env, latin1: true, input: Buffer.from(all.join("\0") + "\0", "latin1") }).split("\0");
    for (let i = 0; i + 2 < f.length; i += 3) if (f[i + 2] !== "unspecified" && f[i + 2] !== "unset") filtered.push(f[i]);
    const converted = auditConvertedEntries(ctx, env);
    if (converted === null) { fs.rmSync(index, { force: true }); return; }
    clear("--force-remove", filtered.concat(converted));
  }
}

/**
 * r9: the entries of the human's index whose recorded file size is not their blob's size: git converted
 * the file when it was added (core.autocrlf or core.eol from the user's configuration, which the audit's
 * git never reads: CRLF on disk, LF in the blob; ident; an encoding) or the entry lies. Its stat-clean
 * entry would make a byte-identical rewrite compare as modified, and the restore wrote the blob's line
 * endings into the work tree; left out, the audit hashes the file itself. One ls-files and one cat-file
 * for the whole index, at a session's first start only.
 */
function auditConvertedEntries(ctx, env) {
  const text = auditGit(ctx, ["ls-files", "-s", "--debug", "-z"], { env: env, latin1: true });
  const re = /(\d{6}) ([0-9a-f]+) \d\t([^\0]*)\0(?:  [a-z]+: [^\n]*\n)*?  size: (\d+)\tflags: [0-9a-f]+\n/gy;
  const files = [];
  let end = 0;
  for (let m; (m = re.exec(text)); end = re.lastIndex) if (m[1] !== "160000") files.push({ id: m[2], path: m[3], size: Number(m[4]) });
  // an output this parse does not know (another git's --debug): no entry is trusted, all are hashed again
  if (end !== text.length) return null;
  if (!files.length) return [];
  const sizes = auditGit(ctx, ["cat-file", "--batch-check=%(objectsize)"], { input: files.map((f) => f.id).join("\n") + "\n" }).split("\n");
  // the index keeps the low 32 bits of a file's size
  return files.filter((f, i) => !/^\d+$/.test(sizes[i] || "") || Number(sizes[i]) % 4294967296 !== f.size).map((f) => f.path);
}

/**
 * The folders and files git could not open while it added the tree (its warnings, paths from the top
 * level as byte strings). Outside a stop (ctx.opening) they are only recorded (ctx.shut): what was shut
 * at the start stays as it was. At a boundary one that was not shut at the start is opened for the
 * owner (a violation in ctx.opened); returns how many were.
 */
function auditOpenShut(ctx, text) {
  const shut = [];
  // r7: any other reason (a folder deeper than the system's path limit: git warns and goes on) is no
  // permission to open: a folder that was not so at the start fails the stage loudly
  // (git cuts a message at 4 KB: such a line is its own name)
  for (const line of text.split("\n")) if (line.startsWith("warning: could not open directory '")) {
    const m = /^warning: could not open directory '(.*)\/': Permission denied$/.exec(line);
    shut.push(m ? [m[1], 0o700] : [line, 0]);
  }
  for (const m of text.matchAll(/^error: open\("(.*)"\): Permission denied$/gm)) shut.push([m[1], 0o600]);
  ctx.shut = shut.map((x) => x[0]);
  if (!ctx.opening) return 0;
  let n = 0;
  for (const [p, bits] of shut) {
    if ((ctx.unlisted || []).includes(p)) continue;
    if (!bits && auditRemoveTooDeep(ctx, p)) { n++; continue; }
    if (!bits) throw new Error("git cannot read a folder (" + auditOneLine(auditShown(p), 200) + "), so what it holds cannot be audited; remove it by hand");
    const abs = auditAbs(ctx, p);
    try {
      const st = fs.lstatSync(abs);
      if (!st.isDirectory() && !st.isFile()) continue;
      fs.chmodSync(abs, (st.mode & 0o7777) | bits);
      const rel = auditRel(ctx, p);
      (ctx.opened = ctx.opened || []).push({ path: auditShown(rel === null ? p : rel), kind: (st.isDirectory() ? "folder" : "file") + " made unreadable (opened for its owner again)", restored: true, top: p });
      n++;
    } catch (e) { /* not the owner's: git fails on it, loudly */ }
  }
  return n;
}

/**
 * r9: a folder deeper than the system's path limit, created during the stage outside its scope (code
 * that made tests/d/d/…/x.test.ts by relative steps): git cannot open it and the audit's own removal
 * by absolute path cannot reach it, so the stage failed with the files left in place. The shallowest
 * folder of its path the boundary's tree does not hold is removed by rm -rf, which walks any depth.
 * In the scope (the role's own folder), or anywhere without rm, it still fails the stage loudly.
 */
function auditRemoveTooDeep(ctx, line) {
  // git cuts a message at 4 KB: a line cut before its reason names a path that long, its last folder cut too
  const m = /^warning: could not open directory '(.*)\/': File name too long$/s.exec(line) || (line.length >= 4000 && !/': [A-Za-z ]+$/.test(line) ? /^warning: could not open directory '(.*)\/[^/]*$/s.exec(line) : null);
  if (!m || !ctx.base || process.platform === "win32") return false;
  const parts = m[1].split("/");
  for (let i = 1; i <= parts.length; i++) {
    const a = parts.slice(0, i).join("/");
    // as text for git's arguments and rm's: a name that is not UTF-8 fails the stage loudly, as before
    const t = auditText(a);
    if (Buffer.from(t, "utf8").toString("latin1") !== a) return false;
    let held = true;
    try { auditGit(ctx, ["cat-file", "-e", ctx.base.tree + ":" + t]); } catch (e) { held = false; }
    if (held) continue;
    const rel = auditRel(ctx, a);
    if (rel === null || ctx.base.keep(auditText(rel), { path: a, status: "A" })) return false;
    // only a bare chain of folders down to the deep one: a folder the tree does not hold may still hold
    // what the ignore rules hide (a human's data/*.csv), which no restore brings back; that fails loudly
    for (let j = i; j < parts.length; j++) {
      let es = [];
      try { es = fs.readdirSync(auditAbs(ctx, parts.slice(0, j).join("/")), { encoding: "latin1" }); } catch (e) { return false; }
      if (es.length !== 1 || es[0] !== parts[j]) return false;
    }
    const r = cp.spawnSync("rm", ["-rf", "--", ctx.top + "/" + t], { timeout: auditGitTimeLeft(), killSignal: "SIGKILL" });
    if (r.status !== 0 || fs.existsSync(auditAbs(ctx, a))) return false;
    (ctx.opened = ctx.opened || []).push({ path: auditShown(rel), kind: "created (deeper than the system's path limit)", restored: true, removed: true, top: a });
    return true;
  }
  return false;
}

/**
 * Host settings and hook files below the root that the ignore rules hide (r7: a team's unanchored
 * "settings.local.json" or ".vscode/" hid src/.claude/settings.local.json, which a session started in
 * src/ loads): from git's list of ignored paths (byte strings from the top level; an ignored folder
 * as "dir/"), each protected file, and in an ignored folder named like a host's (.vscode/) or holding
 * one, the files the protected globs name. The root's are guarded byte for byte already.
 */
function auditHiddenSettings(ctx, ignored) {
  const root = new Set(), rootTrees = [];
  for (const g of POLICY.guarded) if (g.base === "project") { root.add(g.path); if (g.tree) rootTrees.push(g.path + "/"); }
  const judged = (p) => {
    const rel = auditRel(ctx, p);
    if (rel === null) return false;
    const t = auditText(rel);
    return !root.has(t) && !rootTrees.some((d) => t.startsWith(d)) && Boolean(auditMatch(POLICY.protect, t, true)) && !auditMatch(POLICY.exempt, t);
  };
  const out = new Set(ignored.filter((p) => !p.endsWith("/") && judged(p)));
  const names = POLICY.protect.map((g) => g.glob.replace(/^\*\*\//, "")).filter((g) => !/\*/.test(g.replace(/\/\*\*$/, "")) && g.includes("/"));
  let budget = 2000;
  const walk = (p) => {
    let st;
    try { st = fs.lstatSync(auditAbs(ctx, p)); } catch (e) { return; }
    if (st.isDirectory()) { let es = []; try { es = fs.readdirSync(auditAbs(ctx, p), { encoding: "latin1" }); } catch (e) { es = []; } for (const n of es) if (budget-- > 0) walk(p + "/" + n); }
    else if ((st.isFile() || st.isSymbolicLink()) && judged(p)) out.add(p);
  };
  for (const d of ignored) {
    if (!d.endsWith("/")) continue;
    const dir = d.slice(0, -1), last = path.posix.basename(dir), parent = path.posix.dirname(dir);
    for (const g of names) {
      const first = g.split("/")[0], rest = g.replace(/\/\*\*$/, "");
      for (const c of [first === last ? (parent === "." ? "" : parent + "/") + rest : null, dir + "/" + rest]) if (c) walk(c);
    }
  }
  return [...out];
}
`;
