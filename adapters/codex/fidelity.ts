// How each constraint is realised on Codex CLI 0.171.0, per role. Data for MAPPING.md, build and diff.
//
// Two ways to run a role exist, and the record describes the orchestrated one (the `$<pipeline>`
// skill, subagents via spawn_agent), naming the launcher where it does better:
// - orchestrated: every spawned agent runs in the orchestrator's sandbox (default_permissions
//   ":workspace"); the role file's own default_permissions is not applied (openai/codex #45482,
//   #40130, #33314; verified on 0.171.0 with a scripted model: a spawned role wrote outside its
//   profile). So per-role write scope, never-write and shell rules are `instructed` here; for
//   spawned roles guard.ts raises them to `guard` (the PreToolUse hook keyed on agent_type) and
//   audit.ts adds the stage-end audit. Main-session roles keep `instructed`.
// - launcher (.codex/bin/<role>.sh): the role's profile is the session's own sandbox, so its write
//   scope is enforced (verified: writes outside it fail with "Read-only file system").
// Verified project-wide, for spawned agents too: .codex/rules forbid commands; [agents] max_depth = 1
// removes spawn_agent from spawned agents.
import { LOSS_CODES, type FidelityRecord, type LossCode } from "../../src/adapter/fidelity.js";
import type { PipelineIR, RoleIR } from "../../src/ir/types.js";
import { list } from "../../src/emit/process.js";
import { ALWAYS_OFFERED, CODEX_TOOLS } from "./tools.js";
import { GLOB_SCAN_MAX_DEPTH, type RoleProfile } from "./permissions.js";
import type { RulesPlan } from "./rules.js";
import { launcherPath } from "./launcher.js";
import { instructedProcessRecords } from "../../src/adapter/controller/fidelity.js";

const TOOLS_SHARED: LossCode = "L_TOOLS_SHARED";

/** Paths Codex's own sandbox keeps read-only at the root of a writable workspace. */
const CODEX_PROTECTED = [".git", ".codex", ".agents"];

export interface CodexFidelityInput {
  pipeline: PipelineIR;
  profiles: ReadonlyMap<string, RoleProfile>;
  rules: RulesPlan;
  rulesPath: string;
  modelFor(role: RoleIR): string | undefined;
}

function launcherWrites(p: RoleProfile): string {
  const w = p.writes.map((x) => (x.path === "." ? "**" : p.fileFolders.some((f) => f.file === x.from) ? x.from : `${x.path}/**`));
  return w.length ? `writes only ${list(w)} (it creates missing folders before Codex starts)` : "writes nothing";
}

/** `a`, `b` (reason); `c` (other reason) */
function byReason(items: readonly { glob: string; why: string }[]): string {
  const groups = new Map<string, string[]>();
  for (const i of items) groups.set(i.why, [...(groups.get(i.why) ?? []), i.glob]);
  return [...groups].map(([why, globs]) => `${list(globs)} (${why})`).join("; ");
}

