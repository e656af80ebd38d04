// Codex wiring of the stage-end scope audit (src/adapter/audit/). Verified on 0.171.0 with a
// scripted model (test/hosts/audit-out.test.ts):
// - project hooks in .codex/hooks.json run for spawned agents: SubagentStart and SubagentStop
//   carry `agent_id` and `agent_type` (the role's name), and so does every PreToolUse/PostToolUse
//   inside the spawned agent; the hook process runs outside the sandbox, in the project folder;
// - exit 2 from SubagentStop keeps the agent running (stop_hook_active: true on its next stop), so
//   `stop` never blocks;
// - the orchestrator learns a spawned agent's result from wait_agent (tool_name
//   "multi_agent_v1wait_agent", tool_input.targets, tool_response {"status": {<id>: …}}); exit 2
//   from its PostToolUse hook hands stderr to the orchestrator's model. The matcher is a regex
//   matched against the whole tool name: "wait_agent" alone never fired, ".*wait_agent" does.
// Codex runs project hooks only once they are trusted (`/hooks` in the TUI, persisted in the user's
// config) or with `codex exec --dangerously-bypass-hook-trust`; untrusted hooks do not run at all.
// Spawned agents run in the orchestrator's sandbox (openai/codex #45482): the guard (guard.ts) refuses
// their out-of-scope calls, and this audit is the boundary for what their allowed commands write;
// main-session roles (skills) have no stage boundary.
import type { FidelityRecord } from "../../src/adapter/fidelity.js";
import type { HostFile, Lowered } from "../../src/adapter/types.js";
import { lazyTextFile } from "../../src/adapter/lazy.js";
import type { PipelineIR, RoleIR } from "../../src/ir/types.js";
import { roleById } from "../../src/ir/lookup.js";
import { AUDIT_GAPS, auditHookCommand, auditRecords, canWrite, installedEnforcement, renderAuditScript } from "../../src/adapter/audit/index.js";
import { launcherPath } from "./launcher.js";
import { hookProjectPath } from "../../src/adapter/guard/hook-command.js";
import { HARNESS_STATE_DIR } from "../../src/schema/vocabulary.js";

export const AUDIT_PATH = ".codex/hooks/harness-audit.mjs";
export const HOOKS_PATH = ".codex/hooks.json";
/** The enforcement config no audited role may change, whatever its scope. */
export const AUDIT_PROTECT = [".codex/**", ".agents/**", "AGENTS.md"];

export const CODEX_AUDIT_PROOFS = {
  "write-scope": "codex: audit restores what a spawned jade's code wrote to tests/ and fails the stage",
  "never-write": "codex: audit restores what a spawned jade's code wrote to tests/ and fails the stage",
} as const;

export function auditedRoles(pipeline: PipelineIR): RoleIR[] {
  return pipeline.roles.filter((r) => r.isolation === "subagent" && canWrite(r));
}

// hooks run in the session's folder: find the script from the repository's top level
const script = hookProjectPath(AUDIT_PATH);
const entry = (mode: "start" | "stop" | "report", timeout: number) => ({ type: "command", command: auditHookCommand(script, mode, mode !== "stop"), timeout });

function hooksFile(existing: HostFile | undefined): HostFile {
  const data = (existing?.kind === "json" ? existing.data : { hooks: {} }) as { hooks: Record<string, unknown[]> };
  const hooks = (data.hooks ??= {});
  hooks.SubagentStart = [...(hooks.SubagentStart ?? []), { hooks: [entry("start", 60)] }];
  hooks.SubagentStop = [...(hooks.SubagentStop ?? []), { hooks: [entry("stop", 120)] }];
  hooks.PostToolUse = [...(hooks.PostToolUse ?? []), { matcher: ".*wait_agent", hooks: [entry("report", 120)] }];
  // A project may have its own Codex hooks: install adds harness's hook entries beside them.
  return { path: HOOKS_PATH, kind: "json", data, install: { mode: "merge" } };
}

/** The run controller's records and check logs, which its hooks write during every stage; its state
 *  (.harness/controller/) is controller-owned: verified, not exempt (src/adapter/audit/runtime-controller.ts). */
export const AUDIT_EXEMPT = [`${HARNESS_STATE_DIR}/runs/**`];

