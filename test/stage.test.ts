// The staged build (src/stage.ts): files are hashed, compared and staged one by one as they are
// rendered. It must decide exactly what a plan made from every file at once decided: `reference`
// below is that plan (the build's planWrite before staging), run on random host folders.
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { RenderedFile } from "../src/emit/render.js";
import { listFiles, MANIFEST_FILE, manifestFor, readManifest, sha256 } from "../src/fileset.js";
import { applyPlans, HostStager, Staging } from "../src/stage.js";
import { harness, PEBBLE_ROLES, scratchProject, tempDir } from "./helpers/cli.js";

const isExecutable = (file: string) => (statSync(file).mode & 0o111) !== 0;

type Reference = { message: string } | { write: { path: string; content: string; executable: boolean }[]; remove: string[]; unchanged: number; stray: string[]; previousWarnings: string[] };

function reference(host: string, dir: string, files: readonly RenderedFile[], warnings: readonly string[], force: boolean): Reference {
  const all = [...files, manifestFor(host, files, warnings)];
  const present = listFiles(dir);
  const manifest = readManifest(dir);
  if (!manifest && present.length > 0) return { message: `holds ${present.length} file(s) but no ${MANIFEST_FILE}, so harness did not write it. Choose an empty or harness-built --out folder, or move those files away.` };
  if (manifest && manifest.host !== host) return { message: `its manifest says it was built for "${manifest.host}", not "${host}". Use a separate folder per host.` };
  const owned = new Set(Object.keys(manifest?.files ?? {}));
  const isPresent = new Set(present);
  for (const f of files)
    if (isPresent.has(f.path) && !owned.has(f.path)) return { message: `${f.path} exists but harness did not write it (not in ${MANIFEST_FILE}). Move it away; harness never overwrites files it does not own.` };
  const byPath = new Map(all.map((f) => [f.path, f]));
  const onDisk = new Map<string, string>();
  for (const rel of present) if (owned.has(rel) || byPath.has(rel)) onDisk.set(rel, readFileSync(path.join(dir, rel), "utf8"));
  const edited = Object.entries(manifest?.files ?? {})
    .filter(([rel, hash]) => {
      const text = onDisk.get(rel);
      return text !== undefined && text !== byPath.get(rel)?.content && sha256(text) !== hash;
    })
    .map(([rel]) => rel)
    .sort();
  if (edited.length && !force)
    return {
      message: `${edited.join(", ")} ${edited.length === 1 ? "was" : "were"} edited by hand since harness wrote ${edited.length === 1 ? "it" : "them"}; a build would overwrite the edit. Move the change into the roles folder (or revert the file), or run the build with --force to overwrite.`,
    };
  const write: RenderedFile[] = [];
  let unchanged = 0;
  for (const f of all) {
    if (onDisk.get(f.path) === f.content && isExecutable(path.join(dir, f.path)) === f.executable) unchanged++;
    else write.push(f);
  }
  const produced = new Set(all.map((f) => f.path));
  return {
    write: write.map((f) => ({ path: f.path, content: f.content, executable: f.executable })),
    remove: [...owned].filter((p) => !produced.has(p) && isPresent.has(p)).sort(),
    unchanged,
    stray: present.filter((p) => !owned.has(p) && !produced.has(p)),
    previousWarnings: manifest?.warnings ?? [],
  };
}

// A small world: few paths and contents, so files collide with what is on disk most of the time.
const PATHS = ["a.md", "b/c.md", "b/d.sh", "e/f/g.txt", "z.txt", MANIFEST_FILE];
const TEXT = fc.constantFrom("one\n", "two\n", "thr€e\n", "");
const disk = fc.record({
  files: fc.dictionary(fc.constantFrom(...PATHS.slice(0, 5)), fc.record({ text: TEXT, executable: fc.boolean() })),
  manifest: fc.option(
    fc.record({
      host: fc.constantFrom("codex", "codex", "codex", "cursor"),
      // each owned path's recorded hash is that of some text: its disk text, or another one (a hand edit)
      owned: fc.dictionary(fc.constantFrom(...PATHS), TEXT),
      warnings: fc.option(fc.uniqueArray(fc.constantFrom("w1", "w2")), { nil: undefined }),
    }),
    { nil: null },
  ),
});
const build = fc.record({
  files: fc.uniqueArray(fc.record({ path: fc.constantFrom(...PATHS.slice(0, 5)), content: TEXT, executable: fc.boolean() }), { selector: (f) => f.path }),
  warnings: fc.uniqueArray(fc.constantFrom("w1", "w2", "w3")),
  force: fc.boolean(),
  fresh: fc.boolean(), // with nothing on disk: no host folder at all, rather than an empty one
});

