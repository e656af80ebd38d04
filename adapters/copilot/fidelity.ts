// How each constraint is realised on GitHub Copilot CLI 1.0.102, per role. Data for MAPPING.md, build and diff.
//
// Native per agent: `tools:` (verified enforced; no `agent` alias = no task tool, so no spawning) and
// the agent's own context. Write and command rules exist only as launch flags, which bind a whole
// session: a role's own launcher enforces its scope (verified), an orchestrated run only the
// pipeline-wide rules. So, like Codex, per-role write scope and shell rules are `instructed` for the
// orchestrated run and named with their launcher; never-write and git denies of the pipeline are
// native through the launchers (L_POLICY_OPT_IN: a session started without them has no rules).
import type { FidelityRecord } from "../../src/adapter/fidelity.js";
import type { PipelineIR, RoleIR } from "../../src/ir/types.js";
import { list } from "../../src/emit/process.js";
import type { Launcher } from "./launcher.js";
import { COPILOT_TOOLS } from "./tools.js";

export interface CopilotFidelityInput {
  pipeline: PipelineIR;
  orchestrator: string;
  pipelineLauncher: Launcher;
  roleLaunchers: ReadonlyMap<string, Launcher>;
  launcherOf(id: string): string;
  modelFor(role: RoleIR): string | undefined;
}

