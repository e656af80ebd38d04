// The glob translation (harness picomatch → OpenCode wildcard) against the real picomatch.
// Allow: every path the emitted rules allow is matched by the glob (exact unless `narrowed`).
// Deny: every path the glob matches is refused by the emitted patterns (exact unless `extras`).
import fc from "fast-check";
import { globMatch } from "../helpers/glob-match.js";
import { describe, expect, it } from "vitest";
import { translateGlob, type Translation } from "../../src/adapter/opencode-permission/globs.js";
import { expandHome, intersects, wildcardMatch, witness } from "../../src/adapter/opencode-permission/wildcard.js";

const pm = (glob: string, path: string) => globMatch(path, glob);
const oc = (pattern: string, path: string) => wildcardMatch(expandHome(pattern, "/HOME"), path);
const allowed = (t: Translation, p: string) => t.patterns.some((x) => oc(x, p)) && !t.compensate.some((x) => oc(x, p));
const denied = (t: Translation, p: string) => t.patterns.some((x) => oc(x, p));

// Paths as OpenCode sees them: relative to the worktree, normalized (no empty, "." or ".." segments).
const CHARS = ["a", "b", "x", ".", "-", "_", " ", "@", "+", "$", "~", "^", "{", "}", "[", "]", "*", "?", ",", "t", "e", "s", "1"];
const segment = fc
  .array(fc.constantFrom(...CHARS), { minLength: 1, maxLength: 5 })
  .map((cs) => cs.join(""))
  .filter((s) => s !== "." && s !== "..");
const path = fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => s.join("/"));

const globPart = fc.oneof(
  fc.constantFrom("a", "b", "x", ".", "-", "_", " ", "@", "+", "$", "~", "^", "t", "e", "s", "1", "ab", ".a", "a.", "test", "++", "$$", "^^", "*.*", ".*"),
  fc.constantFrom("*", "?", "[ab]", "[a-c]", "[*x]", "{a,b}", "{x,a/b}", "{1..3}", "{a,}", "{a,b{x,s}}"),
);
const globSeg = fc.oneof(
  { weight: 1, arbitrary: fc.constant("**") },
  { weight: 6, arbitrary: fc.array(globPart, { minLength: 1, maxLength: 4 }).map((p) => p.join("")) },
);
const glob = fc.array(globSeg, { minLength: 1, maxLength: 4 }).map((s) => s.join("/"));

/** Paths likely to hit a glob: instantiate its wildcards with a few fillers. */
function near(g: string): fc.Arbitrary<string> {
  const fill = fc.constantFrom("a", "x.s", "a/b", "", ".x", "a b", "test", "1");
  return fc.tuple(fill, fill, fill, fill).map(([f1, f2, f3, f4]) => {
    const fs = [f1, f2, f3, f4];
    let k = 0;
    return g
      .replace(/\{([^{}]*)\}/g, (_, body: string) => body.split(",")[0] ?? "")
      .replace(/\[([^\]]*)\]/g, (_, body: string) => body[0] ?? "a")
      .replace(/\*\*|\*|\?/g, (m) => (m === "?" ? "a" : fs[k++ % 4]!))
      .split("/")
      .filter((s) => s && s !== "." && s !== "..")
      .join("/") || "a";
  });
}

const PEBBLE = [
  "src/**", "packages/*/src/**", "**/*.test.*", "**/__tests__/**", "**/test_*.py", "**/conftest.py", "Dockerfile.*",
  "docker-compose*.yml", ".github/workflows/**", "**/*.tf", ".env.*.local", ".git/**", "**/*.pem", "README.md", "vitest.config.*",
  "articles/*.md", "drafts/outline.md",
];

function checkAllow(g: string, p: string) {
  const t = translateGlob(g, "allow");
  if (allowed(t, p)) expect(pm(g, p), `allow ${g} → ${JSON.stringify(t)} lets through ${JSON.stringify(p)}`).toBe(true);
  if (!t.narrowed && pm(g, p)) expect(allowed(t, p), `allow ${g} → ${JSON.stringify(t)} is exact but refuses ${JSON.stringify(p)}`).toBe(true);
}

