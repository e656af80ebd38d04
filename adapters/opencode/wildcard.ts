// OpenCode 1.18.33's own pattern semantics, reproduced: Wildcard.match and Permission.evaluate
// (the binary's `findLast`). Used to check collisions while lowering, and by the tests.

export type Action = "allow" | "ask" | "deny";
export interface Rule {
  permission: string;
  pattern: string;
  action: Action;
}

/** Wildcard.match: `*` any run (also "/"), `?` one character, a trailing " *" optional. */
export function wildcardRegExp(pattern: string): RegExp {
  let re = pattern.replaceAll("\\", "/").replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".");
  if (re.endsWith(" .*")) re = `${re.slice(0, -3)}( .*)?`;
  return new RegExp(`^${re}$`, "s");
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
  for (let i = rules.length - 1; i >= 0; i--) {
    const r = rules[i]!;
    if (wildcardMatch(r.permission, permission) && wildcardMatch(r.pattern, text)) return r.action;
  }
  return "ask";
}

type W = "lit" | "one" | "any";
const toks = (p: string): { k: W; c?: string }[][] => {
  const base = [...p].map((c) => (c === "*" ? { k: "any" as W } : c === "?" ? { k: "one" as W } : { k: "lit" as W, c }));
  // a trailing " *" also matches without it
  return p.endsWith(" *") ? [base, base.slice(0, -2)] : [base];
};

/** Whether some text matches both patterns (OpenCode semantics). */
export function intersects(a: string, b: string): boolean {
  return toks(a).some((x) => toks(b).some((y) => intersectToks(x, y)));
}

function intersectToks(a: { k: W; c?: string }[], b: { k: W; c?: string }[]): boolean {
  const seen = new Set<string>();
  const stack: [number, number][] = [[0, 0]];
  while (stack.length) {
    const [i, j] = stack.pop()!;
    const key = `${i},${j}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (i === a.length && j === b.length) return true;
    const x = a[i], y = b[j];
    if (x?.k === "any") stack.push([i + 1, j]);
    if (y?.k === "any") stack.push([i, j + 1]);
    if (x && y && (x.k !== "lit" || y.k !== "lit" || x.c === y.c)) stack.push([x.k === "any" ? i : i + 1, y.k === "any" ? j : j + 1]);
  }
  return false;
}
