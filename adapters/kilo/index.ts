// Kilo adapter: lowers the Pipeline IR into a project-root tree Kilo CLI 7.7.7 reads. Kilo 7 is an
// OpenCode fork with the same permission engine, so the permission lowering is OpenCode's, shared
// in src/adapter/opencode-permission/. Formats: hosts note "others.md" §3.2 and §5.2, checked
// against the binary (`kilo agent list`, `kilo debug config`, `kilo config check`) by test/hosts.
//
// Every role is `.kilo/agents/<role>.md` whose `permission` carries its limits natively (tools as
// an allow-list, write scope as `edit` patterns, shell rules as `bash` patterns, `task: deny`). The
// orchestrator is a primary agent named after the pipeline, started by `.kilo/commands/<pipeline>.md`.
// Kilo loads an agent whose front matter does not parse as a default agent, silently (others.md
// §5.2): the parse-back tests and the real-host load test guard against that.
import { V1_ROLE_FEATURES } from "../../src/adapter/opencode-permission/role-fields.js";
import type { Adapter, Lowered } from "../../src/adapter/types.js";
import type { PipelineIR, RoleIR } from "../../src/ir/types.js";
import type { V1Host } from "../../src/adapter/opencode-permission/fidelity.js";
import { lowerV1, modelFor as treeModelFor, type V1Tree } from "../../src/adapter/opencode-permission/tree.js";
import { KILO_TOOLS } from "./tools.js";
import { InputError, type Diagnostic } from "../../src/errors.js";

import { orchestratorName } from "../../src/adapter/opencode-permission/tree.js";
export { orchestratorName };

export const HOST_ID = "kilo";
export const CONFIG_SCHEMA = "https://app.kilo.ai/config.json";

const HOST: V1Host = {
  name: "Kilo",
  config: "kilo.json",
  // Kilo keeps OpenCode's steps handling (real-host test "kilo: steps only tells subagent jade to stop").
  steps: (cap) => `steps: ${cap} (at the cap Kilo adds a "tools are disabled" message but keeps offering and running tools)`,
  noController: "Kilo plugins (OpenCode's) hang offline, so no process hook can be proven on the real host",
};

const TREE: V1Tree = { hostId: HOST_ID, dir: ".kilo", config: { file: "kilo.json", schema: CONFIG_SCHEMA }, host: HOST };

/**
 * Agent names Kilo 7.x treats as its plan mode: an agent of that name silently gets a plan-mode deny of
 * edits (Kilo-Org/kilocode#13581), so a role there could not write its artifacts. A build error, not a
 * rename: the role's name is the team's, and every other host's files use it.
 */
export const KILO_RESERVED_NAMES: readonly string[] = ["architect", "plan"];

/** E_HOST_RESERVED_NAME for each role, or the pipeline's orchestrator, that Kilo would shadow. */
export function reservedNameErrors(pipeline: PipelineIR): Diagnostic[] {
  const out: Diagnostic[] = [];
  const hint = (name: string, what: string) =>
    `Kilo treats an agent named "${name}" as its plan mode and silently denies it every edit (Kilo-Org/kilocode#13581), so ${what} could not write on Kilo. Rename it (e.g. "${name}-stage"), or build without Kilo (--host).`;
  for (const r of pipeline.roles)
    if (KILO_RESERVED_NAMES.includes(r.id))
      out.push({ code: "E_HOST_RESERVED_NAME", severity: "error", position: { file: r.source.file, ...(r.source.fields["id"] ?? { line: 1, column: 1 }) }, field: "id", message: hint(r.id, `role ${r.id}`) });
  const orch = orchestratorName(pipeline);
  if (KILO_RESERVED_NAMES.includes(orch))
    out.push({ code: "E_HOST_RESERVED_NAME", severity: "error", position: { file: pipeline.source.file, ...(pipeline.source.fields["name"] ?? { line: 1, column: 1 }) }, field: "name", message: hint(orch, "the orchestrator (named after the pipeline)") });
  return out;
}

export function modelFor(pipeline: PipelineIR, role: RoleIR): string | undefined {
  return treeModelFor(TREE, pipeline, role);
}

export const KiloAdapter: Adapter = {
  runner: async () => (await import("./runner.js")).kilo,
  id: HOST_ID,
  displayName: "Kilo",
  checkedAgainst: { program: "Kilo CLI", version: "7.7.7", bin: "kilo" },
  docs: [
    "https://kilo.ai/docs/customize/custom-subagents (Kilo-Org/kilocode packages/kilo-docs/pages/customize/custom-subagents.md)",
    "https://kilo.ai/docs/customize/agent-permissions (agent-permissions.md)",
    "@kilocode/cli@7.7.7 binary: config schema (agent, command, permission, subagent_depth), `kilo agent list`, `kilo debug config`",
    "hosts note: others.md §3.2, §5.2; claude-code-and-opencode.md §7 (Kilo's built-in bash allows precede an agent's rules)",
    "Kilo uses OpenCode's permission engine: \"OpenCode\" in the rule notes below names that engine.",
  ],
  capabilities: { subagents: true, commands: true, perRoleTools: true, perRolePaths: "native", perRoleShell: "native", hooks: true, temperature: true },
  tools: KILO_TOOLS,
  roleFeatures: V1_ROLE_FEATURES,
  proofs: {
    tools: "kilo: subagent jade runs in its own session with its tools, model and temperature, and cannot use task",
    "write-scope": "kilo: subagent jade cannot edit tests/, may edit src/",
    "never-write": "kilo: subagent jade cannot edit tests/, may edit src/",
    shell: "kilo: git push and git commit are denied for subagent jade",
    "git-deny": "kilo: git push and git commit are denied for subagent jade",
    spawn: "kilo: subagent jade runs in its own session with its tools, model and temperature, and cannot use task",
    isolation: "kilo: subagent jade runs in its own session with its tools, model and temperature, and cannot use task",
    model: "kilo: subagent jade runs in its own session with its tools, model and temperature, and cannot use task",
    temperature: "kilo: subagent jade runs in its own session with its tools, model and temperature, and cannot use task",
  },
  lower(pipeline: PipelineIR): Lowered {
    const reserved = reservedNameErrors(pipeline);
    if (reserved.length) throw new InputError(reserved);
    return lowerV1(TREE, pipeline);
  },
};
