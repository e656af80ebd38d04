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
//   .github/hooks/harness-guard.cjs          the per-call guard, a preToolUse hook in every agent's front matter
//
// Copilot takes permission rules only as launch flags (repository settings refuse them), and a
// session's flags bind every agent in it. Per role, the guard (guard.ts) holds: each agent file
// carries an agent-scoped preToolUse hook that Copilot runs for that agent's own calls only, as a
// subagent or as the session's agent; ordinary sessions run none.
import type { Adapter, HostFile, Lowered } from "../../src/adapter/types.js";
import { hostModel } from "../../src/adapter/model.js";
import type { PipelineIR, RoleIR } from "../../src/ir/types.js";
import { InputError, type Diagnostic } from "../../src/errors.js";
import fs from "node:fs";
import nodePath from "node:path";
import { renderAgentsMd, renderOrchestrator, rolePrompt, rolePrompts, type HostVocabulary } from "../../src/emit/process.js";
import { AUDIT_PATH, COPILOT_AUDIT_PROOFS, renderCopilotAudit, withCopilotAudit } from "./audit.js";
import { AUDIT_RULE_GLOBS, withInstalledEnforcement } from "../../src/adapter/audit/index.js";
import { copilotFidelity } from "./fidelity.js";
import { GUARD_PROTECTED_PATHS, GUARD_GAPS, GUARD_PATH, ORCHESTRATOR, guardHooks, mkdirCommand, renderGuard, scopeFolders } from "./guard.js";
import { pipelineLauncher, roleLauncher } from "./launcher.js";
import { lazyAgentFile, lazyTextFile } from "../../src/adapter/lazy.js";
import { COPILOT_TOOLS } from "./tools.js";
import { COPILOT_CONTROLLER_PATH, COPILOT_CONTROLLER_PROOFS, controllerHooks, withCopilotController } from "./controller.js";

export const HOST_ID = "copilot";
/** The real-host test (test/hosts/enforce-out-copilot.test.ts) proving the guard for a subagent, the orchestrator and a role run alone. */
export const GUARD_PROOF_SUBAGENT = "copilot: guard refuses subagent jade writing tests/ and docs/ and running git commit, allows its src/ write and npm test; binds onyx run alone and the orchestrator";
export const BIN_DIR = ".github/copilot/bin";

export function modelFor(pipeline: PipelineIR, role: RoleIR): string | undefined {
  return hostModel(pipeline, role, HOST_ID).id;
}

/** The orchestrator agent: named after the pipeline, unless a role already has that name. */
export function orchestratorName(pipeline: PipelineIR): string {
  return pipeline.roles.some((r) => r.id === pipeline.name) ? `${pipeline.name}-orchestrator` : pipeline.name;
}

export const launcherOf = (id: string) => `${BIN_DIR}/${id}.sh`;

/** Copilot's create tool does not make folders: the orchestrator makes a role's artifact folders first. */
function folders(role: RoleIR): string {
  const fs = scopeFolders(role.write);
  return fs.length ? ` Copilot's create tool does not make folders: if a file of this stage goes in one of these folders and it does not exist yet, make it first with its command (the only folders you may make): ${fs.map((f) => `\`${mkdirCommand(f)}\``).join(", ")}.` : "";
}

function vocabulary(pipeline: PipelineIR): HostVocabulary {
  return {
    delegate: (role) => `delegate to the \`${role.id}\` agent with the task tool (agent_type "${role.id}", mode "sync"), briefed as below; wait for its report.${folders(role)}`,
    runInMain: (role) =>
      `this stage runs as the agent \`${role.id}\`, not as you.${folders(role)} Stop and give the human the brief below to run as \`${launcherOf(role.id)} "<brief>"\` (or \`copilot --agent ${role.id}\`, or the agent picker in VS Code); when its report is in, go on from it.`,
    askHuman: "Ask the human plainly in the chat (or with ask_user) and wait for an explicit yes.",
    request: `the request the human gives you (the text after \`/${pipeline.name}\`, or their message).`,
    roleNotes: () => [
      `A harness guard hook checks your writes, commands and agent starts, and Copilot asks the human before anything else this run's permission flags do not allow (refused when no one can answer). If a write or command is refused, do not work around it (another tool, a shell redirection, a script): report "blocked" with the refusal text.`,
    ],
    controller: { script: COPILOT_CONTROLLER_PATH },
  };
}

const toolsOf = (role: RoleIR) => [...new Set(role.tools.filter((t) => t !== "spawn-agent" || role.canSpawn).map((t) => COPILOT_TOOLS[t]).filter((t): t is NonNullable<typeof t> => t !== null))];

/**
 * Claude Code's model aliases: Copilot CLI 1.0.105 fails a subagent whose `model:` is one (anchors-3 §4),
 * so a Copilot model id must be the full name (claude-sonnet-4.6). A build error at the tier's line.
 */
export const CLAUDE_ALIASES: readonly string[] = ["haiku", "sonnet", "opus", "opusplan", "inherit"];

