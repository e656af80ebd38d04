// Role limits → OpenCode 1.18.33 V1 `permission` objects (hosts note §3.4); shared with Kilo 7.7.7,
// which runs the same permission engine (verified with `kilo agent list`).
//
// OpenCode flattens a permission object in key order and the LAST matching rule wins, so the
// order of keys is the semantics: a catch-all first, then allows, then denies (never-write last,
// so it wins). Objects are built with delete-then-set so a repeated key moves to its new place,
// and a pattern that JavaScript would hoist to the front (an array-index key such as "2024") is
// rewritten or dropped rather than silently reordered.
import { translateGlob } from "./globs.js";
import { globMatcher } from "../../glob.js";
import { BoundedMap } from "../../memo.js";
import type { PipelineIR, RoleIR, ShellPolicyIR } from "../../ir/types.js";
import { orchestratorShellPolicy } from "../orchestrator-shell.js";
import { evaluator, flattenPermission, intersects, witness, type Action } from "./wildcard.js";
import { V1_TOOLS as OPENCODE_TOOLS } from "./tools.js";

export interface Narrowing {
  constraint: "write-scope" | "never-write" | "shell";
  text: string;
}

export interface LoweredPermission {
  permission: Record<string, unknown>;
  narrowed: Narrowing[];
}

/** A relative path OpenCode builds for a file outside the worktree starts with "../". */
export const OUTSIDE = "../*";

const isIndexKey = (k: string) => /^(0|[1-9]\d*)$/.test(k) && Number(k) < 2 ** 32 - 1;

/** An ordered rule map: last write of a key moves it to the end. */
class Rules {
  // A Map until read: deleting keys from an object turns it into a slow dictionary, and a role's
  // rule map is rewritten key by key.
  private readonly rules = new Map<string, Action>();
  private built: Record<string, Action> | undefined;
  readonly narrowed: string[] = [];
  set(pattern: string, action: Action): void {
    if (isIndexKey(pattern)) {
      // JavaScript would move this key before "*"; a deny becomes a wider pattern, an allow is dropped.
      if (action === "deny") pattern = `${pattern}*`;
      else return void this.narrowed.push(`"${pattern}" is a number-like key OpenCode would read out of order; left out`);
    }
    this.rules.delete(pattern);
    this.rules.set(pattern, action);
    this.built = undefined;
  }
  /** The patterns that currently allow, in order. */
  allowed(): string[] {
    const out: string[] = [];
    for (const [pattern, action] of this.rules) if (action === "allow") out.push(pattern);
    return out;
  }
  /** The rules in order. A "__proto__" pattern stays a rule (an own property), not the object's prototype. */
  get map(): Record<string, Action> {
    if (!this.built) {
      // a loop, not Object.fromEntries: several times faster for the ~40 rules of each role
      const out: Record<string, Action> = {};
      for (const [pattern, action] of this.rules)
        if (pattern === "__proto__") Object.defineProperty(out, pattern, { value: action, enumerable: true, writable: true, configurable: true });
        else out[pattern] = action;
      this.built = out;
    }
    return this.built;
  }
}

const quote = (xs: Iterable<string>) => [...new Set(xs)].map((x) => `"${x}"`).join(", ");
const matchers = (globs: readonly string[]) => globs.map((g) => globMatcher(g));

type EditRules = { rules: Action | Record<string, Action>; narrowed: Narrowing[] };
const editRulesMemo = new BoundedMap<string, EditRules>();

/**
 * `permission.edit` for a write scope: "*" deny, allows with their cuts, never-write denies. The
 * glob algebra is the costliest step of OpenCode and Kilo and they lower the same scopes, so a
 * result is computed once per scope; it is frozen because both hosts share it.
 */