export function copilotFidelity(input: CopilotFidelityInput): FidelityRecord[] {
  const { pipeline } = input;
  const out: FidelityRecord[] = [];
  const pl = input.launcherOf(pipeline.name);
  for (const role of pipeline.roles) {
    const rec = (r: Omit<FidelityRecord, "role">) => out.push({ role: role.id, ...r });
    const own = input.launcherOf(role.id);
    const narrowed = (c: "write-scope" | "never-write" | "shell") => input.roleLaunchers.get(role.id)!.flags.narrowed.filter((n) => n.constraint === c).map((n) => n.text);

    const missing = role.tools.filter((t) => COPILOT_TOOLS[t] === null);
    const aliases = [...new Set(role.tools.map((t) => COPILOT_TOOLS[t]).filter(Boolean))];
    rec({ constraint: "tools", level: "native", how: `tools: ${aliases.join(", ")}`, field: "tools" });
    if (missing.length) rec({ constraint: "tools", level: "native", how: `no agent alias for ${list(missing)}`, loss: "L_TOOL_MISSING", field: "tools" });

    rec({
      constraint: "write-scope",
      level: "instructed",
      how: `orchestrated (${pl}): every agent may write what any role may (session-wide write() rules); enforced when run alone via ${own}: write(${role.write.join(", ") || "nothing"})`,
      loss: "L_SCOPE_INSTRUCTED",
      field: "permissions.write",
    });
    rec({ constraint: "write-scope", level: "native", how: `run alone via ${own}: --allow-tool write(…) for its scope; any other write is asked (refused in -p mode)`, loss: "L_POLICY_OPT_IN", field: "permissions.write" });
    const wn = narrowed("write-scope");
    if (wn.length) rec({ constraint: "write-scope", level: "native", how: `${own}: ${wn.join("; ")}`, loss: "L_GLOB_NARROWED", field: "permissions.write" });
    const extraNever = role.neverWrite.filter((g) => !pipeline.policies.neverWrite.includes(g));
    rec(
      extraNever.length
        ? { constraint: "never-write", level: "instructed", how: `orchestrated: pipeline never_write denied (${pl}), the role's own ${list(extraNever)} only in its prompt; denied when run alone via ${own}`, loss: "L_SCOPE_INSTRUCTED", field: "permissions.never_write" }
        : { constraint: "never-write", level: "native", how: `--deny-tool write(…) for policies.never_write in ${pl} and ${own}`, loss: "L_POLICY_OPT_IN", field: "permissions.never_write" },
    );
    const nn = narrowed("never-write");
    if (nn.length) rec({ constraint: "never-write", level: "instructed", how: nn.join("; "), loss: "L_GLOB_NARROWED", field: "permissions.never_write" });

    if (role.shell) {
      rec({ constraint: "shell", level: "instructed", how: `orchestrated: the session's shell() rules are the union of all roles' allows; enforced when run alone via ${own}`, loss: "L_SHELL_INSTRUCTED", field: "permissions.shell" });
      rec({ constraint: "shell", level: "native", how: `run alone via ${own}: --deny-tool shell(…) for its denies, --allow-tool shell(…) for its allows${role.shell.default === "allow" ? " (default allow: shell)" : ""}`, loss: "L_POLICY_OPT_IN", field: "permissions.shell" });
      const sn = narrowed("shell");
      if (role.shell.default === "deny") rec({ constraint: "shell", level: "native", how: `${own}: a command outside the allow list asks the human instead of being refused (refused in -p mode); Copilot has no deny-by-default that spares allows`, loss: "L_SHELL_PATTERN_LITERAL", field: "permissions.shell" });
      if (sn.length) rec({ constraint: "shell", level: "native", how: `${own}: ${sn.join("; ")}`, loss: "L_GLOB_NARROWED", field: "permissions.shell" });
    } else rec({ constraint: "shell", level: "native", how: "no execute in tools:", field: "tools" });
    rec(role.shell ? { constraint: "git-deny", level: "native", how: `--deny-tool shell(…) for policies.shell_deny in ${pl} and ${own}`, loss: "L_POLICY_OPT_IN" } : { constraint: "git-deny", level: "native", how: "no execute in tools:" });
    rec(role.canSpawn ? { constraint: "spawn", level: "native", how: "agent in tools:", field: "tools" } : { constraint: "spawn", level: "native", how: "no agent in tools: (the task tool is not offered)", field: "tools" });
    rec({
      constraint: "isolation",
      level: "native",
      how: role.isolation === "subagent" ? `.github/agents/${role.id}.agent.md, started with the task tool (own context)` : `run by the human as its own session: ${own} or copilot --agent ${role.id} (disable-model-invocation: true)`,
      field: "isolation",
    });
    if (role.worktree) rec({ constraint: "isolation", level: "lost", how: "agents share the session's checkout", loss: "L_WORKTREE_UNSUPPORTED", field: "worktree" });
    const model = input.modelFor(role);
    rec(
      !model
        ? { constraint: "model", level: "lost", how: "no model: (the session's model)", loss: "L_MODEL_UNMAPPED", field: "model" }
        : role.isolation === "subagent"
          ? { constraint: "model", level: "native", how: `model: ${model}`, field: "model" }
          : { constraint: "model", level: "instructed", how: `model: ${model} in the agent file; not verified for a session started with --agent`, field: "model" },
    );
    rec({ constraint: "temperature", level: "lost", how: `no temperature setting (${role.temperature.class})`, loss: "L_TEMPERATURE", field: "temperature" });
    if (role.maxTurns !== undefined) rec({ constraint: "max-turns", level: "lost", how: `no per-agent turn cap (max_turns ${role.maxTurns})`, loss: "L_TURNS_UNSUPPORTED", field: "max_turns" });
    if (role.reads.length) rec({ constraint: "handoffs", level: "instructed", how: "artifact paths in the brief and prompt", loss: "L_HANDOFF_INSTRUCTED", field: "reads" });
  }
  const agent = `the ${input.orchestrator} agent (/${pipeline.name})`;
  if (pipeline.stages.some((s) => s.gate)) out.push({ role: null, constraint: "gates", level: "instructed", how: `${agent} stops and asks`, loss: "L_GATE_INSTRUCTED" });
  if (pipeline.checks.length) out.push({ role: null, constraint: "checks", level: "instructed", how: `${agent} runs them`, loss: "L_CHECKS_INSTRUCTED" });
  if (pipeline.loop) out.push({ role: null, constraint: "loop-cap", level: "instructed", how: `${agent} caps at ${pipeline.loop.maxRounds} rounds`, loss: "L_CHECKS_INSTRUCTED" });
  out.push({ role: null, constraint: "git-deny", level: "native", how: `${pl}: --deny-tool shell(…) for policies.shell_deny, binding every agent of the run`, loss: "L_POLICY_OPT_IN" });
  for (const n of input.pipelineLauncher.flags.narrowed) out.push({ role: null, constraint: n.constraint, level: "instructed", how: `${pl}: ${n.text}`, loss: "L_GLOB_NARROWED" });
  const subs = pipeline.roles.filter((r) => r.isolation === "subagent").map((r) => r.id);
  out.push({ role: null, constraint: "spawn", level: "instructed", how: `${agent} lists ${subs.join(", ") || "no agent"} in agents:, which VS Code enforces and the CLI ignores`, loss: "L_SPAWN_INSTRUCTED" });
  return out;
}
