// OpenCode adapter: lowers the Pipeline IR into a project-root tree OpenCode 1.18.33 ("V1") reads.
// Formats: shared hosts note "claude-code-and-opencode.md" §3 (agents §3.2, commands §3.3,
// permissions §3.4, tool ids §3.6, pitfalls §3.7), checked against the binary's own code.
//
// Every role is an agent file whose `permission` carries its limits natively: tools as an
// allow-list, the write scope as `edit` path patterns, shell rules as `bash` patterns, no spawning
// as `task: deny`. The orchestrator is a primary agent named after the pipeline, started by the
// pipeline command; main-session roles are primary agents the human runs in the same session.
import type { Adapter, HostFile, Lowered } from "../../src/adapter/types.js";
import type { PipelineIR, RoleIR } from "../../src/ir/types.js";
import { renderAgentsMd, renderOrchestrator, rolePrompt, type HostVocabulary } from "../../src/emit/process.js";
import { v1Fidelity, type V1Host } from "../../src/adapter/opencode-permission/fidelity.js";
import { globalPermission, lowerPermissions, orchestratorPermission, type LoweredPermission } from "../../src/adapter/opencode-permission/permissions.js";
import { OPENCODE_TOOLS } from "./tools.js";

export const HOST_ID = "opencode";
export const CONFIG_SCHEMA = "https://opencode.ai/config.json";

const HOST: V1Host = {
  name: "OpenCode",
  config: "opencode.json",
  // 1.18.33 adds a "MAXIMUM STEPS REACHED … tools are disabled" message at the cap but keeps
  // offering and running tools (real-host test "opencode: steps only tells subagent jade to stop").
  steps: (cap) => `steps: ${cap} (at the cap OpenCode adds a "tools are disabled" message but keeps offering and running tools)`,
};

export function modelFor(pipeline: PipelineIR, role: RoleIR): string | undefined {
  return pipeline.hosts[HOST_ID]?.models[role.model];
}

/** The orchestrator agent: named after the pipeline, unless a role already has that name. */
export function orchestratorName(pipeline: PipelineIR): string {
  return pipeline.roles.some((r) => r.id === pipeline.name) ? `${pipeline.name}-orchestrator` : pipeline.name;
}

/** Main-session roles get a command of their own, except one that would shadow the pipeline's. */
const roleCommand = (pipeline: PipelineIR, role: RoleIR) => role.isolation === "main" && role.id !== pipeline.name;

function vocabulary(pipeline: PipelineIR): HostVocabulary {
  const orch = orchestratorName(pipeline);
  return {
    delegate: (role) => `delegate to the \`${role.id}\` subagent with the task tool (subagent_type "${role.id}"), briefed as below; wait for its report.`,
    runInMain: (role) =>
      `this stage runs in this session as the primary agent \`${role.id}\`, under its own permissions, not as you. Stop and give the human the brief below ${
        roleCommand(pipeline, role) ? `as a command to run: \`/${role.id} <brief>\` (or they switch to \`${role.id}\` with Tab and paste it)` : `to paste after switching to \`${role.id}\` with Tab`
      }. When its report is in, the human switches back to \`${orch}\` (Tab) and you go on from its report.`,
    askHuman: "Ask the human (with the question tool, or plainly in the chat) and wait for an explicit yes.",
    request: `the request the human gives you (the text after \`/${pipeline.name}\`, or their message).`,
    roleNotes: () => [
      `OpenCode enforces your write scope and shell rules through this agent's \`permission\` rules. If a write or command is refused, do not work around it (another tool, a shell redirection, a script): report "blocked" with the refusal text.`,
    ],
  };
}

function agentFile(pipeline: PipelineIR, role: RoleIR, lowered: LoweredPermission, vocab: HostVocabulary): HostFile {
  const model = modelFor(pipeline, role);
  // Key order matters only inside `permission` (rule order); these fields are all ConfigAgentV1.
  const frontmatter: Record<string, unknown> = {
    description: role.description,
    mode: role.isolation === "main" ? "primary" : "subagent",
    ...(model ? { model } : {}),
    temperature: role.temperature.value,
    ...(role.maxTurns !== undefined ? { steps: role.maxTurns } : {}),
    permission: lowered.permission,
  };
  return { path: `.opencode/agents/${role.id}.md`, kind: "markdown", frontmatter, body: rolePrompt(pipeline, role, vocab) };
}

