// Terminal output: colour only on a TTY and never with NO_COLOR (picocolors decides).
// Every line goes through `write`, so a build or check can keep what it printed (or would print)
// for its cached no-op (src/cache/).
import pc from "picocolors";
import type { PrintedLine } from "./cache/digest.js";

export const color = pc;

let tape: { lines: PrintedLine[]; print: boolean } | null = null;

function write(fd: 1 | 2, text: string): void {
  if (tape) {
    tape.lines.push([fd, text]);
    if (!tape.print) return;
  }
  (fd === 1 ? process.stdout : process.stderr).write(text);
}

export const out = (line = "") => write(1, `${line}\n`);
export const err = (line = "") => write(2, `${line}\n`);

/** Run fn, keeping every line it prints through out/err; `print: false` keeps them without printing. */
export function keepOutput<T>(print: boolean, fn: () => T): { result: T; lines: PrintedLine[] } {
  const outer = tape;
  tape = { lines: [], print };
  try {
    const result = fn();
    return { result, lines: tape.lines };
  } finally {
    tape = outer;
  }
}
