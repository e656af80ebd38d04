// picomatch.isMatch(path, glob, { dot: true }) with each glob compiled once: isMatch compiles its
// glob on every call (parse, RegExp), which was most of the glob property tests' time. picomatch's
// own definition: isMatch(str, pattern, options) = picomatch(pattern, options)(str).
import picomatch from "picomatch";
import { BoundedMap } from "../../src/memo.js";

// bounded: the property tests' random globs would otherwise stay in the worker for every later file
const matchers = new BoundedMap<string, (s: string) => boolean>();

/** Does `path` match `glob`, dot files included (picomatch with dot: true)? */
export function globMatch(path: string, glob: string): boolean {
  let m = matchers.get(glob);
  if (!m) {
    m = picomatch(glob, { dot: true });
    matchers.set(glob, m);
  }
  return m(path);
}
