// The audit's own state, signed (issue 22): JavaScript source pasted into the generated script after
// runtime.ts (same rules: ES2022, free variables fs, path, os, crypto; a String.raw template, so never
// a backtick or the dollar-brace pair). Needs src/adapter/state-key.ts's source (hsHome, hsKey, hsRead).
//
// A role's code runs as the same user and can write .git/harness-audit/: an "active" record there lent
// another role's write scope to every later stage, a rewritten verdict passed a failed stage, a deleted
// chain record skipped the check between stages. So every record that grants something carries an
// HMAC-SHA256 over (the audit folder, its kind, its name, its content), keyed by
// <home>/.local/state/harness/audit.key (outside the project; <home> from the passwd database). A record
// copied from another project, session or stage does not verify. Deletion and replay of an older copy
// are caught by witnesses kept beside the key, in audit/<hash of the audit folder>/:
//   stage-<key>   "run <mac of the start state>" from the start, "done <mac of the verdict>" from the stop,
//                 removed when the report took the verdict (a week old: swept)
//   chain-<s>     the mac of session s's last boundary record
// A record that does not verify never lends a scope (ignored) and never passes a stage (it fails, loudly).
// Tamper-evident, not tamper-proof: code that reads the key, or rewrites the witnesses with it, can forge.
export const AUDIT_SIGNED_SOURCE = String.raw`
const auditSign = { dir: null, key: null, witness: null };

function auditSignUse(dir) {
  if (auditSign.dir === dir) return;
  const home = hsHome(typeof AUDIT_KEY_HOME === "string" ? AUDIT_KEY_HOME : null);
  // no home: no key; never an unsigned (trusted) record
  if (!home) throw new Error("the account has no home folder for the audit's key (~/.local/state/harness)");
  auditSign.key = hsKey(path.join(hsDir(home), "audit.key"));
  auditSign.witness = path.join(hsDir(home), "audit", crypto.createHash("sha256").update(dir).digest("hex").slice(0, 32));
  auditSign.dir = dir;
}
function auditMac(dir, kind, name, body) {
  auditSignUse(dir);
  return crypto.createHmac("sha256", auditSign.key).update(JSON.stringify([dir, kind, name]) + "\n" + body).digest("hex");
}
function auditMacOk(a, b) { return typeof a === "string" && a.length === b.length && crypto.timingSafeEqual(Buffer.from(a), Buffer.from(b)); }

/** Write a JSON record with its mac (a field beside the others); returns the mac. */
function auditSignedWrite(dir, p, kind, name, rec) {
  const data = Object.assign({}, rec);
  delete data.mac;
  const mac = auditMac(dir, kind, name, JSON.stringify(data));
  auditWriteJson(p, Object.assign(data, { mac: mac }));
  return mac;
}
/** A signed JSON record: null when missing; throws when unreadable or its mac does not verify. */
function auditSignedRead(dir, p, kind, name, what) {
  let v;
  try { v = auditReadJson(p); } catch (e) { if (e && e.code === "ENOENT") return null; throw new Error(what + " is unreadable (" + (e.code || auditOneLine(e.message, 120)) + ")"); }
  if (!v || typeof v !== "object") throw new Error(what + " is not the audit's (no signature)");
  const data = Object.assign({}, v);
  delete data.mac;
  if (!auditMacOk(v.mac, auditMac(dir, kind, name, JSON.stringify(data)))) throw new Error(what + " was not written by the audit for this project (its signature does not verify)");
  return v;
}
/** A one-line record (a running stage's role): "<text>\n<mac>"; null when missing or forged. */
function auditSignedLine(dir, kind, name, text) { return text + "\n" + auditMac(dir, kind, name, text) + "\n"; }
function auditSignedLineRead(dir, kind, name, b) {
  const t = b.toString("utf8").split("\n");
  return t.length >= 2 && auditMacOk(t[1], auditMac(dir, kind, name, t[0])) ? t[0] : null;
}

function auditWitnessPath(dir, name) { auditSignUse(dir); return path.join(auditSign.witness, name); }
function auditWitnessRead(dir, name) {
  try { return hsRead(auditWitnessPath(dir, name)).toString("utf8").trim(); } catch (e) { if (e && e.code === "ENOENT") return null; throw e; }
}
function auditWitnessWrite(dir, name, text) {
  const p = auditWitnessPath(dir, name);
  fs.mkdirSync(path.dirname(p), { recursive: true, mode: 0o700 });
  const t = p + ".tmp" + process.pid;
  fs.writeFileSync(t, text + "\n", { mode: 0o600 });
  fs.renameSync(t, p);
}
function auditWitnessRemove(dir, name) { fs.rmSync(auditWitnessPath(dir, name), { force: true }); }
/** Witnesses a week old go with the records they stand for (auditSweep). */
function auditWitnessSweep(dir, now) {
  auditSignUse(dir);
  let names = [];
  try { names = fs.readdirSync(auditSign.witness); } catch (e) { names = []; }
  for (const f of names) { const p = path.join(auditSign.witness, f); try { if (now - fs.statSync(p).mtimeMs > AUDIT_STALE_MS) fs.rmSync(p, { force: true }); } catch (e) { /* raced */ } }
}
/** The SHA-256 of a file the audit copied (an index, an excludes copy), "" when missing. */
function auditCopyHash(p) { const b = auditReadRegular(p); return b === null ? "" : crypto.createHash("sha256").update(b).digest("hex"); }
function auditCheckHash(p, want, what) {
  if (typeof want !== "string") throw new Error(what + " has no recorded hash");
  if (auditCopyHash(p) !== want) throw new Error(what + " was changed outside the audit (" + path.basename(p) + ")");
}
`;
