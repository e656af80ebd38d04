// How each constraint is realised on Gemini CLI 0.61.0, per role. Data for MAPPING.md, build and diff.
//
// Subagent roles: tool lists (`tools:`), own context and model are the agent file's; write scope,
// never-write and shell rules are policy rules scoped with `subagent` (rules.ts), verified with a
// scripted model. Main-session roles share the main session with the orchestrator: the host cannot
// tell them apart, so the pipeline-wide rules give the session the union of their scopes.
//
// Every policy-based record carries L_POLICY_OPT_IN: 0.61 switched project policies off, so the
// rules bind only a session started with `--policy .gemini/policies`.
import type { FidelityRecord } from "../../src/adapter/fidelity.js";
import type { PipelineIR, RoleIR } from "../../src/ir/types.js";
import { list } from "../../src/emit/process.js";
import type { Narrowing, PolicyPlan } from "./rules.js";
import { GEMINI_TOOLS } from "./tools.js";
import { instructedProcessRecords } from "../../src/adapter/controller/fidelity.js";

export interface GeminiFidelityInput {
  pipeline: PipelineIR;
  plan: PolicyPlan;
  policyPath: string;
  commandFor(role: RoleIR): string;
  pipelineCommand: string;
  modelFor(role: RoleIR): string | undefined;
}

const narrowedFor = (ns: readonly Narrowing[], role: string | null, c: Narrowing["constraint"]) => ns.filter((n) => n.role === role && n.constraint === c).map((n) => n.text);

