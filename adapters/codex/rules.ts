// .codex/rules/<pipeline>.rules: Starlark prefix_rule(...) calls that forbid policies.shell_deny for
// every Codex session and agent of the project (Codex 0.171.0 execpolicy; verified: a spawned
// agent's `git push` was rejected by a project rule). Rules are project-wide, never per role.
//
// A harness command pattern is words where `*` matches any run of characters; a prefix rule is a
// list of exact leading argv tokens. Translation of one pattern:
//   `git commit`, `git commit *`  → ["git", "commit"]      (covers it; a prefix also matches more)
//   `pnpm publish*`               → ["pnpm", "publish"]    (narrowed: misses `pnpm publishx`)
//   `* -u`, `git * --x`, `a*b`     → no rule of its own      (narrowed unless a shorter rule covers it)
// A pattern that a rule with a shorter prefix already covers is not narrowed. Codex rules cannot
// exempt a session, and when rules conflict the strictest wins, so a deny that would also match one
// of the orchestrator's own exceptions (policies.orchestrator_shell) gets no rule (`yielded`), and
// each exception gets an `allow` rule: an allowed command runs outside the sandbox, which is what
// `git stash push` needs (the sandbox keeps .git read-only; verified on 0.171.0: a `prompt` rule is
// refused headless, and even approved the stash fails in the sandbox). Rules are project-wide, so
// every session and spawned agent of the project may run an exception; commands the yielded deny
// covered run in the sandbox like any unruled command.
//
// Every string is written as a JSON string literal, which Starlark reads the same way (checked
// with `codex execpolicy check`); lone surrogates become U+FFFD first, as they would in UTF-8.

export interface PrefixRule {
  pattern: string[];
  decision: "forbidden" | "allow";
  sources: string[]; // the harness patterns this rule stands for
}

export interface RulesPlan {
  rules: PrefixRule[];
  /** shell_deny patterns the rules match only in part (or not at all) */
  narrowed: string[];
  /** shell_deny patterns left without a rule because they also match an orchestrator exception */
  yielded: string[];
}

const words = (pattern: string) => pattern.split(" ").filter(Boolean);

/** The tokens every command matched by the pattern starts with. */
function literalPrefix(pattern: string): string[] {
  const w = words(pattern);
  const i = w.findIndex((t) => t.includes("*"));
  return i < 0 ? w : w.slice(0, i);
}

/** The prefix rule a pattern becomes, and whether that rule matches everything the pattern does. */
function ownRule(pattern: string): { prefix: string[]; exact: boolean } | null {
  const w = words(pattern);
  const lit = literalPrefix(pattern);
  const rest = w.slice(lit.length);
  if (rest.length === 0 || (rest.length === 1 && rest[0] === "*")) return lit.length ? { prefix: lit, exact: true } : null;
  const stem = /^([^*]+)\*$/.exec(rest[0]!)?.[1];
  if (rest.length === 1 && stem) return { prefix: [...lit, stem], exact: false };
  return null;
}

const isPrefix = (p: readonly string[], of: readonly string[]) => p.length <= of.length && p.every((t, i) => t === of[i]);

/** Would a rule with this prefix also match a command the orchestrator may run? */
function touchesOrchestrator(prefix: readonly string[], orchestratorShell: readonly string[]): boolean {
  return orchestratorShell.some((o) => {
    const lit = literalPrefix(o);
    const open = words(o).length > lit.length; // the exception goes on past its literal words
    return isPrefix(prefix, lit) || (open && isPrefix(lit, prefix));
  });
}

export function planRules(shellDeny: readonly string[], orchestratorShell: readonly string[]): RulesPlan {
  const byKey = new Map<string, PrefixRule>();
  const yielded: string[] = [];
  const own = shellDeny.map((p) => ({ pattern: p, rule: ownRule(p) }));
  for (const { pattern, rule } of own) {
    if (!rule) continue;
    if (touchesOrchestrator(rule.prefix, orchestratorShell)) {
      yielded.push(pattern);
      continue;
    }
    const key = JSON.stringify(rule.prefix);
    const r = byKey.get(key) ?? { pattern: rule.prefix, decision: "forbidden", sources: [] };
    r.sources.push(pattern);
    byKey.set(key, r);
  }
  // A rule under a shorter forbidden one adds nothing: fold it in.
  const all = [...byKey.values()];
  const forbidden = all.filter((q) => {
    const p = all.filter((o) => o.pattern.length < q.pattern.length && isPrefix(o.pattern, q.pattern)).sort((a, b) => a.pattern.length - b.pattern.length)[0];
    if (p) p.sources.push(...q.sources);
    return !p;
  });
  const allows = new Map<string, PrefixRule>();
  for (const o of orchestratorShell) {
    const lit = literalPrefix(o);
    if (!lit.length || forbidden.some((f) => isPrefix(f.pattern, lit))) continue;
    const key = JSON.stringify(lit);
    const r = allows.get(key) ?? { pattern: lit, decision: "allow", sources: [] };
    r.sources.push(o);
    allows.set(key, r);
  }
  const rules = [...forbidden, ...allows.values()];
  const narrowed = own
    .filter(({ pattern, rule }) => !yielded.includes(pattern) && !(rule?.exact) && !forbidden.some((r) => isPrefix(r.pattern, literalPrefix(pattern))))
    .map(({ pattern }) => pattern);
  return { rules, narrowed, yielded };
}

/**
 * A Starlark string literal for any text: JSON string syntax (no way out of the quotes), with the
 * line and control characters JSON leaves raw (DEL, NEL, U+2028/9) escaped too, so every literal
 * stays on its line for any reader.
 */
export function starlarkString(s: string): string {
  const wellFormed = s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");
  return JSON.stringify(wellFormed).replace(/[\u007f\u0085\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

const list = (items: readonly string[]) => `[${items.map(starlarkString).join(", ")}]`;

export function renderRules(title: string, plan: RulesPlan, rolesDir = "roles/"): string {
  const out = [
    `# Generated by harness from ${rolesDir.replace(/[\u0000-\u001f\u007f\u0085\u2028\u2029]/g, " ")} (${title.replace(/[\u0000-\u001f\u007f\u0085\u2028\u2029]/g, " ")}): do not edit; change policies.shell_deny and rebuild.`,
    "# Codex checks these prefix rules before every command of every session and agent in this project.",
    "",
  ];
  for (const r of plan.rules) {
    const why =
      r.decision === "allow"
        ? `${r.sources.join(", ")}: the orchestrator's own exception; allowed rules run outside the sandbox, and rules are project-wide, so every session here may run it.`
        : `${r.sources.join(", ")}: the human owns this; no agent runs it.`;
    out.push(
      "prefix_rule(",
      `    pattern = ${list(r.pattern)},`,
      `    decision = ${starlarkString(r.decision)},`,
      `    justification = ${starlarkString(why)},`,
      `    match = [${list(r.pattern)}],`,
      `    not_match = [${list(r.pattern.length > 1 ? r.pattern.slice(0, -1) : [`${r.pattern[0]}-not`])}],`,
      ")",
      "",
    );
  }
  return out.join("\n");
}
