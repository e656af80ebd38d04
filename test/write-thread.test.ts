// The write thread of a large cold build (src/write-thread.ts): the files it stages, their hashes and
// modes must be exactly what the compiling thread stages itself, and a failed write must fail the
// build with nothing left behind.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { RenderedFile } from "../src/emit/render.js";
import { listFiles } from "../src/fileset.js";
import { applyPlans, HostStager, Staging, type WritePlan } from "../src/stage.js";
import { tempDir } from "./helpers/cli.js";

const tree = (dir: string) => Object.fromEntries(listFiles(dir).map((p) => [p, [readFileSync(path.join(dir, p), "utf8"), (statSync(path.join(dir, p)).mode & 0o777).toString(8)]]));

function buildInto(out: string, files: readonly RenderedFile[], threadAfter: number): WritePlan {
  const staging = new Staging(out, threadAfter);
  try {
    const stager = new HostStager("codex", path.join(out, "codex"), staging, false);
    const staged = files.map(stager.stage);
    staging.finish();
    const plan = stager.plan(staged, []);
    if ("message" in plan) throw new Error(plan.message);
    applyPlans([plan]);
    return plan;
  } finally {
    staging.discard();
  }
}

// Texts longer than a batch's buffer (256 KB), in one-byte and in wider characters (up to 3 UTF-8 bytes each).
const BIG_ASCII = "x".repeat((1 << 18) + 1);
const BIG_WIDE = "€ → ✓ 𝄞 line\n".repeat(30_000);
const FILES = fc
  .uniqueArray(
    fc.record({
      path: fc.constantFrom("a.md", "b/c.md", "b/d.sh", "e/f/g.txt", "z.txt", "long.md", "b/e/h.md", "i.toml"),
      content: fc.oneof(fc.constantFrom("", "one\n", "thr€e → ✓\n"), fc.string({ unit: "binary", maxLength: 40 }), fc.constantFrom(BIG_ASCII, BIG_WIDE)),
      executable: fc.boolean(),
    }),
    { selector: (f) => f.path, maxLength: 8 },
  )
  .map((fs) => fs.sort((a, b) => (a.path < b.path ? -1 : 1)));

describe("the write thread", () => {
  it("stages the same bytes, modes and hashes as the compiling thread, from the first file or later", () => {
    fc.assert(
      fc.property(FILES, fc.integer({ min: 0, max: 4 }), (files, after) => {
        const root = tempDir("harness-thread-");
        const plain = buildInto(path.join(root, "plain"), files, Infinity);
        const threaded = buildInto(path.join(root, "threaded"), files, after);
        expect(tree(path.join(root, "threaded/codex"))).toEqual(tree(path.join(root, "plain/codex")));
        expect(threaded.write.map((f) => f.path)).toEqual(plain.write.map((f) => f.path));
        for (const out of ["plain", "threaded"]) expect(readdirSync(path.join(root, out))).toEqual(["codex"]);
      }),
      { numRuns: 25 },
    );
  });

  it("a write that fails fails the build, and the staging folder and the out/ it created are removed", () => {
    const root = tempDir("harness-thread-");
    const out = path.join(root, "out");
    // "a" is a file, so "a/b" cannot be written: the thread's first error is the build's, as it is without the thread
    const files: RenderedFile[] = [
      { path: "a", content: "x\n", executable: false },
      { path: "a/b", content: "y\n", executable: false },
      { path: "c", content: "z\n", executable: false },
    ];
    let plain: unknown;
    try {
      buildInto(out, files, Infinity);
    } catch (error) {
      plain = error;
    }
    expect(plain).toMatchObject({ code: "EEXIST" }); // the folder "a" exists, as a file
    expect(readdirSync(root)).toEqual([]);
    expect(() => buildInto(out, files, 0)).toThrow(expect.objectContaining({ code: (plain as { code: string }).code, message: (plain as Error).message }));
    expect(readdirSync(root)).toEqual([]);
  });

  it("a build that fails while the thread still writes waits for it before removing the staging folder", () => {
    const root = tempDir("harness-thread-");
    const out = path.join(root, "out");
    writeFileSync(path.join(root, "keep.txt"), "mine\n");
    const staging = new Staging(out, 0);
    const stager = new HostStager("codex", path.join(out, "codex"), staging, false);
    for (let i = 0; i < 200; i++) stager.stage({ path: `d${i % 7}/f${i}.md`, content: `${"text ".repeat(2000)}${i}\n`, executable: i % 2 === 0 });
    staging.discard(); // as build's finally does when compiling throws
    expect(readdirSync(root)).toEqual(["keep.txt"]);
    expect(existsSync(out)).toBe(false);
  });
});
