// Compiled-glob cache: picomatch compiles a pattern on every isMatch() call, and the checks and
// adapters test the same few dozen globs against many paths. One compile per (pattern, options).
import picomatch from "picomatch";

type Options = picomatch.PicomatchOptions;
const cache = new Map<string, (input: string) => boolean>();

const DOT: Options = { dot: true };
const dotCache = new Map<string, (input: string) => boolean>();

export function globMatcher(pattern: string, options: Options = DOT): (input: string) => boolean {
  // the default options need no key built per call (the checks ask once per path and glob)
  if (options === DOT) {
    let m = dotCache.get(pattern);
    if (!m) dotCache.set(pattern, (m = picomatch(pattern, DOT)));
    return m;
  }
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
