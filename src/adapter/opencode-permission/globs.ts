// harness globs (picomatch, `dot: true`) → OpenCode 1.18.33 wildcard patterns.
//
// OpenCode's matcher (Wildcard.match in the binary): the pattern is escaped except `*` → `.*` and
// `?` → `.`, anchored, dotall, case-sensitive; a trailing " *" becomes optional ("( .*)?"); a
// leading "~/", "~" or "$HOME" is replaced by the home folder (any pattern key, any permission).
// So `*` and `?` cross "/", and nothing else is special: braces and brackets are literal.
//
// The asymmetry: an allow pattern may only match less than its glob (extra matches are removed by
// compensating denies placed after the allows); a deny pattern may only match more. Anything the
// OpenCode form cannot say exactly is reported in `narrowed`, never silently widened.

import { intersects } from "./wildcard.js";
import { BoundedMap } from "../../memo.js";

export type Mode = "allow" | "deny";

/** One glob in OpenCode form. */
export interface Translation {
  glob: string;
  /** Patterns to emit with the rule's own action (empty: the allow was dropped). */
  patterns: string[];
  /** Allow only: deny patterns that cut what `patterns` match beyond the glob. */
  compensate: string[];
  /** Allow only: which pattern each compensating deny cuts. */
  cuts: Record<string, string>;
  /** Each pattern with the glob's own meaning kept: STAR_IN_SEGMENT / ONE_IN_SEGMENT for `*` / `?` that stay in one segment. */
  strict: Record<string, string>;
  /** Deny only: patterns covering what `patterns` may match beyond the glob (for collision checks). */
  extras: string[];
  /** Why the result is not exact, when it is not (allow: refuses some paths the glob allows). */
  narrowed?: string;
}

type Tok = { t: "lit"; s: string } | { t: "star"; cross: boolean } | { t: "q"; literal?: boolean } | { t: "sep" };
const SEP: Tok = { t: "sep" };
const CROSS: Tok = { t: "star", cross: true };
type Item = { k: "ch"; c: string } | { k: "star" } | { k: "globstar"; afterStar: boolean } | { k: "q" } | { k: "alt"; options: Item[][] };

const MAX_ALTERNATIVES = 64;

class Unsupported extends Error {}

// ---- parsing (a deliberately small subset of picomatch; everything else is Unsupported) ----

function parse(src: string, inBrace = false): Item[] {
  const out: Item[] = [];
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if ("()|!\\]}".includes(c) || (c === "," && !inBrace)) throw new Unsupported(c);
    if ("*?+@".includes(c) && (src[i - 1] === "]" || src[i - 1] === "}")) throw new Unsupported(`${src[i - 1]}${c}`); // a quantifier in picomatch
    // picomatch's fast path escapes only the first of a run: "$$", "^^" become anchors, "++" a quantifier
    if ("$^+".includes(c) && src[i + 1] === c) throw new Unsupported(c + c);
    if (c === "*") {
      let n = 1;
      while (src[i + n] === "*") n++;
      if (n === 1) out.push({ k: "star" });
      else if (n === 2 && !inBrace && (i === 0 || src[i - 1] === "/") && (i + 2 === src.length || src[i + 2] === "/")) out.push({ k: "globstar", afterStar: src[i - 2] === "*" });
      else throw new Unsupported("**");
      i += n - 1;
    } else if (c === "?") out.push({ k: "q" });
    else if (c === "[") {
      const end = src.indexOf("]", i + 1);
      if (end < 0) throw new Unsupported("[");
      out.push({ k: "alt", options: classChars(src.slice(i + 1, end)).map((ch) => [{ k: "ch", c: ch }]) });
      i = end;
    } else if (c === "{") {
      const end = matchingBrace(src, i);
      out.push({ k: "alt", options: braceOptions(src.slice(i + 1, end)).map((o) => parse(o, true)) });
      i = end;
    } else out.push({ k: "ch", c });
  }
  return out;
}

