// The host-neutral guard policy: what a generated pre-call hook needs to decide one tool call, compiled
// from the Pipeline IR. Hosts with a pre-call hook (Claude Code today; Copilot and Cursor next) embed it
// with their own shim (adapters/<host>/): hook input -> a call, a decision -> the host's output.
//
// Size matters (the hook runs before every tool call): pipeline-wide data is stored once, globs and
// command patterns live in two shared tables, and a role carries only indices into them and what is
// its own (write scope, extra never-write, shell rules, default, spawn flag).
import { globRegExp } from "../../glob.js";
import type { PipelineIR, RoleIR } from "../../ir/types.js";
import { roleById } from "../../ir/lookup.js";
import { byCodeUnit } from "../../compare.js";

/** Setting this variable to 1/true/yes/on in the environment the host starts with turns the guard off. */
export const GUARD_OFF_ENV = "HARNESS_GUARD_OFF";

export interface GuardGlob {
  /** the glob as written (for messages) */
  g: string;
  re: string;
  /** why it is never-write, for messages ("artifact tests"); absent for scope globs */
  l?: string;
}

export interface GuardRole {
  /** isolation main: runs in the main session (its own command), part of the orchestrator's scope */
  main?: 1;
  /** may start agents */
  spawn?: 1;
  /** write scope: glob indices */
  w: number[];
  /** never-write beyond the pipeline's: glob indices */
  n: number[];
  /** host tools the guard does not model that the role's tools name exactly (MCP, agent-team tools) */
  x?: string[];
  /** the same for a whole MCP server: a tool-name prefix followed by one name part */
  xp?: string[];
  /** a lead: the only agents it may start (even as a subagent with nested agents off) */
  st?: string[];
  /** tools: [all]: tools it neither models nor is named are left to the host's permission flow */
  all?: 1;
  /** shell rules (pattern indices), or absent when the role has no shell tool */
  sh?: { a: number[]; k: number[]; d: number[]; def: "allow" | "ask" | "deny" };
}

export interface GuardPolicy {
  v: 2;
  pipeline: string;
  scope: "pipeline" | "repository";
  off: string;
  nested: boolean;
  globs: GuardGlob[];
  /** command patterns (words; `*` = any words, see runtime-match) */
  pats: string[];
  /** pipeline never-write, each also at any depth: glob indices */
  never: number[];
  /** paths that keep the guard in place (hook script, settings): glob indices */
  protect: number[];
  /** pipeline shell_deny: pattern indices */
  deny: number[];
  /** the orchestrator: its exceptions to deny, and what it runs without asking */
  orch: { x: number[]; a: number[]; r?: string[] };
  /** role id -> index into kinds: roles with the same limits share one entry */
  roles: Record<string, number>;
  kinds: GuardRole[];
}

/** picomatch's RegExp source for one glob (POSIX separators, dotfiles matchable). */
export function globSource(glob: string): string {
  const re = globRegExp(glob);
  if (re.flags) throw new Error(`glob ${glob} compiled with flags ${re.flags}`);
  return re.source;
}

/**
 * A pipeline never-write glob also holds below the root: Claude Code reads CLAUDE.md and git reads
 * .git/ in any folder, so `CLAUDE.md` guards `**\/CLAUDE.md` too.
 */
export function anyDepth(glob: string): string[] {
  return glob.startsWith("**/") ? [glob] : [glob, `**/${glob}`];
}

/**
 * Every host's settings and hook files in a project (issue 22): whatever a pipeline's never_write says,
 * no guard lets a call write one, so no host's enforcement can be switched off from a session of
 * another. Files in the user's home are outside the project, which the guard never lets a call write.
 */
export const HOST_SETTINGS_FILES: readonly string[] = [
  ".claude/settings.json", ".claude/settings.local.json", ".mcp.json",
  ".codex/config.toml", ".codex/hooks.json",
  ".github/copilot/settings.json", ".github/copilot/settings.local.json", ".github/hooks/**", ".vscode/settings.json", ".vscode/mcp.json",
  ".gemini/settings.json", ".gemini/policies/**",
  ".qwen/settings.json",
  ".cursor/cli.json", ".cursor/hooks.json", ".cursor/mcp.json",
  "opencode.json", "opencode.jsonc", ".opencode/opencode.json", ".opencode/opencode.jsonc",
  "kilo.json", "kilo.jsonc", ".kilo/kilo.json", ".kilo/kilo.jsonc",
  // Pi loads project extensions (code run in every session) and settings that list more of them
  ".pi/settings.json", ".pi/extensions/**",
  // Factory Droid: the project-wide hook settings, the guard and the role launchers that bind roles
  ".factory/settings.json", ".factory/settings.local.json", ".factory/hooks/**", ".factory/bin/**",
];

const sorted = (xs: Iterable<string>): string[] => [...xs].sort(byCodeUnit);