function writeDisk(dir: string, state: typeof disk extends fc.Arbitrary<infer T> ? T : never): void {
  for (const [rel, f] of Object.entries(state.files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), f.text);
    chmodSync(path.join(dir, rel), f.executable ? 0o755 : 0o644);
  }
  if (state.manifest) {
    const files = Object.fromEntries(Object.entries(state.manifest.owned).map(([rel, text]) => [rel, sha256(text)]));
    writeFileSync(path.join(dir, MANIFEST_FILE), JSON.stringify({ generator: "harness", host: state.manifest.host, files, ...(state.manifest.warnings ? { warnings: state.manifest.warnings } : {}) }));
  }
}

describe("staged build plan", () => {
  it("decides what a plan of all files at once decides, and stages exactly the bytes it would write", () => {
    fc.assert(
      fc.property(disk, build, (state, next) => {
        const out = tempDir("harness-stage-");
        const dir = path.join(out, "codex");
        const fresh = next.fresh && Object.keys(state.files).length === 0 && !state.manifest;
        if (!fresh) mkdirSync(dir);
        writeDisk(dir, state);
        const files: RenderedFile[] = [...next.files].sort((a, b) => (a.path < b.path ? -1 : 1));
        const expected = reference("codex", dir, files, next.warnings, next.force);
        const staging = new Staging(out);
        const stager = new HostStager("codex", dir, staging, next.force);
        const plan = stager.plan(files.map(stager.stage), next.warnings);
        if ("message" in expected) {
          expect(plan).toEqual({ host: "codex", dir, message: expected.message });
        } else {
          if ("message" in plan) throw new Error(`refused: ${plan.message}`);
          expect({ ...plan, write: plan.write.map((f) => ({ path: f.path, content: readFileSync(f.staged!, "utf8"), executable: isExecutable(f.staged!) })) }).toEqual({ host: "codex", dir, ...expected, whole: fresh ? path.join(staging.root, "codex") : null });
          const before = (fresh ? [] : listFiles(dir)).filter((p) => !plan.write.some((f) => f.path === p) && !plan.remove.includes(p));
          const kept = Object.fromEntries(before.map((p) => [p, readFileSync(path.join(dir, p), "utf8")]));
          applyPlans([plan]);
          staging.discard();
          for (const f of expected.write) {
            expect(readFileSync(path.join(dir, f.path), "utf8")).toBe(f.content);
            expect(isExecutable(path.join(dir, f.path))).toBe(f.executable);
          }
          for (const [p, text] of Object.entries(kept)) expect(readFileSync(path.join(dir, p), "utf8")).toBe(text);
          for (const p of expected.remove) expect(existsSync(path.join(dir, p))).toBe(false);
        }
        staging.discard();
        expect(readdirSync(out)).toEqual(fresh && "message" in expected ? [] : ["codex"]); // no staging folder is left behind
      }),
      { numRuns: 300 },
    );
  });

  it("a discarded staging folder takes with it the out/ folders this build created, and nothing else", () => {
    const root = tempDir("harness-stage-");
    const out = path.join(root, "a/b/out");
    const staging = new Staging(out);
    staging.write("codex", "x/y.md", "text\n", false);
    expect(existsSync(path.join(out, `.harness-staging-${process.pid}/codex/x/y.md`))).toBe(true);
    staging.discard();
    expect(readdirSync(root)).toEqual([]);
    mkdirSync(path.join(root, "kept"));
    const inKept = new Staging(path.join(root, "kept"));
    inKept.write("codex", "y.md", "text\n", true);
    inKept.discard();
    expect(readdirSync(root)).toEqual(["kept"]);
    expect(readdirSync(path.join(root, "kept"))).toEqual([]);
  });
});