/** The audit script. `controllerHome`: a fixed home for the run controller's records instead of the account's (tests only);
 *  `emitted`: the paths of the files harness emits, whose enforcement files the audit guards. */
export function renderCodexAudit(pipeline: PipelineIR, controllerHome?: string, emitted: readonly string[] = []): string {
  return renderAuditScript(pipeline, {
    host: "Codex",
    scriptPath: AUDIT_PATH,
    projectEnv: null,
    stopBlocks: false,
    protect: AUDIT_PROTECT,
    exempt: AUDIT_EXEMPT,
    roles: auditedRoles(pipeline),
    controller: { stateDir: HARNESS_STATE_DIR },
    installed: installedEnforcement(emitted, AUDIT_PROTECT, AUDIT_PATH),
    ...(controllerHome === undefined ? {} : { controllerHome }),
  });
}

export function withCodexAudit(pipeline: PipelineIR, lowered: Lowered): Lowered {
  const roles = auditedRoles(pipeline);
  if (!roles.length) return lowered;
  const existing = lowered.files.find((f) => f.path === HOOKS_PATH);
  const others = [...lowered.files.filter((f) => f !== existing), hooksFile(existing)];
  const emitted = others.map((f) => f.path);
  // made on render: compileHost's last step renders it again with every file the host emits
  // (withInstalledEnforcement), so this first text is only read if something asks before then
  const files = [...others, lazyTextFile(AUDIT_PATH, () => renderCodexAudit(pipeline, undefined, emitted), true)];
  const how = (r: RoleIR) =>
    `${AUDIT_PATH} via ${HOOKS_PATH} (once its hooks are trusted): tree recorded at SubagentStart (agent_type "${r.id}"); at SubagentStop every change outside the scope, whatever wrote it, is restored, and the orchestrator is told the stage failed (PostToolUse on wait_agent); ${launcherPath(r.id)} runs it alone in its sandbox profile`;
  const audited = new Set(roles.map((r) => r.id));
  // the orchestrated run's `instructed` scope records give way to the audit; launcher records stay
  const fidelity: FidelityRecord[] = [];
  const added = new Set<string>();
  for (const rec of lowered.fidelity) {
    const replace = rec.role !== null && audited.has(rec.role) && (rec.constraint === "write-scope" || rec.constraint === "never-write") && rec.level === "instructed";
    if (!replace) {
      fidelity.push(rec);
      continue;
    }
    const key = `${rec.role}/${rec.constraint}`;
    if (added.has(key)) continue;
    added.add(key);
    fidelity.push(...auditRecords([roleById(pipeline, rec.role!)!], how).filter((a) => a.constraint === rec.constraint));
  }
  const main = pipeline.roles.filter((r) => r.isolation === "main" && canWrite(r)).map((r) => r.id);
  const gaps = [
    ...AUDIT_GAPS.map((g) => `audit: ${g}`),
    `audit: Codex runs project hooks only once they are trusted (/hooks in Codex, or codex exec --dangerously-bypass-hook-trust); until then nothing is audited and nothing says so`,
    ...(main.length ? [`audit: main-session roles (${main.join(", ")}) are not audited: Codex marks no stage boundary inside the orchestrator's session`] : []),
    "audit: the verdict reaches the orchestrator through wait_agent; a spawned agent it never waits for is still audited and restored when it stops",
    `audit: the run controller's records and check logs (${AUDIT_EXEMPT[0]}) are not audited: its hooks write them during every stage (the record is rewritten from the signed state at each change; a check log rewritten by a stage's code is not detected). Its state (${HARNESS_STATE_DIR}/controller/) is controller-owned: a change there the controller did not make fails the stage, is restored, and stops the run at the controller's next hook`,
    "audit: the orchestrator's own commands are not an audited step on Codex, and nothing is judged between stages (no hook marks a session as a pipeline run): a write after a stage's end, such as a detached child's, becomes the next stage's baseline",
    "audit: a config that switches the hooks off, written outside any stage, is refused by the launchers (.codex/bin/<role>.sh) before Codex starts; a plain codex session started by hand runs without that check",
  ];
  return { ...lowered, files, fidelity, gaps: [...(lowered.gaps ?? []), ...gaps] };
}
