// Which pipeline denies may also go into settings.json (policies.scope: repository). Claude Code
// checks settings.json deny rules before any allow, a hook's allow included (real-host test,
// 2.1.332), so a deny that some allowed command could match would shadow it: `Bash(git stash *)`
// refuses the orchestrator's `git stash push`. Such denies stay in the guard only.
import type { PipelineIR } from "../../src/ir/types.js";

/** Claude Code's reading of a Bash rule: "*" = any characters; a trailing " *" also matches the bare command. */
function forms(rule: string): string[] {
  const r = rule.trim().replace(/\s+/g, " ");
  return r.endsWith(" *") ? [r, r.slice(0, -2)] : [r];
}

/** Can one string match both "*"-patterns? */
export function patternsMeet(a: string, b: string): boolean {
  const n = a.length;
  const m = b.length;
  let next: boolean[] = new Array<boolean>(m + 1).fill(false);
  next[m] = true;
  for (let j = m - 1; j >= 0; j--) next[j] = b[j] === "*" && next[j + 1]!;
  for (let i = n - 1; i >= 0; i--) {
    const cur: boolean[] = new Array<boolean>(m + 1).fill(false);
    cur[m] = a[i] === "*" && next[m]!;
    for (let j = m - 1; j >= 0; j--) {
      if (a[i] === "*") cur[j] = next[j]! || cur[j + 1]!;
      else if (b[j] === "*") cur[j] = cur[j + 1]! || next[j]!;
      else cur[j] = a[i] === b[j] && next[j + 1]!;
    }
    next = cur;
  }
  return next[0]!;
}

export function settingsDenies(pipeline: PipelineIR): string[] {
  const allowed = [
    ...pipeline.policies.orchestratorShell,
    ...pipeline.commands.map((c) => c.run),
    ...pipeline.roles.flatMap((r) => r.shell?.allow ?? []),
  ].flatMap(forms);
  return pipeline.policies.shellDeny.filter((d) => !forms(d).some((f) => allowed.some((a) => patternsMeet(f, a))));
}
