// harness globs and command patterns → regular expressions for Gemini CLI 0.61 policy `argsPattern`.
//
// The policy engine tests argsPattern against its "stable" JSON of the tool arguments: keys sorted,
// each top-level pair wrapped in NUL characters (`\0"file_path":"src/a.ts"\0`), values as
// JSON.stringify writes them (so `"` and `\` inside a value are escaped). Anchoring on `\x00"key":"`
// and on the closing `"\x00` makes a pattern see exactly one top-level argument.
//
// The loader rejects a pattern its ReDoS test flags: any parenthesised group that contains a
// quantifier, followed anywhere later by a `)` with a quantifier (isSafeRegExp in
// packages/core/src/policy/utils.ts, 0.61.0). So no group here is ever quantified; optional parts
// are written as alternations with an empty branch, `(?:x|)`. Every pattern is checked with the
// same test before it is emitted (`isSafe`), and one that fails is narrowed by the caller.
//
// Paths: the model passes file_path as it likes (relative or absolute); the engine sees it raw.
// Patterns match paths relative to the project root, with an optional leading "./". Absolute paths
// and ".." are refused by separate rules (rules.ts), since a build cannot know the project's absolute
// location and a suffix match would allow too much.

/** The 0.61 loader's own ReDoS test, verbatim. */
export function isSafe(pattern: string): boolean {
  let safe = safeMemo.get(pattern);
  if (safe === undefined) safeMemo.set(pattern, (safe = testSafe(pattern)));
  return safe;
}

/** isSafe(filePathPattern(pathRegex)), keyed by the regex (one string per glob, from globToPathRegex). */
export function isSafePath(pathRegex: string): boolean {
  let safe = safePathMemo.get(pathRegex);
  if (safe === undefined) safePathMemo.set(pathRegex, (safe = isSafe(filePathPattern(pathRegex))));
  return safe;
}

/** isSafe(commandPattern(pattern, mode)), keyed by the harness pattern. */
export function isSafeCommand(pattern: string, mode: "allow" | "deny"): boolean {
  let safe = safeCommandMemo[mode].get(pattern);
  if (safe === undefined) safeCommandMemo[mode].set(pattern, (safe = isSafe(commandPattern(pattern, mode))));
  return safe;
}

// Every role asks again about the pipeline-wide patterns (never-write, shell_deny): answered once
// each, keyed by the strings the role files hold, so a lookup never builds the full pattern again.
const safeMemo = new Map<string, boolean>();
const safePathMemo = new Map<string, boolean>();
const safeCommandMemo = { allow: new Map<string, boolean>(), deny: new Map<string, boolean>() };
const pathMemo = new Map<string, string | null>();
const commandMemo = { allow: new Map<string, string>(), deny: new Map<string, string>() };

