// OpenCode adapter: lowers the Pipeline IR into a project-root tree OpenCode 1.18.33 ("V1") reads.
// Formats: shared hosts note "claude-code-and-opencode.md" §3 (agents §3.2, commands §3.3,
// permissions §3.4, tool ids §3.6, pitfalls §3.7), checked against the binary's own code.
//
// Every role is an agent file whose `permission` carries its limits natively: tools as an
// allow-list, the write scope as `edit` path patterns, shell rules as `bash` patterns, no spawning
// as `task: deny`. The orchestrator is a primary agent named after the pipeline, started by the
// pipeline command; main-session roles are primary agents the human runs in the same session.
import { V1_ROLE_FEATURES } from "../../src/adapter/opencode-permission/role-fields.js";
import type { Adapter, Lowered } from "../../src/adapter/types.js";
import type { PipelineIR, RoleIR } from "../../src/ir/types.js";
import type { V1Host } from "../../src/adapter/opencode-permission/fidelity.js";
import { lowerV1, modelFor as treeModelFor, type V1Tree } from "../../src/adapter/opencode-permission/tree.js";
import { OPENCODE_TOOLS } from "./tools.js";

export { orchestratorName } from "../../src/adapter/opencode-permission/tree.js";

export const HOST_ID = "opencode";
export const CONFIG_SCHEMA = "https://opencode.ai/config.json";

const HOST: V1Host = {
  name: "OpenCode",
  config: "opencode.json",
  // 1.18.33 adds a "MAXIMUM STEPS REACHED … tools are disabled" message at the cap but keeps
  // offering and running tools (real-host test "opencode: steps only tells subagent jade to stop").
  steps: (cap) => `steps: ${cap} (at the cap OpenCode adds a "tools are disabled" message but keeps offering and running tools)`,
  noController: "OpenCode plugins hang offline, so no process hook can be proven on the real host",
};

const TREE: V1Tree = { hostId: HOST_ID, dir: ".opencode", config: { file: "opencode.json", schema: CONFIG_SCHEMA }, host: HOST };

export function modelFor(pipeline: PipelineIR, role: RoleIR): string | undefined {
  return treeModelFor(TREE, pipeline, role);
}

export const OpenCodeAdapter: Adapter = {
  runner: async () => (await import("./runner.js")).opencode,
  id: HOST_ID,
  displayName: "OpenCode",
  checkedAgainst: { program: "OpenCode", version: "1.18.33", bin: "opencode" },
  docs: [
    "https://opencode.ai/docs/agents/",
    "https://opencode.ai/docs/permissions/",
    "https://opencode.ai/docs/commands/",
    "https://opencode.ai/docs/config/",
    "opencode-ai@1.18.33 binary: ConfigAgentV1, ConfigPermissionV1, ConfigCommandV1, Wildcard.match, Permission.evaluate, TaskTool",
    "@opencode-ai/sdk@1.18.33 dist/v2/gen/types.gen.d.ts (AgentConfig, PermissionConfig)",
  ],
  capabilities: { subagents: true, commands: true, perRoleTools: true, perRolePaths: "native", perRoleShell: "native", hooks: true, temperature: true },
  tools: OPENCODE_TOOLS,
  roleFeatures: V1_ROLE_FEATURES,
  proofs: {
    tools: "opencode: subagent jade runs in its own session with its tools, model and temperature, and cannot use task",
    "write-scope": "opencode: subagent jade cannot edit tests/, may edit src/",
    "never-write": "opencode: subagent jade cannot edit tests/, may edit src/",
    shell: "opencode: git push and git commit are denied for subagent jade",
    "git-deny": "opencode: git push and git commit are denied for subagent jade",
    spawn: "opencode: subagent jade runs in its own session with its tools, model and temperature, and cannot use task",
    isolation: "opencode: subagent jade runs in its own session with its tools, model and temperature, and cannot use task",
    model: "opencode: subagent jade runs in its own session with its tools, model and temperature, and cannot use task",
    temperature: "opencode: subagent jade runs in its own session with its tools, model and temperature, and cannot use task",
  },
  lower: (pipeline: PipelineIR): Lowered => lowerV1(TREE, pipeline),
};
