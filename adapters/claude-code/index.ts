// Claude Code adapter: lowers the Pipeline IR into a project-root tree Claude Code 2.1.332 reads.
// Formats: ../shared notes "claude-code-and-opencode.md" §2 (agent fields §2.2, commands §2.3,
// permissions §2.5, hooks §2.6–2.7), verified against the real program by test/hosts.
import { sandboxMapping } from "./sandbox-mapping.js";
import type { Adapter, HostFile, Lowered } from "../../src/adapter/types.js";
import type { FidelityRecord } from "../../src/adapter/fidelity.js";
import { hostModel } from "../../src/adapter/model.js";
import type { PipelineIR, RoleIR } from "../../src/ir/types.js";
import { lazyAgentFile } from "../../src/adapter/lazy.js";
import { roleById } from "../../src/ir/lookup.js";
import { renderOrchestrator, rolePrompt, rolePrompts, type HostVocabulary } from "../../src/emit/process.js";
import { CLAUDE_TOOLS, SPAWN_TOOL, claudeDisallowed, claudeTools } from "./tools.js";
import { CLAUDE_ROLE_FEATURES } from "./role-fields.js";
import { hostFieldsOf } from "../../src/adapter/host-fields.js";
import { GUARD_GAPS, GUARD_OFF_ENV, GUARD_PATH, GUARD_PROTECTED_PATHS, ORCHESTRATOR, guardHooks, renderGuard } from "./guard.js";
import { settingsDenies } from "./settings-rules.js";
import { claudeFidelity } from "./fidelity.js";
import { AUDIT_PATH, CLAUDE_AUDIT_PROOFS, renderClaudeAudit, withClaudeAudit } from "./audit.js";
import { AUDIT_RULE_GLOBS, withInstalledEnforcement } from "../../src/adapter/audit/index.js";
import { claudeMd } from "./templates.gen.js";
import { CLAUDE_CONTROLLER_PROOFS, CONTROLLER_PATH, withClaudeController } from "./controller.js";

export const HOST_ID = "claude-code";

const vocabulary: HostVocabulary = {
  delegate: (role) => `delegate to the \`${role.id}\` subagent with the Agent tool (subagent_type "${role.id}"), briefed as below; wait for its report.`,
  runInMain: (role) =>
    `do this stage yourself, in this session, as ${role.title}: follow \`.claude/commands/${role.id}.md\` (its instructions and limits apply until the stage is done). The human can also start it with /${role.id}.`,
  askHuman: "Ask the human (with the AskUserQuestion tool, or plainly in the chat) and wait for an explicit yes.",
  request: "$ARGUMENTS",
  roleNotes: () => [`A harness guard hook checks your writes and commands. If it refuses one, do not work around it: report "blocked" with the refusal text.`],
  controller: { script: CONTROLLER_PATH },
};

const firstSentence = (text: string) => /^[\s\S]*?[.!?](?=\s|$)/.exec(text)?.[0] ?? text;

export function modelFor(pipeline: PipelineIR, role: RoleIR): string {
  return hostModel(pipeline, role, HOST_ID).id ?? "inherit";
}

/** The role's own hooks (hosts.claude-code.hooks) beside the guard: the guard's PreToolUse entry first. */
function withOwnHooks(guard: Record<string, unknown> | undefined, own: unknown): Record<string, unknown> | undefined {
  if (!own || typeof own !== "object") return guard;
  const merged: Record<string, unknown> = { ...(own as Record<string, unknown>) };
  for (const [event, entries] of Object.entries(guard ?? {})) merged[event] = [...(entries as unknown[]), ...((merged[event] as unknown[] | undefined) ?? [])];
  return merged;
}

function agentFile(pipeline: PipelineIR, role: RoleIR): HostFile {
  return lazyAgentFile(`.claude/agents/${role.id}.md`, () => agentFrontmatter(pipeline, role), () => rolePrompt(pipeline, role, vocabulary));
}

