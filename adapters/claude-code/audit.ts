// Claude Code wiring of the stage-end scope audit (src/adapter/audit/). Verified on 2.1.332 with a
// scripted model (test/hosts/enforce-out.test.ts):
// - SubagentStart and SubagentStop hooks (settings-level) receive `agent_id` and `agent_type` (the
//   role's name); the start hook runs before the subagent's first model call.
// - Exit 2 from SubagentStop does not end the stage: the subagent gets stderr and keeps working.
//   So `stop` never blocks; it restores and records a verdict.
// - PostToolUse on the parent's Agent tool carries `tool_response.agentId` and `.status`; exit 2
//   there hands stderr to the orchestrator's model ("PostToolUse:Agent hook blocking error"), so
//   `report` is how the stage ends failed. (`updatedToolOutput` was ignored for Agent.)
// Main-session roles get no audit: the main thread has no stage boundary a hook can see.
import type { FidelityRecord } from "../../src/adapter/fidelity.js";
import type { HostFile, Lowered } from "../../src/adapter/types.js";
import { lazyTextFile } from "../../src/adapter/lazy.js";
import type { PipelineIR, RoleIR } from "../../src/ir/types.js";
import { HARNESS_STATE_DIR } from "../../src/schema/vocabulary.js";
import { AUDIT_GAPS, auditHookCommand, auditRecords, canWrite, installedEnforcement, renderAuditScript, withAuditRecords } from "../../src/adapter/audit/index.js";

export const AUDIT_PATH = ".claude/hooks/harness-audit.mjs";
/** The enforcement config no audited role may change, whatever its scope. */
export const AUDIT_PROTECT = [".claude/hooks/**", ".claude/settings.json", ".claude/settings.local.json", ".claude/agents/**", ".claude/commands/**", ".claude/skills/**"];
/** Claude Code's own worktrees for `isolation: worktree` agents, which may come and go during a stage,
 *  and the run controller's run records and check logs, which its hooks write during every stage.
 *  The controller's state (.harness/controller/) is not exempt: the audit verifies it (runtime-controller.ts). */
export const AUDIT_EXEMPT = [".claude/worktrees/**", ".harness/runs/**"];

/** The real-host test that proves the audit (cited in MAPPING.md beside every audit record). */
export const CLAUDE_AUDIT_PROOFS = {
  "write-scope": "claude-code: audit restores what jade's code wrote to tests/ during npm test and fails the stage",
  "never-write": "claude-code: audit restores what jade's code wrote to tests/ during npm test and fails the stage",
} as const;

/** Subagent roles that can write. A worktree role works in its own checkout, which this audit of
 *  the project's tree does not see (and would take for one created path), so it is left out. */
export function auditedRoles(pipeline: PipelineIR): RoleIR[] {
  return pipeline.roles.filter((r) => r.isolation === "subagent" && !r.worktree && canWrite(r));
}

// stop never blocks on Claude Code (exit 2 would keep the subagent running); report fails closed
const command = (mode: "start" | "stop" | "report" | "between") => auditHookCommand(`"$CLAUDE_PROJECT_DIR/${AUDIT_PATH}"`, mode, mode !== "stop", "$CLAUDE_PROJECT_DIR");

/** The orchestrator's own commands: an audited step between stages (its npm test runs role code). */
const betweenHook = () => ({ matcher: "Bash", hooks: [{ type: "command", command: command("between"), timeout: 120, onFailure: "block" }] });

/** scope pipeline: only a pipeline run's main thread is the orchestrator, so the step rides on the pipeline command's own hooks. */
function addCommandHook(command: HostFile): void {
  if (command.kind !== "markdown" || !command.frontmatter) throw new Error(`${command.path} has no front matter to wire the audit into`);
  const hooks = ((command.frontmatter as { hooks?: Record<string, unknown[]> }).hooks ??= {});
  hooks.PostToolUse = [...(hooks.PostToolUse ?? []), betweenHook()];
}

function addHooks(settings: HostFile, everySession: boolean): void {
  if (settings.kind !== "json") throw new Error(".claude/settings.json is not a JSON file");
  const data = settings.data as { hooks?: Record<string, unknown[]> };
  const hooks = (data.hooks ??= {});
  const entry = (mode: "start" | "stop" | "report" | "between", timeout: number) => ({ type: "command", command: command(mode), timeout });
  hooks.SubagentStart = [...(hooks.SubagentStart ?? []), { hooks: [entry("start", 60)] }];
  hooks.SubagentStop = [...(hooks.SubagentStop ?? []), { hooks: [entry("stop", 120)] }];
  hooks.PostToolUse = [
    ...(hooks.PostToolUse ?? []),
    { matcher: "Agent|Task", hooks: [{ ...entry("report", 120), onFailure: "block" }] },
    // scope repository: every main thread is the orchestrator
    ...(everySession ? [betweenHook()] : []),
  ];
}

