// Where the snapshot of the files that control enforcement keeps their bytes: JavaScript source pasted
// into the generated script after runtime-io.ts (same rules: ES2022, free variables fs, path, crypto;
// a String.raw template, so never a backtick or the dollar-brace pair).
//
// A snapshot names each file's content by its SHA-256; the bytes are stored once, in
// <audit folder>/blobs/<hash>, not inline in the stage's state. So a large guarded folder (a user's
// ~/.claude/plugins, with the scripts its hooks run) costs a read and a hash at each stage start, not
// a state file that grows with it. A blob is checked against its name when read back: one changed
// since is no content to restore (the stage fails loudly). Blobs no state or chain record names are
// removed at each stage's start and end, except while another stage's start is storing its own.
export const AUDIT_BLOBS_SOURCE = String.raw`
const AUDIT_BLOB_STALE_MS = 10 * 60 * 1000;
let auditBlobDir = null;
const auditBlobCache = new Map();

function auditBlobUse(auditDir) { auditBlobDir = path.join(auditDir, "blobs"); }
function auditBlobHash(b) { return crypto.createHash("sha256").update(b).digest("hex"); }

/** The hash of b, its bytes kept in memory and, with store, in the blob folder. */
function auditBlobPut(b, store) {
  const h = auditBlobHash(b);
  auditBlobCache.set(h, b);
  if (!store) return h;
  if (!auditBlobDir) throw new Error("the audit has no folder for its snapshot");
  const p = path.join(auditBlobDir, h);
  const now = new Date();
  // one stored before is reused only when it holds these bytes (code a stage ran can write the folder)
  try { const had = auditReadRegular(p); if (had !== null && had.equals(b)) { fs.utimesSync(p, now, now); return h; } } catch (e) { /* not stored, or no regular file */ }
  fs.mkdirSync(auditBlobDir, { recursive: true });
  fs.rmSync(p, { recursive: true, force: true });
  const t = p + ".tmp" + process.pid;
  fs.writeFileSync(t, b);
  fs.renameSync(t, p);
  return h;
}

/** A file snapshot's bytes (inline in a state written before the blob folder existed). */
function auditSnapBytes(snap) {
  if (typeof snap.d === "string") return Buffer.from(snap.d, "base64");
  const h = snap.h;
  const c = auditBlobCache.get(h);
  if (c) return c;
  if (typeof h !== "string" || !/^[0-9a-f]{64}$/.test(h) || !auditBlobDir) throw new Error("the snapshot names no content");
  const b = auditReadRegular(path.join(auditBlobDir, h));
  if (b === null || auditBlobHash(b) !== h) throw new Error("the snapshot's content is missing or changed (" + h.slice(0, 12) + ")");
  auditBlobCache.set(h, b);
  return b;
}

/** A stage's start is storing blobs its state does not name yet: marked, so no prune removes them. */
function auditBlobBegin(key) {
  if (!auditBlobDir) return null;
  const mark = path.join(auditBlobDir, ".start-" + process.pid + "-" + key);
  // a prune beside it removes the folder once it is empty, between the mkdir and the mark's write
  for (let tries = 0; ; tries++) {
    fs.mkdirSync(auditBlobDir, { recursive: true });
    try { fs.writeFileSync(mark, ""); return mark; } catch (e) { if (e.code !== "ENOENT" || tries >= 8) throw e; }
  }
}
function auditBlobEnd(mark) { if (mark) fs.rmSync(mark, { force: true }); }

/** The blob names the stage states and chain records in auditDir name. */
function auditBlobNamed(auditDir) {
  const named = new Set();
  for (const sub of ["", "chain"]) {
    let files = [];
    try { files = fs.readdirSync(path.join(auditDir, sub)); } catch (e) { files = []; }
    for (const f of files) {
      if (!/\.(state|json)$/.test(f)) continue;
      let b = null;
      try { b = auditReadRegular(path.join(auditDir, sub, f)); } catch (e) { b = null; }
      if (b) for (const m of b.toString("latin1").matchAll(/"h":\s*"([0-9a-f]{64})"/g)) named.add(m[1]);
    }
  }
  return named;
}

/** How long ago a blob was moved off its name (a rename changes its ctime, not its mtime). */
function auditBlobMovedAgo(p) { try { return Date.now() - fs.lstatSync(p).ctimeMs; } catch (e) { return -1; } }

/** Whether a stage's start is storing blobs now (stale marks, of a start that died, are removed). */
function auditBlobStarting(dir, age) {
  let starting = false;
  let names = [];
  try { names = fs.readdirSync(dir); } catch (e) { names = []; }
  for (const n of names) if (n.startsWith(".start-")) { if (age(n) > AUDIT_BLOB_STALE_MS) fs.rmSync(path.join(dir, n), { force: true }); else starting = true; }
  return starting;
}

/**
 * Remove the blobs no state or chain record names: all of them when no start is storing blobs, else
 * those older than AUDIT_BLOB_STALE_MS (the folder goes with its last blob).
 *
 * A start that begins while this runs can reuse a blob the listing found unnamed. So each blob is
 * first moved off its name, then the marks and the states are read again: a start that began since
 * then finds it missing and stores it anew, and one that reused it before the move has its mark, or
 * its state, seen now; such a blob goes back.
 */
function auditBlobPrune(auditDir) {
  const dir = path.join(auditDir, "blobs");
  // a real folder only (r6): through a link a stage's code put in its place, the prune removed every
  // file of the folder the link names (the project's .claude/hooks, after the stage's audit passed)
  try { if (!fs.lstatSync(dir).isDirectory()) return; } catch (e) { return; }
  let names;
  try { names = fs.readdirSync(dir); } catch (e) { return; }
  const now = Date.now();
  const age = (n) => { try { return now - fs.lstatSync(path.join(dir, n)).mtimeMs; } catch (e) { return -1; } };
  const named = auditBlobNamed(auditDir);
  const starting = auditBlobStarting(dir, age);
  const gone = [];
  for (const n of names) {
    if (n.startsWith(".start-") || named.has(n)) continue;
    const p = path.join(dir, n);
    if (n.startsWith(".gone-")) { if (auditBlobMovedAgo(p) > AUDIT_BLOB_STALE_MS) fs.rmSync(p, { recursive: true, force: true }); continue; } // of a prune that died
    if (starting && age(n) <= AUDIT_BLOB_STALE_MS) continue;
    const t = path.join(dir, ".gone-" + process.pid + "-" + n);
    try { fs.renameSync(p, t); gone.push([n, p, t]); } catch (e) { /* raced */ }
  }
  if (gone.length) {
    const namedNow = auditBlobNamed(auditDir);
    const startingNow = auditBlobStarting(dir, age);
    for (const [n, p, t] of gone) {
      let fresh = false;
      try { fresh = now - fs.lstatSync(t).mtimeMs <= AUDIT_BLOB_STALE_MS; } catch (e) { continue; }
      const keep = namedNow.has(n) || (startingNow && fresh);
      // one stored anew under its name meanwhile holds the same bytes, and stays
      if (keep && !fs.existsSync(p)) fs.renameSync(t, p); else fs.rmSync(t, { recursive: true, force: true });
    }
  }
  try { fs.rmdirSync(dir); } catch (e) { /* not empty */ }
}
`;
