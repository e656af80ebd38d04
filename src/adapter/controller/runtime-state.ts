// The run controller's state: one run per host session, under a lock, signed. JavaScript source text
// pasted into the generated script (rules in src/adapter/guard/render.ts: no imports, no side effects
// at the top level, no backticks, no dollar-brace). Needs `fs`, `path`, `os`, `crypto` in scope, and
// src/adapter/state-key.ts's source pasted before it (hsHome, hsKey, hsRead).
//
// Where things live:
//   <project>/.harness/controller/<session>.json   the state { mac, data } (data.record = the run record)
//   <project>/.harness/runs/<run-id>.json           the run record (RUN-RECORD.md), rewritten at each change
//   <home>/.local/state/harness/controller.key      the HMAC key, outside the project
//   <home>/.local/state/harness/sessions/<session>  the mac of the last state the controller wrote
// <home> is the account's home from the passwd database (by uid), never $HOME: a host copies its
// settings' `env` into the hook's environment, so a HOME from there would move (and lose) the record.
// The state is signed with a key no project file holds, and the last mac is kept outside the project
// as well: a state that a program rewrote, replaced by an older copy, or deleted no longer matches,
// and the run stops (fail closed).
export const CONTROLLER_STATE_SOURCE = String.raw`
const CTL_TAMPERED = "tampered: ";
/** the account's home by uid (getpwuid), or null when the account has none; CTL_HOME: a fixed one (tests) */
function ctlHome() { return hsHome(typeof CTL_HOME === "string" ? CTL_HOME : null); }
function ctlSafe(id) { return String(id).replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 128); }
function ctlPaths(M, root, home, sid) {
  const dir = path.join(root, M.stateDir);
  const priv = hsDir(home);
  return {
    dir: dir,
    state: path.join(dir, "controller", ctlSafe(sid) + ".json"),
    lock: path.join(dir, "controller", ctlSafe(sid) + ".lock"),
    runs: path.join(dir, "runs"),
    key: path.join(priv, "controller.key"),
    witness: path.join(priv, "sessions", ctlSafe(sid)),
  };
}
function ctlWriteAtomic(file, text, mode) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = file + "." + process.pid + "." + crypto.randomBytes(3).toString("hex") + ".tmp";
  fs.writeFileSync(tmp, text, mode ? { mode: mode } : undefined);
  fs.renameSync(tmp, file);
}
function ctlKey(P) { return hsKey(P.key); }
function ctlRead(f) { return hsRead(f); }
function ctlMac(key, body) { return crypto.createHmac("sha256", key).update(body).digest("hex"); }
function ctlExists(f) { try { fs.statSync(f); return true; } catch (e) { return false; } }
/** Hooks of one session run at the same time (Codex: a child's start beside the parent's post), so
 *  every read-modify-write holds a lock directory; one older than 30 s is stale. */
function ctlLock(P) {
  fs.mkdirSync(path.dirname(P.lock), { recursive: true });
  const t0 = Date.now();
  for (;;) {
    try { fs.mkdirSync(P.lock); break; } catch (e) {
      if (!e || e.code !== "EEXIST") throw e;
      if (Date.now() - t0 > 30000) { try { fs.rmdirSync(P.lock); } catch (e2) { /* taken meanwhile */ } continue; }
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    }
  }
  process.on("exit", function () { try { fs.rmdirSync(P.lock); } catch (e) { /* gone */ } });
}
/** null: the session has no run. { data }: the run. { tampered, data? }: the state does not match the controller's own record. */
function ctlLoad(P) {
  const hasState = ctlExists(P.state), hasWitness = ctlExists(P.witness);
  if (!hasState && !hasWitness) return null;
  if (!hasWitness) return { tampered: "the controller's own record of this run (outside the project) is missing" };
  if (!hasState) return { tampered: "the run state " + P.state + " was deleted" };
  let doc;
  try { doc = JSON.parse(ctlRead(P.state).toString("utf8")); } catch (e) { return { tampered: "the run state is not valid JSON" }; }
  if (!doc || typeof doc !== "object" || typeof doc.mac !== "string" || !doc.data) return { tampered: "the run state has no signature" };
  const key = ctlKey(P);
  const body = JSON.stringify(doc.data);
  const witness = ctlRead(P.witness).toString("utf8").trim();
  if (witness.indexOf(CTL_TAMPERED) === 0) return { tampered: witness.slice(CTL_TAMPERED.length), data: ctlMac(key, body) === doc.mac ? doc.data : undefined };
  if (ctlMac(key, body) !== doc.mac) return { tampered: "the run state was rewritten outside the controller (its signature does not match)", data: doc.data };
  if (witness !== doc.mac) return { tampered: "the run state was replaced by another copy (it is not the one the controller last wrote)", data: doc.data };
  return { data: doc.data };
}
/** The audit's check of a state file it finds changed in a stage: null when the controller wrote it
 *  (signed, and the one its record outside the project names), else why not. The audit holds no lock
 *  (the controller may be running a stage's commands), so a mismatch is read again a few times: a save
 *  in flight settles within milliseconds, a forged or stale copy stays. */
function ctlVerify(P) {
  let why = null;
  for (let i = 0; i < 6; i++) {
    if (i) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    const hasState = ctlExists(P.state), hasWitness = ctlExists(P.witness);
    if (!hasWitness) return hasState ? "the controller's own record of this run (outside the project) is missing" : null;
    if (!hasState) { why = "the run state " + P.state + " was deleted"; continue; }
    let doc = null, witness = "", key = "";
    try { doc = JSON.parse(ctlRead(P.state).toString("utf8")); witness = ctlRead(P.witness).toString("utf8").trim(); key = ctlRead(P.key).toString("utf8").trim(); } catch (e) { why = "the run state cannot be read (" + ctlLine((e && e.message) || e, 200) + ")"; continue; }
    if (witness.indexOf(CTL_TAMPERED) === 0) return witness.slice(CTL_TAMPERED.length);
    if (!doc || typeof doc.mac !== "string" || !doc.data) { why = "the run state has no signature"; continue; }
    if (ctlMac(key, JSON.stringify(doc.data)) !== doc.mac) { why = "the run state was rewritten outside the controller (its signature does not match)"; continue; }
    if (witness !== doc.mac) { why = "the run state was replaced by another copy (it is not the one the controller last wrote)"; continue; }
    return null;
  }
  return why;
}
/** Marks the run tampered in the controller's own record (made anew if it was deleted): its next hook stops the run (fail closed). */
function ctlMarkTampered(P, why) {
  ctlWriteAtomic(P.witness, CTL_TAMPERED + ctlLine(why, 400) + "\n", 0o600);
}
function ctlSave(P, data) {
  const key = ctlKey(P);
  const body = JSON.stringify(data);
  const mac = ctlMac(key, body);
  ctlWriteAtomic(P.state, JSON.stringify({ mac: mac, data: data }, null, 2) + "\n");
  ctlWriteAtomic(P.witness, mac + "\n", 0o600);
  const r = data.record;
  ctlWriteAtomic(path.join(P.runs, r.id + ".json"), JSON.stringify(r, null, 2) + "\n");
}
function ctlRunId(now) { return now.replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z") + "-" + crypto.randomBytes(3).toString("hex"); }
function ctlSha(root, rel) { try { return crypto.createHash("sha256").update(ctlRead(path.join(root, rel))).digest("hex"); } catch (e) { return null; } }
function ctlLine(s, n) { s = String(s).replace(/\s+/g, " ").trim(); return s.length > n ? s.slice(0, n - 1) + "\u2026" : s; }
`;
