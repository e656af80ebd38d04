// Guard runtime, part 1: reading a shell command exactly, or not at all. JavaScript source text,
// pasted verbatim into the generated hook (see render.ts for the rules of these strings).
//
// The guard reads only a subset of bash it can model exactly, and that bash, zsh and sh (dash) read
// alike (the hosts run the user's shell, and Codex the shell the model names): words made of literal characters,
// single quotes, double quotes without expansions and backslash escapes; `&&`, `||`, `;`, `|` and
// newlines between simple commands; output redirections to a literal path, `N>&M` and `>&-`
// duplications and `< file`, read after bash's own removal of backslash-newlines. Anything else (`$`,
// backticks, globs, braces, `~`, subshells, `&`, here-documents, process substitution, `>&` with a
// file name, a NUL byte, environment assignments, shell keywords) makes the command "unmodelled":
// the guard then asks or refuses, and never allows.
export const GUARD_SHELL_SOURCE = String.raw`
function guardUnmodelled(why) { const e = new Error(why); e.guardShell = true; return e; }

const GUARD_STOP = " \t\n;&|<>";
const GUARD_KEYWORDS = new Set(["if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done", "case", "esac", "select", "function", "time", "coproc", "[[", "]]", "{", "}", "!", "in"]);

// One word from src at i: { text, raw, end }. Throws for anything the guard does not model.
function guardWord(src, i) {
  const start = i;
  let text = "";
  const n = src.length;
  while (i < n && !GUARD_STOP.includes(src[i])) {
    const c = src[i];
    if (c === "\\") {
      if (i + 1 >= n) throw guardUnmodelled("it ends with a backslash");
      if (src[i + 1] === "\n") { i += 2; continue; }
      text += src[i + 1]; i += 2; continue;
    }
    if (c === "'") {
      const j = src.indexOf("'", i + 1);
      if (j < 0) throw guardUnmodelled("a single quote is not closed");
      text += src.slice(i + 1, j); i = j + 1; continue;
    }
    if (c === "\"") {
      i++;
      for (;;) {
        if (i >= n) throw guardUnmodelled("a double quote is not closed");
        const d = src[i];
        if (d === "\"") { i++; break; }
        if (d === "$" || d === "\x60") throw guardUnmodelled("it expands " + (d === "$" ? "a $ expression" : "a backtick command") + " at run time");
        if (d === "\\" && i + 1 < n && "$\x60\"\\\n".includes(src[i + 1])) { if (src[i + 1] !== "\n") text += src[i + 1]; i += 2; continue; }
        text += d; i++;
      }
      continue;
    }
    if (c === "$" || c === "\x60") throw guardUnmodelled("it expands " + (c === "$" ? "a $ expression" : "a backtick command") + " at run time");
    if (c === "(" || c === ")") throw guardUnmodelled("it uses a subshell, a function or a ( ) group");
    if (c === "{" || c === "}") throw guardUnmodelled("it uses braces (brace expansion or a { } group)");
    if (c === "*" || c === "?" || c === "[") throw guardUnmodelled("it has an unquoted wildcard the shell expands");
    // bash expands ~ at the start of a word and after = or : (assignments); HEAD~1 stays as written
    if (c === "~" && (i === start || src[i - 1] === "=" || src[i - 1] === ":")) throw guardUnmodelled("it has an unquoted ~ the shell expands");
    if ((c === "#" || c === "!") && i === start) throw guardUnmodelled(c === "#" ? "it has a comment" : "it uses !");
    // zsh with its default options expands =name to name's path on PATH (Claude Code turns EQUALS off;
    // Codex runs the zsh the model names, or the user's, as it is)
    if (c === "=" && i === start) throw guardUnmodelled("it has a word starting with =, which zsh expands to a program's path");
    if (c.charCodeAt(0) < 32) throw guardUnmodelled("it has a control character");
    text += c; i++;
  }
  return { text, raw: src.slice(start, i), end: i };
}

const GUARD_REDIR = /^(\d*)(&>>|&>|>>|>\||>&|>|<<<|<<|<>|<&|<)/;

// bash drops every backslash-newline outside single quotes before it reads a single word (its input
// reader does it, not its word parser), so with one between "a" and "=1 cmd" the command is an
// assignment, between ">" and "~/x" it writes in the home folder, between "i" and "f" it is the keyword
// if (r9): the guard reads the text bash reads. A backslash pair stays whole, so a newline after it stays.
function guardJoinLines(src) {
  let out = "", sq = false, dq = false;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (sq) { out += c; if (c === "'") sq = false; continue; }
    if (c === "\\") {
      if (src[i + 1] === "\n") {
        // zsh does not join a word to an operator across one (1\<newline>> is the word 1 and >, where
        // bash and sh read 1>; &\<newline>& is a syntax error): only bash's and sh's reading is modelled
        if (!dq && i > 0 && !" \t\n".includes(src[i - 1]) && i + 2 < src.length && "<>&|;".includes(src[i + 2])) throw guardUnmodelled("a backslash-newline joins a word to an operator, which zsh reads apart");
        i++; continue;
      }
      out += c + (i + 1 < src.length ? src[i + 1] : ""); i++; continue;
    }
    if (c === "'" && !dq) sq = true;
    else if (c === "\"") dq = !dq;
    out += c;
  }
  return out;
}

// The simple commands of src: [{ argv, redirs: [{ op, fd, target }], join }]; join is the operator
// before the command (null, "&&", "||", ";", "|"). Throws for anything unmodelled.
function guardParse(src) {
  if (typeof src !== "string" || src.trim() === "") throw guardUnmodelled("it is empty");
  // bash drops a NUL byte from the text it reads (a script, its standard input, a terminal), so a
  // quoted "<NUL>--output=x" reaches the program as the option --output=x (r9): refused anywhere
  if (src.includes("\u0000")) throw guardUnmodelled("it holds a NUL byte, which the shell drops");
  src = guardJoinLines(src);
  if (src.trim() === "") throw guardUnmodelled("it is empty");
  const cmds = [];
  let cur = { argv: [], redirs: [], join: null };
  const flush = (op) => {
    if (!cur.argv.length) {
      if (op === ";" && !cur.redirs.length && cur.join !== "&&" && cur.join !== "||" && cur.join !== "|") { cur.join = cmds.length ? ";" : null; return; }
      throw guardUnmodelled("it has an empty command before " + JSON.stringify(op));
    }
    cmds.push(cur);
    cur = { argv: [], redirs: [], join: op };
  };
  let i = 0;
  const n = src.length;
  while (i < n) {
    const c = src[i];
    if (c === " " || c === "\t") { i++; continue; }
    if (c === "\\" && src[i + 1] === "\n") { i += 2; continue; }
    if (c === "\n" || c === ";") {
      if (src[i + 1] === ";" || src[i + 1] === "&") throw guardUnmodelled("it uses ;; or ;&");
      flush(";"); i++; continue;
    }
    if (c === "|") {
      if (src[i + 1] === "&") throw guardUnmodelled("it uses |&");
      if (src[i + 1] === "|") { flush("||"); i += 2; continue; }
      flush("|"); i++; continue;
    }
    const m = GUARD_REDIR.exec(src.slice(i, i + 12));
    // digits before > or < at a word's start name a descriptor; before &> they are a word of their
    // own (bash has no N&>): "sort -k 2&>/dev/null -o FILE" gives sort -k 2 -o FILE (r9)
    const fdWord = m && m[1] !== "" && m[2][0] !== "&" && (i === 0 || " \t\n;&|".includes(src[i - 1]));
    if (m && (m[1] === "" || fdWord)) {
      const op = m[2];
      if (op === "<<" || op === "<<<" || op === "<>" || op === "<&") throw guardUnmodelled("it uses a here-document or the redirection " + op);
      // sh (dash: Codex runs the shell the model names) reads &> as & then >: the command before it runs
      // in the background and the words after it as a second command
      if (op === "&>" || op === "&>>") throw guardUnmodelled("it uses " + op + ", which sh reads as a background & and a second command");
      // dash takes one digit as a file descriptor: 10>f is the word 10 and >f there
      if (m[1].length > 1) throw guardUnmodelled("it redirects a file descriptor above 9, which sh reads as a word and a redirection");
      i += m[0].length;
      if (src[i] === "(") throw guardUnmodelled("it uses process substitution");
      while (src[i] === " " || src[i] === "\t") i++;
      if (i >= n || GUARD_STOP.includes(src[i])) throw guardUnmodelled("a redirection has no target");
      const w = guardWord(src, i);
      i = w.end;
      // >& with a file name: bash expands that word a second time (quotes and backslashes come off
      // again, and $(…), backticks, $VAR, ~ and globs inside quotes run: '$(cmd)'/../.pebble/review.md
      // ran cmd for onyx, r9), and sh reads it as a bad descriptor. Only >&N (one digit) and >&- are read
      if (op === ">&" && !/^(\d|-)$/.test(w.raw)) throw guardUnmodelled("it uses >& with a file name, which bash expands a second time and sh does not read");
      cur.redirs.push({ op, fd: m[1] || null, target: w.text });
      continue;
    }
    if (c === "&") {
      if (src[i + 1] === "&") { flush("&&"); i += 2; continue; }
      throw guardUnmodelled("it runs a command in the background (&)");
    }
    if (c === "<" || c === ">") throw guardUnmodelled("it uses a redirection the guard does not model");
    const w = guardWord(src, i);
    i = w.end;
    if (!cur.argv.length) {
      if (/^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/.test(w.raw)) throw guardUnmodelled("it sets an environment variable (" + w.raw.split("=")[0] + "=) for the command");
      if (GUARD_KEYWORDS.has(w.raw)) throw guardUnmodelled("it uses the shell keyword " + w.raw);
    }
    cur.argv.push(w.text);
  }
  if (cur.argv.length) cmds.push(cur);
  else if (cur.redirs.length || cur.join === "&&" || cur.join === "||" || cur.join === "|") throw guardUnmodelled("it ends with an operator or a bare redirection");
  if (!cmds.length) throw guardUnmodelled("it runs nothing");
  return cmds;
}

// ---------------------------------------------------------------- command patterns

// A pattern is words. "*" = any words (also none). A word ending in "*" right after a letter, digit
// or "_" ("git diff*", "npm test*") is that word, optionally continued by "=", ":" or ".", then any
// words: "git diff*" matches "git diff -u" and "npm test*" "npm test:unit", never "git difftool".
// Any other "*" inside a word matches characters of that word only.
const guardPatCache = new Map();
function guardPatCompile(p) {
  let c = guardPatCache.get(p);
  if (c) return c;
  c = [];
  for (const w of p.split(" ")) {
    if (w === "*") { c.push({ star: true }); continue; }
    const m = /^([^*]*[A-Za-z0-9_])\*$/.exec(w);
    if (m) { c.push({ stem: m[1] }); c.push({ star: true }); continue; }
    if (w.includes("*")) c.push({ re: new RegExp("^" + w.split("*").map((s) => s.replace(/[.*+?^$()|[\]\\/{}]/g, "\\$&")).join("[\\s\\S]*") + "$") });
    else c.push({ lit: w });
  }
  guardPatCache.set(p, c);
  return c;
}
// How many leading words of p it names literally: those words are the author's own.
function guardPatTrusted(p) {
  const toks = guardPatCompile(p);
  let n = 0;
  while (n < toks.length && (toks[n].lit !== undefined || toks[n].stem !== undefined)) n++;
  return n;
}
function guardWordOk(t, w) {
  if (t.lit !== undefined) return w === t.lit;
  if (t.stem !== undefined) return w === t.stem || (w.startsWith(t.stem) && "=:.".includes(w[t.stem.length]));
  return t.re.test(w);
}
function guardPatMatch(p, argv) {
  const toks = guardPatCompile(p);
  // memo[i][j]: toks[i:] matches argv[j:]
  const memo = new Map();
  const go = (i, j) => {
    const key = i * 4096 + j;
    if (memo.has(key)) return memo.get(key);
    let r;
    if (i === toks.length) r = j === argv.length;
    else if (toks[i].star) r = go(i + 1, j) || (j < argv.length && go(i, j + 1));
    else r = j < argv.length && guardWordOk(toks[i], argv[j]) && go(i + 1, j + 1);
    memo.set(key, r);
    return r;
  };
  return argv.length < 4096 && go(0, 0);
}
function guardFirstMatch(policy, list, forms) {
  for (const k of list) for (const f of forms) if (guardPatMatch(policy.pats[k], f)) return policy.pats[k];
  return null;
}
`;