function agentFrontmatter(pipeline: PipelineIR, role: RoleIR): Record<string, unknown> {
  const tools = claudeTools(role);
  const disallowed = claudeDisallowed(role, role.canSpawn);
  const { hooks: ownHooks, ...native } = hostFieldsOf(role, HOST_ID);
  const hooks = withOwnHooks(pipeline.policies.scope === "pipeline" ? guardHooks(role.id, pipeline) : undefined, ownHooks);
  return {
    name: role.id,
    description: role.description,
    ...(tools ? { tools: tools.join(", ") } : {}),
    ...(disallowed.length ? { disallowedTools: disallowed.join(", ") } : {}),
    model: modelFor(pipeline, role),
    ...(role.maxTurns !== undefined ? { maxTurns: role.maxTurns } : {}),
    ...(role.effort ? { effort: role.effort } : {}),
    ...(role.worktree ? { isolation: "worktree" } : {}),
    ...(role.skills?.length ? { skills: [...role.skills] } : {}),
    ...(role.mcpServers ? { mcpServers: Array.isArray(role.mcpServers) ? [...role.mcpServers] : Object.entries(role.mcpServers).map(([name, config]) => ({ [name]: config })) } : {}),
    ...(role.memory ? { memory: role.memory } : {}),
    ...(role.background !== undefined ? { background: role.background } : {}),
    ...(role.initialPrompt ? { initialPrompt: role.initialPrompt } : {}),
    ...native,
    // scope pipeline: the role's limits travel with the role (subagent or --agent), nowhere else
    ...(hooks ? { hooks } : {}),
  };
}

function mainRoleCommand(pipeline: PipelineIR, role: RoleIR): HostFile {
  const body = `Act as ${role.title} in this session for: $ARGUMENTS\n\n${rolePrompt(pipeline, role, vocabulary)}`;
  return {
    path: `.claude/commands/${role.id}.md`,
    kind: "markdown",
    frontmatter: {
      description: role.description,
      "argument-hint": "<what this stage should work on>",
      ...(pipeline.policies.scope === "pipeline" ? { hooks: guardHooks(role.id, pipeline) } : {}),
    },
    body,
  };
}

function settings(pipeline: PipelineIR): HostFile {
  const p = pipeline.policies;
  const base = { $schema: "https://json.schemastore.org/claude-code-settings.json" };
  // scope pipeline: settings.json binds every session, so it carries none of the pipeline's limits,
  // only a second guard layer for role subagents keyed on agent_type (a role's own front-matter hook is
  // the first; some builds do not fire those, anthropics/claude-code#95650): a session or agent that
  // is not a pipeline role gets no opinion from it
  if (p.scope === "pipeline") return { path: ".claude/settings.json", kind: "json", install: { mode: "merge" }, data: { ...base, hooks: guardHooks(undefined, pipeline) } };
  return {
    path: ".claude/settings.json",
    kind: "json",
    // Shared with the project's own hooks, permissions and env: install merges by key and entry.
    install: { mode: "merge" },
    data: {
      ...base,
      permissions: {
        // Deny beats allow (and a hook's allow): only denies no allowed command could meet. Only
        // Edit(path) rules are path-matched; Write(path) never matches (§2.5).
        deny: [...settingsDenies(pipeline).map((c) => `Bash(${c})`), ...p.neverWrite.map((g) => `Edit(${g})`)],
      },
      ...(p.nestedAgents ? {} : { env: { CLAUDE_CODE_MAX_SUBAGENT_SPAWN_DEPTH: "1" } }),
      hooks: guardHooks(undefined, pipeline),
    },
  };
}

