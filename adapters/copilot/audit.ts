// Copilot CLI wiring of the stage-end scope audit (src/adapter/audit/). Copilot 1.0.102 repository
// hooks (.github/hooks/*.json, loaded in a trusted folder) fire `subagentStart` and `subagentStop`
// with the subagent's `agentType` (its front-matter name) and `agentId` (antigravity-and-copilot-
// hooks.md §2.1), which is all `start` and `stop` need. Verified with a scripted model: what jade's
// npm test wrote into tests/ was restored when its stage ended. Not verified to reach the model: 1.0.102
// prints a subagentStop hook's stderr to the terminal but does not hand its exit 2 back to the subagent
// or the orchestrator, and no report hook for the parent's task call carries the stage's id. stopBlocks
// stays on so a host that honours exit 2 tells the stage itself.
// Main-session roles are not audited: they run as their own sessions, where no subagent hook fires.
import type { FidelityRecord } from "../../src/adapter/fidelity.js";
import type { HostFile, Lowered } from "../../src/adapter/types.js";
import { lazyTextFile } from "../../src/adapter/lazy.js";
import type { PipelineIR, RoleIR } from "../../src/ir/types.js";
import { HARNESS_STATE_DIR } from "../../src/schema/vocabulary.js";
import { AUDIT_GAPS, auditHookCommand, auditRecords, canWrite, installedEnforcement, renderAuditScript, withAuditRecords } from "../../src/adapter/audit/index.js";

export const AUDIT_PATH = ".github/hooks/harness-audit.mjs";
export const AUDIT_HOOKS = ".github/hooks/harness-audit.json";
/** The enforcement config no audited role may change, whatever its scope. */
export const AUDIT_PROTECT = [".github/hooks/**", ".github/agents/**", ".github/skills/**", ".github/prompts/**", ".github/copilot/**"];

/** The run controller's records and check logs, which its hooks write during every stage; its state
 *  (.harness/controller/) is controller-owned: verified, not exempt (src/adapter/audit/runtime-controller.ts). */
export const AUDIT_EXEMPT = [`${HARNESS_STATE_DIR}/runs/**`];

export const COPILOT_AUDIT_PROOFS = {
  "write-scope": "copilot: audit restores what jade's code wrote to tests/ during npm test in an orchestrated run",
  "never-write": "copilot: audit restores what jade's code wrote to tests/ during npm test in an orchestrated run",
} as const;

export const auditedRoles = (pipeline: PipelineIR): RoleIR[] => pipeline.roles.filter((r) => r.isolation === "subagent" && canWrite(r));

const command = (mode: "start" | "stop") => auditHookCommand(`"\${COPILOT_PROJECT_DIR:-.}/${AUDIT_PATH}"`, mode, true);

/** The audit script; `emitted`: the paths of the files harness emits, whose enforcement files the audit guards. */
export function renderCopilotAudit(pipeline: PipelineIR, emitted: readonly string[]): string {
  return renderAuditScript(pipeline, {
    host: "GitHub Copilot CLI",
    scriptPath: AUDIT_PATH,
    projectEnv: "COPILOT_PROJECT_DIR",
    stopBlocks: true,
    protect: AUDIT_PROTECT,
    exempt: AUDIT_EXEMPT,
    roles: auditedRoles(pipeline),
    controller: { stateDir: HARNESS_STATE_DIR },
    installed: installedEnforcement(emitted, AUDIT_PROTECT, AUDIT_PATH),
  });
}

export function withCopilotAudit(pipeline: PipelineIR, lowered: Lowered): Lowered {
  const roles = auditedRoles(pipeline);
  if (!roles.length) return lowered;
  const hooks: HostFile = {
    path: AUDIT_HOOKS,
    kind: "json",
    data: {
      version: 1,
      hooks: {
        subagentStart: [{ type: "command", bash: command("start"), timeoutSec: 60 }],
        subagentStop: [{ type: "command", bash: command("stop"), timeoutSec: 120 }],
      },
    },
  };
  const emitted = [...lowered.files.map((f) => f.path), AUDIT_HOOKS];
  // made on render: compileHost's last step renders it again with every file the host emits
  // (withInstalledEnforcement), so this first text is only read if something asks before then
  const script: HostFile = lazyTextFile(AUDIT_PATH, () => renderCopilotAudit(pipeline, emitted), true);
  const how = (r: RoleIR) =>
    `${AUDIT_PATH} (${AUDIT_HOOKS}): tree recorded at subagentStart (agentType "${r.id}"); at subagentStop every change outside the scope, whatever wrote it, is restored; the failure is printed to the human, not handed to the orchestrator`;
  const records: FidelityRecord[] = auditRecords(roles, how);
  const main = pipeline.roles.filter((r) => r.isolation === "main" && canWrite(r)).map((r) => r.id);
  const gaps = [
    ...AUDIT_GAPS.map((g) => `audit: ${g}`),
    ...(main.length ? [`audit: main-session roles (${main.join(", ")}) are not audited: they run as their own sessions, where no subagent hook fires`] : []),
    "audit: Copilot CLI 1.0.102 shows a failed stage's verdict to the human only; the orchestrator is not told and goes on with the restored tree",
    `audit: the run controller's records and check logs (${AUDIT_EXEMPT[0]}) are not audited: its hooks write them during every stage. Its state (${HARNESS_STATE_DIR}/controller/) is controller-owned: a change there the controller did not make fails the stage, is restored, and stops the run at the controller's next hook`,
    "audit: repository hooks load only in a trusted folder; VS Code and the cloud agent were not checked",
    "audit: the orchestrator's own commands are not an audited step on Copilot CLI, and nothing is judged between stages (no hook marks a session as a pipeline run): a write after a stage's end, such as a detached child's, becomes the next stage's baseline",
    "audit: settings that switch the hooks off (disableAllHooks, NODE_OPTIONS), written outside any stage, are refused by the launchers (.github/copilot/bin/*.sh) before Copilot starts; a plain copilot session started by hand runs without that check",
  ];
  return { ...lowered, files: [...lowered.files, hooks, script], fidelity: withAuditRecords(lowered.fidelity, records), gaps: [...(lowered.gaps ?? []), ...gaps] };
}
