// The report of `harness check --installed`: each drifted file with what to do about it.
import path from "node:path";
import { displayPath } from "../load/load.js";
import { shownRoot } from "../install/safe-path.js";
import { LOCK_FILE, type Lock } from "../install/lock.js";
import type { FileState, Plan } from "../install/plan.js";
import { color, err, out } from "../ui.js";

const FIX: Record<Exclude<FileState, "ok">, string> = {
  modified: "was edited by hand since harness installed it. Move the change into roles/ and run `harness install --force`, or run `harness install --force` to drop it",
  missing: "is missing. Run `harness install` and commit the result",
  outdated: "differs from what roles/ produce now. Run `harness install` and commit the result",
  unrecorded: "is produced by harness but not recorded in harness.lock.json. Run `harness install` and commit the result",
  orphaned: "is recorded in harness.lock.json but roles/ no longer produce it. Run `harness install` to remove it",
};

/** A file of the team's where a role's file would go: the way out is never "delete it". */
export function wayOut(file: string, roles: readonly string[], hosts: readonly string[]): string {
  const role = roles.find((r) => path.posix.basename(file).replace(/(\.agent)?\.(md|toml)$/, "") === r || file.split("/").includes(r));
  if (!role) return "Rename it or move it away if it is not the team's, then run harness install again";
  const from = hosts.map((h) => ` --from ${h}`).join("");
  return `Role "${role}" would be installed here, over the team's own. Rename the role (roles/${role}.md and its stages in pipeline.yaml), or adopt the team's agent into roles/ with \`harness import${from}\``;
}

export function driftReport(root: string, plan: Plan, lock: Lock | null, hosts: readonly string[], blocking: number, options: { json?: boolean; quiet?: boolean }, roles: readonly string[] = []): number {
  const drift = plan.changes.filter((c) => c.state !== "ok");
  const shown = (p: string) => displayPath(path.join(root, p));
  if (options.json) {
    out(
      JSON.stringify(
        {
          ok: drift.length === 0 && lock !== null && blocking === 0,
          root: shownRoot(root),
          lock: lock ? shown(LOCK_FILE) : null,
          hosts,
          drift: drift.map((c) => ({ path: shown(c.path), kind: c.state, mode: c.mode, hosts: c.hosts, detail: c.problems.map((p) => ({ line: p.line, column: p.column, message: p.message.replace(/; kept.*$/, "") })) })),
          losses: blocking,
        },
        null,
        2,
      ),
    );
  } else {
    if (!lock) err(`${color.red("E_DRIFT")} ${shown(LOCK_FILE)} is missing: harness has installed nothing here. Run \`harness install\` and commit the result.`);
    for (const c of drift) {
      const what = c.state === "unrecorded" && c.problems.some((p) => p.code === "W_NOT_OWNED") ? `exists but harness did not write it. ${wayOut(c.path, roles, c.hosts)}` : FIX[c.state as Exclude<FileState, "ok">];
      err(`${color.red("E_DRIFT")} ${shown(c.path)} ${what}.`);
      if (!options.quiet) for (const p of c.problems) err(color.dim(`  ${shown(c.path)}:${p.line}:${p.column}: ${p.message.replace(/; kept.*$/, "")}`));
    }
    if (blocking) err(color.red(`${blocking} unaccepted error-level loss(es). Run \`harness build\` to see them.`));
    if (drift.length) err(`${drift.length} installed file(s) out of sync with ${shown(LOCK_FILE)} and roles/.`);
    else if (lock && !blocking && !options.quiet) out(`${color.green("ok")} ${hosts.join(", ")} installed in ${shownRoot(root)}: ${Object.keys(lock.files).length} files match ${shown(LOCK_FILE)} and roles/`);
  }
  return drift.length || !lock || blocking ? 1 : 0;
}
