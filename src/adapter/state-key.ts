// Where harness keeps the keys that sign its own state (the run controller's, the stage-end audit's):
// outside the project, in <home>/.local/state/harness/, <home> being the account's home from the
// passwd database (by uid), never $HOME: a host copies its settings' `env` into a hook's environment,
// so a HOME from there would move the key (and a role's code could name one it wrote itself).
// JavaScript source text pasted into generated scripts (no imports, no side effects at the top level,
// no backticks, no dollar-brace); needs `fs`, `path`, `os`, `crypto` in scope.
export const STATE_KEY_SOURCE = String.raw`
/** the account's home by uid (getpwuid), or null when it has none; fixed: a given one (tests) */
function hsHome(fixed) {
  if (typeof fixed === "string") return fixed;
  try { const h = os.userInfo().homedir; return typeof h === "string" && path.isAbsolute(h) ? h : null; } catch (e) { return null; }
}
/** <home>/.local/state/harness */
function hsDir(home) { return path.join(home, ".local", "state", "harness"); }
/** A regular file's bytes (following a link), never opened blocking: a FIFO a stage's code put in place of a state
 *  file would hold the hook until the host's timeout. Missing: ENOENT, as readFileSync throws; anything else throws too. */
function hsRead(f) {
  const st = fs.statSync(f);
  if (!st.isFile()) throw new Error(f + " is not a regular file (code a stage ran replaced it)");
  const fd = fs.openSync(f, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK || 0));
  try {
    if (!fs.fstatSync(fd).isFile()) throw new Error(f + " is not a regular file (code a stage ran replaced it)");
    return fs.readFileSync(fd);
  } finally { fs.closeSync(fd); }
}
/** The key in this file, made (0600, in a 0700 folder) when there is none: a missing key never means "unsigned". */
function hsKey(file) {
  try { const k = hsRead(file).toString("utf8").trim(); if (k.length >= 32) return k; } catch (e) { if (!e || e.code !== "ENOENT") throw e; }
  const k = crypto.randomBytes(32).toString("hex");
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try { fs.writeFileSync(file, k + "\n", { flag: "wx", mode: 0o600 }); return k; } catch (e) {
    const had = hsRead(file).toString("utf8").trim();
    if (had.length < 32) throw new Error("the key " + file + " is too short (replace it or remove it)");
    return had;
  }
}
`;
