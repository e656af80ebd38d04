// Compiled-glob cache: picomatch compiles a pattern on every isMatch() call, and the checks and
// adapters test the same few dozen globs against many paths. One compile per (pattern, options).
import picomatch from "picomatch";
import { BoundedMap } from "./memo.js";

type Options = picomatch.PicomatchOptions;
const cache = new BoundedMap<string, (input: string) => boolean>();

const DOT: Options = { dot: true };
const dotCache = new BoundedMap<string, (input: string) => boolean>();

export function globMatcher(pattern: string, options: Options = DOT): (input: string) => boolean {
  // the default options need no key built per call (the checks ask once per path and glob)
  if (options === DOT) {
    let m = dotCache.get(pattern);
    if (!m) dotCache.set(pattern, (m = POSIX ? posixDotMatcher(pattern) : picomatch(pattern, DOT)));
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

// Off Windows, picomatch(pattern, { dot: true }) is picomatch.test with globRegExp's RegExp: no
// input is "", an input equal to the pattern matches, any other matches the RegExp. Sharing the
// RegExp compiles each glob once for the checks, the guards and the permission lowering.
const POSIX = process.platform !== "win32";
const posixDotMatcher = (pattern: string) => {
  const re = globRegExp(pattern);
  return (input: string) => input !== "" && (input === pattern || re.test(input));
};

const regexps = new BoundedMap<string, RegExp>();

/** picomatch's RegExp for a POSIX glob with dotfiles matchable, compiled once per pattern (hosts share globs). */
export function globRegExp(pattern: string): RegExp {
  let re = regexps.get(pattern);
  if (!re) {
    re = picomatch.makeRe(pattern, { dot: true, windows: false });
    regexps.set(pattern, re);
  }
  return re;
}
