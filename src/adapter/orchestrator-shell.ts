// What the orchestrator may run without asking, on every host that can say it: the pipeline's own
// commands, and, because the orchestrator adapts each command to the project's toolchain (`npm test`
// for `npm run test --if-present`, `pytest`, `go test ./...`), whatever any role may run without
// asking. Asked: what any role is asked about, and what any role is denied unless one of the
// pipeline's commands matches it (`npm test -u` is no role-free snapshot update; quartz's `npm run
// format*` must not stop the orchestrator's own format check). Denied: policies.shell_deny.
// Everything else asks.
// policies.orchestrator_shell stays separate: the exceptions to shell_deny that only the orchestrator has.
import type { PipelineIR, ShellPolicyIR } from "../ir/types.js";
import { BoundedMap } from "../memo.js";

/** harness command-pattern match: `*` is any run of characters; a trailing " *" also matches nothing. */
export function commandMatches(command: string, pattern: string): boolean {
  return commandRegExp(pattern).test(command) || (pattern.endsWith(" *") && command === pattern.slice(0, -2));
}

// Each pattern compiled once: every host asks about the same few dozen deny patterns (no flags, so
// test() keeps no state between calls).
const compiled = new BoundedMap<string, RegExp>();
function commandRegExp(pattern: string): RegExp {
  let re = compiled.get(pattern);
  if (re === undefined) compiled.set(pattern, (re = new RegExp(`^${pattern.split("*").map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join("[\\s\\S]*")}$`)));
  return re;
}

export function orchestratorShellPolicy(pipeline: PipelineIR): ShellPolicyIR {
  const runs = pipeline.commands.map((c) => c.run);
  const uniq = (xs: Iterable<string>) => [...new Set(xs)].sort();
  const roleAllows = pipeline.roles.flatMap((r) => r.shell?.allow ?? []);
  const shellDeny = new Set(pipeline.policies.shellDeny);
  // each distinct deny once: a thousand roles repeat the same few dozen patterns
  const roleDenies = [...new Set(pipeline.roles.flatMap((r) => r.shell?.deny ?? []))].filter((d) => !shellDeny.has(d) && !runs.some((run) => commandMatches(run, d)));
  const roleAsks = pipeline.roles.flatMap((r) => r.shell?.ask ?? []);
  return {
    allow: uniq([...runs, ...roleAllows]),
    ask: uniq([...roleAsks, ...roleDenies]),
    deny: uniq(pipeline.policies.shellDeny),
    default: "ask",
  };
}