function testSafe(pattern: string): boolean {
  try {
    new RegExp(pattern);
  } catch {
    return false;
  }
  return pattern.length <= 2048 && !/\([^)]*[*+?{].*\)[*+?{]/.test(pattern);
}

/** Regex-escape text as it appears inside a JSON string value. */
function lit(text: string): string {
  return JSON.stringify(text)
    .slice(1, -1)
    .replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}

/** Glob characters this translation does not model (braces, classes, extglobs, negation). */
const UNSUPPORTED = /[{}[\]()!+@]/;

/**
 * A harness glob (picomatch, `dot: true`) as a regex over a JSON-encoded relative path, or null when
 * the glob uses syntax this translation does not model. `*` and `?` stay within a path segment;
 * `**` spans segments.
 */
export function globToPathRegex(glob: string): string | null {
  let re = pathMemo.get(glob);
  if (re === undefined) pathMemo.set(glob, (re = pathRegex(glob)));
  return re;
}

function pathRegex(glob: string): string | null {
  if (UNSUPPORTED.test(glob) || glob.startsWith("/") || glob.split("/").includes("..")) return null;
  // consecutive "**" segments mean what one does (picomatch)
  const segs = glob.split("/").filter((seg, i, all) => !(seg === "**" && all[i - 1] === "**"));
  let out = "";
  segs.forEach((seg, i) => {
    const last = i === segs.length - 1;
    // picomatch: a trailing "/**" also matches the folder itself, unless the folder segment ends in "*"
    const beforeTrailingStars = i === segs.length - 2 && segs[i + 1] === "**" && !seg.endsWith("*");
    if (seg === "**") {
      // "**" alone: anything; last after a folder: the folder itself or anything below it (picomatch's
      // "a/**" matches "a" too); elsewhere: zero or more directories
      const optional = last && segs.length > 1 && !segs[i - 1]!.endsWith("*");
      out += last ? (optional ? '(?:/[^"]*|)' : '[^"]*') : '(?:[^"]*/|)';
      return;
    }
    out += [...seg].map((c) => (c === "*" ? '[^/"]*' : c === "?" ? '[^/"]' : lit(c))).join("") + (last || beforeTrailingStars ? "" : "/");
  });
  return out;
}

const FILE_PATH_HEAD = '\\x00"file_path":"(?:\\./|)';
const COMMAND_HEAD = '\\x00"command":"';
const VALUE_END = '"\\x00';

/** `\0"file_path":"<path>"\0`, the path optionally after "./". */
export function filePathPattern(pathRegex: string): string {
  return `${FILE_PATH_HEAD}${pathRegex}${VALUE_END}`;
}

/**
 * A harness command pattern (`*` any run of characters; a trailing " *" also matches the bare
 * command) as a regex over `\0"command":"…"\0`. `mode` picks how a `*` before the end is written:
 * "deny" uses `.*` (may match more, never less), "allow" uses `[^"]*` (may match less, never more).
 * A `*` at the end is `.*` in both: the command must begin with the literal text either way.
 */
export function commandPattern(pattern: string, mode: "allow" | "deny"): string {
  return `${COMMAND_HEAD}${commandRegex(pattern, mode)}${VALUE_END}`;
}

/** The command part of `commandPattern`. */
export function commandRegex(pattern: string, mode: "allow" | "deny"): string {
  let re = commandMemo[mode].get(pattern);
  if (re === undefined) commandMemo[mode].set(pattern, (re = commandRegexOf(pattern, mode)));
  return re;
}

function commandRegexOf(pattern: string, mode: "allow" | "deny"): string {
  const optionalTail = pattern.endsWith(" *");
  const body = optionalTail ? pattern.slice(0, -2) : pattern;
  const parts = body.split("*");
  let re = parts.map(lit).join(mode === "deny" ? ".*" : '[^"]*');
  if (optionalTail) re += "(?: .*|)";
  else if (body.endsWith("*")) re = `${parts.slice(0, -1).map(lit).join(mode === "deny" ? ".*" : '[^"]*')}.*`;
  return re;
}

/** A deny pattern that failed the ReDoS test, made broader: the literal text before its first wildcard. */
export function broadenedCommandRegex(pattern: string): string {
  return `${lit(pattern.split("*")[0] ?? "")}.*`;
}

/** One argument's patterns joined: `head(?:a|b|…)end` matches exactly when one of `head a end`, `head b end`, … does. */
export interface Union<T> {
  pattern: string;
  items: T[];
}

/**
 * Items whose argument regexes share a head and an end, in as few patterns as the loader takes:
 * each at most 2048 characters and passing its ReDoS test. A lone item is written as it would be
 * alone. Each item's regex must pass the test on its own.
 */
export function unions<T>(kind: "file_path" | "command", items: readonly T[], regex: (t: T) => string): Union<T>[] {
  const head = kind === "file_path" ? FILE_PATH_HEAD : COMMAND_HEAD;
  const write = (xs: readonly T[]) => (xs.length === 1 ? `${head}${regex(xs[0]!)}${VALUE_END}` : `${head}(?:${xs.map(regex).join("|")})${VALUE_END}`);
  const out: Union<T>[] = [];
  // split a run that fails the test (never seen: no regex here quantifies a group) until it passes
  const close = (xs: T[]): void => {
    const pattern = write(xs);
    if (xs.length === 1 || isSafe(pattern)) out.push({ pattern, items: xs });
    else (close(xs.slice(0, xs.length >> 1)), close(xs.slice(xs.length >> 1)));
  };
  const fixed = head.length + "(?:)".length + VALUE_END.length;
  let cur: T[] = [];
  let size = fixed;
  for (const t of items) {
    const n = regex(t).length + 1;
    if (cur.length && size + n > 2048) {
      close(cur);
      cur = [];
      size = fixed;
    }
    cur.push(t);
    size += n;
  }
  if (cur.length) close(cur);
  return out;
}
