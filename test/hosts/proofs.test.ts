// The adapters' static claims about the real-host suite stay true:
//   - every `proofs` / `auditProofs` entry names a test that exists in enforce-out.test.ts or
//     audit-out.test.ts, for that host, once;
//   - each adapter's `checkedAgainst.version` is the CLI version this suite pins (versions.json);
//   - the emitted MAPPING.md cites each proof beside a native/guard record of its constraint;
//   - every native/guard record in the emitted MAPPING.md names the proof of its constraint (an adapter
//     change that raises a constraint to native/guard without a real-host test fails here);
//   - the same for `audit` records and `auditProofs`.
// A docs-only adapter (checkedAgainst.basis "docs": no installable CLI) is held to the opposite:
// no pin, no proofs, MAPPING.md says "not proven on the real host" and no row names a proof.
// No host CLI runs here.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { HOSTS } from "../../adapters/index.js";
import { CONSTRAINTS } from "../../src/adapter/fidelity.js";
import type { Adapter } from "../../src/adapter/types.js";
import { emittedTree, REGISTERED_HOSTS } from "./helpers.js";
import { HOST_VERSIONS } from "./versions.js";

const HERE = path.dirname(new URL(import.meta.url).pathname);
const PROOF_FILES = fs.readdirSync(HERE).filter((f) => /^(enforce|audit)-out(-[a-z0-9-]+)?\.test\.ts$/.test(f)).map((f) => path.join(HERE, f));

