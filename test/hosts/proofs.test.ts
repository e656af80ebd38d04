// The adapters' static claims about the real-host suite stay true:
//   - every `proofs` entry names a test that exists in enforce-out.test.ts, for that host, once;
//   - each adapter's `checkedAgainst.version` is the CLI version this suite pins (versions.json);
//   - the emitted MAPPING.md cites each proof beside a native/guard record of its constraint.
// No host CLI runs here.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { HOSTS } from "../../adapters/index.js";
import { CONSTRAINTS } from "../../src/adapter/fidelity.js";
import type { Adapter } from "../../src/adapter/types.js";
import { emittedTree, REGISTERED_HOSTS } from "./helpers.js";
import { HOST_VERSIONS } from "./versions.js";

const ENFORCE_OUT = path.join(path.dirname(new URL(import.meta.url).pathname), "enforce-out.test.ts");

/** the names of the tests declared in enforce-out.test.ts (string literals passed to it(…)) */
function enforceOutTests(): string[] {
  const src = fs.readFileSync(ENFORCE_OUT, "utf8");
  return [...src.matchAll(/\bit(?:\.\w+)*\(\s*(["'`])((?:(?!\1)[^\\]|\\.)*)\1/g)].map((m) => m[2]!);
}

describe("adapter proofs and pins", () => {
  const names = enforceOutTests();

  it("enforce-out.test.ts declares uniquely named tests", () => {
    expect(names.length).toBeGreaterThan(0);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  });

  for (const host of REGISTERED_HOSTS) {
    const adapter = (): Promise<Adapter> => HOSTS[host]!();

    it(`${host}: every proofs entry names an enforce-out test of this host`, async () => {
      const a = await adapter();
      const entries = Object.entries(a.proofs);
      for (const [constraint, test] of entries) {
        expect(CONSTRAINTS as readonly string[], `proofs key ${constraint}`).toContain(constraint);
        expect(names, `proofs["${constraint}"] names a test that enforce-out.test.ts does not have`).toContain(test);
        expect(test, `proofs["${constraint}"] names another host's test`).toMatch(new RegExp(`^${host.replace(/[-]/g, "\\-")}: `));
      }
    });

    it(`${host}: checkedAgainst.version equals the pinned CLI version`, async () => {
      const a = await adapter();
      expect(a.checkedAgainst.version, `adapters/${host} checkedAgainst vs test/hosts/versions.json`).toBe(HOST_VERSIONS[host]);
    });

    it(`${host}: the emitted MAPPING.md cites each proof beside a native or guard record`, async () => {
      const a = await adapter();
      const mapping = fs.readFileSync(path.join(await emittedTree(host), "MAPPING.md"), "utf8");
      const rows = mapping
        .split("\n")
        .filter((l) => l.startsWith("| "))
        .map((l) => l.trim().replace(/^\|/, "").replace(/\|$/, "").split(/(?<!\\)\|/).map((c) => c.trim()));
      for (const [constraint, test] of Object.entries(a.proofs)) {
        const cited = rows.filter((r) => r[1] === constraint && (r[2] === "native" || r[2] === "guard"));
        expect(cited.length, `no native/guard record of ${constraint} in ${host}'s MAPPING.md: the proof is never shown`).toBeGreaterThan(0);
        for (const r of cited) expect(r[5], `MAPPING.md row ${r.join(" | ")}`).toBe(test);
      }
    });
  }
});
