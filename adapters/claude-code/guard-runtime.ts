// The runtime of the Claude Code guard, kept as JavaScript source text.
//
// `renderGuard` (guard.ts) pastes these two strings, verbatim, into the generated
// `.claude/hooks/harness-guard.mjs`, after the node:fs, node:path and node:url imports and a
// `const POLICY = {…}` built with JSON.stringify. They are plain strings, not functions turned into text, so the generated file is
// byte-identical whether harness runs from tsc output or under vitest.
//
// Rules for editing this file:
// - ES2022 that Node 20 runs as a module, no imports: `fs` and `path` are free variables
//   (node:fs, node:path), POLICY is passed to decide() as an argument. GUARD_MAIN_SOURCE may also
//   use POLICY, `fileURLToPath` (node:url) and import.meta.
// - The strings are String.raw templates: backslashes are kept as written, but a backtick or a
//   dollar sign followed by an opening brace would end or break the template. Write "\x60" for a
//   backtick; never write the dollar-brace pair.
// - GUARD_RUNTIME_SOURCE must stay free of side effects (it only defines functions), so tests can
//   evaluate it in-process with `new Function("fs", "path", source + "\nreturn decide;")`.
// - Every path ends in a decision: { kind: "allow" | "ask" | "block" | "off", reason? }.