function checkDeny(g: string, p: string) {
  const t = translateGlob(g, "deny");
  if (pm(g, p)) expect(denied(t, p), `deny ${g} → ${JSON.stringify(t)} misses ${JSON.stringify(p)}`).toBe(true);
  if (denied(t, p) && !pm(g, p)) expect(t.extras.some((x) => oc(x, p)), `deny ${g} → ${JSON.stringify(t)}: extra ${JSON.stringify(p)} not in extras`).toBe(true);
}

describe("translateGlob against picomatch", () => {
  const runs = { numRuns: Number(process.env.OC_RUNS ?? 3000) };
  it("allow patterns never match more than the glob (random globs, random paths)", () => {
    fc.assert(fc.property(glob, path, (g, p) => checkAllow(g, p)), runs);
  });
  it("allow patterns never match more than the glob (random globs, nearby paths)", () => {
    fc.assert(fc.property(glob.chain((g) => fc.tuple(fc.constant(g), near(g))), ([g, p]) => checkAllow(g, p)), runs);
  });
  it("deny patterns match at least the glob (random and nearby paths)", () => {
    fc.assert(fc.property(glob, path, (g, p) => checkDeny(g, p)), runs);
    fc.assert(fc.property(glob.chain((g) => fc.tuple(fc.constant(g), near(g))), ([g, p]) => checkDeny(g, p)), runs);
  });
  it("the bundled globs, both ways", () => {
    fc.assert(fc.property(fc.constantFrom(...PEBBLE).chain((g) => fc.tuple(fc.constant(g), fc.oneof(near(g), path))), ([g, p]) => {
      checkAllow(g, p);
      checkDeny(g, p);
    }), runs);
  });
});

describe("translateGlob decisions", () => {
  const t = (g: string, m: "allow" | "deny") => translateGlob(g, m);
  it("keeps exact forms exact", () => {
    expect(t("src/**", "allow")).toMatchObject({ patterns: ["src", "src/*"], compensate: [], extras: [] });
    expect(t("src/**", "allow").narrowed).toBeUndefined();
    expect(t("**/*.pem", "deny")).toMatchObject({ patterns: ["*.pem"], extras: [] });
    expect(t("**/__tests__/**", "allow").patterns).toEqual(["__tests__", "__tests__/*", "*/__tests__", "*/__tests__/*"]);
    expect(t(".pebble/spec.md", "allow")).toMatchObject({ patterns: [".pebble/spec.md"], compensate: [] });
  });
  it("cuts a segment star that would cross '/' with a compensating deny (exact when it is the only wildcard)", () => {
    const one = t("Dockerfile.*", "allow");
    expect(one).toMatchObject({ patterns: ["Dockerfile.*"], compensate: ["Dockerfile.*/*"], cuts: { "Dockerfile.*/*": "Dockerfile.*" } });
    expect(one.narrowed).toBeUndefined();
    const multi = t("packages/*/src/**", "allow");
    expect(multi.compensate).toContain("packages/*/*/src/*");
    expect(multi.narrowed).toMatch(/also refuse some of its own paths/);
    expect(multi.strict["packages/*/src/*"]).toBe("packages/\u0001/src/*");
  });
  it("expands braces and classes into several patterns", () => {
    expect(t("{src,lib}/**", "allow").patterns).toEqual(["src", "src/*", "lib", "lib/*"]);
    expect(t("v[12].md", "allow").patterns).toEqual(["v1.md", "v2.md"]);
  });
  it("drops what it cannot say for an allow, widens it for a deny", () => {
    expect(t("a/@(x|y)", "allow")).toMatchObject({ patterns: [], narrowed: expect.stringMatching(/left out/) });
    expect(t("a/@(x|y)", "deny")).toMatchObject({ patterns: ["a*"], extras: ["a*"] });
    expect(t("~/x", "allow").patterns).toEqual([]);
    expect(t("~/x", "deny").patterns).toEqual(["?/x"]);
  });
  it("never emits an allow whose trailing ' *' OpenCode would make optional", () => {
    const r = t("notes *", "allow");
    expect(r.patterns).toEqual(["notes ?*"]);
    expect(r.narrowed).toBeDefined();
  });
  it("reports the superset of a deny", () => {
    expect(t(".env.*.local", "deny")).toMatchObject({ patterns: [".env.*.local"], compensate: [], extras: [".env.*/*.local"] });
  });
});