export function modelAliasErrors(pipeline: PipelineIR): Diagnostic[] {
  const models = pipeline.hosts[HOST_ID]?.models ?? {};
  const f = pipeline.source.fields;
  return Object.entries(models)
    .filter(([, id]) => typeof id === "string" && CLAUDE_ALIASES.includes(id.trim().toLowerCase()))
    .map(([tier, id]) => ({
      code: "E_HOST_MODEL_ALIAS",
      severity: "error" as const,
      position: { file: pipeline.source.file, ...(f[`hosts.${HOST_ID}.models.${tier}`] ?? f[`hosts.${HOST_ID}.models`] ?? f[`hosts.${HOST_ID}`] ?? { line: 1, column: 1 }) },
      field: `hosts.${HOST_ID}.models.${tier}`,
      message: `"${id}" is a Claude Code alias, and Copilot CLI fails a subagent whose model is one. Write Copilot's full model id (e.g. claude-sonnet-4.6, claude-haiku-4.5), or remove the tier to use the session's model.`,
    }));
}

/**
 * An agent of the same name in the user's agents folder ($COPILOT_HOME/agents, by default
 * ~/.copilot/agents) overrides the repository's (GitHub's CLI docs): that role would run without its
 * tools list and guard hook. One line per installed agent that is shadowed.
 */
export function homeAgentOverrides(paths: readonly string[], env: Readonly<Record<string, string | undefined>>): string[] {
  const home = env.COPILOT_HOME || (env.HOME ? nodePath.join(env.HOME, ".copilot") : null);
  if (!home) return [];
  const dir = nodePath.join(home, "agents");
  const out: string[] = [];
  for (const p of paths) {
    const m = /^\.github\/agents\/([^/]+)\.agent\.md$/.exec(p);
    if (!m) continue;
    for (const f of [`${m[1]}.agent.md`, `${m[1]}.md`])
      if (fs.existsSync(nodePath.join(dir, f))) out.push(`${nodePath.join(dir, f)} overrides ${p}: Copilot CLI loads the user's agent of that name instead, without the role's tools and guard hook. Rename or remove it.`);
  }
  return out;
}

function agentFile(pipeline: PipelineIR, role: RoleIR, vocab: HostVocabulary): HostFile {
  const model = modelFor(pipeline, role);
  const frontmatter = (): Record<string, unknown> => ({
    name: role.id,
    description: role.description,
    tools: toolsOf(role),
    ...(model ? { model } : {}),
    // since 1.0.86 a subagent gets the repository's instructions (AGENTS.md, copilot-instructions) only
    // when its agent asks for them; a role delegated into this repository works by its conventions
    ...(role.isolation === "subagent" ? { "include-custom-instructions": true } : {}),
    // main-session roles are run by the human, never delegated by the orchestrator
    ...(role.isolation === "main" ? { "disable-model-invocation": true } : {}),
    // the role's limits travel with its agent: Copilot runs this hook for the agent's own calls only
    hooks: guardHooks(role.id),
  });
  return lazyAgentFile(`.github/agents/${role.id}.agent.md`, frontmatter, () => rolePrompt(pipeline, role, vocab));
}

function orchestratorFile(pipeline: PipelineIR, body: string): HostFile {
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
      // the run controller answers first (its refusal names the stage that must come first), then the guard
      hooks: orchestratorHooks(),
    },
    body,
  };
}

/** The orchestrator agent's hooks: the run controller's (its session only), its preToolUse before the guard's. */
function orchestratorHooks(): Record<string, unknown[]> {
  const ctl = controllerHooks();
  const guard = guardHooks(ORCHESTRATOR) as Record<string, unknown[]>;
  return { ...ctl, preToolUse: [...(ctl.preToolUse ?? []), ...(guard.preToolUse ?? [])] };
}

function agentsMd(pipeline: PipelineIR): HostFile {
  const entry = `**GitHub Copilot:** start a run with \`${launcherOf(pipeline.name)} "${pipeline.argumentHint}"\` (the CLI with the pipeline's permission flags), or \`/${pipeline.name}\` in a Copilot session; roles are agents in \`.github/agents/\`, each bound by the guard hook in its front matter, and \`${BIN_DIR}/<role>.sh\` runs one role alone. Copilot runs those hooks only in a folder listed in trustedFolders of its config.json ($COPILOT_HOME, by default ~/.copilot); the launchers refuse to start elsewhere.`;
  return { path: "AGENTS.md", kind: "text", text: renderAgentsMd(pipeline, entry), install: { mode: "block", entry } };
}

