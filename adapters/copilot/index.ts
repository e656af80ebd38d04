// GitHub Copilot adapter: lowers the Pipeline IR into a project-root tree GitHub Copilot CLI 1.0.102
// reads (VS Code reads the same agent and prompt files). Formats: ../shared notes "others.md" §3.1,
// §5.1 and "antigravity-and-copilot-hooks.md" §2, checked against the real CLI offline (BYOK).
//
// out/copilot/
//   AGENTS.md                                the process, with the Copilot entry line (shared block)
//   .github/agents/<role>.agent.md           one agent per role: tools (enforced), model
//   .github/agents/<pipeline>.agent.md       the orchestrator: tools with `agent`, `agents:` (VS Code)
//   .github/skills/<pipeline>/SKILL.md       /<pipeline> in the CLI
//   .github/prompts/<pipeline>.prompt.md     /<pipeline> in VS Code, routed to the orchestrator agent
//   .github/copilot/bin/<pipeline>.sh        the orchestrated session with the pipeline's permission flags
//   .github/copilot/bin/<role>.sh            one role alone (copilot --agent <role>) with its own flags
//
// Copilot takes permission rules only as launch flags (repository settings refuse them), and a
// session's flags bind every agent in it: per-role write and command rules hold when a role runs
// alone through its launcher; an orchestrated run has the pipeline-wide rules only. Agent-scoped
// `hooks:` could scope them per role inside one session; no guard is generated for Copilot yet.
import type { Adapter, HostFile, Lowered } from "../../src/adapter/types.js";
import type { PipelineIR, RoleIR } from "../../src/ir/types.js";
import { renderAgentsMd, renderOrchestrator, rolePrompt, type HostVocabulary } from "../../src/emit/process.js";
import { COPILOT_AUDIT_PROOFS, withCopilotAudit } from "./audit.js";
import { copilotFidelity } from "./fidelity.js";
import { pipelineLauncher, roleLauncher } from "./launcher.js";
import { COPILOT_TOOLS } from "./tools.js";

export const HOST_ID = "copilot";
export const BIN_DIR = ".github/copilot/bin";

export function modelFor(pipeline: PipelineIR, role: RoleIR): string | undefined {
  return pipeline.hosts[HOST_ID]?.models[role.model];
}

/** The orchestrator agent: named after the pipeline, unless a role already has that name. */
export function orchestratorName(pipeline: PipelineIR): string {
  return pipeline.roles.some((r) => r.id === pipeline.name) ? `${pipeline.name}-orchestrator` : pipeline.name;
}

export const launcherOf = (id: string) => `${BIN_DIR}/${id}.sh`;

function vocabulary(pipeline: PipelineIR): HostVocabulary {
  return {
    delegate: (role) => `delegate to the \`${role.id}\` agent with the task tool (agent_type "${role.id}", mode "sync"), briefed as below; wait for its report.`,
    runInMain: (role) =>
      `this stage runs as the agent \`${role.id}\`, not as you. Stop and give the human the brief below to run as \`${launcherOf(role.id)} "<brief>"\` (or \`copilot --agent ${role.id}\`, or the agent picker in VS Code); when its report is in, go on from it.`,
    askHuman: "Ask the human plainly in the chat (or with ask_user) and wait for an explicit yes.",
    request: `the request the human gives you (the text after \`/${pipeline.name}\`, or their message).`,
    roleNotes: () => [
      `Copilot asks the human before any write or command that this run's permission flags do not allow, and refuses it when no one can answer. If a write or command is refused, do not work around it (another tool, a shell redirection, a script): report "blocked" with the refusal text.`,
    ],
  };
}

const toolsOf = (role: RoleIR) => [...new Set(role.tools.filter((t) => t !== "spawn-agent" || role.canSpawn).map((t) => COPILOT_TOOLS[t]).filter((t): t is NonNullable<typeof t> => t !== null))];

function agentFile(pipeline: PipelineIR, role: RoleIR, vocab: HostVocabulary): HostFile {
  const model = modelFor(pipeline, role);
  const frontmatter: Record<string, unknown> = {
    name: role.id,
    description: role.description,
    tools: toolsOf(role),
    ...(model ? { model } : {}),
    // main-session roles are run by the human, never delegated by the orchestrator
    ...(role.isolation === "main" ? { "disable-model-invocation": true } : {}),
  };
  return { path: `.github/agents/${role.id}.agent.md`, kind: "markdown", frontmatter, body: rolePrompt(pipeline, role, vocab) };
}

function orchestratorFile(pipeline: PipelineIR, vocab: HostVocabulary): HostFile {
  const subs = pipeline.roles.filter((r) => r.isolation === "subagent").map((r) => r.id);
  return {
    path: `.github/agents/${orchestratorName(pipeline)}.agent.md`,
    kind: "markdown",
    frontmatter: {
      name: orchestratorName(pipeline),
      description: `Orchestrator of the ${pipeline.title} pipeline: classifies a request, delegates each stage to its agent, stops at the human gates, never commits.`,
      tools: ["read", "search", "execute", "agent"],
      // VS Code: the agents it may start (the CLI ignores the field, with a warning in its log)
      agents: subs,
      "disable-model-invocation": true,
    },
    body: renderOrchestrator(pipeline, vocab),
  };
}