/** The audit script. `controllerHome`: a fixed home for the run controller's records instead of the account's (tests only);
 *  `emitted`: the paths of the files harness emits, whose enforcement files the audit guards. */
export function renderClaudeAudit(pipeline: PipelineIR, controllerHome?: string, emitted: readonly string[] = []): string {
  return renderAuditScript(pipeline, {
    host: "Claude Code",
    scriptPath: AUDIT_PATH,
    projectEnv: "CLAUDE_PROJECT_DIR",
    stopBlocks: false,
    protect: AUDIT_PROTECT,
    exempt: AUDIT_EXEMPT,
    roles: auditedRoles(pipeline),
    betweenEverySession: pipeline.policies.scope === "repository",
    controller: { stateDir: HARNESS_STATE_DIR },
    installed: installedEnforcement(emitted, AUDIT_PROTECT, AUDIT_PATH),
    ...(controllerHome === undefined ? {} : { controllerHome }),
  });
}

/** Adds the audit script, its hooks, its fidelity records and its limits to the lowered tree. */
export function withClaudeAudit(pipeline: PipelineIR, lowered: Lowered): Lowered {
  const roles = auditedRoles(pipeline);
  if (!roles.length) return lowered;
  const settings = lowered.files.find((f) => f.path === ".claude/settings.json");
  if (!settings) throw new Error("the Claude Code adapter emitted no .claude/settings.json to wire the audit into");
  const everySession = pipeline.policies.scope === "repository";
  addHooks(settings, everySession);
  if (!everySession) {
    const cmd = lowered.files.find((f) => f.path === `.claude/commands/${pipeline.name}.md`);
    if (!cmd) throw new Error(`the Claude Code adapter emitted no .claude/commands/${pipeline.name}.md to wire the audit into`);
    addCommandHook(cmd);
  }
  // made on render: compileHost's last step renders it again with every file the host emits
  // (withInstalledEnforcement), so this first text is only read if something asks before then
  const emitted = lowered.files.map((f) => f.path);
  const script: HostFile = lazyTextFile(AUDIT_PATH, () => renderClaudeAudit(pipeline, undefined, emitted), true);
  const how = (r: RoleIR) =>
    `${AUDIT_PATH}: tree recorded at SubagentStart (agent_type "${r.id}"); at SubagentStop every change outside the scope, whatever wrote it, is restored, and the orchestrator is told the stage failed (PostToolUse on Agent)`;
  const records: FidelityRecord[] = auditRecords(roles, how);
  const main = pipeline.roles.filter((r) => r.isolation === "main" && canWrite(r)).map((r) => r.id);
  const worktree = pipeline.roles.filter((r) => r.isolation === "subagent" && r.worktree && canWrite(r)).map((r) => r.id);
  const gaps = [
    ...AUDIT_GAPS.map((g) => `audit: ${g}`),
    ...(main.length
      ? [
          `audit: main-session roles (${main.join(", ")}) have no stage boundary on the main thread: ${everySession ? "" : `in a /${pipeline.name} run, `}once a stage of the session has ended, each of the orchestrator's Bash commands is an audited step (what changed since the last boundary, judged by the main-session scopes); before that, the guard is their only layer`,
        ]
      : []),
    ...(worktree.length ? [`audit: worktree roles (${worktree.join(", ")}) are not audited: they work in their own checkout`] : []),
    `audit: Claude Code's own worktrees (${AUDIT_EXEMPT[0]}) are not audited: they come and go while other stages run; nor are the run controller's records and check logs (${AUDIT_EXEMPT[1]}), which its hooks write during every stage (the run record is rewritten from the signed state at each change; a check log rewritten by a stage's code is not detected). The controller's state (${HARNESS_STATE_DIR}/controller/) is controller-owned: a change there the controller did not make fails the stage, is restored, and stops the run at the controller's next hook`,
    "audit: a subagent started in the background is audited and restored when it stops, but only a foreground Agent call (run_in_background: false) hands the verdict to the orchestrator",
    everySession
      ? "audit: between stages, a change by the orchestrator's tools other than Bash, or by the human in another program, is judged at the next boundary, which restores what no stage or main-session role may write (and names the git tree that keeps it)"
      : `audit: between stages: a session counts as a /${pipeline.name} run from the orchestrator's first Bash command after a stage has ended; from then on a change by its other tools, or by the human in another program, is judged at the next boundary, which restores what no stage or main-session role may write (and names the git tree that keeps it). Before that, and in an ordinary session, nothing is judged between stages`,
    "audit: settings written outside any stage (by hand, or before the session started) that switch the hooks off (disableAllHooks, an env override of PATH or NODE_OPTIONS and its kin) are found by no hook on Claude Code; `harness run` refuses to start a session with them, but a claude session started by hand runs without that check",
  ];
  return {
    ...lowered,
    files: [...lowered.files, script],
    fidelity: withAuditRecords(lowered.fidelity, records),
    gaps: [...(lowered.gaps ?? []), ...gaps],
  };
}
