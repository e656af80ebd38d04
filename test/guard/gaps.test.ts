// MAPPING.md's Known gaps for the shared guard runtime come from one function (src/adapter/guard/gaps.ts)
// on every host with a generated guard, Pi's extension and Factory Droid's hook included (issue 22):
// a hand-written copy went stale (Pi's said hard links are not detected; the runtime refuses them).
import { describe, expect, it } from "vitest";
import { GUARD_GAPS as PI_GAPS } from "../../adapters/pi/extension.js";
import { GUARD_GAPS as DROID_GAPS } from "../../adapters/factory-droid/guard.js";
import { GUARD_GAPS as QWEN_GAPS } from "../../adapters/qwen-code/guard.js";
import { guardSharedGaps } from "../../src/adapter/guard/gaps.js";

describe("the shared guard gaps", () => {
  it("Pi and Factory Droid list every line of the shared function for what they are, and no older wording of one", () => {
    for (const [gaps, shared] of [
      [PI_GAPS, guardSharedGaps({ audit: false, patch: false, off: "start", runs: "in-process" })],
      [DROID_GAPS, guardSharedGaps({ audit: false, patch: false, off: "settings" })],
      [QWEN_GAPS, guardSharedGaps({ audit: false, patch: false, off: "settings" })],
    ] as const) {
      expect(gaps).toEqual(expect.arrayContaining(shared));
      expect(gaps.filter((g) => /hard link/.test(g))).toEqual([expect.stringContaining("a file that already has more than one hard link is refused")]);
      expect(gaps.filter((g) => /matched as spelled/.test(g))).toEqual([expect.stringContaining("never-write paths are matched without case")]);
    }
  });

  it("a guard in the host's own process has no hook line, and an off switch only its start can set says so", () => {
    const inProcess = guardSharedGaps({ audit: false, patch: false, off: "start", runs: "in-process" });
    expect(inProcess.some((g) => g.includes("hook line"))).toBe(false);
    expect(inProcess.some((g) => g.includes("settings file the host reads sets it"))).toBe(false);
    expect(inProcess).toContainEqual(expect.stringContaining("the host reads no environment from files"));
    const hook = guardSharedGaps({ audit: false, patch: false, off: "settings" });
    expect(hook).toContainEqual(expect.stringContaining("the hook line unsets NODE_OPTIONS"));
    expect(hook).toContainEqual(expect.stringContaining("no settings file the host reads sets it"));
    expect(PI_GAPS.some((g) => g.includes("hook line"))).toBe(true); // Pi's own line: why none reaches it
    expect(PI_GAPS.filter((g) => g.includes("the hook line unsets"))).toEqual([]);
  });
});