function agentsMd(pipeline: PipelineIR): HostFile {
  const entry = `**GitHub Copilot:** start a run with \`${launcherOf(pipeline.name)} "${pipeline.argumentHint}"\` (the CLI with the pipeline's permission flags), or \`/${pipeline.name}\` in a Copilot session; roles are agents in \`.github/agents/\`, and \`${BIN_DIR}/<role>.sh\` runs one role alone with its own write and command rules.`;
  return { path: "AGENTS.md", kind: "text", text: renderAgentsMd(pipeline, entry), install: { mode: "block", entry } };
}

export const CopilotAdapter: Adapter = {
  id: HOST_ID,
  displayName: "GitHub Copilot",
  checkedAgainst: { program: "GitHub Copilot CLI", version: "1.0.102" },
  docs: [
    "https://docs.github.com/en/copilot/reference/custom-agents-configuration",
    "https://docs.github.com/en/copilot/how-tos/use-copilot-agents/use-copilot-cli",
    "https://code.visualstudio.com/docs/copilot/customization/custom-agents",
    "@github/copilot@1.0.102 observed offline (BYOK, scripted model): tools: enforced per agent, a subagent's model: honoured, task not offered without agent, --allow-tool/--deny-tool write()/shell() rules bind subagents, agents: ignored by the CLI",
  ],
  capabilities: { subagents: true, commands: true, perRoleTools: true, perRolePaths: "none", perRoleShell: "none", hooks: true, temperature: false },
  tools: COPILOT_TOOLS,
  proofs: {
    tools: "copilot: subagent jade gets exactly its tools in its own context and cannot start agents",
    spawn: "copilot: subagent jade gets exactly its tools in its own context and cannot start agents",
    isolation: "copilot: subagent jade gets exactly its tools in its own context and cannot start agents",
    model: "copilot: subagent jade gets exactly its tools in its own context and cannot start agents",
    "write-scope": "copilot: jade's launcher allows src/ and its command, refuses tests/, docs/, git commit and git push",
    "never-write": "copilot: jade's launcher allows src/ and its command, refuses tests/, docs/, git commit and git push",
    shell: "copilot: jade's launcher allows src/ and its command, refuses tests/, docs/, git commit and git push",
    "git-deny": "copilot: the pipeline launcher refuses git commit, git push and never-write paths for subagent jade",
  },
  auditProofs: COPILOT_AUDIT_PROOFS,
  lower(pipeline: PipelineIR): Lowered {
    const vocab = vocabulary(pipeline);
    const orch = orchestratorName(pipeline);
    const pl = pipelineLauncher(pipeline, orch);
    const rls = new Map(pipeline.roles.map((r) => [r.id, roleLauncher(pipeline, r)] as const));
    const files: HostFile[] = [
      agentsMd(pipeline),
      ...pipeline.roles.map((r) => agentFile(pipeline, r, vocab)),
      orchestratorFile(pipeline, vocab),
      {
        path: `.github/skills/${pipeline.name}/SKILL.md`,
        kind: "markdown",
        // the CLI refuses a skill description over 1024 characters
        frontmatter: { name: pipeline.name, description: `Run the ${pipeline.title} pipeline on a request (${pipeline.argumentHint}).`.replace(/\s+/g, " ").slice(0, 1024) },
        body: renderOrchestrator(pipeline, vocab),
      },
      {
        path: `.github/prompts/${pipeline.name}.prompt.md`,
        kind: "markdown",
        frontmatter: { description: `Run the ${pipeline.title} pipeline`, agent: orch, "argument-hint": pipeline.argumentHint },
        body: `Run the ${pipeline.title} process for this request: \${input:request:${pipeline.argumentHint}}`,
      },
      { path: launcherOf(pipeline.name), kind: "text", executable: true, text: pl.text },
      ...pipeline.roles.map((r): HostFile => ({ path: launcherOf(r.id), kind: "text", executable: true, text: rls.get(r.id)!.text })),
    ];
    const prompts = Object.fromEntries(pipeline.roles.map((r) => [r.id, rolePrompt(pipeline, r, vocab)]));
    const gaps = [
      "Permission rules reach Copilot only as launch flags: a session started without the generated launchers (plain `copilot`, VS Code, the cloud agent) asks the human for every write and command instead, and has no deny rules.",
      "In an orchestrated run every agent shares the session's flags: a role may write anywhere any role may, and run any command any role may; only a role's own launcher applies its own scope.",
      "shell() rules match the leading words of a command; files written by a command (redirections, interpreters, scripts) are not checked against write() rules.",
      "The orchestrator's `agents:` list is honoured by VS Code only; the CLI's orchestrator may start any agent, including built-in ones.",
    ];
    return withCopilotAudit(pipeline, { files, fidelity: copilotFidelity({ pipeline, orchestrator: orch, pipelineLauncher: pl, roleLaunchers: rls, launcherOf, modelFor: (r) => modelFor(pipeline, r) }), prompts, gaps });
  },
};