function classChars(body: string): string[] {
  if (!body || /^[!^]/.test(body) || body.includes("[") || body.includes("/") || body.includes("\\")) throw new Unsupported(`[${body}]`);
  const chars: string[] = [];
  for (let i = 0; i < body.length; i++) {
    if (body[i + 1] === "-" && i + 2 < body.length) {
      const lo = body.charCodeAt(i), hi = body.charCodeAt(i + 2);
      if (lo > hi || hi > 0x7e || (hi === 0x2f || (lo <= 0x2f && hi >= 0x2f))) throw new Unsupported(`[${body}]`);
      for (let x = lo; x <= hi; x++) chars.push(String.fromCharCode(x));
      i += 2;
    } else chars.push(body[i]!);
  }
  return [...new Set(chars)];
}

function matchingBrace(src: string, open: number): number {
  let depth = 0;
  for (let i = open; i < src.length; i++) {
    if (src[i] === "{") depth++;
    else if (src[i] === "}" && --depth === 0) return i;
  }
  throw new Unsupported("{");
}

function braceOptions(body: string): string[] {
  const parts: string[] = [];
  let depth = 0, start = 0;
  for (let i = 0; i < body.length; i++) {
    if (body[i] === "{") depth++;
    else if (body[i] === "}") depth--;
    else if (body[i] === "," && depth === 0) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(body.slice(start));
  if (parts.length > 1) return parts;
  const num = /^([1-9]\d*|0)\.\.([1-9]\d*|0)$/.exec(body);
  const chr = /^([a-zA-Z])\.\.([a-zA-Z])$/.exec(body);
  const range = num ? [Number(num[1]), Number(num[2])] : chr ? [chr[1]!.charCodeAt(0), chr[2]!.charCodeAt(0)] : null;
  if (!range) throw new Unsupported(`{${body}}`); // picomatch keeps "{a}" literal; rare enough to refuse
  const [a, b] = range as [number, number];
  if (Math.abs(b - a) >= MAX_ALTERNATIVES) throw new Unsupported(`{${body}}`);
  const step = a <= b ? 1 : -1;
  const out: string[] = [];
  for (let x = a; x !== b + step; x += step) out.push(num ? String(x) : String.fromCharCode(x));
  return out;
}

/** Braces and classes → flat alternatives of ch/star/globstar/q. */
function flatten(items: Item[]): Item[][] {
  let acc: Item[][] = [[]];
  for (const it of items) {
    if (it.k !== "alt") acc = acc.map((a) => [...a, it]);
    else {
      const opts = it.options.flatMap(flatten);
      acc = acc.flatMap((a) => opts.map((o) => [...a, ...o]));
    }
    if (acc.length > MAX_ALTERNATIVES) throw new Unsupported("too many alternatives");
  }
  return acc;
}

// ---- lowering one flat alternative ----

function segments(flat: Item[]): Item[][] {
  const segs: Item[][] = [[]];
  for (const it of flat) {
    if (it.k === "ch" && it.c === "/") segs.push([]);
    else segs[segs.length - 1]!.push(it);
  }
  if (segs.some((s) => s.length === 0)) throw new Unsupported("empty path segment");
  if (segs.some((s) => s.length <= 2 && s.every((x) => x.k === "ch" && x.c === "."))) throw new Unsupported("a \".\" or \"..\" segment");
  const out = segs.filter((s, i) => !(s[0]?.k === "globstar" && segs[i - 1]?.[0]?.k === "globstar"));
  if (out.some((s) => s.some((x, j) => x.k === "globstar" && (j > 0 || s.length > 1)))) throw new Unsupported("**");
  return out;
}

const isGlobstar = (s: Item[] | undefined) => s?.[0]?.k === "globstar";

function segToks(seg: Item[], crossFirst: boolean): Tok[] {
  return seg.map((x, j): Tok => {
    if (x.k === "star") return { t: "star", cross: crossFirst && j === 0 };
    if (x.k === "q") return { t: "q" };
    const c = x.k === "ch" ? x.c : "";
    // A class can name "*" or "?", which OpenCode cannot write literally: any-one-char stands in.
    return c === "*" || c === "?" ? { t: "q", literal: true } : { t: "lit", s: c };
  });
}

/** All OpenCode token sequences for segs[i..], joined by separators. */
function lowerSegs(segs: Item[][], i = 0, crossFirst = false): Tok[][] {
  const seg = segs[i]!;
  const next = segs[i + 1];
  if (!isGlobstar(seg)) {
    const head = segToks(seg, crossFirst);
    if (!next) return [head];
    return lowerSegs(segs, i + 1).map((rest) => (rest.length ? [...head, SEP, ...rest] : head));
  }
  // "a/**" also matches "a" itself, but picomatch's "*/**" does not match "a"
  if (!next) return i === 0 || (seg[0] as { afterStar: boolean }).afterStar ? [[CROSS]] : [[], [CROSS]];
  if (next[0]?.k === "star") return lowerSegs(segs, i + 1, true); // "**/*x": one crossing star covers both
  const rest = lowerSegs(segs, i + 1);
  return [...rest, ...rest.map((r) => [CROSS, SEP, ...r])];
}

/** Markers for `strict` patterns (see `witness` in wildcard.ts). */
export const STAR_IN_SEGMENT = "\u0001";
export const ONE_IN_SEGMENT = "\u0002";
const renderStrict = (toks: Tok[]) => toks.map((t) => (t.t === "lit" ? t.s : t.t === "sep" ? "/" : t.t === "q" ? ONE_IN_SEGMENT : t.cross ? "*" : STAR_IN_SEGMENT)).join("");

const render = (toks: Tok[]) => toks.map((t) => (t.t === "lit" ? t.s : t.t === "sep" ? "/" : t.t === "q" ? "?" : "*")).join("");

/** "~", "~/x" and "$HOME…" are rewritten by OpenCode into the home folder. */
const homeHazard = (p: string) => p === "~" || p.startsWith("~/") || p.startsWith("$HOME");

/** A deny pattern that OpenCode reads literally and that matches at least what `p` says. */
function denySafe(p: string): string {
  return homeHazard(p) ? `?${p.slice(1)}` : p;
}

/** Joined tokens, with the pieces that differ from the glob. */
function lowerTokens(toks: Tok[], mode: Mode): { pattern: string | null; loose: Tok[][]; why?: string } {
  // `*`/`?` that may cross "/" in OpenCode but not in the glob: each yields a "loose" variant (the
  // token forced to contain "/"), which covers everything the OpenCode form matches beyond the glob.
  const loose: Tok[][] = [];
  toks.forEach((t, j) => {
    if (t.t === "q") loose.push([...toks.slice(0, j), SEP, ...toks.slice(j + 1)]);
    else if (t.t === "star" && !t.cross) loose.push([...toks.slice(0, j), CROSS, SEP, CROSS, ...toks.slice(j + 1)]);
  });
  let pattern = render(toks);
  if (mode === "deny") return { pattern: denySafe(pattern), loose };
  if (homeHazard(pattern)) return { pattern: null, loose: [], why: `OpenCode reads a leading "~" or "$HOME" as the home folder` };
  if (toks.some((t) => t.t === "q" && t.literal)) return { pattern: null, loose: [], why: `OpenCode cannot match a literal "*" or "?"` };
  let why: string | undefined;
  if (pattern.endsWith(" *")) {
    pattern = `${pattern.slice(0, -1)}?*`; // OpenCode would also match the path without " …"
    why = `a trailing " *" is optional in OpenCode, so the name "${render(toks).slice(0, -1)}" itself is not allowed`;
  }
  return { pattern, loose, ...(why ? { why } : {}) };
}

/** Whole plain segments at the start of a glob, for the superset fallback of an unsupported deny. */
function literalPrefix(glob: string): string {
  const plain: string[] = [];
  for (const seg of glob.split("/").slice(0, -1)) {
    if (!seg || seg === "." || seg === ".." || /[*?[\]{}()!|\\,+@$]/.test(seg)) break;
    plain.push(seg);
  }
  return plain.join("/"); // no trailing "/": "a/**" also matches "a"
}

/** picomatch's fast path for these forms wants at least one character after the last dot. */
const FAST_PATH_MIN1: Readonly<Record<string, string>> = { "*.*": "*.?*", "**/*.*": "**/*.?*" };

// A pure function of (glob, mode), asked again for every role about the same pipeline-wide globs.
// Callers only read the result, so one frozen copy is shared.
const translations = { allow: new BoundedMap<string, Translation>(), deny: new BoundedMap<string, Translation>() };
export function translateGlob(glob: string, mode: Mode): Translation {
  let hit = translations[mode].get(glob);
  if (!hit) translations[mode].set(glob, (hit = deepFreeze(lowerGlob(glob, mode))));
  return hit;
}

function deepFreeze<T extends object>(value: T): T {
  for (const v of Object.values(value)) if (v && typeof v === "object") Object.freeze(v);
  return Object.freeze(value);
}

function lowerGlob(glob: string, mode: Mode): Translation {
  let alts: Tok[][];
  try {
    alts = flatten(parse(FAST_PATH_MIN1[glob] ?? glob)).flatMap((flat) => lowerSegs(segments(flat)));
  } catch (e) {
    if (!(e instanceof Unsupported)) throw e;
    const why = `OpenCode cannot express ${JSON.stringify(e.message)} in "${glob}"`;
    if (mode === "allow") return { glob, patterns: [], compensate: [], cuts: {}, strict: {}, extras: [], narrowed: `${why}; the pattern is left out` };
    const superset = denySafe(`${literalPrefix(glob)}*`);
    return { glob, patterns: [superset], compensate: [], cuts: {}, strict: { [superset]: superset }, extras: [superset], narrowed: `${why}; refused as "${superset}"` };
  }
  const patterns: string[] = [], compensate: string[] = [], extras: string[] = [], whys: string[] = [];
  const cuts: Record<string, string> = {};
  const strict: Record<string, string> = {};
  for (const toks of alts) {
    const { pattern, loose, why } = lowerTokens(toks, mode);
    if (why) whys.push(why);
    if (pattern === null) continue;
    patterns.push(pattern);
    strict[pattern] ??= pattern === render(toks) ? renderStrict(toks) : pattern;
    const variants = loose.map((l) => denySafe(render(l)));
    if (mode === "allow") {
      compensate.push(...variants);
      for (const v of variants) cuts[v] ??= pattern;
    } else {
      extras.push(...variants);
      if (pattern.endsWith(" *")) extras.push(pattern.slice(0, -2));
      if (pattern !== render(toks) || toks.some((t) => t.t === "q" && t.literal)) extras.push(pattern);
    }
  }
  // A cut also refuses legitimate paths when the pattern it cuts has other wildcards (a path can
  // then be split two ways) or when it meets another alternative of the same glob.
  const wildcards = (p: string) => [...p].filter((c) => c === "*" || c === "?").length;
  if (compensate.some((c) => patterns.some((a) => (a === cuts[c] ? wildcards(a) > 1 : intersects(c, a)))))
    whys.push(`OpenCode's "*" also matches "/", and the denies that keep it to one folder level also refuse some of its own paths`);
  const uniq = (xs: string[]) => [...new Set(xs)];
  const narrowed = whys.length ? uniq(whys).join("; ") : undefined;
  return { glob, patterns: uniq(patterns), compensate: uniq(compensate), cuts, strict, extras: uniq(extras), ...(narrowed ? { narrowed } : {}) };
}
