// OpenCode 1.18.33's own pattern semantics, reproduced: Wildcard.match and Permission.evaluate
// (the binary's `findLast`). Used to check collisions while lowering, and by the tests.
import { BoundedMap } from "../../memo.js";

export type Action = "allow" | "ask" | "deny";
export interface Rule {
  permission: string;
  pattern: string;
  action: Action;
}

/** Wildcard.match: `*` any run (also "/"), `?` one character, a trailing " *" optional. */
const compiled = new BoundedMap<string, RegExp>();
export function wildcardRegExp(pattern: string): RegExp {
  const hit = compiled.get(pattern);
  if (hit) return hit;
  let re = pattern.replaceAll("\\", "/").replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".");
  if (re.endsWith(" .*")) re = `${re.slice(0, -3)}( .*)?`;
  const out = new RegExp(`^${re}$`, "s");
  compiled.set(pattern, out);
  return out;
}

export function wildcardMatch(pattern: string, text: string): boolean {
  return wildcardRegExp(pattern).test(text.replaceAll("\\", "/"));
}

/** The pattern after OpenCode's home expansion (fromConfig), with `home` standing for os.homedir(). */
export function expandHome(pattern: string, home: string): string {
  if (pattern.startsWith("~/")) return home + pattern.slice(1);
  if (pattern === "~") return home;
  if (pattern.startsWith("$HOME")) return home + pattern.slice(5);
  return pattern;
}

/** A `permission` object (V1) as OpenCode flattens it: keys in order, a string = {"*": action}. */
export function flattenPermission(permission: Record<string, unknown>, home = "/HOME"): Rule[] {
  const rules: Rule[] = [];
  for (const [key, value] of Object.entries(permission)) {
    if (typeof value === "string") rules.push({ permission: key, pattern: "*", action: value as Action });
    else for (const [pattern, action] of Object.entries(value as Record<string, Action>)) rules.push({ permission: key, pattern: expandHome(pattern, home), action });
  }
  return rules;
}

/** Permission.evaluate: the last rule whose permission and pattern both match; none = ask. */
export function evaluate(rules: readonly Rule[], permission: string, text: string): Action {
  return evaluator(rules, permission)(text);
}

/** `evaluate` for one permission, with the rules that can apply and their patterns compiled once. */
export function evaluator(rules: readonly Rule[], permission: string): (text: string) => Action {
  const apply = rules.filter((r) => wildcardMatch(r.permission, permission)).map((r) => ({ re: wildcardRegExp(r.pattern), action: r.action }));
  return (text) => {
    const t = text.replaceAll("\\", "/");
    for (let i = apply.length - 1; i >= 0; i--) if (apply[i]!.re.test(t)) return apply[i]!.action;
    return "ask";
  };
}

type W = "lit" | "one" | "any";
type T = { k: W; c?: string; seg?: boolean };
// Patterns repeat across every pair asked about: each is split into tokens once (never mutated).
const tokens = new BoundedMap<string, T[][]>();
const toks = (p: string): T[][] => {
  let t = tokens.get(p);
  if (t === undefined) tokens.set(p, (t = splitToks(p)));
  return t;
};
const splitToks = (p: string): T[][] => {
  const base = [...p].map((c): T =>
    c === "*" ? { k: "any" } : c === "?" ? { k: "one" } : c === "\u0001" ? { k: "any", seg: true } : c === "\u0002" ? { k: "one", seg: true } : { k: "lit", c },
  );
  // a trailing " *" also matches without it
  return p.endsWith(" *") ? [base, base.slice(0, -2)] : [base];
};

/** Whether some text matches both patterns (OpenCode semantics). */
export function intersects(a: string, b: string): boolean {
  return memo2(intersections, a, b, () => toks(a).some((x) => toks(b).some((y) => intersectToks(x, y))));
}

// Pure functions of two strings, asked again for every role about the same pipeline-wide globs.
const intersections = new BoundedMap<string, Map<string, boolean>>();
const witnesses = new BoundedMap<string, Map<string, string | null>>();
function memo2<T>(cache: Map<string, Map<string, T>>, a: string, b: string, compute: () => T): T {
  let row = cache.get(a);
  if (!row) cache.set(a, (row = new BoundedMap()));
  if (row.has(b)) return row.get(b)!;
  const value = compute();
  row.set(b, value);
  return value;
}