describe("harness build, staged", () => {
  it("a refused build leaves out/ byte for byte as it was, with no staging folder", async () => {
    const dir = scratchProject(PEBBLE_ROLES);
    expect((await harness(["build", "-q"], dir)).code).toBe(0);
    const out = path.join(dir, "out");
    writeFileSync(path.join(out, "codex/AGENTS.md"), "edited by hand\n");
    const snapshot = () => Object.fromEntries(listFiles(out).map((f) => [f, [readFileSync(path.join(out, f), "utf8"), statSync(path.join(out, f)).mtimeMs]]));
    const before = snapshot();
    const r = await harness(["build", "-q"], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("out/codex: error E_OUT_DIR AGENTS.md was edited by hand since harness wrote it");
    expect(snapshot()).toEqual(before);
    expect(readdirSync(out).filter((n) => n.startsWith(".harness-staging-"))).toEqual([]);
  });

  it("a file where out/ or a host folder should be is a clear error (exit 2), and nothing is written", async () => {
    const dir = scratchProject(PEBBLE_ROLES);
    writeFileSync(path.join(dir, "afile"), "mine\n");
    const r = await harness(["build", "-q", "--out", "afile"], dir);
    expect([r.code, r.stderr]).toEqual([2, "afile: error E_OUT_DIR is a file, not a folder, so harness cannot build into it. Move the file away, or choose another --out.\n"]);
    expect(readFileSync(path.join(dir, "afile"), "utf8")).toBe("mine\n");
    mkdirSync(path.join(dir, "out"));
    writeFileSync(path.join(dir, "out/codex"), "mine\n");
    const h = await harness(["build", "-q"], dir);
    expect([h.code, h.stderr]).toEqual([2, "out/codex: error E_OUT_DIR is a file, not a folder, so harness cannot build into it. Move the file away, or choose another --out.\n"]);
    expect(readdirSync(path.join(dir, "out"))).toEqual(["codex"]);
    expect(readFileSync(path.join(dir, "out/codex"), "utf8")).toBe("mine\n");
  });

  it("removes the staging folder a killed build left, and keeps one a running build owns", async () => {
    const dir = scratchProject(PEBBLE_ROLES);
    const out = path.join(dir, "out");
    const dead = path.join(out, ".harness-staging-2147483646"); // beyond any pid this test machine hands out
    const live = path.join(out, `.harness-staging-${process.ppid}`); // vitest, which started this worker: running (the build, in this process, stages in .harness-staging-${process.pid})
    for (const d of [dead, live]) {
      mkdirSync(path.join(d, "codex"), { recursive: true });
      writeFileSync(path.join(d, "codex/AGENTS.md"), "half a build\n");
    }
    expect((await harness(["build", "-q"], dir)).code).toBe(0);
    expect(existsSync(dead)).toBe(false);
    expect(readFileSync(path.join(live, "codex/AGENTS.md"), "utf8")).toBe("half a build\n");
    expect(readdirSync(out).filter((n) => n.startsWith(".harness-staging-"))).toEqual([`.harness-staging-${process.ppid}`]);
  });

  it("a cold build writes each file with its mode, and leaves only the host folders", async () => {
    const dir = scratchProject(PEBBLE_ROLES);
    expect((await harness(["build", "-q", "--out", "new/out"], dir)).code).toBe(0);
    const out = path.join(dir, "new/out");
    expect(readdirSync(out).sort()).toEqual(readdirSync(out).filter((n) => !n.startsWith(".")).sort());
    const launchers = listFiles(path.join(out, "codex")).filter((f) => f.startsWith(".codex/bin/"));
    expect(launchers.length).toBeGreaterThan(0);
    for (const f of launchers) expect(isExecutable(path.join(out, "codex", f))).toBe(true);
    expect(isExecutable(path.join(out, "codex", MANIFEST_FILE))).toBe(false);
    expect((await harness(["check", "-q", "--out", "new/out"], dir)).code).toBe(0);
  });
});
