// Terminal output: colour only on a TTY and never with NO_COLOR (picocolors' rule, src/colors.ts).
// Every line goes through `write`, so a build or check can keep what it printed (or would print)
// for its cached no-op (src/cache/).
import { colorRule, createColors, isTerminal, type Colors } from "./colors.js";
import type { PrintedLine } from "./cache/digest.js";

/** Where a command's output goes: this process's streams, or what an in-process caller passed (src/cli.ts main). */
export interface Output {
  stdout: { write(text: string): unknown; isTTY?: boolean };
  stderr: { write(text: string): unknown; isTTY?: boolean };
}

// picocolors' rule for this process. The environment and argv are read at start-up, as picocolors
// reads them; whether stdout is a terminal is asked when a colour is first used.
const atStart = { env: { NO_COLOR: process.env.NO_COLOR, FORCE_COLOR: process.env.FORCE_COLOR, CI: process.env.CI, TERM: process.env.TERM }, argv: [...process.argv] };
let decided: Colors | undefined;
const own = (): Colors => (decided ??= createColors(colorRule(atStart.env, atStart.argv, process.platform, () => isTerminal(1))));
const processColors = Object.fromEntries(
  Object.entries(createColors(false)).map(([name, fn]) => [name, typeof fn === "function" ? (input: unknown) => (own()[name as keyof Colors] as (s: unknown) => string)(input) : fn]),
) as Colors;
Object.defineProperty(processColors, "isColorSupported", { enumerable: true, get: () => own().isColorSupported });

/** The colours this process decided on, or what `useOutput` decided for a caller's. */
export let color: Colors = processColors;
let sink: Output = process;

/** Send output to `to` and colour it or not until the returned function puts the previous ones back. */
export function useOutput(to: Output, colors: boolean): () => void {
  const [outer, outerColor] = [sink, color];
  [sink, color] = [to, createColors(colors)];
  return () => {
    [sink, color] = [outer, outerColor];
  };
}

/** The stream a command writes to (for the few that print other than by line: JSON events, prompts). */
export const stream = (fd: 1 | 2) => (fd === 1 ? sink.stdout : sink.stderr);

let tape: { lines: PrintedLine[]; print: boolean } | null = null;

function write(fd: 1 | 2, text: string): void {
  if (tape) {
    tape.lines.push([fd, text]);
    if (!tape.print) return;
  }
  stream(fd).write(text);
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