export function codexFidelity(input: CodexFidelityInput): FidelityRecord[] {
  const { pipeline, profiles, rules } = input;
  const out: FidelityRecord[] = [];
  const maxDepth = !pipeline.policies.nestedAgents;
  for (const role of pipeline.roles) {
    const rec = (r: Omit<FidelityRecord, "role">) => out.push({ role: role.id, ...r });
    const profile = profiles.get(role.id)!;
    const launcher = `${launcherPath(role.id)} (profile ${profile.name})`;

    const missing = role.tools.filter((t) => CODEX_TOOLS[t] === null);
    const shared = `Codex gives every agent the same tools (${ALWAYS_OFFERED.join(", ")}, …); the role's list is in its prompt`;
    if (missing.length) rec({ constraint: "tools", level: "instructed", how: `${shared}; no Codex tool for ${list(missing)}`, loss: "L_TOOL_MISSING", field: "tools" });
    else rec({ constraint: "tools", level: "instructed", how: shared, ...(TOOLS_SHARED ? { loss: TOOLS_SHARED } : {}), field: "tools" });

    rec({
      constraint: "write-scope",
      level: "instructed",
      how: `orchestrated: prompt only (spawned agents run in the orchestrator's :workspace sandbox); enforced when run alone via ${launcher}, which ${launcherWrites(profile)}`,
      loss: "L_SCOPE_INSTRUCTED",
      field: "permissions.write",
    });
    if (profile.narrowedWrites.length)
      rec({
        constraint: "write-scope",
        // a launcher that can write none of the role's scope enforces nothing worth the name
        level: profile.writes.length ? "native" : "lost",
        how: `${launcher} leaves out (narrower) ${byReason(profile.narrowedWrites)}${profile.writes.length ? "" : "; it writes nothing"}`,
        loss: "L_GLOB_NARROWED",
        field: "permissions.write",
      });
    if (profile.fileFolders.length)
      rec({
        constraint: "write-scope",
        level: "native",
        how: `${launcher} writes ${list(profile.fileFolders.map((f) => f.file))} through ${list([...new Set(profile.fileFolders.map((f) => `${f.folder}/`))])}, where every other artifact path stays read-only; other new files there are writable too (wider)`,
        loss: "L_FILE_VIA_FOLDER",
        field: "permissions.write",
      });

    const onlyProtected = role.neverWrite.every((g) => CODEX_PROTECTED.some((p) => g === p || g === `${p}/**`));
    const launcherNever = [
      profile.readOnly.length ? `read-only ${list(profile.readOnly.map((r) => r.from))}` : "",
      profile.denyGlobs.length ? `deny ${list(profile.denyGlobs.map((d) => d.glob))} (also unreadable; on Linux only files present at start, to depth ${GLOB_SCAN_MAX_DEPTH})` : "",
      "everything else outside its write paths is read-only",
    ].filter(Boolean);
    rec(
      onlyProtected
        ? { constraint: "never-write", level: "native", how: role.neverWrite.length ? `Codex keeps ${list(CODEX_PROTECTED)} read-only in every sandbox` : "no never_write paths", field: "permissions.never_write" }
        : {
            constraint: "never-write",
            level: "instructed",
            how: `orchestrated: only ${list(CODEX_PROTECTED)} are read-only (Codex's own rule), the rest is in the prompt; ${launcher}: ${launcherNever.join("; ")}`,
            loss: "L_SCOPE_INSTRUCTED",
            field: "permissions.never_write",
          },
    );
    if (profile.unenforcedNever.length)
      rec({
        constraint: "never-write",
        level: "instructed",
        how: `${launcher} does not deny ${byReason(profile.unenforcedNever)}`,
        loss: "L_GLOB_NARROWED",
        field: "permissions.never_write",
      });

    const shellHow = role.shell
      ? "the role's allow/ask/deny lists are in its prompt only (Codex rules are project-wide)"
      : "Codex gives every agent exec_command; \"no shell\" is in the prompt only";
    rec({
      constraint: "shell",
      level: "instructed",
      how: `${shellHow}; ${rules.rules.length ? `policies.shell_deny is forbidden project-wide by ${input.rulesPath}; ` : ""}${launcher}: network ${profile.network ? "on" : "off"}, writes confined as above`,
      loss: "L_SHELL_INSTRUCTED",
      field: role.shell ? "permissions.shell" : "tools",
    });
    rec({ constraint: "git-deny", level: "native", how: rules.rules.length ? `${input.rulesPath} (checked for spawned agents too); .git is read-only in every sandbox` : "policies.shell_deny is empty; .git is read-only in every sandbox" });

    if (role.canSpawn) rec({ constraint: "spawn", level: "native", how: "spawn_agent is offered", field: "tools" });
    else if (role.isolation === "subagent" && maxDepth) rec({ constraint: "spawn", level: "native", how: "[agents] max_depth = 1: spawned agents are not offered spawn_agent", field: "tools" });
    else
      rec({
        constraint: "spawn",
        level: "instructed",
        how: `${role.isolation === "main" ? "runs in the orchestrator's session, which can spawn" : "nested agents are on, so spawned agents can spawn"}; ${launcher} passes agents.enabled=false`,
        loss: "L_SPAWN_INSTRUCTED",
        field: "tools",
      });

    rec({
      constraint: "isolation",
      level: "native",
      how: role.isolation === "subagent" ? `.codex/agents/${role.id}.toml, spawned with fork_turns "none" (own context)` : `main session via the $${role.id} skill; alone via ${launcherPath(role.id)}`,
      field: "isolation",
    });
    if (role.worktree)
      rec({
        constraint: "isolation",
        level: "lost",
        how: "worktree: spawned agents share the orchestrator's checkout (spawn_agent has no worktree option; a `codex exec --worktree` session starts in an untrusted checkout where the project's profiles do not load)",
        loss: "L_WORKTREE_UNSUPPORTED",
        field: "worktree",
      });
    const model = input.modelFor(role);
    rec(
      model
        ? { constraint: "model", level: "native", how: `model = "${model}"${role.isolation === "main" ? " (agent file and launcher; an in-session stage keeps the session's model)" : ""}`, field: "model" }
        : { constraint: "model", level: "lost", how: "no model line: the session's model", loss: "L_MODEL_UNMAPPED", field: "model" },
    );
    if (role.effort) rec({ constraint: "effort", level: "native", how: `model_reasoning_effort = "${role.effort === "max" ? "xhigh" : role.effort}"${role.effort === "max" ? " (max is not a Codex effort: its highest)" : ""}`, field: "effort" });
    rec({ constraint: "temperature", level: "lost", how: `no temperature setting (${role.temperature?.class ?? "none named"})`, loss: "L_TEMPERATURE", field: "temperature" });
    if (role.maxTurns !== undefined) rec({ constraint: "max-turns", level: "lost", how: `no per-agent turn cap (max_turns ${role.maxTurns})`, loss: "L_TURNS_UNSUPPORTED", field: "max_turns" });
    if (role.reads.length) rec({ constraint: "handoffs", level: "instructed", how: "artifact paths in the brief and prompt", loss: "L_HANDOFF_INSTRUCTED", field: "reads" });
  }
  const skill = `$${pipeline.name}`;
  if (pipeline.stages.some((s) => s.gate)) out.push({ role: null, constraint: "gates", level: "instructed", how: `${skill} stops and asks`, loss: "L_GATE_INSTRUCTED" });
  if (pipeline.checks.length) out.push({ role: null, constraint: "checks", level: "instructed", how: `${skill} runs them`, loss: "L_CHECKS_INSTRUCTED" });
  if (pipeline.loop) out.push({ role: null, constraint: "loop-cap", level: "instructed", how: `${skill} caps at ${pipeline.loop.maxRounds} rounds`, loss: "L_CHECKS_INSTRUCTED" });
  out.push(...instructedProcessRecords(pipeline, `${skill}`));
  const forbidden = rules.rules.filter((r) => r.decision === "forbidden").length;
  const allowed = rules.rules.filter((r) => r.decision === "allow");
  out.push({
    role: null,
    constraint: "git-deny",
    level: "native",
    how: !rules.rules.length ? "policies.shell_deny is empty: no rules file" : `${input.rulesPath}: ${forbidden} forbidden prefix rules`,
  });
  if (allowed.length || rules.yielded.length)
    out.push({
      role: null,
      constraint: "git-deny",
      level: "native",
      how: `${input.rulesPath} allows ${list(allowed.map((r) => r.pattern.join(" ")))} (policies.orchestrator_shell; an allowed command runs outside the sandbox) for every session of the project, spawned roles too: Codex rules are project-wide${rules.yielded.length ? `; ${list(rules.yielded)} get no rule (they cover the exception), so other such commands run in the sandbox, where .git is read-only` : ""}`,
      loss: "L_GLOB_NARROWED",
    });
  // the orchestrator's own session (and every agent it spawns) writes under :workspace
  out.push({
    role: null,
    constraint: "write-scope",
    level: "instructed",
    how: `the orchestrator's ${skill} session runs in ${":workspace"}: it may write anywhere in the project but ${list(CODEX_PROTECTED)}; that it writes no role's artifacts is in its instructions`,
    loss: "L_SCOPE_INSTRUCTED",
  });
  if (rules.narrowed.length)
    out.push({ role: null, constraint: "git-deny", level: "native", how: `prefix rules match exact leading words: ${list(rules.narrowed)} only in part`, loss: "L_GLOB_NARROWED" });
  return out;
}