describe("wildcard intersection", () => {
  it("agrees with brute force on small patterns", () => {
    const pat = fc.array(fc.constantFrom("a", "b", "/", "*", "?", " "), { maxLength: 5 }).map((x) => x.join(""));
    const text = fc.array(fc.constantFrom("a", "b", "/", " "), { maxLength: 7 }).map((x) => x.join(""));
    fc.assert(fc.property(pat, pat, fc.array(text, { minLength: 40, maxLength: 40 }), (a, b, texts) => {
      if (texts.some((s) => wildcardMatch(a, s) && wildcardMatch(b, s))) expect(intersects(a, b)).toBe(true);
    }), { numRuns: 2000 });
    expect(intersects("src/*", ".env.*/*.local")).toBe(false);
    expect(intersects("*.test.*/*", "src/*")).toBe(true);
  });
});

describe("witness", () => {
  // The breadth-first search as first written (string keys, Array.shift): the shortest text both
  // patterns match with every star non-empty, "\u0001"/"\u0002" not matching "/". The numbered
  // search must find the same text, since MAPPING.md quotes it.
  type T = { k: "lit" | "one" | "any"; c?: string; seg?: boolean };
  const tokens = (p: string): T[] => [...p].map((c): T => (c === "*" ? { k: "any" } : c === "?" ? { k: "one" } : c === "\u0001" ? { k: "any", seg: true } : c === "\u0002" ? { k: "one", seg: true } : { k: "lit", c }));
  function reference(a: string, b: string): string | null {
    const ta = tokens(a), tb = tokens(b);
    const key = (i: number, j: number, x: boolean, y: boolean) => `${i},${j},${+x},${+y}`;
    const prev = new Map<string, [string, string]>([[key(0, 0, false, false), ["", ""]]]);
    const queue: [number, number, boolean, boolean][] = [[0, 0, false, false]];
    while (queue.length) {
      const [i, j, x, y] = queue.shift()!;
      const here = key(i, j, x, y);
      if (i === ta.length && j === tb.length) {
        let out = "";
        for (let k = here; k !== key(0, 0, false, false); k = prev.get(k)![0]) out = prev.get(k)![1] + out;
        return out;
      }
      const go = (n: [number, number, boolean, boolean], ch: string) => {
        const k = key(...n);
        if (!prev.has(k)) {
          prev.set(k, [here, ch]);
          queue.push(n);
        }
      };
      const p = ta[i], q = tb[j];
      if (p?.k === "any" && x) go([i + 1, j, false, y], "");
      if (q?.k === "any" && y) go([i, j + 1, x, false], "");
      if (p && q && (p.k !== "lit" || q.k !== "lit" || p.c === q.c)) {
        const ch = p.k === "lit" ? p.c! : q.k === "lit" ? q.c! : "x";
        if (ch === "/" && (p.seg || q.seg)) continue;
        go([p.k === "any" ? i : i + 1, q.k === "any" ? j : j + 1, p.k === "any", q.k === "any"], ch);
      }
    }
    return null;
  }
  it("finds the text the first search found, on random patterns", () => {
    const pat = fc.array(fc.constantFrom("a", "b", "x", "/", ".", "*", "?", "\u0001", "\u0002", " ", "é"), { maxLength: 9 }).map((x) => x.join(""));
    fc.assert(fc.property(pat, pat, (a, b) => {
      expect(witness(a, b)).toBe(reference(a, b));
    }), { numRuns: 4000 });
  });
  it("agrees on hand-picked pairs, empty patterns included", () => {
    for (const [a, b] of [["src/\u0001/x", "src/*"], ["**/*.tf", "infra/*"], ["a*b", "*"], ["a/b", "a/c"], ["", ""], ["*", ""]] as const) expect(witness(a, b), `${a} ~ ${b}`).toBe(reference(a, b));
  });
});
