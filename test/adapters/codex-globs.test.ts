// Harness globs (picomatch, dotfiles matchable) → Codex 0.171 permission paths: write lists never
// grow, never_write lists never shrink inside the write folders (or the loss is reported).
import path from "node:path";
import fc from "fast-check";
import { globMatch } from "../helpers/glob-match.js";
import { describe, expect, it } from "vitest";
import { denyGlob, exactPath, mayMatchUnder, roleProfile, scopedDenies } from "../../adapters/codex/permissions.js";
import { planRules } from "../../adapters/codex/rules.js";
import { readPipeline } from "../../src/ir/normalize.js";
import type { RoleIR } from "../../src/ir/types.js";
import { HOST_IDS } from "../../adapters/index.js";

const mini = readPipeline(path.resolve(import.meta.dirname, "../fixtures/mini"), { knownHosts: HOST_IDS }).pipeline;
const writer = mini.roles.find((r) => r.id === "writer")!;
const role = (write: string[], neverWrite: string[], extra: Partial<RoleIR> = {}): RoleIR => ({ ...writer, write, neverWrite, reads: [], ...extra });

describe("exact Codex forms", () => {
  it.each([
    ["src/**", { path: "src", tree: true }],
    ["**", { path: ".", tree: true }],
    [".github/workflows/**", { path: ".github/workflows", tree: true }],
    ["Dockerfile", { path: "Dockerfile", tree: false }],
    [".pebble/spec.md", { path: ".pebble/spec.md", tree: false }],
    ["docs/", { path: "docs", tree: false }],
  ])("%s", (glob, want) => expect(exactPath(glob)).toEqual({ ...want, from: glob }));

  it.each(["packages/*/src/**", "**/README.md", "docker-compose*.yml", "src/**/*", "{a,b}/**", "x/[ab]/**", "a\\*b", "a/./b"])("%s has none", (glob) => expect(exactPath(glob)).toBeNull());

  it("widens deny globs segment by segment, never across folders", () => {
    expect(denyGlob("**/*.pem")).toBe("**/*.pem");
    expect(denyGlob("**/*.{key,pem}")).toBe("**/*");
    expect(denyGlob("src/[ab]/x")).toBe("src/*/x");
    expect(denyGlob("src/@(a|b)/x")).toBe("src/*/x");
    expect(denyGlob("{src/a,lib}/x")).toBeNull();
  });

  it("knows which globs can reach into a folder", () => {
    expect(mayMatchUnder("**/*.pem", "src")).toBe(true);
    expect(mayMatchUnder(".env.*.local", "src")).toBe(false);
    expect(mayMatchUnder("node_modules/**", "src")).toBe(false);
    expect(mayMatchUnder("src/*/gen/**", "src")).toBe(true);
    expect(mayMatchUnder("src/*/gen/**", "src/a/gen/x")).toBe(true);
    expect(mayMatchUnder("src/*/gen/**", "lib")).toBe(false);
    expect(mayMatchUnder("*.md", ".")).toBe(true);
  });
});

const SEG = ["a", "b", "src", "gen", "__tests__", "x.test.ts", ".env", "k.pem", ".h.pem", "conftest.py"];
const pathUnder = (root: string) => fc.array(fc.constantFrom(...SEG), { minLength: 1, maxLength: 5 }).map((s) => (root === "." ? s.join("/") : `${root}/${s.join("/")}`));
const neverGlob = fc.constantFrom("**/*.pem", "**/__tests__/**", "**/a/b/*.ts", "**/gen/**", "**/*.test.*", "src/*/gen/**", "a/*", "**/conftest.py", ".env", "src/gen/**", "**/src/gen/**");
const writeRoot = fc.constantFrom(".", "src", "src/a", "a", "a/b", "gen", "src/gen");

