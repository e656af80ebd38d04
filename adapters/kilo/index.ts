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
import type { Adapter, HostFile, Lowered } from "../../src/adapter/types.js";
import type { PipelineIR, RoleIR } from "../../src/ir/types.js";
import { renderAgentsMd, renderOrchestrator, rolePrompt, type HostVocabulary } from "../../src/emit/process.js";
import { v1Fidelity, type V1Host } from "../../src/adapter/opencode-permission/fidelity.js";
import { globalPermission, lowerPermissions, orchestratorPermission, type LoweredPermission } from "../../src/adapter/opencode-permission/permissions.js";
import { KILO_TOOLS } from "./tools.js";

export const HOST_ID = "kilo";
export const CONFIG_SCHEMA = "https://app.kilo.ai/config.json";

const HOST: V1Host = {
  name: "Kilo",
  config: "kilo.json",
  // Kilo keeps OpenCode's steps handling (real-host test "kilo: steps only tells subagent jade to stop").
  steps: (cap) => `steps: ${cap} (at the cap Kilo adds a "tools are disabled" message but keeps offering and running tools)`,
};

export function modelFor(pipeline: PipelineIR, role: RoleIR): string | undefined {
  return pipeline.hosts[HOST_ID]?.models[role.model];
}

/** The orchestrator agent: named after the pipeline, unless a role already has that name. */
export function orchestratorName(pipeline: PipelineIR): string {
  return pipeline.roles.some((r) => r.id === pipeline.name) ? `${pipeline.name}-orchestrator` : pipeline.name;
}

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
      `Kilo enforces your write scope and shell rules through this agent's \`permission\` rules. If a write or command is refused, do not work around it (another tool, a shell redirection, a script): report "blocked" with the refusal text.`,
    ],
  };
}

function agentFile(pipeline: PipelineIR, role: RoleIR, lowered: LoweredPermission, vocab: HostVocabulary): HostFile {
  const model = modelFor(pipeline, role);
  const frontmatter: Record<string, unknown> = {
    description: role.description,
    mode: role.isolation === "main" ? "primary" : "subagent",
    ...(model ? { model } : {}),
    temperature: role.temperature.value,
    ...(role.maxTurns !== undefined ? { steps: role.maxTurns } : {}),
    permission: lowered.permission,
  };
  return { path: `.kilo/agents/${role.id}.md`, kind: "markdown", frontmatter, body: rolePrompt(pipeline, role, vocab) };
}

function orchestratorFile(pipeline: PipelineIR, vocab: HostVocabulary): HostFile {
  return {
    path: `.kilo/agents/${orchestratorName(pipeline)}.md`,
    kind: "markdown",
    frontmatter: {
      description: `Orchestrator of the ${pipeline.title} pipeline: classifies a request, delegates each stage to its agent, stops at the human gates, never commits.`,
      mode: "primary",
      permission: orchestratorPermission(pipeline).permission,
    },
    body: renderOrchestrator(pipeline, vocab),
  };
}

function commands(pipeline: PipelineIR): HostFile[] {
  const orch = orchestratorName(pipeline);
  return [
    {
      path: `.kilo/commands/${pipeline.name}.md`,
      kind: "markdown",
      frontmatter: { description: `Run the ${pipeline.title} pipeline: ${pipeline.description}`, agent: orch },
      body: `Run the ${pipeline.title} process for this request (${pipeline.argumentHint}):\n\n$ARGUMENTS`,
    },
    ...pipeline.roles
      .filter((r) => roleCommand(pipeline, r))
      .map((role) => ({
        path: `.kilo/commands/${role.id}.md`,
        kind: "markdown" as const,
        frontmatter: { description: role.description, agent: role.id },
        body: `Do your stage of the ${pipeline.title} pipeline as briefed:\n\n$ARGUMENTS\n\nEnd with your report. The human then switches back to the \`${orch}\` agent to continue the run.`,
      })),
  ];
}

function config(pipeline: PipelineIR): HostFile {
  const p = pipeline.policies;
  return {
    path: "kilo.json",
    kind: "json",
    // Shared with the project's providers and models: merged by key, as OpenCode's opencode.json.
    install: { mode: "merge", units: ["agent.*", "command.*"], shorthand: { "permission.*": "*" } },
    data: { $schema: CONFIG_SCHEMA, permission: globalPermission(pipeline), subagent_depth: p.nestedAgents ? Math.max(2, p.maxHops) : 1 },
  };
}

export const KiloAdapter: Adapter = {
  id: HOST_ID,
  displayName: "Kilo",
  checkedAgainst: { program: "Kilo CLI", version: "7.7.7" },
  docs: [
    "https://kilo.ai/docs/customize/custom-subagents (Kilo-Org/kilocode packages/kilo-docs/pages/customize/custom-subagents.md)",
    "https://kilo.ai/docs/customize/agent-permissions (agent-permissions.md)",
    "@kilocode/cli@7.7.7 binary: config schema (agent, command, permission, subagent_depth), `kilo agent list`, `kilo debug config`",
    "hosts note: others.md §3.2, §5.2; claude-code-and-opencode.md §7 (Kilo's built-in bash allows precede an agent's rules)",
    "Kilo uses OpenCode's permission engine: \"OpenCode\" in the rule notes below names that engine.",
  ],
  capabilities: { subagents: true, commands: true, perRoleTools: true, perRolePaths: "native", perRoleShell: "native", hooks: true, temperature: true },
  tools: KILO_TOOLS,
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
    const vocab = vocabulary(pipeline);
    const lowered = new Map(pipeline.roles.map((r) => [r.id, lowerPermissions(pipeline, r)] as const));
    const orch = orchestratorName(pipeline);
    const entry = `In Kilo, start a run with \`/${pipeline.name} ${pipeline.argumentHint}\`: it runs the \`${orch}\` agent (also reachable with Tab). Every role is an agent in \`.kilo/agents/\` whose write scope, shell rules and tools are Kilo \`permission\` rules; they apply to paths relative to the git worktree, so keep the project in a git repository.`;
    const files: HostFile[] = [
      ...pipeline.roles.map((r) => agentFile(pipeline, r, lowered.get(r.id)!, vocab)),
      orchestratorFile(pipeline, vocab),
      ...commands(pipeline),
      config(pipeline),
      { path: "AGENTS.md", kind: "text", text: renderAgentsMd(pipeline, entry), install: { mode: "block", entry } },
    ];
    const prompts = Object.fromEntries(pipeline.roles.map((r) => [r.id, rolePrompt(pipeline, r, vocab)]));
    return { files, fidelity: v1Fidelity(HOST, pipeline, lowered, modelFor, orch), prompts };
  },
};