function instructions(pipeline: PipelineIR): HostFile {
  const text = claudeMd({
    title: pipeline.title,
    rolesDir: pipeline.rolesDir,
    command: pipeline.name,
    argumentHint: pipeline.argumentHint,
    stages: pipeline.stages.map((s) => {
      const role = roleById(pipeline, s.role)!;
      return { id: s.id, role: role.id, title: role.title, how: role.isolation === "subagent" ? `subagent \`${role.id}\`` : `main session (\`/${role.id}\`)` };
    }),
    rulesHeading: pipeline.policies.scope === "pipeline" ? `Rules for every ${pipeline.title} run (/${pipeline.name} and its roles):` : "Rules for every session in this project:",
    rules: [
      ...(pipeline.policies.shellDeny.length ? [`Never run ${pipeline.policies.shellDeny.map((c) => `\`${c}\``).join(", ")}: the human commits.`] : []),
      ...(pipeline.policies.nestedAgents ? [] : ["Subagents never start other agents."]),
    ],
    binding:
      pipeline.policies.scope === "pipeline"
        ? `The guard hook \`${GUARD_PATH}\` enforces each role's limits wherever the role runs (a subagent, \`claude --agent <role>\`, its own command) and the orchestrator's while \`/${pipeline.name}\` runs; an ordinary session in this project is not bound.`
        : `The guard hook \`${GUARD_PATH}\` (wired in \`.claude/settings.json\`) enforces the roles' limits in every session in this project; every main thread counts as the orchestrator.`,
    killEnv: GUARD_OFF_ENV,
  });
  return { path: "CLAUDE.md", kind: "text", text, install: { mode: "block" } };
}

export const ClaudeCodeAdapter: Adapter = {
  runner: async () => (await import("./runner.js")).claudeCode,
  sandboxMapping,
  id: HOST_ID,
  displayName: "Claude Code",
  checkedAgainst: { program: "Claude Code", version: "2.1.332", bin: "claude" },
  docs: [
    "https://code.claude.com/docs/en/sub-agents",
    "https://code.claude.com/docs/en/permissions",
    "https://code.claude.com/docs/en/hooks",
    "@anthropic-ai/claude-agent-sdk@0.3.332 sdk.d.ts (AgentDefinition, Settings, PreToolUseHookInput)",
  ],
  capabilities: { subagents: true, commands: true, perRoleTools: true, perRolePaths: "guard", perRoleShell: "guard", hooks: true, temperature: false },
  tools: CLAUDE_TOOLS,
  roleFeatures: CLAUDE_ROLE_FEATURES,
  // the stage-end audit restores ignore and attribute files at any depth: a role may not be told it writes one
  enforcementPaths: [...GUARD_PROTECTED_PATHS, ...AUDIT_RULE_GLOBS],
  proofs: {
    tools: "claude-code: subagent chalk gets exactly its tools, its model and its own context",
    "write-scope": "claude-code: guard refuses mica writing src/",
    "never-write": "claude-code: guard refuses jade writing tests/",
    shell: "claude-code: guard refuses onyx (--agent) editing src/ and running commands its shell rules deny",
    "git-deny": "claude-code: guard refuses git commit and git push for subagent jade",
    spawn: "claude-code: subagent jade cannot start an agent",
    isolation: "claude-code: subagent chalk gets exactly its tools, its model and its own context",
    model: "claude-code: subagent chalk gets exactly its tools, its model and its own context",
    "max-turns": "claude-code: maxTurns caps subagent jade's turns",
    effort: "claude-code: subagent chalk gets exactly its tools, its model and its own context",
    ...CLAUDE_CONTROLLER_PROOFS,
  },
  auditProofs: CLAUDE_AUDIT_PROOFS,
  lower(pipeline: PipelineIR): Lowered {
    const files: HostFile[] = [
      ...pipeline.roles.map((r) => agentFile(pipeline, r)),
      {
        path: `.claude/commands/${pipeline.name}.md`,
        kind: "markdown",
        frontmatter: {
          // the first sentence only: the command list (and its descriptions) is in every session's context
          description: `Run the ${pipeline.title} pipeline: ${firstSentence(pipeline.description)}`,
          "argument-hint": pipeline.argumentHint,
          ...(pipeline.policies.scope === "pipeline" ? { hooks: guardHooks(ORCHESTRATOR, pipeline) } : {}),
        },
        body: renderOrchestrator(pipeline, vocabulary),
      },
      ...pipeline.roles.filter((r) => r.isolation === "main" && r.id !== pipeline.name).map((r) => mainRoleCommand(pipeline, r)),
      settings(pipeline),
      { path: GUARD_PATH, kind: "text", text: renderGuard(pipeline), executable: true },
      instructions(pipeline),
    ];
    const fidelity: FidelityRecord[] = claudeFidelity(pipeline, modelFor);
    const prompts = rolePrompts(pipeline, vocabulary);
    const lowered = withClaudeController(pipeline, withClaudeAudit(pipeline, { files, fidelity, prompts, gaps: GUARD_GAPS.map((g) => `guard: ${g}`) }));
    return withInstalledEnforcement(lowered, AUDIT_PATH, (emitted) => renderClaudeAudit(pipeline, undefined, emitted));
  },
};
