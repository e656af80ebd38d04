// The snapshot of the files that control enforcement: how one path is read (a file by its bytes and
// permission bits, a link with the file it names, a guarded folder file by file), compared (the keys
// a host rewrites itself left out) and put back. JavaScript source pasted into the generated script
// after runtime-blobs.ts (same rules: ES2022, free variables fs, path, POLICY; a String.raw template,
// so never a backtick or the dollar-brace pair). The list of what is read is runtime-boundary.ts's.
export const AUDIT_SNAPSHOT_SOURCE = String.raw`
const AUDIT_GUARDED_MAX = 128 << 20;
const AUDIT_LINKED_MAX = 1 << 20;

/** One path's state: { t: "none" | "file" | "link" | "dir" | "other", … }; folders only for tree entries, without the names budget.skip holds. */
function auditReadPath(abs, tree, budget) {
  let st;
  try { st = fs.lstatSync(abs); } catch (e) { if (e.code === "ENOENT" || e.code === "ENOTDIR") return { t: "none" }; throw e; }
  if (st.isSymbolicLink()) {
    const s = { t: "link", d: fs.readlinkSync(abs, { encoding: "buffer" }).toString("base64") };
    // r5: the file the link names, by content: every reader of the guarded path (bash for ~/.bashrc,
    // git for .git/hooks/pre-commit) reads it, so a write through the link (a dotfiles manager's
    // ~/.bashrc -> dotfiles/bashrc, a hook linked into a role's write scope) is a change too
    let real = null, rst = null;
    try { real = fs.realpathSync(abs, { encoding: "buffer" }); rst = fs.statSync(real); } catch (e) { rst = null; }
    // a target too large to hold (a hook linked to a binary) is compared by its inode, size and time,
    // and its change fails the stage without a restore
    if (rst && rst.isFile() && rst.size > AUDIT_LINKED_MAX) s.f = { p: real.toString("base64"), s: [rst.ino, rst.size, rst.mtimeMs, rst.ctimeMs].join(":") };
    else if (rst && rst.isFile()) { const f = auditReadPath(real, false, budget); if (f.t === "file") s.f = Object.assign({ p: real.toString("base64") }, f); }
    return s;
  }
  // a program a settings file names (auditCommandFiles): a binary is compared by its inode, size and times
  if (st.isFile() && budget.cap && st.size > budget.cap) return { t: "big", s: [st.ino, st.size, st.mtimeMs, st.ctimeMs, st.mode & 0o7777].join(":") };
  if (st.isFile()) {
    budget.left -= st.size;
    if (budget.left < 0) throw new Error("the files that control enforcement are too large to snapshot (over " + (AUDIT_GUARDED_MAX >> 20) + " MB)");
    // swapped for a FIFO since the lstat: never opened blocking (runtime-io.ts)
    let b;
    try { b = auditReadRegular(abs); } catch (e) { return { t: "other" }; }
    if (b === null) return { t: "none" };
    // m (r5): the permission bits, compared and put back as they were; a restore used to write 0644,
    // which made an ~/.npmrc or ~/.copilot/config.json holding a token (0600) readable by every account
    return { t: "file", x: st.mode & 0o111 ? 1 : 0, m: st.mode & 0o7777, h: auditBlobPut(b, budget.store === true) };
  }
  if (st.isDirectory() && tree) {
    const e = {};
    for (const name of fs.readdirSync(abs, { encoding: "buffer" }).sort(Buffer.compare)) if (!(budget.skip && budget.skip.has(name.toString("latin1")))) e[name.toString("latin1")] = auditReadPath(Buffer.concat([Buffer.from(abs), Buffer.from("/"), name]), true, budget);
    return { t: "dir", m: st.mode & 0o7777, e: e };
  }
  return { t: st.isDirectory() ? "dir" : "other", k: st.isDirectory() ? undefined : auditFileKind(st) };
}

function auditSnapGuarded(ctx) {
  const budget = { left: AUDIT_GUARDED_MAX, store: true };
  const out = {};
  for (const g of auditGuardedList(ctx)) { budget.skip = g.skip; budget.cap = g.named ? AUDIT_LINKED_MAX : 0; out[g.abs] = auditReadPath(g.abs, g.tree, budget); }
  return out;
}

/** Delete the keys the host rewrites itself (dotted paths, * for any key) from a parsed JSON value. */
function auditDropVolatile(v, volatile) {
  const drop = (o, parts) => {
    if (!o || typeof o !== "object" || Array.isArray(o)) return;
    const [k, ...rest] = parts;
    for (const name of k === "*" ? Object.keys(o) : [k]) { if (!rest.length) delete o[name]; else drop(o[name], rest); }
  };
  for (const p of volatile || []) drop(v, p.split("."));
}

/** JSON text without the keys the host rewrites itself (dotted paths, * for any key); null when it does not parse. */
function auditWithoutVolatile(bytes, volatile) {
  let v;
  try { v = JSON.parse(bytes.toString("utf8")); } catch (e) { return null; }
  auditDropVolatile(v, volatile);
  // defined, never assigned (r5): an assigned "__proto__" key set the copy's prototype, which
  // JSON.stringify leaves out, so whatever a stage wrote below it compared as no change
  const sorted = (x) => Array.isArray(x) ? x.map(sorted) : x && typeof x === "object" ? Object.keys(x).sort().reduce((o, k) => Object.defineProperty(o, k, { value: sorted(x[k]), enumerable: true, writable: true, configurable: true }), {}) : x;
  return JSON.stringify(sorted(v));
}

function auditSameGuarded(then, now, volatile) {
  if (JSON.stringify(then) === JSON.stringify(now)) return true;
  // the same link to the same file: that file compared as the guarded file itself (its volatile keys too)
  if (then.t === "link" && now.t === "link" && then.d === now.d && then.f && now.f && then.f.p === now.f.p && auditHasBytes(then.f) && auditHasBytes(now.f)) return auditSameGuarded(auditLinked(then.f), auditLinked(now.f), volatile);
  if (then.t !== "file" || now.t !== "file" || then.x !== now.x) return false;
  // the same permission bits; the file the host rewrites itself may come back with fewer (its own 0600), never more
  if (then.m !== undefined && now.m !== then.m && (!volatile || now.m === undefined || (now.m & ~then.m) !== 0)) return false;
  let a, b;
  try { a = auditSnapBytes(then); b = auditSnapBytes(now); } catch (e) { return false; }
  if (a.equals(b)) return true; // also a state written inline (before blobs) against a hashed read
  if (!volatile) return false;
  // r6: JSON nested too deep for the key-sorting copy (200000 brackets under a key) threw out of the
  // whole stop, so neither this file nor any path after it was put back; it is a change
  try { const x = auditWithoutVolatile(a, volatile); return x !== null && x === auditWithoutVolatile(b, volatile); }
  catch (e) { return false; }
}

/** Does a file snapshot hold its content (inline, or by hash), not only its inode, size and time. */
function auditHasBytes(f) { return typeof f.d === "string" || typeof f.h === "string"; }

/** A file's permission bits as snapshotted (a snapshot from before r5 holds only the executable bit). */
function auditModeOf(snap) { return snap.m !== undefined ? snap.m : snap.x ? 0o755 : 0o644; }
/** The file a link's snapshot names, as a file snapshot (without its path). */
function auditLinked(f) { const o = Object.assign({}, f); delete o.p; return o; }

/** Write a snapshot back at abs (a file through a temporary name and a rename); names in skip are the host's own, left as they are. */
function auditPutPath(abs, snap, skip) {
  let st = null;
  try { st = fs.lstatSync(abs); } catch (e) { st = null; }
  if (snap.t === "none") { if (st) fs.rmSync(abs, { recursive: true, force: true }); return; }
  if (snap.t === "file") {
    if (st && st.isDirectory()) fs.rmSync(abs, { recursive: true, force: true });
    // r5: a file with other hard links (a dotfiles manager's) is written in place, never through a
    // link (O_NOFOLLOW): a rename would leave the change under its other names
    if (st && st.isFile() && st.nlink > 1) {
      const fd = fs.openSync(abs, fs.constants.O_WRONLY | fs.constants.O_TRUNC | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
      try { if (!fs.fstatSync(fd).isFile()) throw new Error("not a regular file"); fs.writeFileSync(fd, auditSnapBytes(snap)); fs.fchmodSync(fd, auditModeOf(snap)); } finally { fs.closeSync(fd); }
      return;
    }
    fs.mkdirSync(path.dirname(abs.toString()), { recursive: true });
    const tmp = Buffer.concat([Buffer.from(abs), Buffer.from(".harness-restore-" + process.pid)]);
    // a new file, never through what stands at that name (r5: a stage's code had planted symbolic links
    // at the temporary names of its pids: the restore wrote through one and renamed the link into place)
    fs.rmSync(tmp, { force: true });
    fs.writeFileSync(tmp, auditSnapBytes(snap), { mode: auditModeOf(snap) & 0o700, flag: "wx" });
    fs.chmodSync(tmp, auditModeOf(snap));
    fs.renameSync(tmp, abs);
    return;
  }
  if (snap.t === "link") {
    if (st) fs.rmSync(abs, { recursive: true, force: true });
    fs.symlinkSync(Buffer.from(snap.d, "base64"), abs);
    // the file it named, at the path it had then (r5)
    if (snap.f && auditHasBytes(snap.f)) auditPutPath(Buffer.from(snap.f.p, "base64"), auditLinked(snap.f));
    return;
  }
  if (snap.t === "dir" && snap.e) {
    if (st && !st.isDirectory()) fs.rmSync(abs, { force: true });
    fs.mkdirSync(abs, { recursive: true });
    // its own bits last (r5: a .git/hooks a stage made writable for every account); open for the owner meanwhile
    if (snap.m !== undefined) fs.chmodSync(abs, snap.m | 0o700);
    const want = new Set(Object.keys(snap.e));
    for (const name of fs.readdirSync(abs, { encoding: "buffer" })) if (!want.has(name.toString("latin1")) && !(skip && skip.has(name.toString("latin1")))) fs.rmSync(Buffer.concat([Buffer.from(abs), Buffer.from("/"), name]), { recursive: true, force: true });
    for (const k of want) auditPutPath(Buffer.concat([Buffer.from(abs), Buffer.from("/"), Buffer.from(k, "latin1")]), snap.e[k], skip);
    if (snap.m !== undefined) fs.chmodSync(abs, snap.m);
    return;
  }
  throw new Error("cannot restore a " + snap.t);
}

/** Put back every guarded file that changed since the snapshot; one violation per file, checked after. */
function auditRestoreGuarded(ctx, snaps) {
  const out = [];
  // each path is read within the limit alone (r4): one a stage's code made too large or unreadable
  // (a 33 MB file in ~/.codex/rules, a folder with mode 000) is a change, put back from the snapshot
  // like any other, and never stops the restore of the paths after it
  const read = (g) => { try { return auditReadPath(g.abs, g.tree, { left: AUDIT_GUARDED_MAX, skip: g.skip, cap: g.named ? AUDIT_LINKED_MAX : 0 }); } catch (e) { return { t: "unreadable", k: "something too large or unreadable (" + auditOneLine(String((e && e.code) || (e && e.message) || e), 120) + ")" }; } };
  for (const g of auditGuardedList(ctx, snaps)) {
    // a variable that moves a folder was set after the start: that folder was not snapshotted; a git folder found now was not there
    const then = snaps[g.abs] || (g.found ? { t: "none" } : null);
    if (!then) continue;
    const now = read(g);
    let same = false;
    // whatever one path's comparison throws fails that path, never the restore of the paths after it
    try { same = auditSameGuarded(then, now, g.volatile); } catch (e) { same = false; }
    if (same) continue;
    const kind = then.t === "none" ? "created" : now.t === "none" ? "deleted" : now.k && then.t !== "other" ? "replaced by " + now.k : "modified";
    if (g.parent) {
      // a folder is not rebuilt from its type alone: the stage fails and a human puts it back
      if (now.t === "dir" || now.t === "none") continue; // a real folder (or none): the files below it are compared one by one
      out.push({ path: g.shown, kind: now.t === "link" ? "replaced by a symbolic link" : "type changed", restored: false, guarded: true });
      continue;
    }
    let restored = true;
    try { auditPutPath(g.abs, then, g.skip); restored = auditSameGuarded(then, read(g), g.volatile); } catch (e) { restored = false; }
    out.push({ path: g.shown, kind: kind, restored: restored, guarded: true });
  }
  // the user's git configuration the audit's git carries settings from is now the one of the start
  if (out.length) { auditUserConfigCache = null; auditFilterCache = null; }
  return out;
}

// The settings keys whose string value is a command the host runs (Claude Code 2.1.332's, the binary's
// names; "command" also covers every host's hook entries and status lines).
const AUDIT_COMMAND_KEYS = new Set(["command", "apiKeyHelper", "awsAuthRefresh", "awsCredentialExport", "gcpAuthRefresh", "otelHeadersHelper"]);

/**
 * The absolute or home paths among the words of the commands a JSON settings file names (64 at most).
 * volatile (r6): the keys the host rewrites itself are compared as absent, so a stage may write them
 * freely; a command planted there would name what the next stages guard (a file in the role's own
 * scope) and push the file's real programs past the 64.
 */
function auditCommandFiles(file, home, volatile) {
  let b;
  b = auditReadSettings(file); // no regular file, or too large: a changed enforcement file itself
  if (b === null || !/"(command|apiKeyHelper|aws|gcp|otel)/.test(b.toString("latin1"))) return [];
  let v;
  try { v = JSON.parse(b.toString("utf8")); } catch (e) { return []; }
  auditDropVolatile(v, volatile);
  // r6: the stop reads the file as the stage left it, before putting it back: a stage's 400000 paths
  // in one command took minutes here (a list searched for each), past the host's hook timeout
  const out = [], had = new Set();
  const add = (w) => { if (out.length >= 64) return; const p = auditCommandPath(w, home); if (p && !had.has(p)) { had.add(p); out.push(p); } };
  const walk = (x, depth) => {
    if (depth > 16 || !x || typeof x !== "object" || out.length >= 64) return;
    // an MCP server's (r6): command is the program itself, unsplit, and args its words (node's script)
    if (typeof x.command === "string" && Array.isArray(x.args)) { add(x.command.trim()); for (const a of x.args) if (typeof a === "string") add(a); }
    // OpenCode's and Kilo's: the whole command line as an array (["node", "/home/u/mcp/server.js"])
    if (Array.isArray(x.command)) for (const a of x.command) if (typeof a === "string") add(a);
    for (const k of Object.keys(x)) {
      const y = x[k];
      if (typeof y === "string" && AUDIT_COMMAND_KEYS.has(k)) { for (const w of auditShellWords(y)) add(w); }
      else if (y && typeof y === "object") walk(y, depth + 1);
    }
  };
  walk(v, 0);
  return out;
}

/**
 * The words of a shell command as sh splits them, quotes and backslashes taken out (r6: a quoted
 * "~/my hooks/pre.sh" was two words, neither the program). A word an output redirection names is
 * left out: a hook's log (>> ~/.claude/hook.log), written by every run, is no program, and guarding
 * it failed every stage in which the host ran the hook.
 */
function auditShellWords(s) {
  const out = [];
  let w = null, redirect = false;
  const end = () => { if (w !== null) { if (!redirect) out.push(w); redirect = false; } w = null; };
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === "'") { const j = s.indexOf("'", i + 1), e = j < 0 ? s.length : j; w = (w || "") + s.slice(i + 1, e); i = e; }
    else if (c === '"') {
      let j = i + 1, t = "";
      for (; j < s.length && s[j] !== '"'; j++) { if (s[j] === "\\" && j + 1 < s.length && '"\\$\x60\n'.includes(s[j + 1])) j++; t += s[j]; }
      w = (w || "") + t; i = j;
    } else if (c === "\\") { if (i + 1 < s.length && s[i + 1] !== "\n") w = (w || "") + s[i + 1]; i++; }
    else if (/[\s;&|()<>\x60]/.test(c)) {
      end();
      // >, >>, >|, >&: what follows is written; a digit before it (2>) was a word of its own, no path
      if (c === ">") { redirect = true; while (s[i + 1] === ">" || s[i + 1] === "|" || s[i + 1] === "&") i++; }
      else if (!/\s/.test(c)) redirect = false;
    } else w = (w || "") + c;
  }
  end();
  return out;
}
function auditCommandPath(word, home) {
  let p = word.replace(/^([A-Za-z_][A-Za-z0-9_]*|--?[A-Za-z0-9][A-Za-z0-9-]*)=/, ""); // VAR=/path, --require=/path
  const h = /^(~|\$HOME|\$\{HOME\})\//.exec(p);
  if (h) { if (!home) return null; p = path.join(home, p.slice(h[0].length)); }
  if (!path.isAbsolute(p) || p.includes("$") || p.includes("*")) return null; // a variable or a glob: not a path read here
  p = path.normalize(p);
  // devices and kernel files are no program (/dev/null); /dev/shm is an ordinary folder
  return /^\/(proc|sys)(\/|$)/.test(p) || (/^\/dev(\/|$)/.test(p) && !/^\/dev\/shm\//.test(p)) || p === "/" ? null : p;
}
`;