export function editRules(write: readonly string[], neverWrite: readonly string[]): EditRules {
  const key = JSON.stringify([write, neverWrite]);
  let result = editRulesMemo.get(key);
  if (!result) {
    result = deepFreeze(computeEditRules(write, neverWrite));
    editRulesMemo.set(key, result);
  }
  return result;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

function computeEditRules(write: readonly string[], neverWrite: readonly string[]): EditRules {
  if (write.length === 0) return { rules: "deny", narrowed: [] };
  // Globs that need cuts go first and exact ones after, so an exact allow re-allows what an
  // earlier cut refused by accident. Safe in any order: an allow is only ever followed by its cuts.
  const allows = write.map((g) => translateGlob(g, "allow")).sort((a, b) => +!a.compensate.length - +!b.compensate.length);
  const denies = neverWrite.map((g) => translateGlob(g, "deny"));
  const r = new Rules();
  r.set("*", "deny");
  const scope: string[] = [], never: string[] = [];
  const victims = new Map<string, string[]>(); // glob → allow patterns of other globs its cuts refuse
  for (const t of allows) {
    const before = r.allowed();
    for (const p of t.patterns) r.set(p, "allow");
    for (const c of t.compensate) r.set(c, "deny");
    victims.set(t.glob, before.filter((a) => t.compensate.some((c) => intersects(c, a))));
  }
  if (r.allowed().some((a) => intersects(a, OUTSIDE))) r.set(OUTSIDE, "deny");
  for (const t of denies) for (const p of t.patterns) r.set(p, "deny");
  // Examples: a path the author's globs allow that the emitted rules refuse.
  const rules = flattenPermission({ edit: r.map });
  const [inWrite, inNever] = [matchers(write), matchers(neverWrite)];
  const edits = evaluator(rules, "edit");
  const refused = (p: string) => inWrite.some((m) => m(p)) && !inNever.some((m) => m(p)) && edits(p) !== "allow";
  const strict = Object.assign({}, ...allows.map((t) => t.strict)) as Record<string, string>;
  const example = (xs: readonly string[], ys: readonly string[]) => {
    for (const x of xs)
      for (const y of ys) {
        const w = witness(x, strict[y] ?? y);
        if (w && refused(w)) return ` (e.g. "${w}")`;
      }
    return "";
  };
  const owner = (a: string) => allows.find((t) => t.patterns.includes(a))!.glob;
  for (const t of allows) {
    const hit = victims.get(t.glob)!;
    if (!t.narrowed && !hit.length) continue;
    const parts = [...(t.narrowed ? [t.narrowed] : []), ...(hit.length ? [`they also refuse some paths of ${quote(hit.map(owner))}`] : [])];
    const form = t.patterns.length ? ` → ${quote(t.patterns)}${t.compensate.length ? ` minus ${quote(t.compensate)}` : ""}` : "";
    scope.push(`"${t.glob}"${form}: ${parts.join("; ")}${example(t.compensate, [...t.patterns, ...hit])}`);
  }
  const allowed = r.allowed();
  for (const t of denies) {
    const hits = allowed.filter((a) => t.extras.some((x) => intersects(x, a)));
    if (hits.length) never.push(`"${t.glob}" → ${quote(t.patterns)} also refuses some paths of ${quote(hits.map(owner))}${example(t.extras, hits)}`);
  }
  return {
    rules: r.map,
    narrowed: [
      ...(scope.length ? [{ constraint: "write-scope" as const, text: scope.join("; ") }] : []),
      ...(never.length ? [{ constraint: "never-write" as const, text: `OpenCode's "*" also matches "/": ${never.join("; ")}` }] : []),
      ...r.narrowed.map((text) => ({ constraint: "write-scope" as const, text })),
    ],
  };
}

/**
 * A harness command pattern in OpenCode: the same dialect (`*` any run, trailing " *" optional),
 * except that OpenCode also reads `?` as one character and a leading "~" or "$HOME" as the home
 * folder, so such a pattern matches more commands. Harness precedence is deny > ask > allow >
 * default. A wider deny is safe; a wider allow is left out (its commands fall back to rules that
 * are at most as permissive); a wider ask is safe unless the default is deny, then it is refused.
 */
function commandPattern(p: string, action: Action, fallback: Action): { pattern: string | null; action: Action; why?: string } {
  const home = p === "~" || p.startsWith("~/") || p.startsWith("$HOME");
  if (!p.includes("?") && !home) return { pattern: p, action };
  const wider = home ? `?${p.slice(1)}` : p;
  if (action === "deny") return { pattern: wider, action, why: `deny "${p}" is written as "${wider}", which also refuses similar commands` };
  if (action === "allow") return { pattern: null, action, why: `allow "${p}" cannot be written exactly in OpenCode ("?" and a leading "~" are wildcards there); left out` };
  if (fallback !== "deny") return { pattern: wider, action, why: `ask "${p}" is written as "${wider}", which also asks for similar commands` };
  return { pattern: wider, action: "deny", why: `ask "${p}" cannot be written exactly in OpenCode; refused instead` };
}

/** `permission.bash`: "*" = default first, then allow, ask, deny (so deny wins, as in harness). */
export function bashRules(shell: ShellPolicyIR | null, exceptions: readonly string[] = []): { rules: Action | Record<string, Action>; narrowed: Narrowing[] } {
  if (!shell) return { rules: "deny", narrowed: [] };
  const r = new Rules();
  const narrowed: Narrowing[] = [];
  r.set("*", shell.default);
  const put = (list: readonly string[], action: Action) => {
    for (const p of list) {
      const c = commandPattern(p, action, shell.default);
      if (c.why) narrowed.push({ constraint: "shell", text: c.why });
      if (c.pattern !== null) r.set(c.pattern, c.action);
    }
  };
  put(shell.allow, "allow");
  put(shell.ask, "ask");
  put(shell.deny, "deny");
  put(exceptions, "allow"); // the orchestrator's own exceptions to shell_deny come last
  narrowed.push(...r.narrowed.map((text) => ({ constraint: "shell" as const, text })));
  return { rules: r.map, narrowed };
}

const subagents = (pipeline: PipelineIR) => pipeline.roles.filter((r) => r.isolation === "subagent").map((r) => r.id);

/**
 * One role's agent `permission`. `"*": "deny"` first makes it an allow-list of tools: a tool whose
 * last rule is `"*": deny` is removed from the agent (skills, MCP tools and any future tool too).
 * `invalid` is OpenCode's internal tool for malformed calls; it must stay.
 */
export function lowerPermissions(pipeline: PipelineIR, role: RoleIR): LoweredPermission {
  // OpenCode and Kilo both ask for every role; frozen because they share it
  let result = roleMemo.get(role);
  if (!result) roleMemo.set(role, (result = deepFreeze(computeRolePermission(role))));
  return result;
}
const roleMemo = new WeakMap<RoleIR, LoweredPermission>();

function computeRolePermission(role: RoleIR): LoweredPermission {
  const has = (t: RoleIR["tools"][number]) => role.tools.includes(t);
  const writes = has("edit") || has("write");
  const edit = writes ? editRules(role.write, role.neverWrite) : { rules: "deny" as const, narrowed: [] };
  const bash = bashRules(role.shell);
  const grant = (t: RoleIR["tools"][number]): Action => (has(t) ? "allow" : "deny");
  const permission: Record<string, unknown> = {
    "*": "deny",
    invalid: "allow",
    doom_loop: "ask", // OpenCode's defaults for these two, which "*" would otherwise turn into deny
    external_directory: "ask",
    // OpenCode's own default asks before reading env files; "*" would erase it, so it is restated.
    [OPENCODE_TOOLS.read]: has("read") ? { "*": "allow", "*.env": "ask", "*.env.*": "ask", "*.env.example": "allow" } : "deny",
    [OPENCODE_TOOLS.glob]: grant("glob"),
    [OPENCODE_TOOLS.grep]: grant("grep"),
    edit: edit.rules,
    bash: bash.rules,
    [OPENCODE_TOOLS["web-fetch"]]: grant("web-fetch"),
    [OPENCODE_TOOLS["web-search"]]: grant("web-search"),
    [OPENCODE_TOOLS.todo]: grant("todo"),
    [OPENCODE_TOOLS["ask-human"]]: grant("ask-human"),
    // a lead: task is matched against the subagent's name (hosts note §3.4), last match wins
    task: role.starts?.length ? { "*": "deny", ...Object.fromEntries(role.starts.map((s) => [s, "allow"])) } : role.canSpawn ? "allow" : "deny",
  };
  return { permission, narrowed: [...edit.narrowed, ...bash.narrowed] };
}

/**
 * The orchestrator's `permission`. In 1.18.33 a child session copies the *session's* deny rules
 * (not the calling agent's), but the hosts note says subagents inherit their parent's denies; so
 * the orchestrator denies nothing a subagent needs: no "*" deny, edits `ask` (it writes nothing
 * itself), and only pipeline-wide denies that every role carries anyway.
 */
export function orchestratorPermission(pipeline: PipelineIR): LoweredPermission {
  // OpenCode and Kilo both ask for it; frozen because they share it
  let result = orchestratorMemo.get(pipeline);
  if (!result) {
    result = deepFreeze(computeOrchestratorPermission(pipeline));
    orchestratorMemo.set(pipeline, result);
  }
  return result;
}
const orchestratorMemo = new WeakMap<PipelineIR, LoweredPermission>();

function computeOrchestratorPermission(pipeline: PipelineIR): LoweredPermission {
  const p = pipeline.policies;
  const r = new Rules();
  r.set("*", p.nestedAgents ? "ask" : "deny");
  for (const id of subagents(pipeline)) r.set(id, "allow");
  const edit = new Rules();
  edit.set("*", "ask");
  for (const g of p.neverWrite) for (const x of translateGlob(g, "deny").patterns) edit.set(x, "deny");
  const bash = bashRules(orchestratorShellPolicy(pipeline), p.orchestratorShell);
  return {
    permission: { edit: edit.map, bash: bash.rules, task: r.map, todowrite: "allow", question: "allow" },
    narrowed: bash.narrowed,
  };
}

/**
 * opencode.json `permission`: pipeline-wide denies for every agent, built-in ones and ordinary
 * sessions included, only under `policies.scope: repository`. Under `pipeline` (the default) it is
 * empty: the roles and the orchestrator carry the same denies in their own agent maps, and everyone
 * else keeps OpenCode's defaults.
 */
export function globalPermission(pipeline: PipelineIR): Record<string, unknown> {
  const p = pipeline.policies;
  const out: Record<string, unknown> = {};
  if (p.scope !== "repository") return out;
  // All rules here are denies, so the key order (renderJson sorts keys) does not matter.
  if (p.neverWrite.length) out.edit = Object.fromEntries(p.neverWrite.flatMap((g) => translateGlob(g, "deny").patterns).map((x) => [x, "deny"]));
  if (p.shellDeny.length) out.bash = Object.fromEntries(p.shellDeny.map((c) => [commandPattern(c, "deny", "deny").pattern!, "deny"]));
  return out;
}
