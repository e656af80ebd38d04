// Is a folder ignored by git? A committed out/ that .gitignore hides (GitHub's Node template ignores
// `out`) is missing from every fresh clone, so CI's `harness check` fails with the wrong advice.
import path from "node:path";
import type { Diagnostic } from "./errors.js";
import { displayPath } from "./load/load.js";
import { git } from "./cache/probes.js";

/** A warning at the .gitignore line that hides `dir`, or null (not ignored, no git, not a repository). */
export function ignoredWarning(dir: string, fix: string): Diagnostic | null {
  const r = git(["check-ignore", "-v", "--no-index", "--", path.resolve(dir)], path.dirname(path.resolve(dir)));
  if (r.status !== 0 || !r.stdout) return null;
  // source:line:pattern<TAB>path
  const m = /^(.*):(\d+):(.*)\t/.exec(r.stdout);
  if (!m || !m[1] || m[3]!.startsWith("!")) return null; // -v also names the pattern that un-ignores it
  // git names the source relative to the top of the work tree.
  const top = git(["rev-parse", "--show-toplevel"], path.dirname(path.resolve(dir))).stdout?.trim();
  const source = path.resolve(top || path.dirname(path.resolve(dir)), m[1]);
  return {
    code: "W_OUT_IGNORED",
    severity: "warning",
    position: { file: displayPath(source), line: Number(m[2]), column: 1 },
    message: `${displayPath(path.resolve(dir))}/ is ignored by git (pattern "${m[3]}"), so a fresh clone, and CI's harness check, will not have its files. ${fix}`,
  };
}
