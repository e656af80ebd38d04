// The policy file: every role's limits as Gemini CLI 0.61 policy rules (`[[rule]]`, decision,
// priority; `subagent` scopes a rule to the calls one subagent makes).
//
// The engine takes the highest-priority rule that matches, so each band below is a step of a ladder.
// Subagent roles sit above the main session: a subagent's own catch-alls end its ladder, so the
// pipeline-wide rules further down only ever apply to the main session (the orchestrator and the
// roles that run in it), which the host cannot tell apart.
//
//   subagent <role>: 950 write denies (.., absolute paths, never-write) · 940 shell denies ·
//                    930 shell asks · 920 write and shell allows · 910 catch-alls (writes deny,
//                    shell = the role's default)
//   main session:    850 orchestrator_shell allow · 840 shell_deny · 830 write denies ·
//                    820 write and shell allows (union of the main-session roles, the pipeline's
//                    commands) · 810 writes outside them ask the human (refused headless)
//   spawning:        800 invoke_agent allowed for each subagent role · 790 any other agent denied
//
// Within a band, a role's patterns of one decision are joined into one rule (`unions`, patterns.ts):
// one alternation decides as its parts would (Pebble: 815 rules became 61; 1,000 generated roles: 34 → 6.5 MB).
//
// Two engine facts shape the main-session rules (0.61.0, packages/core/src/policy/policy-engine.ts):
// getExcludedTools drops a tool for *every* agent when its first pipeline-wide rule without an
// argsPattern is a deny, so the main-session catch-all for writes is ask_user, not deny (a deny
// would take write_file away from the subagents too); and a rule's argsPattern is tested against
// the raw arguments, hence the relative-path rules (patterns.ts).
import type { PipelineIR, RoleIR } from "../../src/ir/types.js";
import { broadenedCommandRegex, commandRegex, filePathPattern, globToPathRegex, isSafeCommand, isSafePath, unions } from "./patterns.js";
import { GEMINI_TOOLS } from "./tools.js";

export const WRITE_TOOLS = [GEMINI_TOOLS.write!, GEMINI_TOOLS.edit!];
export const SHELL_TOOL = GEMINI_TOOLS.bash!;

export type Decision = "allow" | "deny" | "ask_user";

export interface PolicyRule {
  toolName: string | string[];
  subagent?: string;
  argsPattern?: string;
  decision: Decision;
  priority: number;
  denyMessage?: string;
}

export interface Narrowing {
  role: string | null;
  constraint: "write-scope" | "never-write" | "shell";
  text: string;
}

export interface PolicyPlan {
  rules: PolicyRule[];
  narrowed: Narrowing[];
}

const TRAVERSAL = '\\x00"file_path":"(?:[^"]*/|)\\.\\.(?:/|")';
const ABSOLUTE = '\\x00"file_path":"(?:/|~|[A-Za-z]:)';

const B = { wDeny: 950, sDeny: 940, sAsk: 930, allow: 920, catchAll: 910, orchShell: 850, mDeny: 840, mwDeny: 830, mAllow: 820, mAsk: 810, spawnAllow: 800, spawnDeny: 790 } as const;

/** The main-session roles: they share the session (and so its rules) with the orchestrator. */
export const mainRoles = (p: PipelineIR) => p.roles.filter((r) => r.isolation === "main");
export const subagentRoles = (p: PipelineIR) => p.roles.filter((r) => r.isolation === "subagent");

