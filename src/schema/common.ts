import * as z from "zod";
import picomatch from "picomatch";
import { ID_HINT, ID_PATTERN } from "./vocabulary.js";

// Zod 4 compiles a parser per object schema with new Function on its first parse (its "JIT"),
// which pays off over many parses; harness parses each schema a few times per run, and code made
// by new Function is outside V8's code cache. Interpreted, the first validation of the bundled
// roles takes 11–16 ms instead of 17–25 ms (measured in-process, Node 20).
z.config({ jitless: true });

export const Id = z.string().regex(ID_PATTERN, { message: `not a plain name; ${ID_HINT}` });

/** A repository-relative path glob in harness's one dialect (picomatch: `*` stays in a segment, `**` crosses). */
export const Glob = z
  .string()
  .min(1, { message: "empty glob; write a path pattern such as \"src/**\"" })
  .superRefine((value, ctx) => {
    const problem = globProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

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
  try {
    picomatch.makeRe(value, { strictBrackets: true });
  } catch (error) {
    return `invalid glob "${value}": ${(error as Error).message}`;
  }
  return undefined;
}

/** A shell command pattern: words, where `*` matches any run of characters. */
export const CommandPattern = z
  .string()
  .min(1, { message: "empty command pattern" })
  .refine((v) => v.trim() === v && !/\s{2,}/.test(v), {
    message: "command pattern has leading, trailing or doubled spaces; write single spaces between words",
  })
  .refine((v) => !/[\n\r]/.test(v), { message: "command pattern spans lines; write one command per entry" });

export const NonEmptyText = z.string().trim().min(1, { message: "empty text; write a sentence" });
