// picocolors 1.1.1's colours (MIT, Alexey Raspopov; the same escape sequences and nesting), without
// its start-up check. picocolors reads process.stdout.isTTY when it is imported, which makes Node
// create the stdout stream, loading net and tty for a pipe or a terminal, in every run: also in a
// quiet build that prints nothing (~5 ms of CPU, against ~90 ms for `node -e 0`). Here the check
// waits until a colour is first used, and asks fstat before it loads tty. test/colors.test.ts
// compares every function with picocolors'.
import { fstatSync } from "node:fs";
// loaded on first call in the bundle (scripts/lazy-builtins.mjs): most runs never get that far
import { isatty } from "node:tty";

export type Colors = ReturnType<typeof createColors>;

const replaceClose = (string: string, close: string, replace: string, index: number): string => {
  let result = "";
  let cursor = 0;
  do {
    result += string.substring(cursor, index) + replace;
    cursor = index + close.length;
    index = string.indexOf(close, cursor);
  } while (~index);
  return result + string.substring(cursor);
};

const formatter =
  (open: string, close: string, replace = open) =>
  (input: unknown): string => {
    const string = "" + input;
    const index = string.indexOf(close, open.length);
    return ~index ? open + replaceClose(string, close, replace, index) + close : open + string + close;
  };

export function createColors(enabled: boolean) {
  const f = enabled ? formatter : () => String;
  return {
    isColorSupported: enabled,
    reset: f("\x1b[0m", "\x1b[0m"),
    bold: f("\x1b[1m", "\x1b[22m", "\x1b[22m\x1b[1m"),
    dim: f("\x1b[2m", "\x1b[22m", "\x1b[22m\x1b[2m"),
    italic: f("\x1b[3m", "\x1b[23m"),
    underline: f("\x1b[4m", "\x1b[24m"),
    inverse: f("\x1b[7m", "\x1b[27m"),
    hidden: f("\x1b[8m", "\x1b[28m"),
    strikethrough: f("\x1b[9m", "\x1b[29m"),
    black: f("\x1b[30m", "\x1b[39m"),
    red: f("\x1b[31m", "\x1b[39m"),
    green: f("\x1b[32m", "\x1b[39m"),
    yellow: f("\x1b[33m", "\x1b[39m"),
    blue: f("\x1b[34m", "\x1b[39m"),
    magenta: f("\x1b[35m", "\x1b[39m"),
    cyan: f("\x1b[36m", "\x1b[39m"),
    white: f("\x1b[37m", "\x1b[39m"),
    gray: f("\x1b[90m", "\x1b[39m"),
    bgBlack: f("\x1b[40m", "\x1b[49m"),
    bgRed: f("\x1b[41m", "\x1b[49m"),
    bgGreen: f("\x1b[42m", "\x1b[49m"),
    bgYellow: f("\x1b[43m", "\x1b[49m"),
    bgBlue: f("\x1b[44m", "\x1b[49m"),
    bgMagenta: f("\x1b[45m", "\x1b[49m"),
    bgCyan: f("\x1b[46m", "\x1b[49m"),
    bgWhite: f("\x1b[47m", "\x1b[49m"),
    blackBright: f("\x1b[90m", "\x1b[39m"),
    redBright: f("\x1b[91m", "\x1b[39m"),
    greenBright: f("\x1b[92m", "\x1b[39m"),
    yellowBright: f("\x1b[93m", "\x1b[39m"),
    blueBright: f("\x1b[94m", "\x1b[39m"),
    magentaBright: f("\x1b[95m", "\x1b[39m"),
    cyanBright: f("\x1b[96m", "\x1b[39m"),
    whiteBright: f("\x1b[97m", "\x1b[39m"),
    bgBlackBright: f("\x1b[100m", "\x1b[49m"),
    bgRedBright: f("\x1b[101m", "\x1b[49m"),
    bgGreenBright: f("\x1b[102m", "\x1b[49m"),
    bgYellowBright: f("\x1b[103m", "\x1b[49m"),
    bgBlueBright: f("\x1b[104m", "\x1b[49m"),
    bgMagentaBright: f("\x1b[105m", "\x1b[49m"),
    bgCyanBright: f("\x1b[106m", "\x1b[49m"),
    bgWhiteBright: f("\x1b[107m", "\x1b[49m"),
  };
}

/**
 * Is `fd` a terminal: tty.isatty's answer (process.stdout.isTTY's for fd 1). A terminal is a
 * character device, so anything else (a pipe, a file, a closed descriptor) is answered by one
 * fstat, without loading tty (which loads net).
 */
export function isTerminal(fd: number): boolean {
  try {
    if (!fstatSync(fd).isCharacterDevice()) return false;
  } catch {
    return false;
  }
  return isatty(fd);
}

/**
 * picocolors' rule: colour unless NO_COLOR or --no-color, then with FORCE_COLOR, --color, Windows or
 * CI, else on a terminal whose TERM is not "dumb". `isTTY` is asked only when the rest leaves it open.
 */
export function colorRule(env: NodeJS.ProcessEnv, argv: readonly string[], platform: string, isTTY: () => boolean): boolean {
  if (env.NO_COLOR || argv.includes("--no-color")) return false;
  return Boolean(env.FORCE_COLOR) || argv.includes("--color") || platform === "win32" || Boolean(env.CI) || (env.TERM !== "dumb" && isTTY());
}
