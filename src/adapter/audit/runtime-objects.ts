// git's object store and replace refs, as the audit must trust them (r7). The audit compares the work
// tree with the start's tree by object id and restores from that tree's objects, and the human's next
// checkout, reset or stash writes files from the same store. Code a stage ran can rewrite a loose
// object (the start tree's file, named by its id, holding another tree), add a pack whose index
// names other content, a commit graph or multi-pack index that points elsewhere, or a replace ref
// (refs/replace/<id>), which every git reads in place of the object. The audit's git reads no replace
// refs (runtime.ts); here every object file written since the last boundary is checked against its
// name, what does not match is removed, and the replace refs are put back as they were.
// JavaScript source pasted into the generated script (same rules as runtime.ts: ES2022, free
// variables fs, path, cp, crypto, zlib; a String.raw template, so never a backtick or the dollar-brace pair).
export const AUDIT_OBJECTS_SOURCE = String.raw`
/** The replace refs as "oid refname" lines (sorted), the same for any git (packed or loose). */
function auditReplaceRefs(ctx) {
  let out = "";
  try { out = auditGit(ctx, ["for-each-ref", "--format=%(objectname) %(refname)", "refs/replace/"]); } catch (e) { return ""; }
  return out.split("\n").filter(Boolean).sort().join("\n");
}

/** Put the replace refs back as "then" lists them; one violation per ref that differed. */
function auditRestoreReplaceRefs(ctx, then) {
  if (typeof then !== "string") return [];
  const now = auditReplaceRefs(ctx);
  if (now === then) return [];
  const map = (t) => new Map(t.split("\n").filter(Boolean).map((l) => [l.slice(l.indexOf(" ") + 1), l.slice(0, l.indexOf(" "))]));
  const a = map(then), b = map(now), out = [];
  for (const [ref, oid] of b) if (!a.has(ref)) { auditGit(ctx, ["update-ref", "-d", ref]); out.push({ path: ".git/" + ref, kind: "created", restored: true, guarded: true }); }
  for (const [ref, oid] of a) if (b.get(ref) !== oid) { auditGit(ctx, ["update-ref", ref, oid]); out.push({ path: ".git/" + ref, kind: b.has(ref) ? "modified" : "deleted", restored: true, guarded: true }); }
  const ok = auditReplaceRefs(ctx) === then;
  if (!ok) for (const v of out) v.restored = false;
  return out;
}

/** Does this object's content hash to its name ("type size\0content", sha1 or sha256 by the name's length)? */
function auditObjectMatches(oid, type, body) {
  const h = crypto.createHash(oid.length === 64 ? "sha256" : "sha1");
  h.update(type + " " + body.length + "\u0000");
  h.update(body);
  return h.digest("hex") === oid;
}

/**
 * Check every object file of the common git folder written since "since" (ms; ctime, which no code
 * can set back): loose objects, packs, the commit graph and the multi-pack index. What does not hold
 * the object it names is removed (git falls back to the others, or finds the object missing and says
 * so). Returns violations; throws only where git itself cannot be run.
 */
function auditVerifyObjects(ctx, since) {
  if (typeof since !== "number") return [];
  const objects = path.join(ctx.commonDir, "objects");
  const out = [];
  // from the start of the boundary's second: a file system that keeps whole seconds rounds a write in it down
  const from = since - (since % 1000);
  const fresh = (p) => { try { const st = fs.lstatSync(p); return st.ctimeMs >= from ? st : null; } catch (e) { return null; } };
  const drop = (p, shown, kind) => { fs.rmSync(p, { recursive: true, force: true }); out.push({ path: shown, kind: kind, restored: true, removed: true, guarded: true }); };
  // and the stores its alternates name (r7: a clone made with --reference or --shared finds the start
  // tree there when the other repository holds it, and a stage's code can rewrite it in that store)
  const stores = [[objects, ".git/objects"]];
  try { for (const l of auditReadText(path.join(objects, "info", "alternates")).split("\n")) if (l.trim() && !l.startsWith("#")) { const a = path.resolve(objects, l.trim()); stores.push([a, a]); } } catch (e) { /* none */ }
  for (const [objects, shown] of stores) {
    let dirs = [];
    try { dirs = fs.readdirSync(objects); } catch (e) { dirs = []; }
    for (const d of dirs) {
      if (!/^[0-9a-f]{2}$/.test(d)) continue; // every file: one rewritten in place leaves its folder's ctime as it was
      let names = [];
      try { names = fs.readdirSync(path.join(objects, d)); } catch (e) { names = []; }
      for (const n of names) {
        // as bounded as the audit's git: a stage that wrote more objects than can be read in time fails loudly
        if (Date.now() > AUDIT_T0 + AUDIT_BUDGET_MS) throw new Error("the objects written to git since the last boundary are too many to check within the audit's time limit (" + (AUDIT_BUDGET_MS / 1000) + " s)");
        if (!/^([0-9a-f]{38}|[0-9a-f]{62})$/.test(n)) continue;
        const p = path.join(objects, d, n);
        const st = fresh(p);
        if (!st) continue;
        let ok = false;
        if (st.isFile()) {
          try {
            const raw = zlib.inflateSync(auditReadRegular(p));
            const nul = raw.indexOf(0);
            const m = /^(blob|tree|commit|tag) (\d+)$/.exec(raw.subarray(0, nul).toString("latin1"));
            ok = Boolean(m) && Number(m[2]) === raw.length - nul - 1 && auditObjectMatches(d + n, m[1], raw.subarray(nul + 1));
          } catch (e) { ok = false; }
        }
        if (!ok) drop(p, shown + "/" + d + "/" + n, "rewritten: it does not hold the object it names");
      }
    }
    const packDir = path.join(objects, "pack");
    let packs = [];
    try { packs = fs.readdirSync(packDir).filter((f) => /\.idx$/.test(f)); } catch (e) { packs = []; }
    for (const idx of packs) {
      const p = path.join(packDir, idx);
      if (!fresh(p) && !fresh(p.replace(/\.idx$/, ".pack"))) continue;
      // r8: git touches a pack that holds an object it is asked to write again (a stash, a checkout, the
      // audit's own add), and each such stop read a large old pack in full: an index untouched since the
      // boundary with a pack whose bytes still hash to its name is the pack it was
      if (!fresh(p) && auditPackNamed(p.replace(/\.idx$/, ".pack"))) continue;
      if (!auditPackHolds(ctx, p)) for (const ext of [".pack", ".idx", ".rev", ".keep", ".bitmap", ".mtimes", ".promisor"]) { const f = p.replace(/\.idx$/, ext); if (fs.existsSync(f)) drop(f, shown + "/pack/" + path.basename(f), "written with objects that are not what their names say"); }
    }
    // what git reads in place of the objects: checked by git itself, and removed when it fails (git works without)
    for (const [rel, args] of [["info/commit-graph", ["commit-graph", "verify", "--object-dir", objects]], ["info/commit-graphs", ["commit-graph", "verify", "--object-dir", objects]], ["pack/multi-pack-index", ["multi-pack-index", "--object-dir=" + objects, "verify"]]]) {
      const p = path.join(objects, rel);
      if (!fresh(p)) continue;
      let ok = true;
      try { auditGit(ctx, ["-c", "core.commitGraph=true", "-c", "core.multiPackIndex=true"].concat(args)); } catch (e) { ok = false; }
      if (!ok) drop(p, shown + "/" + rel, "does not match the objects it describes");
    }
  }
  // r9: Git LFS's store (<common dir>/lfs/objects/xx/yy/<sha256 of the content>): the human's next
  // checkout or git lfs pull copies a file from it into the work tree, so an object a stage's code
  // rewrote under its name (a test's fixture) came back as other content, unseen by a tree audit that
  // found the work tree as it was. Each one written since the boundary must hash to its name.
  const lfs = path.join(ctx.commonDir, "lfs", "objects");
  const list = (d) => { try { return fs.readdirSync(d); } catch (e) { return []; } };
  for (const a of list(lfs)) for (const b of list(path.join(lfs, a))) for (const n of list(path.join(lfs, a, b))) {
    const p = path.join(lfs, a, b, n);
    const st = fresh(p);
    if (!st || st.isDirectory()) continue;
    if (!(st.isFile() && /^[0-9a-f]{64}$/.test(n) && n.startsWith(a + b) && auditFileHash(p, "sha256") === n)) drop(p, ".git/lfs/objects/" + a + "/" + b + "/" + n, "rewritten: it does not hold the Git LFS object it names");
  }
  return out;
}

/** A regular file's hash (hex), read in pieces within the audit's time limit; null when it cannot be read. */
function auditFileHash(p, algo) {
  let fd = null;
  try {
    fd = fs.openSync(p, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK || 0) | (fs.constants.O_NOFOLLOW || 0));
    if (!fs.fstatSync(fd).isFile()) return null;
    const h = crypto.createHash(algo), buf = Buffer.alloc(1 << 22);
    for (let k; (k = fs.readSync(fd, buf, 0, buf.length, null)) > 0; ) {
      if (Date.now() > AUDIT_T0 + AUDIT_BUDGET_MS) throw new Error("a Git LFS object could not be read within the audit's time limit (" + (AUDIT_BUDGET_MS / 1000) + " s)");
      h.update(buf.subarray(0, k));
    }
    return h.digest("hex");
  } catch (e) { if (/time limit/.test(String(e && e.message))) throw e; return null; }
  finally { if (fd !== null) fs.closeSync(fd); }
}

/**
 * The object check at a boundary (a stage's stop, or the next boundary after one): what was removed
 * may include the trees of the boundary's own snapshot, which are written again from its index (a
 * blob that is gone leaves its path unrestorable, which fails the stage loudly).
 */
function auditCheckObjects(ctx, since, tree, indexFile) {
  const out = auditVerifyObjects(ctx, since);
  if (!out.length || !tree || !fs.existsSync(indexFile)) return out;
  const tmp = indexFile + ".rebuild";
  try {
    // the entries only, into a new index: its cache of tree ids would let write-tree skip the trees it believes written
    const entries = auditGit(ctx, ["ls-files", "-s", "-z"], { env: { GIT_INDEX_FILE: indexFile }, buffer: true });
    // a file whose object was removed and which the work tree still holds as it was (HEAD's, untouched by
    // the stage): hashed again, so the human's next checkout finds it
    const missing = [];
    for (const rec of entries.toString("latin1").split("\u0000")) {
      const m = /^(100644|100755|120000) ([0-9a-f]+) 0\t(.+)$/s.exec(rec);
      if (m && out.some((v) => v.path.replace(/^\.git\/objects\/|\//g, "") === m[2])) missing.push(m[3]);
    }
    if (missing.length) try { auditGit(ctx, ["add", "-f", "--ignore-errors", "--pathspec-from-file=-", "--pathspec-file-nul"], { env: { GIT_INDEX_FILE: tmp + ".add", GIT_LITERAL_PATHSPECS: "1" }, input: Buffer.from(missing.join("\u0000") + "\u0000", "latin1") }); } catch (e) { /* a file changed since: its path fails the restore loudly */ }
    fs.rmSync(tmp + ".add", { force: true });
    fs.rmSync(tmp, { force: true });
    auditGit(ctx, ["update-index", "-z", "--index-info"], { env: { GIT_INDEX_FILE: tmp }, input: entries });
    const again = auditGit(ctx, ["write-tree"], { env: { GIT_INDEX_FILE: tmp } }).trim();
    if (again !== tree) throw new Error("the snapshot's tree could not be written again (" + again + " for " + tree + ")");
  } finally { fs.rmSync(tmp, { force: true }); }
  return out;
}

/** Do a pack's bytes hash to its trailer, and the trailer to its name (pack-<trailer>.pack, as git names one)? */
function auditPackNamed(packPath) {
  const m = /^pack-([0-9a-f]{40}|[0-9a-f]{64})\.pack$/.exec(path.basename(packPath));
  if (!m) return false;
  const n = m[1].length / 2;
  let fd = null;
  try {
    fd = fs.openSync(packPath, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK || 0) | (fs.constants.O_NOFOLLOW || 0));
    const st = fs.fstatSync(fd);
    if (!st.isFile() || st.size < 12 + n) return false;
    const h = crypto.createHash(n === 32 ? "sha256" : "sha1");
    const buf = Buffer.alloc(1 << 22);
    const body = st.size - n;
    for (let at = 0; at < body; ) {
      if (Date.now() > AUDIT_T0 + AUDIT_BUDGET_MS) throw new Error("a pack of git's could not be read within the audit's time limit (" + (AUDIT_BUDGET_MS / 1000) + " s)");
      const k = fs.readSync(fd, buf, 0, Math.min(buf.length, body - at), at);
      if (k <= 0) return false;
      h.update(buf.subarray(0, k));
      at += k;
    }
    const tail = Buffer.alloc(n);
    if (fs.readSync(fd, tail, 0, n, body) !== n) return false;
    const d = h.digest("hex");
    return d === tail.toString("hex") && d === m[1];
  } catch (e) { if (/time limit/.test(String(e && e.message))) throw e; return false; }
  finally { if (fd !== null) fs.closeSync(fd); }
}

/**
 * Does every object a pack's index names hash to its name, in that pack? git's verify-pack (index-pack
 * --verify) hashes each object from the pack's own bytes and compares the index it would write with
 * this one (r8: the objects read back through cat-file were buffered whole in the audit, so a fetch or
 * gc writing a pack of over 1 GB of content failed the stage with ENOBUFS; and cat-file may read an
 * object from an older pack, so a pack repeating one with other content was trusted). A verdict of
 * git's is the answer; a git that did not finish (the time limit) throws.
 */
function auditPackHolds(ctx, idxPath) {
  try { auditGit(ctx, ["verify-pack", idxPath]); return true; }
  catch (e) { if (typeof e.status === "number") return false; throw e; }
}

/**
 * Every ".git" below the top level, in a folder git lists (its files' folders, and the untracked
 * folders it sees as empty): git never reads a path named .git, so one that is no repository (a plain
 * folder or file) hides all it holds (r7: tests/.git/evil.test.ts was never seen). Byte strings from the top.
 */
function auditDotGits(ctx, indexFile) {
  const env = { GIT_INDEX_FILE: indexFile };
  const dirs = new Set();
  const addDirs = (p) => { for (let d = path.posix.dirname(p); d && d !== "." && !dirs.has(d); d = path.posix.dirname(d)) dirs.add(d); };
  for (const p of auditGit(ctx, ["ls-files", "-z"], { env: env, latin1: true }).split("\u0000")) if (p) addDirs(p);
  const untracked = auditGit(ctx, ["ls-files", "-z", "-o", "--directory", "--exclude-standard"], { env: env, latin1: true }).split("\u0000");
  for (const p of untracked) if (p) { if (p.endsWith("/")) dirs.add(p.slice(0, -1)); addDirs(p.replace(/\/$/, "")); }
  const out = new Set();
  for (const d of dirs) { try { fs.lstatSync(auditAbs(ctx, d + "/.git")); out.add(d + "/.git"); } catch (e) { /* none */ } }
  // a folder git sees as empty holds no file it reads, so the .git below one of its folders is looked for here (bounded: ignored folders look empty too)
  let budget = 5000;
  const walk = (d) => {
    let es = [];
    try { es = fs.readdirSync(auditAbs(ctx, d), { withFileTypes: true, encoding: "latin1" }); } catch (e) { return; }
    for (const e of es) {
      if (budget-- <= 0) return;
      if (e.name === ".git") out.add(d + "/.git");
      else if (e.isDirectory() && e.name !== "node_modules") walk(d + "/" + e.name);
    }
  };
  for (const p of untracked) if (p.endsWith("/")) walk(p.slice(0, -1));
  return [...out].sort();
}

/** The ".git" entries found now that were not there at the last boundary (ctx.dotgits), as blockers: removed whatever the scope. */
function auditNewDotGits(ctx, indexFile) {
  if (!Array.isArray(ctx.dotgits)) return [];
  const had = new Set(ctx.dotgits);
  return auditDotGits(ctx, indexFile).filter((p) => !had.has(p) && !auditMatch(POLICY.exempt, auditText(auditRel(ctx, p) || p))).map((p) => ({ path: p, kind: "created", remove: p }));
}
`;
