// How each constraint is realised by a host with OpenCode's V1 permission engine (OpenCode 1.18.33,
// Kilo 7.7.7), per role. Data for MAPPING.md, build and diff.
import type { FidelityRecord, LossCode } from "../fidelity.js";
import type { PipelineIR, RoleIR } from "../../ir/types.js";
import type { LoweredPermission, Narrowing } from "./permissions.js";
import { V1_TOOLS as OPENCODE_TOOLS } from "./tools.js";
import { instructedProcessRecords } from "../controller/fidelity.js";


/** What differs between the hosts that share the engine. */
export interface V1Host {
  name: string; // "OpenCode"
  config: string; // the project config file: "opencode.json"
  /** how `steps:` behaves at the cap (checked per host by a real-host test) */
  steps(cap: number): string;
  /** why no run controller holds the process on this host (MAPPING.md's order and hop-cap rows) */
  noController: string;
}

/**
 * Whether the host may give the role apply_patch instead of edit and write: its model's id (after the
 * provider) holds "gpt-" but neither "oss" nor "gpt-4" (OpenCode 1.18.33's tool filter), or no model is
 * pinned and the user's default decides.
 */
export function mayGetApplyPatch(model: string | undefined): boolean {
  if (!model) return true;
  const id = model.slice(model.indexOf("/") + 1);
  return id.includes("gpt-") && !id.includes("oss") && !id.includes("gpt-4");
}

const texts = (ns: readonly Narrowing[], c: Narrowing["constraint"]) => ns.filter((n) => n.constraint === c).map((n) => n.text);

