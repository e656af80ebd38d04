// A role's write scope against the files a host enforces with: overlap is a build error naming both.
import type { Diagnostic } from "../errors.js";
import { isGlobMatch } from "../glob.js";
import type { PipelineIR } from "../ir/types.js";
import type { Adapter } from "./types.js";

/**
 * The role's glob lies inside an enforcement path when that path's glob matches it read as a path
 * ("**" matches a "**" segment too). A wider scope ("**", ".claude/**") is not a conflict: the guard
 * refuses only the enforcement files inside it, and the prompt's Limits say so.
 */
const inside = (roleGlob: string, guarded: string): boolean => isGlobMatch(roleGlob, guarded);

export function protectedConflicts(pipeline: PipelineIR, adapter: Adapter): Diagnostic[] {
  const guarded = adapter.enforcementPaths ?? [];
  const out: Diagnostic[] = [];
  if (!guarded.length) return out;
  for (const role of pipeline.roles)
    for (const glob of role.write) {
      const hit = guarded.find((g) => inside(glob, g));
      if (!hit) continue;
      const field = role.writes.length ? "writes" : "permissions.write";
      const at = role.source.fields[field] ?? role.source.fields["permissions"] ?? { line: 1, column: 1 };
      out.push({
        code: "E_PROTECTED_ARTIFACT",
        severity: "error",
        position: { file: role.source.file, line: at.line, column: at.column },
        field,
        message: `the role may write "${glob}", but ${adapter.displayName} enforces with "${hit}" (the harness guard refuses, or its stage-end audit undoes, every write there, so the prompt and the enforcement would disagree). Move the artifact out of ${hit.replace(/\/\*\*$/, "/")}, or narrow the path.`,
      });
    }
  return out;
}