export const GUARD_RUNTIME_SOURCE = String.raw`
const GUARD_WRITE_TOOLS = { Write: ["file_path"], Edit: ["file_path"], MultiEdit: ["file_path"], NotebookEdit: ["notebook_path", "file_path"] };
const GUARD_SPAWN_TOOLS = new Set(["Agent", "Task"]);
const GUARD_BT = "\x60";
const GUARD_TREE_LIMIT = 5000;
const GUARD_EXPAND_LIMIT = 512;
const GUARD_DEPTH_LIMIT = 6;
const GUARD_DEV_OK = new Set(["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"]);
const GUARD_SHELLS = new Set(["sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "busybox"]);

// ---------------------------------------------------------------- small helpers

function guardOneLine(s, max) {
  let t = String(s).replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ").replace(/ {2,}/g, " ").trim();
  if (t.length > max) t = t.slice(0, max - 1) + "\u2026";
  return t;
}
function guardBlock(reason) { return { kind: "block", reason: "harness guard: " + guardOneLine(reason, 900) }; }
function guardAsk(reason) { return { kind: "ask", reason: "harness guard: " + guardOneLine(reason, 900) }; }
function guardErrCode(e) { return (e && (e.code || e.message)) || String(e); }

const guardReCache = new Map();
function guardRe(source, flags) {
  const key = (flags || "") + "/" + source;
  let r = guardReCache.get(key);
  if (!r) { r = new RegExp(source, flags || ""); guardReCache.set(key, r); }
  return r;
}
function guardMatchGlob(list, rel) {
  for (const g of list) if (guardRe(g.re, g.flags).test(rel)) return g;
  return null;
}
function guardMatchCmd(list, variants) {
  for (const p of list) {
    const r = guardRe(p.re, "");
    for (const v of variants) if (r.test(v)) return p;
  }
  return null;
}
// Could a command with wildcards ("*" = words computed at run time) match a pattern?
// Both sides are "*"-patterns; true when some string matches both. A trailing " *" in the rule
// also matches the bare command, so the rule is tried with and without it.
function guardMaybeCmd(list, loose) {
  for (const p of list) {
    const norm = guardNorm(p.pattern);
    const forms = norm.endsWith(" *") ? [norm, norm.slice(0, -2)] : [norm];
    for (const f of forms) if (guardStarsMeet(f, loose)) return p;
  }
  return null;
}
function guardStarsMeet(a, b) {
  const n = a.length, m = b.length;
  if ((n + 1) * (m + 1) > 400000) return true; // too long to decide: assume the worst
  // row[j]: can a[i:] and b[j:] meet? computed from the last row up (no recursion)
  let next = new Array(m + 1);
  next[m] = true;
  for (let j = m - 1; j >= 0; j--) next[j] = b[j] === "*" && next[j + 1];
  for (let i = n - 1; i >= 0; i--) {
    const cur = new Array(m + 1);
    cur[m] = a[i] === "*" && next[m];
    for (let j = m - 1; j >= 0; j--) {
      if (a[i] === "*") cur[j] = next[j] || cur[j + 1];
      else if (b[j] === "*") cur[j] = cur[j + 1] || next[j];
      else cur[j] = (a[i] === b[j] || b[j] === "?") && next[j + 1];
    }
    next = cur;
  }
  return next[0];
}

function guardNorm(s) { return String(s).replace(/\s+/g, " ").trim(); }
function guardIsOutside(rel) { return rel === ".." || rel.startsWith("../") || rel.startsWith("..\\") || path.isAbsolute(rel); }
function guardPosix(p) { return path.sep === "/" ? p : p.split(path.sep).join("/"); }
function guardHasOwn(o, k) { return Object.prototype.hasOwnProperty.call(o, k); }

// ---------------------------------------------------------------- kill switch

function guardKillSwitch(policy, env, dirs) {
  const v = env[policy.killSwitch.env];
  if (typeof v === "string" && /^(1|true|yes|on)$/i.test(v.trim()))
    return { kind: "off", reason: "harness guard: OFF (" + policy.killSwitch.env + " is set); pipeline limits are not enforced" };
  for (const d of dirs) {
    if (typeof d !== "string" || d === "" || !path.isAbsolute(d)) continue;
    const f = path.join(d, policy.killSwitch.file);
    try {
      if (fs.existsSync(f)) return { kind: "off", reason: "harness guard: OFF (" + guardOneLine(f, 300) + " exists); pipeline limits are not enforced" };
    } catch (e) { /* unreadable: not a kill switch */ }
  }
  return null;
}

// ---------------------------------------------------------------- paths

// The real path of abs, resolving symbolic links in the deepest part that exists.
function guardRealOf(abs) {
  let cur = abs;
  const rest = [];
  for (let i = 0; i < 4096; i++) {
    try {
      const r = fs.realpathSync.native(cur);
      return { real: rest.length ? path.join(r, ...rest.reverse()) : r };
    } catch (e) {
      const code = e && e.code;
      if (code !== "ENOENT" && code !== "ENOTDIR") return { error: "cannot be resolved (" + guardErrCode(e) + ")" };
      let present = false;
      try { fs.lstatSync(cur); present = true; } catch (e2) { present = false; }
      if (present) return { error: "goes through a dangling symbolic link (" + cur + ")" };
      const parent = path.dirname(cur);
      if (parent === cur) return { error: "cannot be resolved" };
      rest.push(path.basename(cur));
      cur = parent;
    }
  }
  return { error: "is nested too deeply" };
}

// Where a path lands, relative to the project: { rels: [lexical, real], shown } or { error, shown }.
// noFollow: the last component is not resolved (rm, unlink and mv act on a link, not its target).
function guardLocate(ctx, base, p, noFollow) {
  if (typeof p !== "string" || p === "") return { error: "is empty", shown: "(empty path)" };
  if (p.indexOf("\u0000") !== -1) return { error: "contains a NUL byte", shown: p };
  const abs = path.resolve(base, p);
  const lex = guardPosix(path.relative(ctx.project, abs));
  const lexInside = lex !== "" && !guardIsOutside(lex);
  let r;
  if (noFollow && path.dirname(abs) !== abs) {
    r = guardRealOf(path.dirname(abs));
    if (r.real) r = { real: path.join(r.real, path.basename(abs)) };
  } else r = guardRealOf(abs);
  if (r.error) return { error: r.error, shown: lexInside ? lex : p };
  const wt = guardWorktreeOf(ctx, r.real);
  if (wt) {
    // a linked git worktree of this project (Claude Code's isolation: worktree): paths count from its root
    const wtRel = guardPosix(path.relative(wt, r.real));
    if (wtRel === "") return { error: "is a worktree directory itself", shown: p };
    return { rels: [wtRel], shown: wtRel + " (in worktree " + path.basename(wt) + ")", real: r.real };
  }
  const realRel = guardPosix(path.relative(ctx.projectReal, r.real));
  if (guardIsOutside(realRel)) {
    if (lexInside) return { error: "resolves through a symbolic link to " + r.real + ", outside the project", shown: lex };
    return { error: "is outside the project directory " + ctx.project, shown: p };
  }
  if (realRel === "") return { error: "is the project directory itself", shown: p };
  const rels = lexInside && lex !== realRel ? [lex, realRel] : [realRel];
  return { rels, shown: lexInside ? lex : realRel, real: r.real };
}

// The root of the linked git worktree of this project that contains real, or null. Verified both
// ways: its .git file points into <project>/.git/worktrees/<name>, whose gitdir file points back.
// Agents cannot forge that (the project's .git is never-write for everyone).
function guardWorktreeOf(ctx, real) {
  const base = path.join(ctx.projectReal, ".git", "worktrees");
  let d = real;
  for (let i = 0; i < 256; i++) {
    const parent = path.dirname(d);
    if (parent === d) return null;
    d = parent;
    if (d === ctx.projectReal) return null;
    const dotgit = path.join(d, ".git");
    let info;
    try { info = fs.lstatSync(dotgit); } catch (e) { continue; }
    if (!info.isFile()) return null; // an ordinary repository: not a worktree of ours
    try {
      const m = /^gitdir: *(.+?)\s*$/m.exec(fs.readFileSync(dotgit, "utf8"));
      if (!m) return null;
      const gitdir = fs.realpathSync.native(path.resolve(d, m[1]));
      const rel = path.relative(base, gitdir);
      if (rel === "" || guardIsOutside(rel) || rel.includes(path.sep)) return null;
      const back = fs.readFileSync(path.join(gitdir, "gitdir"), "utf8").trim();
      if (fs.realpathSync.native(path.resolve(gitdir, back)) !== fs.realpathSync.native(dotgit)) return null;
      return d;
    } catch (e) {
      return null;
    }
  }
  return null;
}

function guardRoleWrite(role, rels, mkdirOnly) {
  for (const rel of rels) {
    const g = guardMatchGlob(role.neverWrite, rel);
    if (g) return "never-write: " + g.label;
  }
  if (mkdirOnly) return null;
  for (const rel of rels) {
    if (!guardMatchGlob(role.write, rel))
      return role.write.length ? "not in its write scope: " + role.write.map((g) => g.glob).join(", ") : "its role writes no files";
  }
  return null;
}

// The orchestrator (main thread): the pipeline never-write list, then any main-isolation role that may write it.
function guardMainWrite(st, rels, mkdirOnly) {
  for (const rel of rels) {
    const g = guardMatchGlob(st.policy.neverWrite, rel);
    if (g) return "never-write: " + g.label;
  }
  if (mkdirOnly) return null;
  if (!st.mainRoles.length) return "no main-thread role writes files";
  let first = null;
  for (const role of st.mainRoles) {
    const v = guardRoleWrite(role, rels, false);
    if (v === null) return null;
    if (first === null && v.startsWith("never-write")) first = v;
  }
  if (first) return first;
  const globs = [];
  for (const role of st.mainRoles) for (const g of role.write) if (!globs.includes(g.glob)) globs.push(g.glob);
  return globs.length ? "not in the main-thread write scope: " + globs.join(", ") : "no main-thread role writes files";
}

function guardWriteVerdict(st, rels, mkdirOnly) {
  for (const rel of rels) {
    const g = guardMatchGlob(st.policy.protect, rel);
    if (g) return "never-write: " + g.label;
  }
  if (st.caller.kind === "main") return guardMainWrite(st, rels, mkdirOnly);
  return guardRoleWrite(st.caller.role, rels, mkdirOnly);
}

// Pipeline roles whose write scope covers the path (for "delegate to …" advice on the main thread).
function guardOwners(st, rels) {
  const out = [];
  for (const rel of rels) if (guardMatchGlob(st.policy.protect, rel)) return out;
  for (const role of st.policy.roles) if (guardRoleWrite(role, rels, false) === null) out.push(role.id);
  return out;
}

function guardAdvice(st, rels) {
  if (st.caller.kind === "main" && rels) {
    const owners = guardOwners(st, rels);
    if (owners.length) return "Delegate it to " + owners.join(" or ") + ", or report \"blocked\".";
  }
  return "Report \"blocked\" instead.";
}

// Check one path the caller is about to write. Returns null (fine) or a block reason.
function guardCheckPath(st, base, p, how, mkdirOnly, noFollow) {
  const loc = guardLocate(st.ctx, base, p, noFollow);
  const tail = how ? ", " + how : "";
  if (loc.error) return st.caller.label + " may not write " + loc.shown + " (it " + loc.error + ")" + tail + ". " + guardAdvice(st, null);
  const why = guardWriteVerdict(st, loc.rels, mkdirOnly);
  if (why) return st.caller.label + " may not write " + loc.shown + " (" + why + ")" + tail + ". " + guardAdvice(st, loc.rels);
  return null;
}

// ---------------------------------------------------------------- shell: lexer

function guardShellError(msg) { const e = new Error(msg); e.guardShell = true; return e; }

const GUARD_REDIR = /^(\d{1,2})?(&>>|&>|>>|>\||>&|>|<<<|<<-|<<|<>|<&|<)/;
const GUARD_CONTROL = ["&&", "||", ";;", "|&", ";", "|", "&"];

function guardNewWord() { return { t: "w", text: "", raw: "", dyn: false, glob: false, quoted: false, pipe: false, subs: [] }; }

// Lex shell source from start; with closer ")" stop at the unmatched ")" (for "$(…)").
function guardLex(src, start, closer, lx, depth) {
  if (depth > GUARD_DEPTH_LIMIT) throw guardShellError("commands are nested too deeply");
  const toks = [];
  const pending = [];
  let expectDelim = null;
  let parens = 0;
  let i = start;
  const n = src.length;
  while (i < n) {
    const c = src[i];
    if (c === " " || c === "\t" || c === "\r") { i++; continue; }
    if (c === "\\" && src[i + 1] === "\n") { i += 2; continue; }
    if (c === "\n") {
      toks.push({ t: "op", v: "\n" });
      i++;
      if (pending.length) { i = guardHeredocs(src, i, pending, toks, lx, depth); pending.length = 0; }
      continue;
    }
    if (c === "#") { while (i < n && src[i] !== "\n") i++; continue; }
    if (c === ")") {
      if (parens === 0 && closer === ")") return { tokens: toks, end: i + 1 };
      if (parens > 0) parens--;
      toks.push({ t: "op", v: ")" });
      i++;
      continue;
    }
    if (c === "(") { parens++; toks.push({ t: "op", v: "(" }); i++; continue; }
    if ((c === "<" || c === ">") && src[i + 1] === "(") {
      const r = guardLex(src, i + 2, ")", lx, depth + 1);
      const w = guardNewWord();
      w.pipe = true; w.raw = src.slice(i, r.end); w.text = w.raw;
      w.subs.push(r.tokens);
      toks.push(w);
      i = r.end;
      continue;
    }
    if (c === "<" || c === ">" || c === "&" || (c >= "0" && c <= "9")) {
      const m = GUARD_REDIR.exec(src.slice(i, i + 8));
      if (m) {
        const tok = { t: "redir", v: m[2], fd: m[1] || null, body: null, bodyQuoted: false };
        toks.push(tok);
        i += m[0].length;
        if (m[2] === "<<" || m[2] === "<<-") expectDelim = { strip: m[2] === "<<-", tok };
        continue;
      }
    }
    let isOp = false;
    for (const o of GUARD_CONTROL) {
      if (src.startsWith(o, i)) { toks.push({ t: "op", v: o }); i += o.length; isOp = true; break; }
    }
    if (isOp) continue;
    const r = guardLexWord(src, i, lx, depth);
    toks.push(r.tok);
    i = r.end;
    if (expectDelim) {
      pending.push({ delim: r.tok.text, quoted: r.tok.quoted, strip: expectDelim.strip, tok: expectDelim.tok });
      expectDelim = null;
    }
  }
  if (closer === ")") throw guardShellError("a \"$(\" or \"(\" is not closed");
  if (pending.length) guardHeredocs(src, n, pending, toks, lx, depth);
  return { tokens: toks, end: n };
}

function guardHeredocs(src, i, pending, toks, lx, depth) {
  const n = src.length;
  for (const p of pending) {
    const body = [];
    while (i < n) {
      let j = src.indexOf("\n", i);
      if (j < 0) j = n;
      const line = src.slice(i, j);
      i = Math.min(j + 1, n);
      if ((p.strip ? line.replace(/^\t+/, "") : line) === p.delim) break;
      body.push(line);
    }
    p.tok.body = body.join("\n");
    p.tok.bodyQuoted = p.quoted;
    if (!p.quoted) for (const s of guardScanSubs(p.tok.body, lx, depth)) toks.push({ t: "sub", tokens: s });
  }
  return i;
}

// Command substitutions inside text that the shell expands (here-document bodies).
function guardScanSubs(text, lx, depth) {
  const out = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "\\") { i += 2; continue; }
    if (c === "$" && text[i + 1] === "(" && text[i + 2] !== "(") {
      const r = guardLex(text, i + 2, ")", lx, depth + 1);
      out.push(r.tokens);
      i = r.end;
      continue;
    }
    if (c === GUARD_BT) {
      const st = guardNewWord();
      i = guardLexBacktick(text, i, st, lx, depth);
      for (const s of st.subs) out.push(s);
      continue;
    }
    i++;
  }
  return out;
}

function guardLexWord(src, i, lx, depth) {
  const w = guardNewWord();
  const start = i;
  const n = src.length;
  if (src[i] === "~" && (i + 1 >= n || src[i + 1] === "/" || " \t\r\n;&|()<>".includes(src[i + 1]))) {
    if (lx.home) w.text += lx.home; else { w.dyn = true; w.text += "~"; }
    i++;
  } else if (src[i] === "~") {
    w.dyn = true;
  }
  while (i < n) {
    const c = src[i];
    if (" \t\r\n;&|()<>".includes(c)) break;
    if (c === "\\") {
      if (i + 1 >= n) { i++; break; }
      if (src[i + 1] !== "\n") { w.text += src[i + 1]; w.quoted = true; }
      i += 2;
      continue;
    }
    if (c === "'") {
      const j = src.indexOf("'", i + 1);
      if (j < 0) throw guardShellError("a single quote is not closed");
      w.text += src.slice(i + 1, j);
      w.quoted = true;
      i = j + 1;
      continue;
    }
    if (c === "\"") { i = guardLexDouble(src, i + 1, w, lx, depth); continue; }
    if (c === "$") { i = guardLexDollar(src, i, w, lx, depth); continue; }
    if (c === GUARD_BT) { i = guardLexBacktick(src, i, w, lx, depth); continue; }
    if (c === "*" || c === "?" || c === "[") w.glob = true;
    if (c === "{") {
      let k = i + 1;
      while (k < n && !" \t\r\n;&|()<>}".includes(src[k])) k++;
      if (src[k] === "}" && /,|\.\./.test(src.slice(i + 1, k))) w.glob = true;
    }
    w.text += c;
    i++;
  }
  w.raw = src.slice(start, i);
  return { tok: w, end: i };
}

function guardLexDouble(src, i, w, lx, depth) {
  const n = src.length;
  w.quoted = true;
  while (i < n) {
    const c = src[i];
    if (c === "\"") return i + 1;
    if (c === "\\") {
      const d = src[i + 1];
      if (d === "\n") { i += 2; continue; }
      if (d === "$" || d === GUARD_BT || d === "\"" || d === "\\") { w.text += d; i += 2; continue; }
      w.text += c;
      i++;
      continue;
    }
    if (c === "$") { i = guardLexDollar(src, i, w, lx, depth); continue; }
    if (c === GUARD_BT) { i = guardLexBacktick(src, i, w, lx, depth); continue; }
    w.text += c;
    i++;
  }
  throw guardShellError("a double quote is not closed");
}

function guardLexDollar(src, i, w, lx, depth) {
  const n = src.length;
  const d = src[i + 1];
  if (d === "(" && src[i + 2] === "(") {
    // arithmetic: skip to the matching "))"
    let k = i + 3, level = 2;
    while (k < n && level > 0) { if (src[k] === "(") level++; else if (src[k] === ")") level--; k++; }
    if (level > 0) throw guardShellError("a \"$((\" is not closed");
    for (const sub of guardScanSubs(src.slice(i + 3, k - 2), lx, depth)) w.subs.push(sub); // $(( $(cmd) ))
    w.dyn = true; w.text += src.slice(i, k);
    return k;
  }
  if (d === "(") {
    const r = guardLex(src, i + 2, ")", lx, depth + 1);
    w.subs.push(r.tokens);
    w.dyn = true;
    w.text += src.slice(i, r.end);
    return r.end;
  }
  if (d === "{") {
    let k = i + 2, level = 1;
    while (k < n && level > 0) {
      const c = src[k];
      if (c === "\\") { k += 2; continue; }
      if (c === "$" && src[k + 1] === "(" && src[k + 2] !== "(") {
        const r = guardLex(src, k + 2, ")", lx, depth + 1);
        w.subs.push(r.tokens);
        k = r.end;
        continue;
      }
      if (c === GUARD_BT) { k = guardLexBacktick(src, k, w, lx, depth); continue; }
      if (c === "'") { const j = src.indexOf("'", k + 1); if (j < 0) throw guardShellError("a single quote is not closed"); k = j + 1; continue; }
      if (c === "{") level++;
      else if (c === "}") level--;
      k++;
    }
    if (level > 0) throw guardShellError("a parameter expansion is not closed");
    const inner = src.slice(i + 2, k - 1);
    if (guardHasOwn(lx.vars, inner)) w.text += lx.vars[inner];
    else { w.dyn = true; w.text += src.slice(i, k); }
    return k;
  }
  if (d === "'") {
    // $'…' (ANSI-C quoting), decoded as bash does: $'\x67it' is "git"
    let k = i + 2, out = "";
    const simple = { a: "\u0007", b: "\b", e: "\u001b", E: "\u001b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v", "\\": "\\", "'": "'", "\"": "\"", "?": "?" };
    while (k < n && src[k] !== "'") {
      if (src[k] === "\\" && k + 1 < n) {
        const e = src[k + 1];
        let m;
        if (guardHasOwn(simple, e)) { out += simple[e]; k += 2; }
        else if ((m = /^x([0-9A-Fa-f]{1,2})/.exec(src.slice(k + 1, k + 4)))) { out += String.fromCharCode(parseInt(m[1], 16)); k += 1 + m[0].length; }
        else if ((m = /^u([0-9A-Fa-f]{1,4})/.exec(src.slice(k + 1, k + 6)))) { out += String.fromCodePoint(parseInt(m[1], 16)); k += 1 + m[0].length; }
        else if ((m = /^U([0-9A-Fa-f]{1,8})/.exec(src.slice(k + 1, k + 10)))) { const cp = parseInt(m[1], 16); out += cp <= 0x10ffff ? String.fromCodePoint(cp) : "?"; k += 1 + m[0].length; }
        else if ((m = /^[0-7]{1,3}/.exec(src.slice(k + 1, k + 4)))) { out += String.fromCharCode(parseInt(m[0], 8) & 255); k += 1 + m[0].length; }
        else if (e === "c" && k + 2 < n) { out += String.fromCharCode(src.charCodeAt(k + 2) & 31); k += 3; }
        else { out += "\\" + e; k += 2; }
        continue;
      }
      out += src[k];
      k++;
    }
    if (k >= n) throw guardShellError("a single quote is not closed");
    w.text += out; w.quoted = true;
    return k + 1;
  }
  if (d === "\"") return guardLexDouble(src, i + 2, w, lx, depth);
  if (d !== undefined && /[A-Za-z_]/.test(d)) {
    let k = i + 1;
    while (k < n && /[A-Za-z0-9_]/.test(src[k])) k++;
    const name = src.slice(i + 1, k);
    if (guardHasOwn(lx.vars, name)) w.text += lx.vars[name];
    else { w.dyn = true; w.text += src.slice(i, k); }
    return k;
  }
  if (d !== undefined && /[0-9@*#?$!-]/.test(d)) { w.dyn = true; w.text += src.slice(i, i + 2); return i + 2; }
  w.text += "$";
  return i + 1;
}

function guardLexBacktick(src, i, w, lx, depth) {
  const n = src.length;
  let j = i + 1, inner = "";
  while (j < n && src[j] !== GUARD_BT) {
    if (src[j] === "\\" && j + 1 < n) {
      const e = src[j + 1];
      inner += e === GUARD_BT || e === "\\" || e === "$" ? e : "\\" + e;
      j += 2;
      continue;
    }
    inner += src[j];
    j++;
  }
  if (j >= n) throw guardShellError("a backtick is not closed");
  w.subs.push(guardLex(inner, 0, null, lx, depth + 1).tokens);
  w.dyn = true;
  w.text += src.slice(i, j + 1);
  return j + 1;
}

// Tokens → simple commands, "(" / ")" markers (subshell scope for cd).
function guardBuild(tokens) {
  const items = [];
  let cur = null;
  let pendingRedir = null;
  const fresh = () => ({ kind: "cmd", words: [], redirs: [], subs: [], raw: [] });
  cur = fresh();
  const flush = () => {
    if (cur.words.length || cur.redirs.length || cur.subs.length) items.push(cur);
    cur = fresh();
  };
  for (const t of tokens) {
    if (t.t === "w") {
      for (const s of t.subs) cur.subs.push(s);
      cur.raw.push(t.raw);
      if (pendingRedir) { pendingRedir.target = t; pendingRedir = null; } else cur.words.push(t);
      continue;
    }
    if (t.t === "redir") {
      if (pendingRedir) throw guardShellError("a redirection has no target");
      const r = { v: t.v, fd: t.fd, target: null, tok: t };
      cur.redirs.push(r);
      cur.raw.push((t.fd || "") + t.v);
      pendingRedir = r;
      continue;
    }
    if (t.t === "sub") { cur.subs.push(t.tokens); continue; }
    if (pendingRedir) throw guardShellError("a redirection has no target");
    flush();
    if (t.v === "(") items.push({ kind: "open" });
    else if (t.v === ")") items.push({ kind: "close" });
  }
  if (pendingRedir) throw guardShellError("a redirection has no target");
  flush();
  return items;
}

// ---------------------------------------------------------------- shell: words and options

const GUARD_KEYWORDS = new Set(["!", "{", "}", "then", "do", "else", "elif", "if", "while", "until", "fi", "done", "esac", "time"]);
// for/select/case heads name no command (their $(…) parts are still checked).
const GUARD_SKIP_KEYWORDS = new Set(["for", "select", "case"]);

function guardStripKeywords(words) {
  let k = 0;
  const bare = (j) => words[j] && !words[j].quoted && !words[j].dyn;
  for (let loop = 0; loop < 64 && k < words.length; loop++) {
    if (bare(k) && GUARD_KEYWORDS.has(words[k].text)) {
      k++;
      if (words[k - 1].text === "time" && bare(k) && words[k].text === "-p") k++;
      continue;
    }
    // "function f {" and "coproc NAME {" open a body whose commands follow
    if (bare(k) && (words[k].text === "function" || words[k].text === "coproc")) {
      if (bare(k + 2) && words[k + 2].text === "{") { k += 3; continue; }
      if (words[k].text === "function") { k += 2; continue; }
      k++;
      continue;
    }
    break;
  }
  if (bare(k) && GUARD_SKIP_KEYWORDS.has(words[k].text)) return [];
  return words.slice(k);
}

// NAME=value (the name itself unquoted; the value may be quoted: X="a b" is an assignment)
function guardIsAssign(w) { return /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/.test(w.raw); }

function guardBase(text) {
  const s = text.replace(/\/+$/, "");
  const k = s.lastIndexOf("/");
  return k >= 0 ? s.slice(k + 1) : s;
}

// GNU-style option parsing: argShort/argLong take a value; attachedOnly letters take the rest of
// the cluster (sed -i.bak). Returns { opts: [{ name, value, tok }], operands: [tok] }.
function guardOpts(args, spec) {
  const argShort = spec.argShort || "";
  const argLong = spec.argLong || [];
  const attachedOnly = spec.attachedOnly || "";
  const opts = [];
  const operands = [];
  let k = 0;
  for (; k < args.length; k++) {
    const w = args[k];
    const t = w.text;
    if (w.dyn || w.pipe) { operands.push(w); continue; }
    if (t === "--") { k++; break; }
    if (t.startsWith("--") && t.length > 2) {
      const eq = t.indexOf("=");
      const name = eq >= 0 ? t.slice(2, eq) : t.slice(2);
      if (eq >= 0) opts.push({ name, value: t.slice(eq + 1), tok: w });
      else if (argLong.includes(name)) { opts.push({ name, value: args[k + 1] ? args[k + 1].text : "", tok: args[k + 1] || w }); k++; }
      else opts.push({ name, value: null, tok: w });
      continue;
    }
    if (t.startsWith("-") && t.length > 1 && !spec.noShort) {
      for (let j = 1; j < t.length; j++) {
        const ch = t[j];
        if (attachedOnly.includes(ch)) { opts.push({ name: ch, value: t.slice(j + 1), tok: w }); break; }
        if (argShort.includes(ch)) {
          if (j + 1 < t.length) opts.push({ name: ch, value: t.slice(j + 1), tok: w });
          else { opts.push({ name: ch, value: args[k + 1] ? args[k + 1].text : "", tok: args[k + 1] || w }); k++; }
          break;
        }
        opts.push({ name: ch, value: null, tok: w });
      }
      continue;
    }
    operands.push(w);
    if (spec.stopAtOperand) { k++; break; }
  }
  for (; k < args.length; k++) operands.push(args[k]);
  return { opts, operands };
}
function guardHas(o, names) { return o.opts.some((x) => names.includes(x.name)); }
function guardOptVal(o, names) { for (const x of o.opts) if (names.includes(x.name)) return x; return null; }

// Strip wrappers (env, sudo, nohup, xargs, …) to reach the command that really runs.
const GUARD_WRAPPERS = {
  command: { argShort: "" }, builtin: {}, exec: { argShort: "a" }, nohup: {}, time: {}, chronic: {}, unbuffer: {},
  setsid: {}, doas: { argShort: "uC" }, sudo: { argShort: "ugpChDrtUT", argLong: ["user", "group", "prompt", "chdir", "host"] },
  env: { argShort: "uCS", argLong: ["unset", "chdir", "split-string"] }, nice: { argShort: "n", argLong: ["adjustment"] },
  ionice: { argShort: "cnpt" }, timeout: { argShort: "sk", argLong: ["signal", "kill-after"], positional: 1 },
  stdbuf: { argShort: "ioe" }, xargs: { argShort: "aEeIiLlnPsd", argLong: ["arg-file", "delimiter", "max-args", "max-procs", "replace", "max-lines", "max-chars", "eof"] },
  caffeinate: { argShort: "tw" },
};
function guardUnwrap(words) {
  let k = 0;
  let viaXargs = false;
  let opaque = null;
  const wrappers = [];
  for (let guard = 0; guard < 32; guard++) {
    while (k < words.length && guardIsAssign(words[k])) k++;
    const w = words[k];
    if (!w || w.dyn) break; // a quoted wrapper ("env") is still the wrapper
    const name = guardBase(w.text);
    if (!guardHasOwn(GUARD_WRAPPERS, name)) break;
    const spec = GUARD_WRAPPERS[name];
    wrappers.push(name);
    if (name === "xargs") viaXargs = true;
    k++;
    while (k < words.length) {
      const t = words[k].text;
      if (words[k].dyn) break;
      if (t === "--") { k++; break; }
      if (!t.startsWith("-") || t === "-") break;
      if (name === "env" && (t === "-S" || t.startsWith("--split-string") || /^-[a-zA-Z]*S/.test(t))) opaque = "env -S runs a command line built at run time";
      if (t.startsWith("--")) {
        const nm = t.slice(2).split("=")[0];
        k += !t.includes("=") && (spec.argLong || []).includes(nm) ? 2 : 1;
        continue;
      }
      const last = t[t.length - 1];
      k += t.length === 2 && (spec.argShort || "").includes(last) ? 2 : 1;
    }
    if (spec.positional) k += spec.positional;
  }
  const argv = words.slice(k);
  return { argv, viaXargs, wrappers, opaque, name: argv[0] ? guardBase(argv[0].text) : "", dynName: !!(argv[0] && (argv[0].dyn || argv[0].glob)) };
}

const GUARD_GIT_OPT_ARG = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env", "--super-prefix", "--list-cmds", "--attr-source"]);
function guardGitNormal(argv) {
  const out = [argv[0]];
  let k = 1;
  while (k < argv.length) {
    const t = argv[k].text;
    if (GUARD_GIT_OPT_ARG.has(t)) { k += 2; continue; }
    if (t.startsWith("-")) { k++; continue; }
    break;
  }
  for (; k < argv.length; k++) out.push(argv[k]);
  return out;
}

// ---------------------------------------------------------------- shell: paths

function guardBraceExpand(s, out) {
  const open = s.indexOf("{");
  if (open < 0) { out.push(s); return; }
  let level = 0, close = -1;
  const commas = [];
  for (let k = open; k < s.length; k++) {
    const c = s[k];
    if (c === "{") level++;
    else if (c === "}") { level--; if (level === 0) { close = k; break; } }
    else if (c === "," && level === 1) commas.push(k);
  }
  if (close < 0) { out.push(s); return; }
  const pre = s.slice(0, open), post = s.slice(close + 1), inner = s.slice(open + 1, close);
  let alts = null;
  if (commas.length) {
    alts = [];
    let from = open + 1;
    for (const c of commas) { alts.push(s.slice(from, c)); from = c + 1; }
    alts.push(s.slice(from, close));
  } else {
    const m = /^(-?\d+)\.\.(-?\d+)$/.exec(inner) || /^([A-Za-z])\.\.([A-Za-z])$/.exec(inner);
    if (m) {
      alts = [];
      const num = /\d/.test(m[1]);
      const a = num ? Number(m[1]) : m[1].charCodeAt(0), b = num ? Number(m[2]) : m[2].charCodeAt(0);
      const step = a <= b ? 1 : -1;
      for (let v = a; step > 0 ? v <= b : v >= b; v += step) {
        alts.push(num ? String(v) : String.fromCharCode(v));
        if (alts.length > GUARD_EXPAND_LIMIT) throw guardShellError("a brace expansion is too large to check");
      }
    }
  }
  if (!alts) { for (const rest of guardBraceList(post)) out.push(pre + "{" + inner + "}" + rest); return; }
  for (const a of alts) {
    guardBraceExpand(pre + a + post, out);
    if (out.length > GUARD_EXPAND_LIMIT) throw guardShellError("a brace expansion is too large to check");
  }
}
function guardBraceList(s) { const out = []; guardBraceExpand(s, out); return out; }

function guardSegmentRe(seg) {
  let r = "^";
  for (let k = 0; k < seg.length; k++) {
    const c = seg[k];
    if (c === "*") r += ".*";
    else if (c === "?") r += ".";
    else if (c === "[") {
      const j = seg.indexOf("]", k + 2);
      if (j < 0) { r += "\\["; continue; }
      let cls = seg.slice(k + 1, j);
      if (cls[0] === "!") cls = "^" + cls.slice(1);
      r += "[" + cls.replace(/\\/g, "\\\\") + "]";
      k = j;
    } else r += c.replace(/[.+^$(){}|\\\/\]]/g, "\\$&");
  }
  try { return new RegExp(r + "$", "s"); } catch (e) { return null; }
}

// Paths an unquoted glob word may expand to (existing files), plus the word as written.
function guardExpand(base, text) {
  const out = [];
  for (const word of guardBraceList(text)) {
    out.push(word);
    if (!/[*?[]/.test(word)) continue;
    const abs = path.resolve(base, word);
    const parts = abs.split(path.sep).filter((x) => x !== "");
    let current = [path.parse(abs).root || "/"];
    for (const part of parts) {
      if (!/[*?[]/.test(part)) { current = current.map((c) => path.join(c, part)); continue; }
      const rx = guardSegmentRe(part);
      const next = [];
      for (const dir of current) {
        let names = [];
        try { names = fs.readdirSync(dir); } catch (e) { names = []; }
        for (const name of names) if (!rx || rx.test(name)) next.push(path.join(dir, name));
        if (next.length > GUARD_EXPAND_LIMIT) throw guardShellError("the pattern " + word + " matches too many files to check");
      }
      current = next;
    }
    for (const c of current) if (guardPresent(c)) out.push(c);
  }
  return out;
}

// Every entry under a real directory, without following links. null when there are too many.
function guardWalk(dir) {
  const out = [];
  const stack = [""];
  while (stack.length) {
    const sub = stack.pop();
    let ents;
    try { ents = fs.readdirSync(path.join(dir, sub), { withFileTypes: true }); } catch (e) { continue; }
    for (const e of ents) {
      const rel = sub ? sub + "/" + e.name : e.name;
      out.push(rel);
      if (out.length > GUARD_TREE_LIMIT) return null;
      if (e.isDirectory()) stack.push(rel);
    }
  }
  return out;
}
function guardPresent(abs) {
  try { fs.lstatSync(abs); return true; } catch (e) { return false; }
}
function guardIsDir(abs, follow) {
  try { return (follow ? fs.statSync(abs) : fs.lstatSync(abs)).isDirectory(); } catch (e) { return false; }
}

// ---------------------------------------------------------------- shell: evaluation

function guardNote(st, d) {
  if (st.verdict) return;
  if (d.kind === "block") st.verdict = d;
  else if (d.kind === "ask" && !st.ask) st.ask = d;
}
function guardShellBlock(st, text) { guardNote(st, guardBlock(text)); }

// A path word the command writes. mode: "write" | "mkdir" | "delete" (the path itself, links not
// followed) | "tree" (deletes the path and, for a directory, everything under it).
function guardTarget(st, cmd, cwd, w, mode) {
  if (st.verdict || !w || w.pipe) return;
  const how = "in the command \"" + guardOneLine(guardNorm(cmd.raw.join(" ")), 160) + "\"";
  if (w.dyn) {
    guardShellBlock(st, st.caller.label + " may not run \"" + guardOneLine(guardNorm(cmd.raw.join(" ")), 160) + "\": it writes to " + guardOneLine(w.raw || w.text, 120) + ", a path computed at run time that the guard cannot check. Write the path out literally, or report \"blocked\".");
    return;
  }
  const p = w.text;
  if (GUARD_DEV_OK.has(p) || /^\/dev\/fd\/\d+$/.test(p)) return;
  if (!path.isAbsolute(p) && cwd === null) {
    guardShellBlock(st, st.caller.label + " may not write " + guardOneLine(p, 200) + " " + how + ": an earlier cd went to a directory the guard cannot follow. Use paths relative to the project directory, or report \"blocked\".");
    return;
  }
  let candidates;
  try { candidates = w.glob ? guardExpand(cwd || "/", p) : [p]; }
  catch (e) { if (e && e.guardShell) { guardShellBlock(st, st.caller.label + " may not run that command (" + e.message + ", " + how + "). Report \"blocked\" instead."); return; } throw e; }
  const noFollow = mode === "delete" || mode === "tree";
  for (const c of candidates) {
    const why = guardCheckPath(st, cwd || "/", c, how, mode === "mkdir", noFollow);
    if (why) { guardShellBlock(st, why); return; }
    if (mode === "tree") {
      const loc = guardLocate(st.ctx, cwd || "/", c, true);
      if (loc.real && guardIsDir(loc.real, false)) {
        const entries = guardWalk(loc.real);
        if (entries === null) { guardShellBlock(st, st.caller.label + " may not remove " + loc.shown + " " + how + ": the tree has too many files for the guard to check. Report \"blocked\" instead."); return; }
        for (const e of entries) {
          const rels = loc.rels.map((r) => r + "/" + e);
          const why2 = guardWriteVerdict(st, rels, false);
          if (why2) { guardShellBlock(st, st.caller.label + " may not write " + rels[0] + " (" + why2 + "), " + how + ". " + guardAdvice(st, rels)); return; }
        }
      }
    }
  }
}

// A computed path (join of a directory and a source name): a synthetic word.
function guardJoinWord(dirW, nameW) {
  const w = guardNewWord();
  w.dyn = dirW.dyn || nameW.dyn;
  w.glob = dirW.glob || nameW.glob;
  w.text = dirW.text.replace(/\/+$/, "") + "/" + guardBase(nameW.text);
  w.raw = w.text;
  return w;
}
function guardTextWord(text, from) {
  const w = guardNewWord();
  w.text = text; w.raw = text; w.dyn = !!(from && from.dyn); w.glob = !!(from && from.glob);
  return w;
}

// cp / mv / install / ln: the destination of each source, and (mv, ln) the sources themselves.
function guardCopyLike(st, cmd, cwd, name, args) {
  const spec = { argShort: name === "install" ? "tSmog" : "tS", argLong: ["target-directory", "suffix", "mode", "owner", "group"] };
  const o = guardOpts(args, spec);
  if (name === "install" && guardHas(o, ["d", "directory"])) { for (const w of o.operands) guardTarget(st, cmd, cwd, w, "mkdir"); return; }
  const recursive = name === "mv" || guardHas(o, ["r", "R", "a", "recursive", "archive"]);
  const symbolic = name === "ln" && guardHas(o, ["s", "symbolic"]);
  const tdir = guardOptVal(o, ["t", "target-directory"]);
  let sources, dest = null, intoDir = false;
  if (tdir) { sources = o.operands; dest = guardTextWord(tdir.value, tdir.tok); intoDir = true; }
  else {
    if (o.operands.length < 2) {
      if (name === "ln" && o.operands.length === 1) { sources = o.operands; dest = guardTextWord(".", null); intoDir = true; }
      else return;
    } else {
      sources = o.operands.slice(0, -1);
      dest = o.operands[o.operands.length - 1];
      if (!guardHas(o, ["T", "no-target-directory"])) {
        intoDir = sources.length > 1 || /\/$/.test(dest.text) || (!dest.dyn && cwd !== null && guardIsDir(path.resolve(cwd, dest.text), true));
      }
    }
  }
  // expand glob sources so each file name reaching the destination is checked
  const expanded = [];
  for (const s of sources) {
    if (s.glob && !s.dyn && cwd !== null) {
      let list;
      try { list = guardExpand(cwd, s.text); } catch (e) { if (e && e.guardShell) { guardShellBlock(st, st.caller.label + " may not run that command (" + e.message + "). Report \"blocked\" instead."); return; } throw e; }
      for (const t of list) expanded.push(guardTextWord(t, null));
    } else expanded.push(s);
  }
  for (const s of expanded) {
    if (st.verdict) return;
    const target = intoDir ? guardJoinWord(dest, s) : dest;
    guardTarget(st, cmd, cwd, target, "write");
    if (name === "mv") guardTarget(st, cmd, cwd, s, "tree");
    if (name === "ln") {
      // a link grants writes to what it points at
      if (symbolic && !s.dyn && !path.isAbsolute(s.text)) {
        if (cwd !== null && !target.dyn) guardTarget(st, cmd, path.dirname(path.resolve(cwd, target.text)), guardTextWord(s.text, s), "write");
      } else guardTarget(st, cmd, cwd, s, "write");
    }
    // a recursive copy/move writes every file of the source tree under the destination
    if (recursive && (name === "cp" || name === "mv") && !s.dyn && !target.dyn && cwd !== null) {
      const srcAbs = path.resolve(cwd, s.text);
      if (guardIsDir(srcAbs, name === "cp")) {
        const entries = guardWalk(srcAbs);
        if (entries === null) { guardShellBlock(st, st.caller.label + " may not copy or move " + guardOneLine(s.text, 120) + ": the tree has too many files for the guard to check. Report \"blocked\" instead."); return; }
        for (const e of entries) { guardTarget(st, cmd, cwd, guardTextWord(target.text.replace(/\/+$/, "") + "/" + e, null), "write"); if (st.verdict) return; }
      }
    }
  }
}

function guardWriters(st, cmd, cwd, u) {
  const name = u.name;
  const args = u.argv.slice(1);
  const writes = (list, mode) => { for (const w of list) guardTarget(st, cmd, cwd, w, mode); };
  switch (name) {
    case "tee": writes(guardOpts(args, { argLong: ["output-error"] }).operands, "write"); return;
    case "sed": {
      const o = guardOpts(args, { argShort: "efl", argLong: ["expression", "file", "line-length"], attachedOnly: "i" });
      if (!guardHas(o, ["i", "in-place"])) return;
      const files = guardHas(o, ["e", "f", "expression", "file"]) ? o.operands : o.operands.slice(1);
      writes(files, "write");
      return;
    }
    case "perl": case "ruby": {
      const o = guardOpts(args, { argShort: "eEIMmxC", attachedOnly: "i0l" });
      if (!guardHas(o, ["i"])) return;
      writes(guardHas(o, ["e", "E"]) ? o.operands : o.operands.slice(1), "write");
      return;
    }
    case "cp": case "mv": case "install": case "ln": guardCopyLike(st, cmd, cwd, name, args); return;
    case "rm": {
      const o = guardOpts(args, { argLong: [] });
      writes(o.operands, guardHas(o, ["r", "R", "recursive"]) ? "tree" : "delete");
      return;
    }
    case "rmdir": case "unlink": writes(guardOpts(args, {}).operands, "delete"); return;
    case "shred": writes(guardOpts(args, { argShort: "ns", argLong: ["iterations", "size", "random-source"] }).operands, "write"); return;
    case "touch": writes(guardOpts(args, { argShort: "dtr", argLong: ["date", "reference", "time"] }).operands, "write"); return;
    case "truncate": writes(guardOpts(args, { argShort: "sr", argLong: ["size", "reference"] }).operands, "write"); return;
    case "mkdir": writes(guardOpts(args, { argShort: "m", argLong: ["mode", "context"] }).operands, "mkdir"); return;
    case "dd": for (const w of args) if (w.text.startsWith("of=")) { const t = guardTextWord(w.text.slice(3), w); t.raw = w.raw; guardTarget(st, cmd, cwd, t, "write"); } return;
    case "curl": {
      const o = guardOpts(args, { argShort: "AbcCdDeEFHKmoPrTuUwxXyYz", argLong: ["output", "data", "header", "user", "request", "user-agent", "url", "config", "cookie", "cookie-jar", "form", "referer", "data-binary", "data-raw", "output-dir", "upload-file"] });
      for (const x of o.opts) {
        if ((x.name === "o" || x.name === "output") && x.value !== "-") guardTarget(st, cmd, cwd, guardTextWord(x.value, x.tok), "write");
        if (x.name === "c" || x.name === "cookie-jar") if (x.value !== "-") guardTarget(st, cmd, cwd, guardTextWord(x.value, x.tok), "write");
        if (x.name === "O" || x.name === "remote-name" || x.name === "remote-name-all") {
          const w = guardTextWord("(name taken from the URL)", null); w.dyn = true; w.raw = "-O";
          guardTarget(st, cmd, cwd, w, "write");
        }
      }
      return;
    }
    case "wget": {
      const o = guardOpts(args, { argShort: "OoaPeUtTwQlAR", argLong: ["output-document", "output-file", "append-output", "directory-prefix"] });
      const out = guardOptVal(o, ["O", "output-document"]);
      if (out) { if (out.value !== "-") guardTarget(st, cmd, cwd, guardTextWord(out.value, out.tok), "write"); }
      else if (!guardHas(o, ["spider", "help", "version", "V", "h"])) { const w = guardTextWord("(name taken from the URL)", null); w.dyn = true; w.raw = "wget without -O"; guardTarget(st, cmd, cwd, w, "write"); }
      for (const x of o.opts) if (x.name === "o" || x.name === "a" || x.name === "output-file" || x.name === "append-output") guardTarget(st, cmd, cwd, guardTextWord(x.value, x.tok), "write");
      return;
    }
    case "find": {
      let k = 0;
      const starts = [];
      while (k < args.length && !/^[-(!]/.test(args[k].text)) starts.push(args[k++]);
      let del = false;
      for (; k < args.length; k++) {
        const t = args[k].text;
        if (t === "-delete") del = true;
        else if (t === "-fprint" || t === "-fprint0" || t === "-fls" || t === "-fprintf") { if (args[k + 1]) guardTarget(st, cmd, cwd, args[k + 1], "write"); k++; }
        else if (t === "-exec" || t === "-execdir" || t === "-ok" || t === "-okdir") {
          const words = [];
          k++;
          while (k < args.length && args[k].text !== ";" && args[k].text !== "+") {
            const w = args[k];
            if (w.text.includes("{}")) { const d = guardTextWord(w.text, w); d.dyn = true; d.raw = w.raw; words.push(d); } else words.push(w);
            k++;
          }
          if (words.length) guardCommand(st, { kind: "cmd", words, redirs: [], subs: [], raw: words.map((x) => x.raw) }, cwd, st.depth + 1);
        }
      }
      if (del) writes(starts.length ? starts : [guardTextWord(".", null)], "tree");
      return;
    }
    default:
      return;
  }
}

const GUARD_WRITER_NAMES = new Set(["tee", "sed", "perl", "ruby", "cp", "mv", "install", "ln", "rm", "rmdir", "unlink", "shred", "touch", "truncate", "mkdir", "dd", "curl", "wget", "find"]);

// Scripts a shell word runs: sh -c "…", eval …, sh <<EOF.
function guardNestedScripts(st, cmd, u) {
  const name = u.name;
  const args = u.argv.slice(1);
  if (name === "eval") {
    if (args.some((w) => w.dyn)) return { error: "eval runs text computed at run time" };
    return { scripts: args.length ? [args.map((w) => w.text).join(" ")] : [] };
  }
  if (name === "watch") {
    const o = guardOpts(args, { argShort: "nqd", argLong: ["interval", "differences"], stopAtOperand: true });
    if (o.operands.some((w) => w.dyn)) return { error: "watch runs text computed at run time" };
    return { scripts: o.operands.length ? [o.operands.map((w) => w.text).join(" ")] : [] };
  }
  if (name === "su" || name === "script" || name === "flock" || name === "runuser") {
    const c = args.findIndex((w) => w.text === "-c" || w.text === "--command");
    if (c < 0 || !args[c + 1]) return { scripts: [] };
    if (args[c + 1].dyn) return { error: name + " -c runs a script computed at run time" };
    return { scripts: [args[c + 1].text] };
  }
  if (!GUARD_SHELLS.has(name)) return { scripts: [] };
  const rest = name === "busybox" ? args.slice(1) : args;
  if (name === "busybox" && !(args[0] && GUARD_SHELLS.has(args[0].text))) return { scripts: [] };
  const o = guardOpts(rest, { argShort: "oO", stopAtOperand: true });
  if (guardHas(o, ["c"])) {
    const script = o.operands[0];
    if (!script) return { scripts: [] };
    if (script.dyn) return { error: name + " -c runs a script computed at run time" };
    return { scripts: [script.text] };
  }
  if (o.operands.length) return { scripts: [] }; // runs a script file: a documented gap
  const scripts = [];
  for (const r of cmd.redirs) {
    if ((r.v === "<<" || r.v === "<<-") && r.tok.body !== null) scripts.push(r.tok.body);
    if (r.v === "<<<" && r.target) { if (r.target.dyn) return { error: name + " reads a script computed at run time" }; scripts.push(r.target.text); }
  }
  return { scripts };
}

function guardRuleCheck(st, cmd, words, u) {
  const raw = guardNorm(cmd.raw.join(" "));
  const shown = "\"" + guardOneLine(raw, 160) + "\"";
  const joined = guardNorm(words.map((w) => w.text).join(" "));
  let k = 0;
  while (k < words.length && guardIsAssign(words[k])) k++;
  const noAssign = guardNorm(words.slice(k).map((w) => w.text).join(" "));
  const plain = [raw, joined, noAssign];
  const deep = plain.slice();
  if (u.argv.length) {
    const argv = u.argv.map((w, j) => (j === 0 ? guardBase(w.text) : w.text));
    deep.push(guardNorm(argv.join(" ")));
    if (argv[0] === "git") deep.push(guardNorm(guardGitNormal(u.argv).map((w, j) => (j === 0 ? "git" : w.text)).join(" ")));
  }
  // brace expansion happens before the command runs: git {push,x} is "git push x"
  if (u.argv.some((w) => w.glob && !w.dyn && w.text.includes("{"))) {
    const words2 = [];
    for (const w of u.argv) { if (w.glob && !w.dyn && w.text.includes("{")) for (const x of guardBraceList(w.text)) words2.push(x); else words2.push(w.text); }
    words2[0] = guardBase(words2[0] || "");
    deep.push(guardNorm(words2.join(" ")));
  }
  // words computed at run time ($X, $(…)) or wildcards could turn into a denied command
  const loose = u.argv.some((w, j) => j > 0 && (w.dyn || w.glob))
    ? guardNorm(u.argv.map((w, j) => (j === 0 ? guardBase(w.text) : w.dyn || w.glob ? "*" : w.text.replace(/\*/g, "?"))).join(" "))
    : null;
  const maybe = (list) => (loose === null ? null : guardMaybeCmd(list, loose));
  const policy = st.policy;
  const who = st.caller.label;
  if (u.name === "git") {
    for (let j = 1; j < u.argv.length - 1; j++) {
      const t = u.argv[j].text, v = u.argv[j + 1].text;
      if ((t === "-c" && /^alias\./i.test(v)) || /^--config-env=alias\./i.test(t)) {
        guardShellBlock(st, who + " may not run " + shown + " (it defines a git alias on the command line, which the guard cannot check). Report \"blocked\" instead.");
        return;
      }
      if (!t.startsWith("-")) break;
    }
  }
  const could = (p) => " (it could expand to a command that matches " + p.pattern + "; write its arguments out)";
  if (st.caller.kind === "main") {
    if (guardMatchCmd(policy.orchestratorShell, plain)) return;
    const d = guardMatchCmd(policy.shellDeny, deep);
    if (d) { guardShellBlock(st, who + " may not run " + shown + " (no pipeline agent may run " + d.pattern + "). Leave this step to the human, or report \"blocked\"."); return; }
    const md = maybe(policy.shellDeny);
    if (md) guardShellBlock(st, who + " may not run " + shown + could(md) + ". Report \"blocked\" instead.");
    return;
  }
  const sh = st.caller.role.shell;
  const g = guardMatchCmd(policy.shellDeny, deep);
  if (g) { guardShellBlock(st, who + " may not run " + shown + " (no pipeline agent may run " + g.pattern + "). Report \"blocked\" instead."); return; }
  const d = guardMatchCmd(sh.deny, deep);
  if (d) { guardShellBlock(st, who + " may not run " + shown + " (its shell rules deny " + d.pattern + "). Report \"blocked\" instead."); return; }
  const md = maybe(sh.deny) || maybe(policy.shellDeny);
  if (md) { guardShellBlock(st, who + " may not run " + shown + could(md) + ". Report \"blocked\" instead."); return; }
  const cd = u.name === "cd" || u.name === "pushd" || u.name === "popd";
  const a = guardMatchCmd(sh.ask, deep) || maybe(sh.ask);
  if (a) { guardNote(st, guardAsk(who + " wants to run " + shown + " (its shell rules ask for " + a.pattern + ")")); return; }
  if (cd || guardMatchCmd(sh.allow, plain)) return;
  if (sh.default === "allow") return;
  if (sh.default === "ask") { guardNote(st, guardAsk(who + " wants to run " + shown + " (no shell rule of its role names it; the default is ask)")); return; }
  const allowed = sh.allow.map((p) => p.pattern);
  guardShellBlock(st, who + " may not run " + shown + " (not among its allowed commands" + (allowed.length ? ": " + allowed.join(", ") : "; it may run none") + "). Report \"blocked\" instead.");
}

function guardCd(u, cwd, st) {
  if (u.name === "popd") return null;
  const o = guardOpts(u.argv.slice(1), {});
  const target = o.operands[0];
  if (!target) return st.lx.home || null;
  if (target.dyn || target.glob || target.text === "-") return null;
  if (path.isAbsolute(target.text)) return path.resolve(target.text);
  return cwd === null ? null : path.resolve(cwd, target.text);
}

// One simple command. Returns the working directory for the commands after it.
function guardCommand(st, cmd, cwd, depth) {
  if (st.verdict) return cwd;
  if (depth > GUARD_DEPTH_LIMIT) { guardShellBlock(st, st.caller.label + " may not run that command: it nests shells too deeply for the guard to check. Report \"blocked\" instead."); return cwd; }
  const saved = st.depth;
  st.depth = depth;
  try {
    for (const s of cmd.subs) guardScript(st, s, cwd, depth + 1);
    if (st.verdict) return cwd;
    const words = guardStripKeywords(cmd.words);
    const u = guardUnwrap(words);
    if (u.dynName || u.opaque) {
      const why = u.opaque || "its command name is computed or expanded at run time";
      guardShellBlock(st, st.caller.label + " may not run \"" + guardOneLine(guardNorm(cmd.raw.join(" ")), 160) + "\": " + why + ", which the guard cannot check. Write the command out, or report \"blocked\".");
      return cwd;
    }
    if (u.argv.length) guardRuleCheck(st, cmd, words, u); // a bare assignment (X=1) runs nothing
    if (st.verdict) return cwd;
    for (const r of cmd.redirs) {
      const v = r.v;
      if (v === "<" || v === "<<" || v === "<<-" || v === "<<<" || v === "<&") continue;
      if ((v === ">&" || v === "<&") && r.target && !r.target.dyn && /^(\d+|-)$/.test(r.target.text)) continue;
      if (v === ">&" && r.fd) continue; // 2>&file is not a thing; N>&M duplicates
      guardTarget(st, cmd, cwd, r.target, "write");
      if (st.verdict) return cwd;
    }
    if (u.viaXargs && GUARD_WRITER_NAMES.has(u.name)) {
      const w = guardTextWord("(file names read by xargs)", null); w.dyn = true; w.raw = "xargs " + u.name;
      guardTarget(st, cmd, cwd, w, "write");
      return cwd;
    }
    guardWriters(st, cmd, cwd, u);
    if (st.verdict) return cwd;
    const nested = guardNestedScripts(st, cmd, u);
    if (nested.error) { guardShellBlock(st, st.caller.label + " may not run \"" + guardOneLine(guardNorm(cmd.raw.join(" ")), 160) + "\": " + nested.error + ", which the guard cannot check. Report \"blocked\" instead."); return cwd; }
    for (const script of nested.scripts) {
      const lexed = guardLex(script, 0, null, st.lx, depth + 1);
      guardScript(st, lexed.tokens, cwd, depth + 1);
      if (st.verdict) return cwd;
    }
    if (u.name === "cd" || u.name === "pushd" || u.name === "popd") return guardCd(u, cwd, st);
    return cwd;
  } finally {
    st.depth = saved;
  }
}

function guardScript(st, tokens, cwd, depth) {
  const items = guardBuild(tokens);
  const stack = [];
  for (const it of items) {
    if (st.verdict) return cwd;
    if (it.kind === "open") { stack.push(cwd); continue; }
    if (it.kind === "close") { if (stack.length) cwd = stack.pop(); continue; }
    cwd = guardCommand(st, it, cwd, depth);
  }
  return cwd;
}

function guardBash(st, command) {
  if (typeof command !== "string" || command.trim() === "") return guardBlock("Bash call without a command string in tool_input.command; refusing (fail closed).");
  if (st.caller.kind === "role" && st.caller.role.shell === null)
    return guardBlock(st.caller.label + " may not run shell commands (its role has no shell tool). Report \"blocked\" instead.");
  st.lx = { home: st.home, vars: st.vars };
  let tokens;
  try { tokens = guardLex(command, 0, null, st.lx, 0).tokens; }
  catch (e) {
    if (e && e.guardShell) return guardBlock(st.caller.label + " may not run that command: the guard could not read it (" + e.message + "). Simplify the command, or report \"blocked\".");
    throw e;
  }
  try { guardScript(st, tokens, st.ctx.cwd, 0); }
  catch (e) {
    if (e && e.guardShell) return guardBlock(st.caller.label + " may not run that command: the guard could not check it (" + e.message + "). Simplify the command, or report \"blocked\".");
    throw e;
  }
  if (st.verdict) return st.verdict;
  if (st.ask) return st.ask;
  return { kind: "allow" };
}

// ---------------------------------------------------------------- spawning

function guardSpawn(st, input) {
  const policy = st.policy;
  let target = input.tool_input.subagent_type;
  if (target === undefined || target === null || target === "") target = "general-purpose";
  if (typeof target !== "string") return guardBlock("tool_input.subagent_type is not a string; refusing (fail closed).");
  const caller = st.caller;
  const shown = JSON.stringify(guardOneLine(target, 80));
  if (caller.kind === "role" && !caller.role.canSpawn)
    return guardBlock(caller.label + " may not start agents (its role cannot spawn; refused " + shown + "). Report back to the orchestrator instead.");
  if (caller.sub && !policy.nestedAgents)
    return guardBlock(caller.label + " may not start " + shown + ": a delegated agent may not start agents of its own (nested agents are off). Report back to the orchestrator instead.");
  if (!st.rolesById.has(target) && !policy.nestedAgents)
    return guardBlock(caller.label + " may not start " + shown + ": it is not a role of pipeline " + policy.pipeline + " (nested agents are off). Start one of: " + policy.roles.map((r) => r.id).join(", ") + ".");
  return { kind: "allow" };
}

// ---------------------------------------------------------------- entry point

// decide(policy, raw stdin text, env, scriptProject?) → { kind: "allow" | "ask" | "block" | "off", reason? }
// scriptProject: the project the script file sits in (derived from its own path), or null.
function decide(policy, raw, env, scriptProject) {
  try {
    return guardDecide(policy, raw, env || {}, typeof scriptProject === "string" ? scriptProject : null);
  } catch (e) {
    return guardBlock("internal error (" + guardOneLine(e && e.stack ? String(e.stack).split("\n").slice(0, 2).join(" ") : String(e), 300) + "); refusing (fail closed).");
  }
}

function guardDecide(policy, raw, env, scriptProject) {
  // The kill-switch file counts only in the project root (CLAUDE_PROJECT_DIR, or the folder the
  // script is installed in), never in the tool call's cwd: an agent can cd, and could plant one.
  const off0 = guardKillSwitch(policy, env, [env.CLAUDE_PROJECT_DIR, scriptProject]);
  if (off0) return off0;
  if (typeof raw !== "string" || raw.trim() === "") return guardBlock("empty hook input; refusing (fail closed).");
  let input;
  try { input = JSON.parse(raw); } catch (e) { return guardBlock("hook input is not JSON; refusing (fail closed)."); }
  if (input === null || typeof input !== "object" || Array.isArray(input)) return guardBlock("hook input is not a JSON object; refusing (fail closed).");
  if (input.hook_event_name !== "PreToolUse") return guardBlock("expected hook_event_name \"PreToolUse\", got " + guardOneLine(JSON.stringify(input.hook_event_name) || "nothing", 60) + "; refusing (fail closed).");
  const tool = input.tool_name;
  if (typeof tool !== "string" || tool === "") return guardBlock("hook input has no tool_name; refusing (fail closed).");
  if (input.tool_input === null || typeof input.tool_input !== "object" || Array.isArray(input.tool_input)) return guardBlock("hook input for " + guardOneLine(tool, 60) + " has no tool_input object; refusing (fail closed).");

  const envDir = typeof env.CLAUDE_PROJECT_DIR === "string" && env.CLAUDE_PROJECT_DIR !== "" ? env.CLAUDE_PROJECT_DIR : null;
  const cwdIn = typeof input.cwd === "string" && input.cwd !== "" ? input.cwd : null;
  const isWrite = guardHasOwn(GUARD_WRITE_TOOLS, tool);
  const isBash = tool === "Bash";
  const isSpawn = GUARD_SPAWN_TOOLS.has(tool);
  if (!isWrite && !isBash && !isSpawn) return { kind: "allow" }; // not a tool this guard rules (see GUARDED_TOOLS_MATCHER)

  // who is calling
  const rolesById = new Map(policy.roles.map((r) => [r.id, r]));
  const t = input.agent_type, id = input.agent_id;
  if (id !== undefined && id !== null && typeof id !== "string") return guardBlock("agent_id is not a string; refusing (fail closed).");
  const sub = typeof id === "string" && id !== "";
  let caller;
  if (t === undefined || t === null) {
    caller = sub ? { kind: "foreign", label: "an unnamed subagent", sub: true } : { kind: "main", label: "the orchestrator (main thread)", sub: false };
  } else if (typeof t !== "string" || t === "") {
    return guardBlock("agent_type is not a non-empty string; refusing (fail closed).");
  } else if (rolesById.has(t)) {
    caller = { kind: "role", role: rolesById.get(t), label: t, sub };
  } else {
    caller = { kind: "foreign", label: "agent " + JSON.stringify(guardOneLine(t, 60)), sub };
  }
  if (caller.kind === "foreign") {
    const what = isWrite ? "write files" : isBash ? "run shell commands" : "start agents";
    return guardBlock(caller.label + " is not a role of pipeline " + policy.pipeline + ", so it may not " + what + " here (built-in and other agents are blocked while the harness guard is on). Report \"blocked\" instead, or have the orchestrator delegate to a pipeline role (" + policy.roles.map((r) => r.id).join(", ") + ").");
  }

  // where: CLAUDE_PROJECT_DIR (Claude Code always sets it for hooks), else the script's own project,
  // else the input cwd
  const project = envDir || scriptProject || cwdIn;
  if (!project || !path.isAbsolute(project)) return guardBlock("no absolute project directory (CLAUDE_PROJECT_DIR and the input cwd are missing or relative); refusing (fail closed).");
  if (cwdIn !== null && !path.isAbsolute(cwdIn)) return guardBlock("the input cwd is not an absolute path; refusing (fail closed).");
  let projectReal;
  try { projectReal = fs.realpathSync.native(project); }
  catch (e) { return guardBlock("cannot resolve the project directory " + guardOneLine(project, 200) + " (" + guardErrCode(e) + "); refusing (fail closed)."); }
  const ctx = { project: path.resolve(project), projectReal, cwd: path.resolve(cwdIn || project) };
  const home = typeof env.HOME === "string" && path.isAbsolute(env.HOME) ? env.HOME : null;
  const vars = { CLAUDE_PROJECT_DIR: ctx.project };
  if (home) vars.HOME = home;
  const st = {
    policy, caller, ctx, home, vars, rolesById,
    mainRoles: policy.mainRoles.map((r) => rolesById.get(r)).filter(Boolean),
    verdict: null, ask: null, depth: 0, lx: null,
  };

  if (isWrite) {
    let p;
    for (const key of GUARD_WRITE_TOOLS[tool]) if (typeof input.tool_input[key] === "string") { p = input.tool_input[key]; break; }
    if (p === undefined || p === "") return guardBlock(tool + " call without " + GUARD_WRITE_TOOLS[tool][0] + " in tool_input; refusing (fail closed).");
    const why = guardCheckPath(st, ctx.cwd, p, "", false);
    return why ? guardBlock(why) : { kind: "allow" };
  }
  if (isBash) return guardBash(st, input.tool_input.command);
  return guardSpawn(st, input);
}
`;

