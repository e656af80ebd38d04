// The value rules behind the schemas, as plain functions: the zod schemas (the source of every
// message and location) and the happy path's validator (fast-parse.ts) apply the same ones.
import picomatch from "picomatch";

export function globProblem(value: string): string | undefined {
  if (value.startsWith("/") || /^[A-Za-z]:[\\/]/.test(value))
    return `absolute path "${value}"; globs are relative to the repository root (drop the leading "/")`;
  if (value.includes("\\")) return `backslash in "${value}"; use "/" as the path separator`;
  if (value.split("/").some((seg) => seg === ".."))
    return `"${value}" leaves the repository through ".."; write a path inside the repository`;
  if (value.startsWith("./")) return `"${value}" starts with "./"; write it without the "./" prefix`;
  if (value.endsWith("/"))
    return `"${value}" ends with "/", so it names no file and gives a write scope of nothing; write "${value}**" for everything in the folder`;
  if (value.startsWith("!")) return `negated glob "${value}"; list it under never_write instead`;
  if (/\{[^}]*$/.test(value) || /\[[^\]]*$/.test(value))
    return `unclosed brace or bracket in "${value}"; close it or escape it`;
  if (!mayNotParse(value)) return undefined;
  try {
    picomatch.makeRe(value, { strictBrackets: true });
  } catch (error) {
    return `invalid glob "${value}": ${(error as Error).message}`;
  }
  return undefined;
}

// picomatch 4 throws only for a pattern over 64 KiB or, under strictBrackets, an unbalanced
// ( [ or {: a glob without them needs no parse (most globs; each parse costs ~0.1 ms cold).
const PICOMATCH_MAX_LENGTH = 64 * 1024;
export const mayNotParse = (glob: string): boolean => glob.length > PICOMATCH_MAX_LENGTH || /[()[\]{}]/.test(glob);

/** A command pattern with no leading, trailing or doubled spaces. */
export const tidySpaces = (v: string): boolean => v.trim() === v && !/\s{2,}/.test(v);
/** A command pattern on one line. */
export const oneLine = (v: string): boolean => !/[\n\r]/.test(v);
