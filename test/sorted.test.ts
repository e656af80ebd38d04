import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { mergeSorted, uniqSorted } from "../src/ir/sorted.js";

describe("sorted string lists", () => {
  it("mergeSorted(base, extra) is uniqSorted of both, for any strings (code-unit order, duplicates on either side)", () => {
    const str = fc.oneof(fc.string({ maxLength: 6 }), fc.string({ unit: "binary", maxLength: 4 }), fc.constantFrom("a", "b", "*", "**/*.env", "git push *", "\uD83D\uDE00", "\uFF5E"));
    fc.assert(
      fc.property(fc.array(str, { maxLength: 20 }), fc.array(str, { maxLength: 8 }), (base, extra) => {
        expect(mergeSorted(uniqSorted(base), extra)).toEqual(uniqSorted([...extra, ...base]));
      }),
      { numRuns: 2000 },
    );
  });

  it("never changes its base: the pipeline-wide list is shared by every role", () => {
    const base = Object.freeze(uniqSorted(["git push", "rm -rf", "curl"]));
    expect(mergeSorted(base, ["git push", "a"])).toEqual(["a", "curl", "git push", "rm -rf"]);
    expect(base).toEqual(["curl", "git push", "rm -rf"]);
  });
});
