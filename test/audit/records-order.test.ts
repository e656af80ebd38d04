// withAuditRecords is linear (a linked list) so that 1,000 roles do not cost a million splices; it
// must order records exactly as inserting each audit record by splicing did.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { withAuditRecords } from "../../src/adapter/audit/index.js";
import type { FidelityRecord } from "../../src/adapter/fidelity.js";

/** The original quadratic definition: after the last record of the same role and constraint, else of the role, else at the end. */
function bySplicing(records: readonly FidelityRecord[], audit: readonly FidelityRecord[]): FidelityRecord[] {
  const out = [...records];
  for (const a of audit) {
    let at = -1;
    out.forEach((r, i) => {
      if (r.role === a.role && r.constraint === a.constraint) at = i;
    });
    if (at < 0)
      out.forEach((r, i) => {
        if (r.role === a.role) at = i;
      });
    out.splice(at < 0 ? out.length : at + 1, 0, a);
  }
  return out;
}

const record = (level: string) =>
  fc.record({ role: fc.constantFrom("a", "b", "c", null), constraint: fc.constantFrom("write-scope", "never-write", "tools", "shell") }).map(
    (r) => ({ ...r, level, how: "" }) as unknown as FidelityRecord,
  );

describe("withAuditRecords", () => {
  it("orders records exactly as splicing one by one does", () => {
    fc.assert(
      fc.property(fc.array(record("native"), { maxLength: 30 }), fc.array(record("audit"), { maxLength: 12 }), (records, audit) => {
        // distinct objects, so identity shows where each one went
        const rs = records.map((r, i) => ({ ...r, how: `r${i}` }));
        const as = audit.map((r, i) => ({ ...r, how: `a${i}` }));
        expect(withAuditRecords(rs, as).map((r) => r.how)).toEqual(bySplicing(rs, as).map((r) => r.how));
      }),
      { numRuns: 2000 },
    );
  });
});
