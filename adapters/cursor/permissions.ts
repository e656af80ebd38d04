// Pipeline-wide limits → `.cursor/cli.json` `permissions` (Cursor CLI; docs of 2026-11-30,
// https://docs.cursor.com/en/cli/reference/permissions). These rules bind every agent in the
// project alike: Cursor cannot scope them to one subagent. Deny wins over allow.
//
// `Write(glob)` takes `**`, `*` and `?`; a harness glob using anything else (braces, classes,
// negation) has no exact form and is left out (reported). `Shell(token)` matches the FIRST token
// of a command line only, so a harness deny can be written only when it refuses a whole command
// family ("sudo *"); "git push *" cannot be (denying `Shell(git)` would also refuse `git status`).
import type { PipelineIR } from "../../src/ir/types.js";

const SIMPLE_GLOB = /^[A-Za-z0-9_.\-/*?@+]+$/;
const FAMILY = /^([A-Za-z0-9_.-]+) \*$/; // "sudo *": every sudo command; a bare "git" is not a family

export interface CursorPermissions {
  deny: string[];
  /** never_write globs with no exact Write() form */
  unwritableGlobs: string[];
  /** shell_deny patterns that Shell(first token) cannot express */
  unwritableCommands: string[];
}

export function cursorPermissions(pipeline: PipelineIR): CursorPermissions {
  const p = pipeline.policies;
  const globs = p.neverWrite.filter((g) => SIMPLE_GLOB.test(g));
  const families = [...new Set(p.shellDeny.map((c) => FAMILY.exec(c)?.[1]).filter((t): t is string => Boolean(t)))];
  // "sudo *" also matches a bare "sudo" (a trailing " *" is optional), so Shell(sudo) is exact.
  const covered = (c: string) => families.some((t) => c === t || c === `${t} *` || c.startsWith(`${t} `));
  return {
    deny: [...globs.map((g) => `Write(${g})`), ...families.map((t) => `Shell(${t})`)],
    unwritableGlobs: p.neverWrite.filter((g) => !SIMPLE_GLOB.test(g)),
    unwritableCommands: p.shellDeny.filter((c) => !covered(c)),
  };
}