describe("never_write inside a write folder is never narrowed silently", () => {
  it("scoped deny globs cover every path under the folder the glob matches, and stay inside it", () => {
    fc.assert(
      fc.property(neverGlob, writeRoot, fc.integer(), (glob, root, seed) => {
        const scoped = scopedDenies(glob, root) ?? [glob];
        fc.assert(
          fc.property(pathUnder(root), (p) => {
            if (globMatch(p, glob)) expect(scoped.some((d) => globMatch(p, d)), `${glob} in ${root}: ${p} not denied by ${scoped.join(" ")}`).toBe(true);
          }),
          { numRuns: 60, seed },
        );
        if (root !== "." && scopedDenies(glob, root) !== null) for (const d of scoped) expect(d.startsWith(`${root}/`), d).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it("a role profile keeps every matched path under a write folder read-only or denied", () => {
    fc.assert(
      fc.property(fc.uniqueArray(writeRoot, { minLength: 1, maxLength: 3 }), fc.uniqueArray(neverGlob, { maxLength: 4 }), (roots, nevers) => {
        const p = roleProfile(role(roots.map((r) => (r === "." ? "**" : `${r}/**`)), nevers), mini.artifacts);
        const unenforced = new Set(p.unenforcedNever.map((u) => u.glob));
        for (const w of p.writes)
          fc.assert(
            fc.property(pathUnder(w.path), (file) => {
              for (const n of nevers) {
                if (unenforced.has(n) || !globMatch(file, n)) continue;
                const ok = p.readOnly.some((r) => file === r.path || file.startsWith(`${r.path}/`)) || p.denyGlobs.some((d) => globMatch(file, d.glob));
                expect(ok, `${file} (never ${n}) writable`).toBe(true);
              }
            }),
            { numRuns: 40 },
          );
      }),
      { numRuns: 100 },
    );
  });
});

describe("write lists never grow", () => {
  const writeGlob = fc.oneof(
    fc.constantFrom("src/**", "**", "lib/**", "Dockerfile", "docs/**", "packages/*/src/**", "**/*.test.*", "docker-compose*.yml", ".github/workflows/**", "src/a/**"),
    fc.array(fc.constantFrom("a", "b", "*", "**", "c.md", "{x,y}", "[ab]"), { minLength: 1, maxLength: 4 }).map((s) => s.join("/")),
  );
  it("every granted folder is `folder/**` (or `**`) of the role or the folder of one of its files, and the rest is reported", () => {
    fc.assert(
      fc.property(fc.uniqueArray(writeGlob, { maxLength: 6 }), (write) => {
        const p = roleProfile(role(write, []), mini.artifacts);
        for (const w of p.writes) expect(write.includes(w.path === "." ? "**" : `${w.path}/**`) || p.fileFolders.some((f) => f.folder === w.path && write.includes(f.file))).toBe(true);
        // a folder granted for a file keeps every other artifact path in it read-only
        for (const f of p.fileFolders)
          for (const other of mini.artifacts.flatMap((a) => a.paths).filter((g) => !write.includes(g) && g.startsWith(`${f.folder}/`) && !/[*?[{]/.test(g)))
            expect(p.readOnly.some((r) => r.path === other), `${other} writable through ${f.folder}/`).toBe(true);
        for (const g of write) {
          const tree = exactPath(g);
          const viaFolder = tree && !tree.tree && p.fileFolders.some((f) => f.file === g);
          const kept = viaFolder || (tree?.tree && p.writes.some((w) => w.path === tree.path || w.path === "." || tree.path.startsWith(`${w.path}/`)));
          expect(kept || p.narrowedWrites.some((n) => n.glob === g), g).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("leaves out single files (Codex 0.171 on Linux cannot grant one) and drops writes never_write covers", () => {
    const p = roleProfile(role(["src/**", "README.md", "gen/**"], ["gen/**", "src/secret.txt"]), mini.artifacts);
    expect(p.writes.map((w) => w.path)).toEqual(["src"]);
    expect(p.narrowedWrites.map((n) => n.glob)).toEqual(["README.md"]);
    expect(p.coveredWrites).toEqual(["gen/**"]);
    expect(p.readOnly.map((r) => r.path)).toEqual(["src/secret.txt"]);
  });

  it("does not deny what the role reads, and says so", () => {
    const tests = mini.artifacts.find((a) => a.name === "notes")!;
    const p = roleProfile(role(["drafts/**"], ["drafts/*.md", ...tests.paths], { reads: ["notes"] }), mini.artifacts);
    expect(p.unenforcedNever.map((u) => u.glob)).toEqual([]);
    expect(p.readOnly.map((r) => r.path)).toEqual(["drafts/notes.md"]);
    expect(p.denyGlobs.map((d) => d.glob)).toEqual(["drafts/*.md"]);
    const q = roleProfile(role(["src/**"], ["**/*.test.*"], { reads: ["t"] }), [{ name: "t", paths: ["**/*.test.*"] }]);
    expect(q.unenforcedNever).toEqual([{ glob: "**/*.test.*", why: expect.stringContaining("reads") }]);
    expect(q.denyGlobs).toEqual([]);
  });
});

describe("shell_deny → prefix rules", () => {
  it("covers, narrows, yields to the orchestrator's exception and allows it, exactly as documented", () => {
    const plan = planRules(["git commit", "git commit *", "git push", "git push --force*", "pnpm publish*", "* -u", "git stash", "git stash *", "sudo *"], ["git stash push *"]);
    expect(plan.rules.map((r) => [r.pattern.join(" "), r.decision])).toEqual([
      ["git commit", "forbidden"],
      ["git push", "forbidden"],
      ["pnpm publish", "forbidden"],
      ["sudo", "forbidden"],
      ["git stash push", "allow"],
    ]);
    expect(plan.narrowed).toEqual(["pnpm publish*", "* -u"]);
    expect(plan.yielded).toEqual(["git stash", "git stash *"]);
    // a deny that covers the exception whole yields to it: only the allow rule remains, and the deny is reported
    const wide = planRules(["git *"], ["git stash push"]);
    expect([wide.rules.map((r) => r.decision), wide.yielded]).toEqual([["allow"], ["git *"]]);
  });
});
