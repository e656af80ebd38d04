// The project tree of an OpenCode-V1-style host (OpenCode, and Kilo, its fork): one agent file per
// role whose `permission` carries its limits, a primary orchestrator agent named after the
// pipeline, commands that start it (and main-session roles), the config file and AGENTS.md. The
// hosts differ only in names and folders, given as a V1Tree; the permission lowering is shared too.
import type { HostFile, Lowered } from "../types.js";
import { hostModel } from "../model.js";
import { hostFieldsOf } from "../host-fields.js";
import type { PipelineIR, RoleIR } from "../../ir/types.js";
import { lazyMarkdownFile } from "../lazy.js";
import { renderAgentsMd, renderOrchestrator, rolePrompt, rolePrompts, type HostVocabulary } from "../../emit/process.js";
import { v1Fidelity, type V1Host } from "./fidelity.js";
import { globalPermission, lowerPermissions, orchestratorPermission, type LoweredPermission } from "./permissions.js";

export interface V1Tree {
  /** Host id, the key of `hosts:` in pipeline.yaml (model names). */
  hostId: string;
  /** Folder of agents/ and commands/: ".opencode", ".kilo". */
  dir: string;
  /** The config file at the project root and its JSON schema URL. */
  config: { file: string; schema: string };
  host: V1Host;
}

export function modelFor(tree: V1Tree, pipeline: PipelineIR, role: RoleIR): string | undefined {
  return hostModel(pipeline, role, tree.hostId).id;
}

/** The orchestrator agent: named after the pipeline, unless a role already has that name. */
export function orchestratorName(pipeline: PipelineIR): string {
  return pipeline.roles.some((r) => r.id === pipeline.name) ? `${pipeline.name}-orchestrator` : pipeline.name;
}

/** Main-session roles get a command of their own, except one that would shadow the pipeline's. */
const roleCommand = (pipeline: PipelineIR, role: RoleIR) => role.isolation === "main" && role.id !== pipeline.name;

function vocabulary(tree: V1Tree, pipeline: PipelineIR): HostVocabulary {
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
      `${tree.host.name} enforces your write scope and shell rules through this agent's \`permission\` rules. If a write or command is refused, do not work around it (another tool, a shell redirection, a script): report "blocked" with the refusal text.`,
    ],
  };
}

function agentFile(tree: V1Tree, pipeline: PipelineIR, role: RoleIR, lowered: LoweredPermission, vocab: HostVocabulary): HostFile {
  const model = modelFor(tree, pipeline, role);
  // Key order matters only inside `permission` (rule order); these fields are all ConfigAgentV1.
  const frontmatter: Record<string, unknown> = {
    description: role.description,
    mode: role.isolation === "main" ? "primary" : "subagent",
    ...(model ? { model } : {}),
    ...(role.temperature ? { temperature: role.temperature.value } : {}),
    ...(role.maxTurns !== undefined ? { steps: role.maxTurns } : {}),
    permission: lowered.permission,
    ...hostFieldsOf(role, tree.hostId),
  };
  return lazyMarkdownFile(`${tree.dir}/agents/${role.id}.md`, frontmatter, () => rolePrompt(pipeline, role, vocab));
}

function orchestratorFile(tree: V1Tree, pipeline: PipelineIR, vocab: HostVocabulary): HostFile {
  return {
    path: `${tree.dir}/agents/${orchestratorName(pipeline)}.md`,
    kind: "markdown",
    frontmatter: {
      description: `Orchestrator of the ${pipeline.title} pipeline: classifies a request, delegates each stage to its agent, stops at the human gates, never commits.`,
      mode: "primary",
      permission: orchestratorPermission(pipeline).permission,
    },
    body: renderOrchestrator(pipeline, vocab),
  };
}

function commands(tree: V1Tree, pipeline: PipelineIR): HostFile[] {
  const orch = orchestratorName(pipeline);
  return [
    {
      path: `${tree.dir}/commands/${pipeline.name}.md`,
      kind: "markdown",
      frontmatter: { description: `Run the ${pipeline.title} pipeline: ${pipeline.description}`, agent: orch },
      body: `Run the ${pipeline.title} process for this request (${pipeline.argumentHint}):\n\n$ARGUMENTS`,
    },
    ...pipeline.roles
      .filter((r) => roleCommand(pipeline, r))
      .map((role): HostFile => ({
        path: `${tree.dir}/commands/${role.id}.md`,
        kind: "markdown",
        frontmatter: { description: role.description, agent: role.id },
        body: `Do your stage of the ${pipeline.title} pipeline as briefed:\n\n$ARGUMENTS\n\nEnd with your report. The human then switches back to the \`${orch}\` agent to continue the run.`,
      })),
  ];
}

function config(tree: V1Tree, pipeline: PipelineIR): HostFile {
  const p = pipeline.policies;
  const permission = globalPermission(pipeline);
  return {
    path: tree.config.file,
    kind: "json",
    // Shared with the project's model, providers and MCP servers: install merges by key.
    // A project's `"edit": "ask"` is `{"*": "ask"}`; harness's rules go after it (the last match wins).
    // The host reads JSONC, under either name (opencode.json or opencode.jsonc).
    install: { mode: "merge", units: ["agent.*", "command.*"], shorthand: { "permission.*": "*" }, jsonc: true, alias: `${tree.config.file}c` },
    data: {
      $schema: tree.config.schema,
      // policies.scope: repository binds every session and agent; pipeline only the pipeline's agents
      ...(Object.keys(permission).length ? { permission } : {}),
      // Default 1 already keeps subagents from starting subagents; stating it overrides a user config.
      subagent_depth: p.nestedAgents ? Math.max(2, p.maxHops) : 1,
    },
  };
}

function agentsMd(tree: V1Tree, pipeline: PipelineIR): HostFile {
  const orch = orchestratorName(pipeline);
  const name = tree.host.name;
  const entry = `In ${name}, start a run with \`/${pipeline.name} ${pipeline.argumentHint}\`: it runs the \`${orch}\` agent (also reachable with Tab). Every role is an agent in \`${tree.dir}/agents/\` whose write scope, shell rules and tools are ${name} \`permission\` rules; they apply to paths relative to the git worktree, so keep the project in a git repository.`;
  // Codex reads AGENTS.md too: installed side by side, the hosts compose one block with an entry each.
  return { path: "AGENTS.md", kind: "text", text: renderAgentsMd(pipeline, entry), install: { mode: "block", entry } };
}

/** Every file of the host's tree, its fidelity records and the role prompts. */
export function lowerV1(tree: V1Tree, pipeline: PipelineIR): Lowered {
  const vocab = vocabulary(tree, pipeline);
  const lowered = new Map(pipeline.roles.map((r) => [r.id, lowerPermissions(pipeline, r)] as const));
  const files: HostFile[] = [
    ...pipeline.roles.map((r) => agentFile(tree, pipeline, r, lowered.get(r.id)!, vocab)),
    orchestratorFile(tree, pipeline, vocab),
    ...commands(tree, pipeline),
    config(tree, pipeline),
    agentsMd(tree, pipeline),
  ];
  const prompts = rolePrompts(pipeline, vocab);
  return { files, fidelity: v1Fidelity(tree.host, pipeline, lowered, (p, r) => modelFor(tree, p, r), orchestratorName(pipeline)), prompts };
}
