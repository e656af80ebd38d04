import * as z from "zod";
import { ID_HINT, ID_PATTERN } from "./vocabulary.js";
import { globProblem, oneLine, tidySpaces } from "./rules.js";

// Zod 4 compiles a parser per object schema with new Function on its first parse (its "JIT"),
// which pays off over many parses; harness parses each schema a few times per run, and code made
// by new Function is outside V8's code cache. Interpreted, the first validation of the bundled
// roles takes 11–16 ms instead of 17–25 ms (measured in-process, Node 20).
z.config({ jitless: true });

/** Builds a schema on first use: a valid project never needs zod (fast-parse.ts), so it pays nothing for it. */
export function once<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => (built ??= { value: build() }).value;
}

export const commonSchemas = once(() => {
  const Id = z.string().regex(ID_PATTERN, { message: `not a plain name; ${ID_HINT}` });

  /** A repository-relative path glob in harness's one dialect (picomatch: `*` stays in a segment, `**` crosses). */
  const Glob = z
    .string()
    .min(1, { message: "empty glob; write a path pattern such as \"src/**\"" })
    .superRefine((value, ctx) => {
      const problem = globProblem(value);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    });

  /** A shell command pattern: words, where `*` matches any run of characters. */
  const CommandPattern = z
    .string()
    .min(1, { message: "empty command pattern" })
    .refine(tidySpaces, { message: "command pattern has leading, trailing or doubled spaces; write single spaces between words" })
    .refine(oneLine, { message: "command pattern spans lines; write one command per entry" });

  const NonEmptyText = z.string().trim().min(1, { message: "empty text; write a sentence" });
  return { Id, Glob, CommandPattern, NonEmptyText };
});