/** the names of the tests declared in the proof files (string literals passed to it(…)) */
function enforceOutTests(): string[] {
  const src = PROOF_FILES.map((f) => fs.readFileSync(f, "utf8")).join("\n");
  return [...src.matchAll(/\bit(?:\.\w+)*\(\s*(["'`])((?:(?!\1)[^\\]|\\.)*)\1/g)].map((m) => m[2]!);
}

/** the rows of the record table of the emitted MAPPING.md: [role, constraint, level, how, loss, proven by] */
async function mappingRows(host: string): Promise<string[][]> {
  const mapping = fs.readFileSync(path.join(await emittedTree(host), "MAPPING.md"), "utf8");
  const rows = mapping
    .split("\n")
    .filter((l) => l.startsWith("| "))
    .map((l) => l.trim().replace(/^\|/, "").replace(/\|$/, "").split(/(?<!\\)\|/).map((c) => c.trim()));
  const header = rows.findIndex((r) => r.join("|") === "role|constraint|level|how|loss|proven by");
  expect(header, `${host}'s MAPPING.md has no | role | constraint | level | how | loss | proven by | table`).toBeGreaterThanOrEqual(0);
  // the record table runs from its header (and the --- row) to the next table's header
  const end = rows.findIndex((r, i) => i > header + 1 && r.every((c) => /^-+$/.test(c)));
  return rows.slice(header + 2, end < 0 ? undefined : end - 1);
}

/** Registered hosts whose adapter declares checkedAgainst.basis "docs" (resolved before the tests are declared). */
const DOCS_ONLY: string[] = [];
for (const h of REGISTERED_HOSTS) if ((await HOSTS[h]!()).checkedAgainst.basis === "docs") DOCS_ONLY.push(h);

describe("adapter proofs and pins", () => {
  const names = enforceOutTests();

  it("enforce-out.test.ts and audit-out.test.ts declare uniquely named tests", () => {
    expect(names.length).toBeGreaterThan(0);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  });

  for (const host of REGISTERED_HOSTS) {
    const adapter = (): Promise<Adapter> => HOSTS[host]!();
    if (DOCS_ONLY.includes(host)) {
      it(`${host}: a docs-only adapter claims no proof and no pin, and its MAPPING.md says so`, async () => {
        const a = await adapter();
        expect(a.proofs, `adapters/${host}: a host with no installable CLI cannot cite a real-host test`).toEqual({});
        expect(a.auditProofs ?? {}, `adapters/${host}: a host with no installable CLI cannot cite a real-host audit test`).toEqual({});
        expect(HOST_VERSIONS as Record<string, string>, `${host} is pinned in versions.json but declares basis "docs"`).not.toHaveProperty(host);
        expect(a.checkedAgainst.version, "checkedAgainst.version of a docs-only adapter is the docs' date").toMatch(/^\d{4}-\d{2}-\d{2}$/);
        const mapping = fs.readFileSync(path.join(await emittedTree(host), "MAPPING.md"), "utf8");
        expect(mapping).toContain("not proven on the real host");
        const rows = await mappingRows(host);
        expect(rows.length).toBeGreaterThan(0);
        expect(rows.filter((r) => r[5] !== "").map((r) => r.join(" | ")), "rows naming a proof").toEqual([]);
      });
      continue;
    }

    it(`${host}: every proofs entry names an enforce-out test of this host`, async () => {
      const a = await adapter();
      const entries = Object.entries(a.proofs);
      for (const [constraint, test] of entries) {
        expect(CONSTRAINTS as readonly string[], `proofs key ${constraint}`).toContain(constraint);
        expect(names, `proofs["${constraint}"] names a test that enforce-out.test.ts does not have`).toContain(test);
        expect(test, `proofs["${constraint}"] names another host's test`).toMatch(new RegExp(`^${host.replace(/[-]/g, "\\-")}: `));
      }
    });

    it(`${host}: every auditProofs entry names a real-host test of this host, cited beside each audit record`, async () => {
      const a = await adapter();
      const rows = await mappingRows(host);
      for (const [constraint, test] of Object.entries(a.auditProofs ?? {})) {
        expect(CONSTRAINTS as readonly string[], `auditProofs key ${constraint}`).toContain(constraint);
        expect(names, `auditProofs["${constraint}"] names a test that the proof files do not have`).toContain(test);
        expect(test, `auditProofs["${constraint}"] names another host's test`).toMatch(new RegExp(`^${host.replace(/[-]/g, "\\-")}: `));
        const cited = rows.filter((r) => r[1] === constraint && r[2] === "audit");
        expect(cited.length, `no audit record of ${constraint} in ${host}'s MAPPING.md: the proof is never shown`).toBeGreaterThan(0);
      }
      const unproven = rows.filter((r) => r[2] === "audit" && (!r[5] || r[5] !== a.auditProofs?.[r[1] as keyof Adapter["proofs"]]));
      expect(unproven.map((r) => `${r[0]} | ${r[1]} | ${r[3]}`), `audit records with no proof: add an audit-out test and cite it in adapters/${host} auditProofs, or lower the level`).toEqual([]);
    });

    it(`${host}: checkedAgainst.version equals the pinned CLI version`, async () => {
      const a = await adapter();
      expect(a.checkedAgainst.version, `adapters/${host} checkedAgainst vs test/hosts/versions.json`).toBe((HOST_VERSIONS as Record<string, string>)[host]);
    });

    it(`${host}: the emitted MAPPING.md cites each proof beside a native or guard record`, async () => {
      const a = await adapter();
      const rows = await mappingRows(host);
      for (const [constraint, test] of Object.entries(a.proofs)) {
        const own = a.guardProofs?.[constraint as keyof Adapter["proofs"]];
        const cited = rows.filter((r) => r[1] === constraint && (r[2] === "native" || (r[2] === "guard" && !own)));
        expect(cited.length, `no native/guard record of ${constraint} in ${host}'s MAPPING.md: the proof is never shown`).toBeGreaterThan(0);
        for (const r of cited) expect(r[5], `MAPPING.md row ${r.join(" | ")}`).toBe(test);
      }
      for (const [constraint, test] of Object.entries(a.guardProofs ?? {})) {
        expect(CONSTRAINTS as readonly string[], `guardProofs key ${constraint}`).toContain(constraint);
        expect(names, `guardProofs["${constraint}"] names a test that enforce-out.test.ts does not have`).toContain(test);
        expect(test, `guardProofs["${constraint}"] names another host's test`).toMatch(new RegExp(`^${host.replace(/[-]/g, "\\-")}: `));
        const cited = rows.filter((r) => r[1] === constraint && r[2] === "guard");
        expect(cited.length, `no guard record of ${constraint} in ${host}'s MAPPING.md: the proof is never shown`).toBeGreaterThan(0);
        for (const r of cited) expect(r[5], `MAPPING.md row ${r.join(" | ")}`).toBe(test);
      }
    });

    // the other direction: a constraint the adapter raises to native/guard without a real-host proof fails here
    it(`${host}: every native or guard record in the emitted MAPPING.md names a proof`, async () => {
      const a = await adapter();
      const records = (await mappingRows(host)).filter((r) => r[2] === "native" || r[2] === "guard");
      expect(records.length, `no native/guard records in ${host}'s MAPPING.md: is the table format still | role | constraint | level | how | loss | proven by |?`).toBeGreaterThan(0);
      const proofOf = (r: string[]) => (r[2] === "guard" ? (a.guardProofs?.[r[1] as keyof Adapter["proofs"]] ?? a.proofs[r[1] as keyof Adapter["proofs"]]) : a.proofs[r[1] as keyof Adapter["proofs"]]);
      const unproven = records.filter((r) => !r[5] || !proofOf(r) || r[5] !== proofOf(r));
      expect(
        unproven.map((r) => `${r[0]} | ${r[1]} | ${r[2]} | ${r[3]}`),
        `native/guard records with no proof: add an enforce-out test and cite it in adapters/${host} proofs, or lower the level`,
      ).toEqual([]);
    });
  }
});