export function v1Fidelity(
  host: V1Host,
  pipeline: PipelineIR,
  lowered: ReadonlyMap<string, LoweredPermission>,
  modelFor: (p: PipelineIR, r: RoleIR) => string | undefined,
  orchestrator: string,
): FidelityRecord[] {
  const out: FidelityRecord[] = [];
  for (const role of pipeline.roles) {
    const rec = (r: Omit<FidelityRecord, "role">) => out.push({ role: role.id, ...r });
    const { permission, narrowed } = lowered.get(role.id)!;
    const edit = permission.edit;
    const has = (t: RoleIR["tools"][number]) => role.tools.includes(t);
    const writes = has("edit") || has("write");

    const granted = role.tools.map((t) => OPENCODE_TOOLS[t]);
    const shared = writes && !(has("edit") && has("write")) ? " (edit and write share permission.edit, so the role gets both, with the same scope)" : "";
    rec({ constraint: "tools", level: "native", how: `permission "*": deny, then ${granted.join(", ") || "nothing"} allowed${shared}`, field: "tools" });

    // write-scope: permission.edit; shell writes (redirections, interpreters) are beyond any pattern.
    const editHow =
      typeof edit === "string"
        ? role.shell
          ? "edit: deny; the shell is the only way to write"
          : "no file-writing tool (edit and bash denied)"
        : `permission.edit: "*" deny, then ${Object.values(edit as object).filter((a) => a === "allow").length} allow patterns, then denies (paths relative to the git worktree; outside a git repository ${host.name} matches from "/" and the scope does not hold)`;
    const scopeNarrowed = texts(narrowed, "write-scope");
    if (role.shell) {
      rec({ constraint: "write-scope", level: "native", how: `${editHow}; shell commands can still write files (redirections, interpreters), which bash patterns cannot see`, loss: "L_SHELL_WRITE_GAP", field: "permissions.write" });
      if (scopeNarrowed.length) rec({ constraint: "write-scope", level: "native", how: scopeNarrowed.join("; "), loss: "L_GLOB_NARROWED", field: "permissions.write" });
    } else rec({ constraint: "write-scope", level: "native", how: [editHow, ...scopeNarrowed].join("; "), ...(scopeNarrowed.length ? { loss: "L_GLOB_NARROWED" as const } : {}), field: "permissions.write" });

    // r8: apply_patch (what the host offers a "gpt-" model instead of edit and write) asks permission.edit
    // for each file's source path only; read in OpenCode 1.18.33's and Kilo 7.7.7's apply_patch, measured
    // on both (test/hosts/redteam-r8-opencode-move.test.ts)
    const moveHow = `apply_patch, which ${host.name} offers instead of edit and write to a model whose id holds "gpt-" (not "gpt-4", not "oss"), asks permission.edit for each file's source path only: a "*** Move to:" target is written unchecked, so the role can move a file it may edit onto any path in the project (measured on OpenCode 1.18.33 and Kilo 7.7.7 by test/hosts/redteam-r8-opencode-move.test.ts)`;
    if (typeof edit !== "string" && mayGetApplyPatch(modelFor(pipeline, role))) {
      rec({ constraint: "write-scope", level: "native", how: moveHow, loss: "L_PATCH_MOVE_UNCHECKED", field: "permissions.write" });
      rec({ constraint: "never-write", level: "native", how: moveHow, loss: "L_PATCH_MOVE_UNCHECKED", field: "permissions.never_write" });
    }

    const neverNarrowed = texts(narrowed, "never-write");
    rec({
      constraint: "never-write",
      level: "native",
      how: typeof edit === "string" ? "no edit permission at all" : [`permission.edit: ${role.neverWrite.length} never-write globs denied after the allows, so they win`, ...neverNarrowed].join("; "),
      ...(neverNarrowed.length ? { loss: "L_GLOB_NARROWED" as const } : {}),
      field: "permissions.never_write",
    });

    if (role.shell) {
      const s = role.shell;
      const shellNarrowed = texts(narrowed, "shell");
      rec({
        constraint: "shell",
        level: "native",
        how: [`permission.bash: "*": ${s.default}, then ${s.allow.length} allow, ${s.ask.length} ask, ${s.deny.length} deny patterns (last match wins)`, ...shellNarrowed].join("; "),
        ...(shellNarrowed.length ? { loss: "L_GLOB_NARROWED" as const } : {}),
        field: "permissions.shell",
      });
      const gap: LossCode = "L_SHELL_PATTERN_LITERAL";
      if (s.default !== "deny")
        rec({
          constraint: "shell",
          level: "native",
          how: `patterns match the literal command text: a denied command written differently (extra spaces, quotes, env/sh -c wrappers, a full path) gets the default "${s.default}"`,
          ...(gap ? { loss: gap } : {}),
          field: "permissions.shell",
        });
    } else rec({ constraint: "shell", level: "native", how: "bash: deny", field: "tools" });

    rec({ constraint: "git-deny", level: "native", how: role.shell ? `permission.bash deny patterns of the agent (and ${host.config})` : "bash: deny" });
    rec({ constraint: "spawn", level: "native", how: role.starts?.length ? `task: {"*": deny, ${role.starts.map((s) => `${s}: allow`).join(", ")}} (${host.config} subagent_depth; not proven by a real-host test)` : role.canSpawn ? `task: allow (${host.config} subagent_depth)` : "task: deny", field: "tools" });
    rec({
      constraint: "isolation",
      level: "native",
      how: role.isolation === "subagent" ? `mode: subagent (own child session via the task tool)` : `mode: primary (runs in the session: /${role.id}, or Tab to the agent)`,
      field: "isolation",
    });
    if (role.worktree)
      rec({ constraint: "isolation", level: "lost", how: `${host.name} has no per-agent git worktree; the role works in the shared checkout`, loss: "L_WORKTREE_UNSUPPORTED", field: "worktree" });
    const model = modelFor(pipeline, role);
    rec(model ? { constraint: "model", level: "native", how: `model: ${model}`, field: "model" } : { constraint: "model", level: "lost", how: `no model: (${host.name}'s default model)`, loss: "L_MODEL_UNMAPPED", field: "model" });
    rec({ constraint: "temperature", level: "native", how: `temperature: ${role.temperature?.value} (${role.temperature?.class ?? "none named"})`, field: "temperature" });
    const own = role.hostFields?.[host.config.replace(/\.json$/, "")];
    if (own) rec({ constraint: "host-fields", level: "native", how: `${Object.keys(own).join(", ")} in the agent file as written (not proven by a real-host test)`, field: `hosts.${host.config.replace(/\.json$/, "")}` });
    // Neither host stops an agent at `steps` (real-host tests of each); see host.steps.
    if (role.maxTurns !== undefined)
      rec({ constraint: "max-turns", level: "instructed", how: host.steps(role.maxTurns), loss: "L_TURNS_INSTRUCTED", field: "max_turns" });
    if (role.reads.length) rec({ constraint: "handoffs", level: "instructed", how: "artifact paths in the brief and prompt", loss: "L_HANDOFF_INSTRUCTED", field: "reads" });
  }
  const cmd = `/${pipeline.name}`;
  if (pipeline.stages.some((s) => s.gate)) out.push({ role: null, constraint: "gates", level: "instructed", how: `the ${orchestrator} agent (${cmd}) stops and asks`, loss: "L_GATE_INSTRUCTED" });
  if (pipeline.checks.length) out.push({ role: null, constraint: "checks", level: "instructed", how: `the ${orchestrator} agent (${cmd}) runs them`, loss: "L_CHECKS_INSTRUCTED" });
  if (pipeline.loop) out.push({ role: null, constraint: "loop-cap", level: "instructed", how: `the ${orchestrator} agent (${cmd}) caps at ${pipeline.loop.maxRounds} rounds`, loss: "L_CHECKS_INSTRUCTED" });
  out.push(...instructedProcessRecords(pipeline, `the ${orchestrator} agent (${cmd})`, host.noController));
  out.push({
    role: null,
    constraint: "git-deny",
    level: "native",
    how:
      pipeline.policies.scope === "repository"
        ? `${host.config} permission.bash denies (every session and agent, built-in ones too) and each agent's own`
        : `each pipeline agent's own permission.bash denies (the roles and the ${orchestrator} agent); ordinary sessions and other agents keep ${host.name}'s defaults (policies.scope: pipeline)`,
  });
  const subs = pipeline.roles.filter((r) => r.isolation === "subagent").map((r) => r.id);
  out.push({ role: null, constraint: "spawn", level: "native", how: `the ${orchestrator} agent: task allowed for ${subs.join(", ") || "no agent"} only${pipeline.policies.nestedAgents ? "" : `; ${host.config} subagent_depth: 1`}` });
  return out;
}