function pathRules(who: string | undefined, label: string, write: readonly string[], never: readonly string[], bands: { deny: number; allow: number }, narrowed: Narrowing[]): PolicyRule[] {
  const scope = who ? { subagent: who } : {};
  const role = who ?? null;
  const rules: PolicyRule[] = [
    { toolName: WRITE_TOOLS, ...scope, argsPattern: TRAVERSAL, decision: "deny", priority: bands.deny, denyMessage: `${label}: ".." is not allowed in a file path; give the path relative to the project root.` },
    { toolName: WRITE_TOOLS, ...scope, argsPattern: ABSOLUTE, decision: "deny", priority: bands.deny, denyMessage: `${label}: give file paths relative to the project root (absolute paths are refused).` },
  ];
  const exact: { glob: string; re: string }[] = [];
  for (const g of never) {
    const re = globToPathRegex(g);
    if (re && isSafePath(re)) exact.push({ glob: g, re });
    else {
      // cannot be written as a safe pattern: refuse every write under its literal head instead (broader)
      const head = g.split(/[*?{[(!+@]/)[0]!.replace(/\/[^/]*$/, "");
      const hre = head ? globToPathRegex(`${head}/**`) : null;
      rules.push({ toolName: WRITE_TOOLS, ...scope, ...(hre ? { argsPattern: filePathPattern(hre) } : {}), decision: "deny", priority: bands.deny, denyMessage: `${label} may not write ${g} (never-write).` });
      narrowed.push({ role, constraint: "never-write", text: `${g} is denied as ${hre ? `${head}/**` : "every write"} (broader: its syntax has no exact policy pattern)` });
    }
  }
  for (const u of unions("file_path", exact, (x) => x.re))
    rules.push({ toolName: WRITE_TOOLS, ...scope, argsPattern: u.pattern, decision: "deny", priority: bands.deny, denyMessage: `${label} may not write ${u.items.map((x) => x.glob).join(", ")} (never-write).` });
  const allowed: string[] = [];
  for (const g of write) {
    const re = globToPathRegex(g);
    if (re && isSafePath(re)) allowed.push(re);
    else narrowed.push({ role, constraint: "write-scope", text: `${g} is left out (narrower: its syntax has no exact policy pattern)` });
  }
  for (const u of unions("file_path", allowed, (re) => re)) rules.push({ toolName: WRITE_TOOLS, ...scope, argsPattern: u.pattern, decision: "allow", priority: bands.allow });
  return rules;
}

function shellRules(who: string | undefined, label: string, list: readonly string[], decision: Decision, priority: number, narrowed: Narrowing[]): PolicyRule[] {
  const scope = who ? { subagent: who } : {};
  const mode = decision === "allow" ? "allow" : "deny";
  const kept: { p: string; re: string }[] = [];
  for (const p of list) {
    const re = commandRegex(p, mode);
    if (isSafeCommand(p, mode)) kept.push({ p, re });
    else if (decision === "allow") narrowed.push({ role: who ?? null, constraint: "shell", text: `allow ${p} is left out (narrower: no safe policy pattern)` });
    else {
      kept.push({ p, re: broadenedCommandRegex(p) });
      narrowed.push({ role: who ?? null, constraint: "shell", text: `${decision === "deny" ? "deny" : "ask"} ${p} covers every command starting with its literal head (broader)` });
    }
  }
  return unions("command", kept, (x) => x.re).map((u): PolicyRule => {
    const ps = u.items.map((x) => x.p);
    const why = ps.length === 1 ? `it matches ${ps[0]}` : `it matches one of ${ps.join(", ")}`;
    return { toolName: SHELL_TOOL, ...scope, argsPattern: u.pattern, decision, priority, ...(decision === "deny" ? { denyMessage: `${label} may not run this command (${why}).` } : {}) };
  });
}

function subagentLadder(role: RoleIR, narrowed: Narrowing[]): PolicyRule[] {
  const who = role.id;
  const rules = pathRules(who, who, role.write, role.neverWrite, { deny: B.wDeny, allow: B.allow }, narrowed);
  rules.push({ toolName: WRITE_TOOLS, subagent: who, decision: "deny", priority: B.catchAll, denyMessage: role.write.length ? `${who} may write only ${role.write.join(", ")}.` : `${who} writes no files.` });
  if (role.shell) {
    rules.push(...shellRules(who, who, role.shell.deny, "deny", B.sDeny, narrowed));
    rules.push(...shellRules(who, who, role.shell.ask, "ask_user", B.sAsk, narrowed));
    rules.push(...shellRules(who, who, role.shell.allow, "allow", B.allow, narrowed));
    const d: Decision = role.shell.default === "ask" ? "ask_user" : role.shell.default;
    rules.push({ toolName: SHELL_TOOL, subagent: who, decision: d, priority: B.catchAll, ...(d === "deny" ? { denyMessage: `${who} may not run this command (not in its shell allow list).` } : {}) });
  } else rules.push({ toolName: SHELL_TOOL, subagent: who, decision: "deny", priority: B.catchAll, denyMessage: `${who} runs no shell commands.` });
  return rules;
}

function mainSession(pipeline: PipelineIR, narrowed: Narrowing[]): PolicyRule[] {
  const p = pipeline.policies;
  const mains = mainRoles(pipeline);
  const label = "the main session";
  const rules: PolicyRule[] = [];
  rules.push(...shellRules(undefined, label, p.orchestratorShell, "allow", B.orchShell, narrowed));
  rules.push(...shellRules(undefined, label, p.shellDeny, "deny", B.mDeny, narrowed));
  const writes = [...new Set(mains.flatMap((r) => r.write))];
  rules.push(...pathRules(undefined, label, writes, p.neverWrite, { deny: B.mwDeny, allow: B.mAllow }, narrowed));
  const allowCmds = [...new Set([...pipeline.commands.map((c) => c.run), ...mains.flatMap((r) => r.shell?.allow ?? [])])];
  rules.push(...shellRules(undefined, label, allowCmds, "allow", B.mAllow, narrowed));
  rules.push({ toolName: WRITE_TOOLS, decision: "ask_user", priority: B.mAsk });
  return rules;
}

function spawning(pipeline: PipelineIR): PolicyRule[] {
  const agentTool = GEMINI_TOOLS["spawn-agent"]!;
  return [
    ...subagentRoles(pipeline).map((r): PolicyRule => ({ toolName: agentTool, argsPattern: `\\x00"agent_name":"${r.id}"\\x00`, decision: "allow", priority: B.spawnAllow })),
    { toolName: agentTool, decision: "deny", priority: B.spawnDeny, denyMessage: `Only the ${pipeline.title} roles may be started: ${subagentRoles(pipeline).map((r) => r.id).join(", ") || "none"}.` },
  ];
}

export function planPolicy(pipeline: PipelineIR): PolicyPlan {
  const narrowed: Narrowing[] = [];
  const rules = [...subagentRoles(pipeline).flatMap((r) => subagentLadder(r, narrowed)), ...mainSession(pipeline, narrowed), ...spawning(pipeline)];
  return { rules, narrowed };
}

/** The TOML document: `[[rule]]` tables, keys in the engine's vocabulary only. */
export function policyDocument(plan: PolicyPlan): Record<string, unknown> {
  return { rule: plan.rules.map((r) => ({ ...r })) };
}