export function geminiFidelity(input: GeminiFidelityInput): FidelityRecord[] {
  const { pipeline, plan, policyPath } = input;
  const out: FidelityRecord[] = [];
  const optIn = `${policyPath}, loaded with --policy`;
  for (const role of pipeline.roles) {
    const rec = (r: Omit<FidelityRecord, "role">) => out.push({ role: role.id, ...r });
    const sub = role.isolation === "subagent";
    const who = sub ? role.id : null;
    const narrowedNote = (c: Narrowing["constraint"]) => {
      const n = narrowedFor(plan.narrowed, who, c);
      if (n.length) rec({ constraint: c, level: sub ? "native" : "instructed", how: n.join("; "), loss: "L_GLOB_NARROWED", field: c === "shell" ? "permissions.shell" : c === "never-write" ? "permissions.never_write" : "permissions.write" });
    };

    if (sub) {
      const tools = role.tools.filter((t) => t !== "spawn-agent").map((t) => GEMINI_TOOLS[t]);
      rec({ constraint: "tools", level: "native", how: `tools: ${tools.join(", ") || "none"} (plus complete_task)`, field: "tools" });
      if (role.tools.includes("todo")) rec({ constraint: "tools", level: "native", how: "write_todos is offered only while the session's model is a Gemini 2 model; otherwise the role has no task list", loss: "L_TOOL_MISSING", field: "tools" });
      rec({ constraint: "write-scope", level: "native", how: `${optIn}: write_file/replace allowed for ${role.write.length ? list(role.write) : "nothing"} (subagent = "${role.id}"), every other write denied; paths must be relative to the project root`, loss: "L_POLICY_OPT_IN", field: "permissions.write" });
      if (role.shell) rec({ constraint: "write-scope", level: "native", how: "shell commands can still write files (redirections, interpreters), which command patterns cannot see", loss: "L_SHELL_WRITE_GAP", field: "permissions.write" });
      narrowedNote("write-scope");
      rec({ constraint: "never-write", level: "native", how: `${optIn}: ${role.neverWrite.length} never-write globs denied above the allows`, loss: "L_POLICY_OPT_IN", field: "permissions.never_write" });
      narrowedNote("never-write");
      if (role.shell) {
        const s = role.shell;
        rec({ constraint: "shell", level: "native", how: `${optIn}: run_shell_command ${s.deny.length} deny, ${s.ask.length} ask, ${s.allow.length} allow patterns, then "${s.default}"; each part of a compound command is checked`, loss: "L_POLICY_OPT_IN", field: "permissions.shell" });
        if (s.default !== "deny") rec({ constraint: "shell", level: "native", how: `patterns match the literal command text: a denied command written differently gets the default "${s.default}"`, loss: "L_SHELL_PATTERN_LITERAL", field: "permissions.shell" });
        narrowedNote("shell");
      } else rec({ constraint: "shell", level: "native", how: "no run_shell_command in tools:", field: "tools" });
      rec({ constraint: "git-deny", level: "native", how: role.shell ? `${optIn}: policies.shell_deny denied for subagent "${role.id}"` : "no run_shell_command in tools:", ...(role.shell ? { loss: "L_POLICY_OPT_IN" as const } : {}) });
      rec({ constraint: "spawn", level: "native", how: role.canSpawn ? "subagents cannot start subagents in Gemini CLI (the role asked for it: lost)" : "subagents cannot start subagents (invoke_agent is never offered to them)", field: "tools" });
      rec({ constraint: "isolation", level: "native", how: `.gemini/agents/${role.id}.md: own context loop, started with invoke_agent`, field: "isolation" });
      const model = input.modelFor(role);
      rec(model ? { constraint: "model", level: "native", how: `model: ${model}`, field: "model" } : { constraint: "model", level: "lost", how: "model: inherit", loss: "L_MODEL_UNMAPPED", field: "model" });
      // 0.61.0 parses temperature: but the subagent's requests carried 1 (real-host test, NOT a proof)
      rec({ constraint: "temperature", level: "lost", how: `temperature: ${role.temperature?.value} (${role.temperature?.class ?? "none named"}) is emitted, but Gemini CLI 0.61.0 sends the model 1`, loss: "L_TEMPERATURE", field: "temperature" });
      if (role.maxTurns !== undefined) rec({ constraint: "max-turns", level: "native", how: `max_turns: ${role.maxTurns}`, field: "max_turns" });
    } else {
      const cmd = input.commandFor(role);
      rec({ constraint: "tools", level: "instructed", how: `runs in the main session (${cmd}), which has every tool; the role's list is in its prompt`, loss: "L_TOOLS_SHARED", field: "tools" });
      rec({ constraint: "write-scope", level: "native", how: `${optIn}: the main session may write the union of its roles' scopes (${list(role.write)} among them); outside it the human is asked (refused headless)`, loss: "L_MAIN_ROLE_SCOPE", field: "permissions.write" });
      rec({ constraint: "write-scope", level: "native", how: `${optIn} binds only sessions started with it`, loss: "L_POLICY_OPT_IN", field: "permissions.write" });
      narrowedNote("write-scope");
      const extraNever = role.neverWrite.filter((g) => !pipeline.policies.neverWrite.includes(g));
      rec(
        extraNever.length
          ? { constraint: "never-write", level: "instructed", how: `pipeline never_write is denied for the main session; the role's own ${list(extraNever)} only in its prompt`, loss: "L_MAIN_ROLE_SCOPE", field: "permissions.never_write" }
          : { constraint: "never-write", level: "native", how: `${optIn}: pipeline never_write denied for the main session`, loss: "L_POLICY_OPT_IN", field: "permissions.never_write" },
      );
      narrowedNote("never-write");
      rec({ constraint: "shell", level: "instructed", how: role.shell ? "the main session runs the orchestrator's commands too: the role's allow list is allowed there, its other rules only in its prompt; other commands ask the human" : "the main session has run_shell_command; \"no shell\" is in the prompt only", loss: "L_SHELL_INSTRUCTED", field: role.shell ? "permissions.shell" : "tools" });
      rec({ constraint: "git-deny", level: "native", how: `${optIn}: policies.shell_deny denied for the main session (except policies.orchestrator_shell)`, loss: "L_POLICY_OPT_IN" });
      rec(role.canSpawn ? { constraint: "spawn", level: "native", how: "the main session can invoke the pipeline's subagents", field: "tools" } : { constraint: "spawn", level: "instructed", how: "runs in the main session, which must be able to invoke the subagent roles", loss: "L_SPAWN_INSTRUCTED", field: "tools" });
      rec({ constraint: "isolation", level: "native", how: `main session via ${cmd}`, field: "isolation" });
      rec({ constraint: "model", level: "lost", how: "a main-session stage keeps the session's model", loss: "L_MODEL_UNMAPPED", field: "model" });
      rec({ constraint: "temperature", level: "lost", how: `the main session's temperature (${role.temperature?.class ?? "none named"} not settable per command)`, loss: "L_TEMPERATURE", field: "temperature" });
      if (role.maxTurns !== undefined) rec({ constraint: "max-turns", level: "lost", how: `no turn cap for a main-session stage (max_turns ${role.maxTurns})`, loss: "L_TURNS_MAIN_SESSION", field: "max_turns" });
    }
    if (role.worktree) rec({ constraint: "isolation", level: "lost", how: "subagents share the session's checkout (gemini --worktree starts a whole session elsewhere)", loss: "L_WORKTREE_UNSUPPORTED", field: "worktree" });
    if (role.reads.length) rec({ constraint: "handoffs", level: "instructed", how: "artifact paths in the brief and prompt", loss: "L_HANDOFF_INSTRUCTED", field: "reads" });
  }
  const cmd = input.pipelineCommand;
  if (pipeline.stages.some((s) => s.gate)) out.push({ role: null, constraint: "gates", level: "instructed", how: `${cmd} stops and asks`, loss: "L_GATE_INSTRUCTED" });
  if (pipeline.checks.length) out.push({ role: null, constraint: "checks", level: "instructed", how: `${cmd} runs them`, loss: "L_CHECKS_INSTRUCTED" });
  if (pipeline.loop) out.push({ role: null, constraint: "loop-cap", level: "instructed", how: `${cmd} caps at ${pipeline.loop.maxRounds} rounds`, loss: "L_CHECKS_INSTRUCTED" });
  out.push(...instructedProcessRecords(pipeline, `${cmd}`));
  out.push({ role: null, constraint: "git-deny", level: "native", how: `${optIn}: policies.shell_deny denied for every agent`, loss: "L_POLICY_OPT_IN" });
  out.push({ role: null, constraint: "spawn", level: "native", how: `${optIn}: invoke_agent allowed for the subagent roles only; subagents cannot start subagents`, loss: "L_POLICY_OPT_IN" });
  return out;
}
