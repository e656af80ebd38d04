// Compiled-glob cache: picomatch compiles a pattern on every isMatch() call, and the checks and
// adapters test the same few dozen globs against many paths. One compile per (pattern, options).
import picomatch from "picomatch";

type Options = picomatch.PicomatchOptions;
const cache = new Map<string, (input: string) => boolean>();

export function globMatcher(pattern: string, options: Options = { dot: true }): (input: string) => boolean {
  const key = `${JSON.stringify(options)}\u0000${pattern}`;
  let matcher = cache.get(key);
  if (!matcher) {
    matcher = picomatch(pattern, options);
    cache.set(key, matcher);
  }
  return matcher;
}

export function isGlobMatch(input: string, pattern: string, options?: Options): boolean {
  return globMatcher(pattern, options)(input);
}

const regexps = new Map<string, RegExp>();

/** picomatch's RegExp for a POSIX glob with dotfiles matchable, compiled once per pattern (hosts share globs). */
export function globRegExp(pattern: string): RegExp {
  let re = regexps.get(pattern);
  if (!re) {
    re = picomatch.makeRe(pattern, { dot: true, windows: false });
    regexps.set(pattern, re);
  }
  return re;
}