export const CopilotAdapter: Adapter = {
  runner: async () => (await import("./runner.js")).copilot,
  id: HOST_ID,
  displayName: "GitHub Copilot",
  checkedAgainst: { program: "GitHub Copilot CLI", version: "1.0.102", bin: "copilot" },
  docs: [
    "https://docs.github.com/en/copilot/reference/custom-agents-configuration",
    "https://docs.github.com/en/copilot/how-tos/use-copilot-agents/use-copilot-cli",
    "https://code.visualstudio.com/docs/copilot/customization/custom-agents",
    "@github/copilot@1.0.102 observed offline (BYOK, scripted model): tools: enforced per agent, a subagent's model: honoured, task not offered without agent, --allow-tool/--deny-tool write()/shell() rules bind subagents, agents: ignored by the CLI",
    "@github/copilot@1.0.102 agent-scoped hooks observed offline: hooks.preToolUse in an agent's front matter runs for that agent's own calls (subagent or --agent), in a persistently trusted folder; permissionDecision deny/ask/allow honoured (allow also overrides --deny-tool flags); exit 2 or any non-zero exit denies",
  ],
  capabilities: { subagents: true, commands: true, perRoleTools: true, perRolePaths: "guard", perRoleShell: "guard", hooks: true, temperature: false },
  tools: COPILOT_TOOLS,
  // the stage-end audit restores ignore and attribute files at any depth: a role may not be told it writes one
  enforcementPaths: [...GUARD_PROTECTED_PATHS, ...AUDIT_RULE_GLOBS],
  proofs: {
    tools: "copilot: subagent jade gets exactly its tools in its own context and cannot start agents",
    spawn: "copilot: subagent jade gets exactly its tools in its own context and cannot start agents",
    isolation: "copilot: subagent jade gets exactly its tools in its own context and cannot start agents",
    model: "copilot: subagent jade gets exactly its tools in its own context and cannot start agents",
    "write-scope": GUARD_PROOF_SUBAGENT,
    "never-write": GUARD_PROOF_SUBAGENT,
    shell: GUARD_PROOF_SUBAGENT,
    "git-deny": GUARD_PROOF_SUBAGENT,
    ...COPILOT_CONTROLLER_PROOFS,
  },
  auditProofs: COPILOT_AUDIT_PROOFS,
  installedWarnings: homeAgentOverrides,
  lower(pipeline: PipelineIR): Lowered {
    const aliases = modelAliasErrors(pipeline);
    if (aliases.length) throw new InputError(aliases);
    const vocab = vocabulary(pipeline);
    const orch = orchestratorName(pipeline);
    const pl = pipelineLauncher(pipeline, orch);
    // the orchestrator agent and the pipeline skill hold the same text: made once (at 1,000 roles ~0.6 MB)
    const orchestrator = renderOrchestrator(pipeline, vocab);
    const files: HostFile[] = [
      agentsMd(pipeline),
      ...pipeline.roles.map((r) => agentFile(pipeline, r, vocab)),
      orchestratorFile(pipeline, orchestrator),
      {
        path: `.github/skills/${pipeline.name}/SKILL.md`,
        kind: "markdown",
        // the CLI refuses a skill description over 1024 characters
        frontmatter: { name: pipeline.name, description: `Run the ${pipeline.title} pipeline on a request (${pipeline.argumentHint}).`.replace(/\s+/g, " ").slice(0, 1024) },
        body: orchestrator,
      },
      {
        path: `.github/prompts/${pipeline.name}.prompt.md`,
        kind: "markdown",
        frontmatter: { description: `Run the ${pipeline.title} pipeline`, agent: orch, "argument-hint": pipeline.argumentHint },
        body: `Run the ${pipeline.title} process for this request: \${input:request:${pipeline.argumentHint}}`,
      },
      { path: launcherOf(pipeline.name), kind: "text", executable: true, text: pl.text },
      ...pipeline.roles.map((r) => lazyTextFile(launcherOf(r.id), () => roleLauncher(pipeline, r).text, true)),
      { path: GUARD_PATH, kind: "text", executable: true, text: renderGuard(pipeline) },
    ];
    const prompts = rolePrompts(pipeline, vocab);
    const gaps = [
      "Permission rules reach Copilot only as launch flags: a session started without the generated launchers (plain `copilot`, VS Code, the cloud agent) has no deny rules from harness; its pipeline agents are still bound by their guard hooks (in a trusted folder), and everything else is asked.",
      "In an orchestrated run every agent shares the session's flags (the union of the roles' rules); each agent's own limits come from the guard hook in its front matter.",
      "shell() rules match the leading words of a command; files written by a command (redirections, interpreters, scripts) are not checked against write() rules.",
      "The orchestrator's `agents:` list is honoured by VS Code only; in the CLI the orchestrator's guard hook refuses starting any agent that is not a pipeline role.",
      ...GUARD_GAPS.map((g) => `guard: ${g}`),
      ...(pipeline.policies.scope === "repository"
        ? ["guard: policies.scope repository is bound like pipeline on Copilot: its hook input names no agent started with --agent, so a repository-wide hook could not tell a role run alone from an ordinary session; ordinary sessions are not bound"]
        : []),
    ];
    const lowered = withCopilotController(pipeline, orch, launcherOf(pipeline.name), withCopilotAudit(pipeline, { files, fidelity: copilotFidelity({ pipeline, orchestrator: orch, launcherOf, modelFor: (r) => modelFor(pipeline, r) }), prompts, gaps }));
    return withInstalledEnforcement(lowered, AUDIT_PATH, (emitted) => renderCopilotAudit(pipeline, emitted));
  },
};
