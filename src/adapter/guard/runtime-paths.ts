// Guard runtime, part 3: where a path lands, the way the kernel sees it. JavaScript source text
// (see render.ts). `fs` and `path` are node:fs and node:path.
//
// A path is walked component by component from the real (symlink-free) directory it starts in:
// a symbolic link is resolved as soon as it is met, so `link/../x` goes where the kernel goes. The
// result is measured from the project's real root; inside a verified linked git worktree of the
// project (isolation: worktree) from that worktree's root.
export const GUARD_PATHS_SOURCE = String.raw`
function guardOutside(rel) { return rel === ".." || rel.startsWith("../") || path.isAbsolute(rel); }
function guardPosix(p) { return path.sep === "/" ? p : p.split(path.sep).join("/"); }

// The physical path of p (from base): { real } or { error }. A symbolic link's text is walked like the
// rest (its chain of links too), so a link into /proc is seen. What lies in /proc or /dev is refused:
// /proc/self, /proc/thread-self and /dev/fd name the process that opens them, so the guard would
// resolve them in its own hook process, not in the host or the command that writes.
function guardPhysical(base, p) {
  if (typeof p !== "string" || p === "") return { error: "is empty" };
  if (p.includes("\u0000")) return { error: "contains a NUL byte" };
  const abs = path.isAbsolute(p) ? p : base + path.sep + p;
  const split = (q) => q.slice(path.parse(q).root.length).split(/[\\/]+/);
  let cur = path.parse(abs).root;
  const todo = split(abs);
  let exists = true;
  let hops = 0;
  let last = null;
  while (todo.length) {
    const part = todo.shift();
    if (part === "" || part === ".") continue;
    if (part === "..") { cur = path.dirname(cur); last = null; continue; }
    const next = path.join(cur, part);
    if (guardProcessBound(next)) return { error: "goes through " + next + ", whose meaning depends on the process that opens it" };
    if (!exists) { cur = next; continue; }
    let st;
    try { st = fs.lstatSync(next); } catch (e) {
      if (e && (e.code === "ENOENT" || e.code === "ENOTDIR")) { exists = false; cur = next; continue; }
      return { error: "cannot be checked (" + (e && e.code) + ")" };
    }
    if (st.isSymbolicLink()) {
      if (++hops > 64) return { error: "has too many symbolic links" };
      let real, text;
      try { real = fs.realpathSync.native(next); text = fs.readlinkSync(next); } catch (e) { return { error: "goes through a dangling symbolic link (" + next + ")" }; }
      last = null;
      // Windows: junctions and their \\?\ forms are the system's to resolve
      if (path.sep !== "/") { cur = real; continue; }
      if (path.isAbsolute(text)) cur = "/";
      todo.unshift(...text.split("/"));
    } else { cur = next; last = st; }
  }
  // a file with more than one name: a write lands under every other name too, wherever it is
  if (exists && last === null && cur !== path.parse(abs).root) { try { last = fs.statSync(cur); } catch (e) { last = null; } }
  if (exists && last && last.isFile() && last.nlink > 1) return { error: "is a file with " + last.nlink + " hard links, so a write also changes it under names the guard cannot see" };
  return { real: cur };
}
function guardProcessBound(p) { return path.sep === "/" && /^\/(proc|dev)(\/|$)/.test(p); }

// The root of the linked git worktree of this project that holds real, or null. Verified both ways:
// its .git file points into <project>/.git/worktrees/<name>, whose gitdir file points back.
function guardWorktreeOf(ctx, real) {
  const base = path.join(ctx.projectReal, ".git", "worktrees");
  let d = real;
  for (let i = 0; i < 256; i++) {
    const parent = path.dirname(d);
    if (parent === d || parent === ctx.projectReal) return null;
    d = parent;
    const dotgit = path.join(d, ".git");
    let info;
    try { info = fs.lstatSync(dotgit); } catch (e) { continue; }
    if (!info.isFile()) return null;
    try {
      // a regular file only, here too: swapped for a FIFO after the lstat, it would hold the hook
      const dotText = guardRegularText(dotgit);
      if (typeof dotText !== "string") return null;
      const m = /^gitdir: *(.+?)\s*$/m.exec(dotText);
      if (!m) return null;
      const gitdir = fs.realpathSync.native(path.resolve(d, m[1]));
      const rel = path.relative(base, gitdir);
      if (rel === "" || guardOutside(rel) || rel.includes(path.sep)) return null;
      // a regular file only: a FIFO there would hold the hook until the host's timeout
      const text = guardRegularText(path.join(gitdir, "gitdir"));
      if (typeof text !== "string") return null;
      const back = text.trim();
      if (fs.realpathSync.native(path.resolve(gitdir, back)) !== fs.realpathSync.native(dotgit)) return null;
      return d;
    } catch (e) { return null; }
  }
  return null;
}

// Why git may not run in cwd, or null. git finds its repository by walking up from the folder it runs
// in: the first folder that holds a .git, or that is itself a git directory (a HEAD beside objects/
// and refs/, a bare repository), wins, and git then runs what that repository's config names
// (core.fsmonitor on git status, diff.external on git diff --no-index, gpg.program for a signature,
// a textconv driver). A role that writes a folder can plant one there, and the read-only git of
// default-deny onyx and the orchestrator ran it on the main thread (r9): git runs only where the
// repository it finds is the project's own, or a verified linked worktree of it.
function guardGitRepoWhy(ctx, cwd) {
  let d;
  try { d = fs.realpathSync.native(cwd); } catch (e) { return "git's folder cannot be resolved"; }
  const has = (n) => { try { fs.lstatSync(path.join(d, n)); return true; } catch (e) { return !(e && (e.code === "ENOENT" || e.code === "ENOTDIR")); } };
  // up to the project's root, or to the root of a verified linked worktree of it (which may lie outside)
  for (let i = 0; i < 256; i++) {
    if (d === ctx.projectReal) return null;
    if (has(".git")) return guardWorktreeOf(ctx, path.join(d, ".git")) === d ? null : "git would use the repository at " + d + "/.git, not the project's";
    if (has("HEAD")) return "git could take " + d + " (it holds a HEAD) for a repository of its own, not the project's";
    const parent = path.dirname(d);
    if (parent === d) return "git runs where it finds no repository of the project's";
    d = parent;
  }
  return "git's folder is too deep to check";
}

// The main thread (the orchestrator, a main-session role) has no stage-end audit. A runner or build
// tool reads its configuration from the folder it starts in (.npmrc and package.json, tsconfig.json's
// outDir, vitest.config, conftest.py, .cargo/config.toml, go.mod), and a role that writes a folder can
// plant one there (r9: cd ./src && npx tsc wrote where jade's src/tsconfig.json said): there it runs
// only from the project root. Read-only utilities and git (guardGitRepoWhy) read no such file.
function guardAwayWhy(st, cwd, argv) {
  if (st.role && !st.role.main) return null;
  const name = guardBase(argv[0]);
  if (name === "git" || name === "printf" || GUARD_ANY_ARGS.has(name) || Object.prototype.hasOwnProperty.call(GUARD_SPECS, name)) return null;
  let real;
  try { real = fs.realpathSync.native(cwd); } catch (e) { return "its folder cannot be resolved"; }
  if (real === st.ctx.projectReal) return null;
  return "it runs " + name + " in " + guardPosix(path.relative(st.ctx.projectReal, real)) + ", not the project root, and there " + name + " may read configuration a role wrote";
}

// Where p lands: { rels, shown } (project-relative, POSIX) or { error, shown }.
function guardLocate(ctx, base, p) {
  const r = guardPhysical(base, p);
  const lex = guardPosix(path.relative(ctx.project, path.resolve(base, p || ".")));
  const lexInside = lex !== "" && !guardOutside(lex);
  if (r.error) return { error: r.error, shown: lexInside ? lex : String(p) };
  const wt = guardWorktreeOf(ctx, r.real);
  if (wt) {
    const w = guardPosix(path.relative(wt, r.real));
    if (w === "") return { error: "is a worktree directory itself", shown: String(p) };
    return { rels: [w], shown: w + " (in worktree " + path.basename(wt) + ")" };
  }
  const rel = guardPosix(path.relative(ctx.projectReal, r.real));
  if (guardOutside(rel)) return { error: lexInside ? "resolves to " + r.real + ", outside the project" : "is outside the project directory " + ctx.project, shown: lexInside ? lex : String(p) };
  if (rel === "") return { error: "is the project directory itself", shown: String(p) };
  return { rels: lexInside && lex !== rel ? [lex, rel] : [rel], shown: lexInside ? lex : rel };
}

const guardReCache = new Map();
// fold: a never-write list on a file system that may fold case (macOS, Windows): matched without case,
// and on Windows without the trailing dots and spaces it drops from a name, so TESTS/x and tests./x
// are tests/x there. A write scope is always matched as spelled (stricter, never wider).
function guardGlobHit(policy, list, rel, fold) {
  const f = fold && (process.platform === "darwin" || process.platform === "win32");
  if (f && process.platform === "win32") rel = rel.split("/").map((c) => c === "." || c === ".." ? c : c.replace(/[. ]+$/, "")).join("/");
  // what folds onto ASCII there too (the Kelvin sign is K in NFD, long s upper-cases to S), matched
  // in every form: a never-write list only refuses more
  const forms = f && /[^\x00-\x7f]/.test(rel) ? [rel, rel.normalize("NFD"), rel.normalize("NFC"), rel.normalize("NFD").toUpperCase()] : [rel];
  for (const k of list) {
    const g = policy.globs[k];
    const key = f ? -1 - k : k;
    let re = guardReCache.get(key);
    if (!re) { re = new RegExp(g.re, f ? "i" : ""); guardReCache.set(key, re); }
    if (forms.some((r) => re.test(r))) return g;
  }
  return null;
}

// Why role may not write rels, or null.
function guardRoleWrite(policy, role, rels) {
  for (const rel of rels) { const g = guardGlobHit(policy, role.n, rel, true); if (g) return "never-write: " + g.l; }
  for (const rel of rels) if (!guardGlobHit(policy, role.w, rel)) return role.w.length ? "not in its write scope: " + role.w.map((k) => policy.globs[k].g).join(", ") : "its role writes no files";
  return null;
}

// Why the caller may not write rels, or null. The orchestrator may write what a main-session role may.
function guardWriteWhy(st, rels) {
  const policy = st.policy;
  for (const rel of rels) {
    const g = guardGlobHit(policy, policy.protect, rel, true) || guardGlobHit(policy, policy.never, rel, true);
    if (g) return "never-write: " + g.l;
  }
  if (st.role) return guardRoleWrite(policy, st.role, rels);
  const mains = Object.keys(policy.roles).filter((id) => policy.kinds[policy.roles[id]].main);
  let first = null;
  for (const id of mains) {
    const why = guardRoleWrite(policy, policy.kinds[policy.roles[id]], rels);
    if (why === null) return null;
    if (first === null && why.startsWith("never-write")) first = why;
  }
  if (first) return first;
  const globs = [];
  for (const id of mains) for (const k of policy.kinds[policy.roles[id]].w) if (!globs.includes(policy.globs[k].g)) globs.push(policy.globs[k].g);
  return globs.length ? "not in the main-thread write scope: " + globs.join(", ") : "no main-session role writes files";
}

// Roles whose scope holds rels (advice for the orchestrator).
function guardOwners(st, rels) {
  const out = [];
  for (const id of Object.keys(st.policy.roles)) if (guardRoleWrite(st.policy, st.policy.kinds[st.policy.roles[id]], rels) === null) out.push(id);
  return out;
}
`;
