// Byte-exact golden trees for every fixture × registered host. UPDATE_GOLDEN=1 rewrites them.
// The bundled roles' golden tree is the committed out/ itself (also enforced by `harness check`).
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { HOST_IDS } from "../adapters/index.js";
import { listFiles, manifestFor } from "../src/fileset.js";
import { compileAll } from "./helpers/compile.js";
import { MINI_ROLES, PEBBLE_ROLES, ROOT } from "./helpers/cli.js";

const FIXTURES: [string, string, string][] = [
  ["pebble", PEBBLE_ROLES, path.join(ROOT, "out")],
  ["mini", MINI_ROLES, path.join(ROOT, "test/golden/mini")],
];
const update = process.env.UPDATE_GOLDEN === "1";

describe.each(FIXTURES)("golden %s", (_name, rolesDir, goldenRoot) => {
  it.each(HOST_IDS)("%s matches byte for byte", async (host) => {
    const { outputs } = await compileAll(rolesDir, [host]);
    const files = [...outputs[0]!.files, manifestFor(host, outputs[0]!.files)];
    const dir = path.join(goldenRoot, host);
    if (update && goldenRoot !== path.join(ROOT, "out")) {
      rmSync(dir, { recursive: true, force: true });
      for (const f of files) {
        mkdirSync(path.dirname(path.join(dir, f.path)), { recursive: true });
        writeFileSync(path.join(dir, f.path), f.content);
      }
    }
    expect(existsSync(dir), `${dir} missing: run UPDATE_GOLDEN=1 npm test (or harness build for out/)`).toBe(true);
    expect(listFiles(dir)).toEqual(files.map((f) => f.path).sort());
    for (const f of files) expect(readFileSync(path.join(dir, f.path), "utf8"), f.path).toBe(f.content);
  });
});

describe("determinism", () => {
  it("two compilations give identical bytes", async () => {
    const a = await compileAll(PEBBLE_ROLES);
    const b = await compileAll(PEBBLE_ROLES);
    expect(a.outputs.map((o) => o.files)).toEqual(b.outputs.map((o) => o.files));
  });
  it("every emitted file is LF-only with one trailing newline", async () => {
    const { outputs } = await compileAll(PEBBLE_ROLES);
    for (const f of outputs.flatMap((o) => o.files)) {
      expect(f.content.includes("\r"), f.path).toBe(false);
      expect(f.content.endsWith("\n") && !f.content.endsWith("\n\n"), f.path).toBe(true);
    }
  });
});
