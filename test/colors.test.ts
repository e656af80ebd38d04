// src/colors.ts is picocolors 1.1.1's colours without its start-up check: the same output for every
// function, with colour on and off, also for text that already holds the closing sequence (nesting).
import { closeSync, fstatSync, openSync } from "node:fs";
import { isatty } from "node:tty";
import pc from "picocolors";
import { describe, expect, it } from "vitest";
import { createColors, isTerminal } from "../src/colors.js";

const samples = ["", "plain", "a\x1b[22mb", "x\x1b[39my\x1b[39mz", "\x1b[49m\x1b[0m", "nested \x1b[1mbold\x1b[22m end", 42, null, undefined];

describe("colors", () => {
  for (const enabled of [true, false]) {
    it(`matches picocolors with colour ${enabled ? "on" : "off"}`, () => {
      const ours = createColors(enabled) as Record<string, unknown>;
      const theirs = pc.createColors(enabled) as unknown as Record<string, unknown>;
      expect(Object.keys(ours).sort()).toEqual(Object.keys(theirs).sort());
      for (const [name, fn] of Object.entries(theirs)) {
        if (typeof fn !== "function") {
          expect(ours[name], name).toBe(fn);
          continue;
        }
        for (const s of samples) expect((ours[name] as (x: unknown) => string)(s), `${name}(${JSON.stringify(s)})`).toBe((fn as (x: unknown) => string)(s));
      }
    });
  }

  it("isTerminal answers as tty.isatty for open, closed and unusual descriptors", () => {
    const devNull = openSync("/dev/null", "r"); // a character device that is not a terminal
    for (const fd of [0, 1, 2, devNull, 99, -1]) {
      let open = true;
      try {
        fstatSync(fd);
      } catch {
        open = false;
      }
      expect(isTerminal(fd), `fd ${fd} (open: ${open})`).toBe(isatty(fd));
    }
    closeSync(devNull);
  });
});