export interface GuardPolicyOptions {
  /** globs that keep the guard itself in place (its script, the host settings that wire it) */
  protect: readonly string[];
  /** the host's names for the role's MCP and extra tools the guard does not model: exact names and prefixes */
  hostTools?: (role: RoleIR) => { names: readonly string[]; prefixes: readonly string[] };
}

export function compileGuardPolicy(pipeline: PipelineIR, opts: GuardPolicyOptions): GuardPolicy {
  const globs: GuardGlob[] = [];
  const globIndex = new Map<string, number>();
  const glob = (g: string, label?: string): number => {
    const key = `${g}\u0000${label ?? ""}`;
    let i = globIndex.get(key);
    if (i === undefined) {
      i = globs.length;
      globs.push(label === undefined ? { g, re: globSource(g) } : { g, re: globSource(g), l: label });
      globIndex.set(key, i);
    }
    return i;
  };
  const pats: string[] = [];
  const patIndex = new Map<string, number>();
  const rawIndex = new Map<string, number>(); // every role lists the pipeline's patterns again: normalised once
  const pat = (p: string): number => {
    let i = rawIndex.get(p);
    if (i !== undefined) return i;
    const norm = p.trim().replace(/\s+/g, " ");
    i = patIndex.get(norm);
    if (i === undefined) {
      i = pats.length;
      pats.push(norm);
      patIndex.set(norm, i);
    }
    rawIndex.set(p, i);
    return i;
  };
  const labels = new Map<string, string>(); // every role's never_write names the same globs again
  const label = (g: string): string => {
    let l = labels.get(g);
    if (l === undefined) labels.set(g, (l = labelOf(g)));
    return l;
  };
  const labelOf = (g: string): string => {
    const artifacts = pipeline.artifacts.filter((a) => a.paths.includes(g)).map((a) => a.name);
    if (artifacts.length) return `artifact ${sorted(artifacts).join(", ")}`;
    if (pipeline.policies.neverWrite.includes(g)) return `${g} (pipeline policy)`;
    return g;
  };
  const p = pipeline.policies;
  const protect = [...new Set([...opts.protect, ...HOST_SETTINGS_FILES.flatMap(anyDepth)])].map((g) => glob(g, `${g} (keeps the harness guard in place)`));
  const never = p.neverWrite.flatMap((g) => anyDepth(g).map((x) => glob(x, label(g))));
  const pipelineNever = new Set(p.neverWrite);
  const pipelineDeny = new Set(p.shellDeny);
  const deny = p.shellDeny.map(pat);
  const roles: Record<string, number> = {};
  const kinds: GuardRole[] = [];
  const kindIndex = new Map<string, number>();
  const orchAllow = new Set<string>([...p.orchestratorShell, ...pipeline.commands.map((c) => c.run)]);
  for (const role of sorted(pipeline.roles.map((r) => r.id)).map((id) => roleById(pipeline, id) as RoleIR)) {
    const r: GuardRole = {
      w: role.write.map((g) => glob(g)),
      n: role.neverWrite.filter((g) => !pipelineNever.has(g)).map((g) => glob(g, label(g))),
    };
    if (role.isolation === "main") r.main = 1;
    if (role.canSpawn) r.spawn = 1;
    const named = opts.hostTools?.(role);
    if (named?.names.length) r.x = sorted(new Set(named.names));
    if (named?.prefixes.length) r.xp = sorted(new Set(named.prefixes));
    if (role.allTools) r.all = 1;
    if (role.starts?.length) r.st = sorted(role.starts);
    if (role.shell) {
      r.sh = {
        a: role.shell.allow.map(pat),
        k: role.shell.ask.map(pat),
        // a role that adds no deny pattern holds the pipeline's own frozen list (src/ir/normalize.ts)
        d: role.shell.deny === p.shellDeny ? [] : role.shell.deny.filter((c) => !pipelineDeny.has(c)).map(pat),
        def: role.shell.default,
      };
      // what a role runs without asking, the orchestrator (which runs the checks) may too
      for (const a of role.shell.allow) orchAllow.add(a);
    }
    const key = JSON.stringify(r);
    let k = kindIndex.get(key);
    if (k === undefined) {
      k = kinds.length;
      kinds.push(r);
      kindIndex.set(key, k);
    }
    roles[role.id] = k;
  }
  return {
    v: 2,
    pipeline: pipeline.name,
    scope: p.scope,
    off: GUARD_OFF_ENV,
    nested: p.nestedAgents,
    globs,
    pats,
    never,
    protect,
    deny,
    orch: {
      x: p.orchestratorShell.map(pat),
      a: sorted(orchAllow).map(pat),
      // the pipeline's own deterministic steps, byte for byte: the author wrote them, so the exact text
      // is allowed even where it uses shell syntax the guard does not parse (a glob such as `*.md`)
      ...(pipeline.commands.length ? { r: sorted(new Set(pipeline.commands.map((c) => c.run))) } : {}),
    },
    roles,
    kinds,
  };
}