/** Two different literals at the same place from the start, or from the end, before any `*`: no common text. */
function literalClash(a: T[], b: T[]): boolean {
  const differ = (x: T, y: T) => x.k === "lit" && y.k === "lit" && x.c !== y.c;
  for (let i = 0; i < a.length && i < b.length && a[i]!.k !== "any" && b[i]!.k !== "any"; i++) if (differ(a[i]!, b[i]!)) return true;
  for (let i = a.length - 1, j = b.length - 1; i >= 0 && j >= 0 && a[i]!.k !== "any" && b[j]!.k !== "any"; i--, j--) if (differ(a[i]!, b[j]!)) return true;
  return false;
}

function intersectToks(a: T[], b: T[]): boolean {
  if (literalClash(a, b)) return false;
  // states (i, j) numbered i * width + j: a stack of numbers, not of pairs (no array per state)
  const width = b.length + 1;
  const seen = new Uint8Array((a.length + 1) * width);
  const stack: number[] = [0];
  while (stack.length) {
    const s = stack.pop()!;
    if (seen[s]) continue;
    seen[s] = 1;
    const i = Math.floor(s / width), j = s - i * width;
    if (i === a.length && j === b.length) return true;
    const x = a[i], y = b[j];
    if (x?.k === "any") stack.push(s + width);
    if (y?.k === "any") stack.push(s + 1);
    if (x && y && (x.k !== "lit" || y.k !== "lit" || x.c === y.c)) stack.push((x.k === "any" ? i : i + 1) * width + (y.k === "any" ? j : j + 1));
  }
  return false;
}

/**
 * A short text both patterns match, with every `*` standing for at least one character (so the
 * example reads like a real path: no empty folder names), or null. For messages only. "\u0001" and
 * "\u0002" stand for `*` and `?` that do not match "/" (a glob's own meaning).
 */
export function witness(a: string, b: string): string | null {
  return memo2(witnesses, a, b, () => findWitness(a, b));
}

function findWitness(a: string, b: string): string | null {
  const ta = toks(a)[0]!, tb = toks(b)[0]!;
  // Breadth-first over states (position in a, position in b, whether the current `*` of each has
  // taken a character), numbered ((i * width + j) * 2 + x) * 2 + y; each state is queued once.
  const width = tb.length + 1;
  const id = (i: number, j: number, x: number, y: number) => ((i * width + j) * 2 + x) * 2 + y;
  const size = (ta.length + 1) * width * 4;
  const parent = new Int32Array(size).fill(-1);
  const char: string[] = [];
  const queue = new Int32Array(size);
  let head = 0, tail = 0;
  queue[tail++] = 0;
  parent[0] = 0;
  while (head < tail) {
    const here = queue[head++]!;
    const y = here & 1, x = (here >> 1) & 1, j = Math.floor(here / 4) % width, i = Math.floor(here / 4 / width);
    if (i === ta.length && j === tb.length) {
      let out = "";
      for (let k = here; k !== 0; k = parent[k]!) out = char[k]! + out;
      return out;
    }
    const go = (n: number, ch: string) => {
      if (parent[n] === -1) {
        parent[n] = here;
        char[n] = ch;
        queue[tail++] = n;
      }
    };
    const p = ta[i], q = tb[j];
    if (p?.k === "any" && x) go(id(i + 1, j, 0, y), "");
    if (q?.k === "any" && y) go(id(i, j + 1, x, 0), "");
    if (p && q && (p.k !== "lit" || q.k !== "lit" || p.c === q.c)) {
      const ch = p.k === "lit" ? p.c! : q.k === "lit" ? q.c! : "x";
      if (ch === "/" && (p.seg || q.seg)) continue;
      go(id(p.k === "any" ? i : i + 1, q.k === "any" ? j : j + 1, p.k === "any" ? 1 : 0, q.k === "any" ? 1 : 0), ch);
    }
  }
  return null;
}