function orchestratorFile(pipeline: PipelineIR, vocab: HostVocabulary): HostFile {
  return {
    path: `.opencode/agents/${orchestratorName(pipeline)}.md`,
    kind: "markdown",
    frontmatter: {
      description: `Orchestrator of the ${pipeline.title} pipeline: classifies a request, delegates each stage to its agent, stops at the human gates, never commits.`,
      mode: "primary",
      permission: orchestratorPermission(pipeline).permission,
    },
    body: renderOrchestrator(pipeline, vocab),
  };
}

function pipelineCommand(pipeline: PipelineIR): HostFile {
  return {
    path: `.opencode/commands/${pipeline.name}.md`,
    kind: "markdown",
    frontmatter: { description: `Run the ${pipeline.title} pipeline: ${pipeline.description}`, agent: orchestratorName(pipeline) },
    body: `Run the ${pipeline.title} process for this request (${pipeline.argumentHint}):\n\n$ARGUMENTS`,
  };
}

function mainRoleCommand(pipeline: PipelineIR, role: RoleIR): HostFile {
  return {
    path: `.opencode/commands/${role.id}.md`,
    kind: "markdown",
    frontmatter: { description: role.description, agent: role.id },
    body: `Do your stage of the ${pipeline.title} pipeline as briefed:\n\n$ARGUMENTS\n\nEnd with your report. The human then switches back to the \`${orchestratorName(pipeline)}\` agent to continue the run.`,
  };
}

function config(pipeline: PipelineIR): HostFile {
  const p = pipeline.policies;
  return {
    path: "opencode.json",
    kind: "json",
    // Shared with the project's model, providers and MCP servers: install merges by key.
    // A project's `"edit": "ask"` is `{"*": "ask"}`; harness's rules go after it (the last match wins).
    install: { mode: "merge", units: ["agent.*", "command.*"], shorthand: { "permission.*": "*" } },
    data: {
      $schema: CONFIG_SCHEMA,
      // policies.scope: repository binds every session and agent; pipeline only the pipeline's agents
      ...(Object.keys(globalPermission(pipeline)).length ? { permission: globalPermission(pipeline) } : {}),
      // Default 1 already keeps subagents from starting subagents; stating it overrides a user config.
      subagent_depth: p.nestedAgents ? Math.max(2, p.maxHops) : 1,
    },
  };
}

function agentsMd(pipeline: PipelineIR): HostFile {
  const orch = orchestratorName(pipeline);
  const entry = `In OpenCode, start a run with \`/${pipeline.name} ${pipeline.argumentHint}\`: it runs the \`${orch}\` agent (also reachable with Tab). Every role is an agent in \`.opencode/agents/\` whose write scope, shell rules and tools are OpenCode \`permission\` rules; they apply to paths relative to the git worktree, so keep the project in a git repository.`;
  // Codex reads AGENTS.md too: installed side by side, the two compose one block with both entries.
  return { path: "AGENTS.md", kind: "text", text: renderAgentsMd(pipeline, entry), install: { mode: "block", entry } };
}

export const OpenCodeAdapter: Adapter = {
  id: HOST_ID,
  displayName: "OpenCode",
  checkedAgainst: { program: "OpenCode", version: "1.18.33" },
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
  lower(pipeline: PipelineIR): Lowered {
    const vocab = vocabulary(pipeline);
    const lowered = new Map(pipeline.roles.map((r) => [r.id, lowerPermissions(pipeline, r)] as const));
    const files: HostFile[] = [
      ...pipeline.roles.map((r) => agentFile(pipeline, r, lowered.get(r.id)!, vocab)),
      orchestratorFile(pipeline, vocab),
      pipelineCommand(pipeline),
      ...pipeline.roles.filter((r) => roleCommand(pipeline, r)).map((r) => mainRoleCommand(pipeline, r)),
      config(pipeline),
      agentsMd(pipeline),
    ];
    const prompts = Object.fromEntries(pipeline.roles.map((r) => [r.id, rolePrompt(pipeline, r, vocab)]));
    return { files, fidelity: v1Fidelity(HOST, pipeline, lowered, modelFor, orchestratorName(pipeline)), prompts };
  },
};