/** The I/O shell around `decide`: kill switch, stdin, exit codes. Runs as the script's main code. */
export const GUARD_MAIN_SOURCE = String.raw`
let guardFinished = false;
function guardFinish(d) {
  if (guardFinished) return;
  guardFinished = true;
  let code = 2;
  try {
    if (d.kind === "allow") code = 0;
    else if (d.kind === "off") { fs.writeSync(2, d.reason + "\n"); code = 0; }
    else if (d.kind === "ask") {
      fs.writeSync(1, JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: d.reason } }) + "\n");
      code = 0;
    } else fs.writeSync(2, (d.reason || "harness guard: blocked (no reason given); refusing (fail closed).") + "\n");
  } catch (e) {
    code = 2;
  }
  process.exit(code);
}
process.on("uncaughtException", (e) => guardFinish(guardBlock("internal error (" + guardOneLine(String(e && e.message || e), 200) + "); refusing (fail closed).")));
process.on("unhandledRejection", (e) => guardFinish(guardBlock("internal error (" + guardOneLine(String(e && e.message || e), 200) + "); refusing (fail closed).")));

// the project this script is installed in: <project>/<POLICY.scriptPath>
let guardScriptProject = null;
try {
  const self = fileURLToPath(import.meta.url).split(path.sep).join("/");
  if (self.endsWith("/" + POLICY.scriptPath)) guardScriptProject = self.slice(0, -POLICY.scriptPath.length - 1).split("/").join(path.sep) || path.sep;
} catch (e) { guardScriptProject = null; }
const guardOff = guardKillSwitch(POLICY, process.env, [process.env.CLAUDE_PROJECT_DIR, guardScriptProject]);
if (guardOff) guardFinish(guardOff);
else {
  const chunks = [];
  let size = 0;
  const timer = setTimeout(() => guardFinish(guardBlock("timed out reading the hook input; refusing (fail closed).")), 10000);
  process.stdin.on("data", (c) => {
    chunks.push(c);
    size += c.length;
    if (size > 64 * 1024 * 1024) { clearTimeout(timer); guardFinish(guardBlock("hook input larger than 64 MB; refusing (fail closed).")); }
  });
  process.stdin.on("error", (e) => { clearTimeout(timer); guardFinish(guardBlock("cannot read the hook input (" + guardErrCode(e) + "); refusing (fail closed).")); });
  process.stdin.on("end", () => { clearTimeout(timer); guardFinish(decide(POLICY, Buffer.concat(chunks).toString("utf8"), process.env, guardScriptProject)); });
}
`;
