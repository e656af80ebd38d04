// Codex adapter: lowers the Pipeline IR into a project-root tree Codex CLI 0.171.0 reads.
// Formats: ../shared notes "codex-and-gemini-cli.md" §1 (agent roles §1.2, skills §1.3, config and
// permission profiles §1.4, rules §1.5, AGENTS.md §1.7), each file loaded by the real program
// (`codex exec --strict-config`, `codex debug prompt-input`, `codex execpolicy check`).
//
// out/codex/
//   AGENTS.md                          the process, with the Codex entry line
//   .codex/config.toml                 [agents] max_depth, [permissions.<role>] profiles
//   .codex/agents/<role>.toml          one custom agent role per role (spawn_agent agent_type)
//   .codex/skills/<pipeline>/SKILL.md  the orchestrator ($<pipeline>); custom prompts are gone since 0.117
//   .codex/skills/<role>/SKILL.md      main-session roles ($<role>)
//   .codex/rules/<pipeline>.rules      policies.shell_deny as forbidden prefix rules
//   .codex/bin/<role>.sh               run one role alone with its profile enforced
//   .codex/hooks.json, .codex/hooks/   the spawned roles' per-call guard (guard.ts) and stage-end audit (audit.ts)
import type { Adapter, HostFile, Lowered } from "../../src/adapter/types.js";
import { lazyTextFile, lazyTomlFile } from "../../src/adapter/lazy.js";
import { hostModel } from "../../src/adapter/model.js";
import type { PipelineIR, RoleIR } from "../../src/ir/types.js";
import { list, renderAgentsMd, renderOrchestrator, rolePrompt, rolePrompts, type HostVocabulary } from "../../src/emit/process.js";
import { CODEX_TOOLS } from "./tools.js";
import { roleProfile, type RoleProfile } from "./permissions.js";
import { planRules, renderRules } from "./rules.js";
import { launcherPath, renderLauncher } from "./launcher.js";
import { codexFidelity } from "./fidelity.js";
import { AUDIT_PATH, CODEX_AUDIT_PROOFS, renderCodexAudit, withCodexAudit } from "./audit.js";
import { AUDIT_RULE_GLOBS, withInstalledEnforcement } from "../../src/adapter/audit/index.js";
import { CODEX_CONTROLLER_PATH, CODEX_CONTROLLER_PROOFS, withCodexController } from "./controller.js";
import { GUARD_PROTECTED_PATHS, CODEX_GUARD_PROOFS, withCodexGuard } from "./guard.js";

export const HOST_ID = "codex";
/** The orchestrated session's sandbox: Codex's built-in workspace profile (spawned agents inherit it). */
export const SESSION_PROFILE = ":workspace";

const vocabularyFor = (pipeline: PipelineIR): HostVocabulary => ({
  delegate: (role) =>
    `delegate to the \`${role.id}\` agent: call spawn_agent with agent_type "${role.id}", fork_turns "none" (so it starts from a clean context) and the brief below as its message, then wait_agent for its report.`,
  runInMain: (role) =>
    `do this stage yourself, in this session, as ${role.title}: follow the \`${role.id}\` skill (\`.codex/skills/${role.id}/SKILL.md\`); its instructions and limits apply until the stage is done. The human can also start it with $${role.id}.`,
  askHuman: "Ask the human (plainly in the chat, or with request_user_input) and wait for an explicit yes.",
  request: `the human's request: the message that invoked this skill (the text after \`$${pipeline.name}\`).`,
  roleNotes: (role) => [
    `Your tools: ${list(role.tools)}. Codex offers every agent the same tools; use no others${role.tools.includes("bash") ? "" : " (no shell commands)"}.`,
    `The Codex sandbox, the project's command rules or the harness guard hook may refuse a write or a command. If one is refused, do not work around it (another tool, a shell redirection, a script): report "blocked" with the refusal text. Write files with apply_patch.`,
  ],
  controller: { script: CODEX_CONTROLLER_PATH },
});

/** Codex's efforts stop at xhigh (ReasoningEffort: minimal … xhigh): max is written as the highest. */
export const codexEffort = (effort: string): string => (effort === "max" ? "xhigh" : effort);

export function modelFor(pipeline: PipelineIR, role: RoleIR): string | undefined {
  return hostModel(pipeline, role, HOST_ID).id;
}

const oneLine = (s: string) => s.replace(/\s+/g, " ").trim();

function agentFile(pipeline: PipelineIR, role: RoleIR, vocab: HostVocabulary): HostFile {
  const model = modelFor(pipeline, role);
  return lazyTomlFile(`.codex/agents/${role.id}.toml`, () => ({
    name: role.id,
    description: role.description,
    developer_instructions: rolePrompt(pipeline, role, vocab),
    ...(model ? { model } : {}),
    ...(role.effort ? { model_reasoning_effort: codexEffort(role.effort) } : {}),
    // Stated for when Codex applies it; 0.171 gives spawned agents the parent's sandbox instead.
    default_permissions: role.id,
  }));
}

function skill(name: string, description: string, body: string): HostFile {
  return { path: `.codex/skills/${name}/SKILL.md`, kind: "markdown", frontmatter: { name, description: oneLine(description) }, body };
}

function config(pipeline: PipelineIR, profiles: ReadonlyMap<string, RoleProfile>): HostFile {
  return {
    path: ".codex/config.toml",
    kind: "toml",
    // Shared with the project's own settings; each permission profile is one harness-owned table.
    install: { mode: "merge", units: ["permissions.*"] },
    data: {
      // A config with [permissions] must name a default; never set sandbox_mode, which would
      // switch profiles off for every session.
      default_permissions: SESSION_PROFILE,
      ...(pipeline.policies.nestedAgents ? {} : { agents: { max_depth: 1 } }),
      permissions: Object.fromEntries([...profiles.values()].map((p) => [p.name, p.data])),
    },
  };
}

function agentsMd(pipeline: PipelineIR): HostFile {
  const entry = [
    `**Codex:** start a run with the \`$${pipeline.name}\` skill, e.g. \`$${pipeline.name} ${pipeline.argumentHint}\`.`,
    "Subagent roles are Codex agents in `.codex/agents/`; main-session roles are skills.",
    "Spawned agents run in the orchestrator's sandbox; each spawned role's write scope and command rules are enforced per call by the harness guard hook in `.codex/hooks.json`, which Codex runs once its hooks are trusted (`/hooks`).",
    '`.codex/bin/<role>.sh "<task>"` runs one role alone in its own sandbox profile (see MAPPING.md).',
  ].join(" ");
  // OpenCode reads AGENTS.md too: installed side by side, the two compose one block with both entries.
  return { path: "AGENTS.md", kind: "text", text: renderAgentsMd(pipeline, entry), install: { mode: "block", entry } };
}

export const CodexAdapter: Adapter = {
  runner: async () => (await import("./runner.js")).codex,
  id: HOST_ID,
  displayName: "Codex",
  checkedAgainst: { program: "Codex", version: "0.171.0", bin: "codex" },
  docs: [
    "https://developers.openai.com/codex/subagents",
    "https://developers.openai.com/codex/skills",
    "https://developers.openai.com/codex/permissions",
    "https://developers.openai.com/codex/rules",
    "https://developers.openai.com/codex/config-reference",
    "openai/codex codex-rs/core/src/config/agent_roles.rs, codex-rs/core/src/agent/child_config.rs (spawned agents get the parent's sandbox; issues #45482, #40130, #33314)",
    "Codex 0.171.0 observed offline: codex exec --strict-config, codex debug prompt-input, codex execpolicy check, and a scripted model (profile, rules and max_depth enforcement)",
  ],
  // per-role paths and shell: the guard, for spawned roles (guard.ts); main-session roles are instructed
  capabilities: { subagents: true, commands: true, perRoleTools: false, perRolePaths: "guard", perRoleShell: "guard", hooks: true, temperature: false },
  tools: CODEX_TOOLS,
  // the stage-end audit restores ignore and attribute files at any depth: a role may not be told it writes one
  enforcementPaths: [...GUARD_PROTECTED_PATHS, ...AUDIT_RULE_GLOBS],
  auditProofs: CODEX_AUDIT_PROOFS,
  guardProofs: CODEX_GUARD_PROOFS,
  proofs: {
    ...CODEX_CONTROLLER_PROOFS,
    "write-scope": "codex: jade's launcher refuses writes to tests/, allows src/",
    "git-deny": "codex: rules forbid git commit and git push in a spawned agent",
    spawn: "codex: a spawned agent cannot spawn (max_depth = 1)",
    isolation: "codex: a spawned role starts from its own context with its developer_instructions and model",
    model: "codex: a spawned role starts from its own context with its developer_instructions and model",
    effort: "codex: a spawned role starts from its own context with its developer_instructions and model",
  },
  lower(pipeline: PipelineIR): Lowered {
    // one vocabulary for the whole lowering: role prompts are rendered once per vocabulary (src/emit/process.ts)
    const vocab = vocabularyFor(pipeline);
    const profiles = new Map(pipeline.roles.map((r) => [r.id, roleProfile(r, pipeline.artifacts)] as const));
    const rules = planRules(pipeline.policies.shellDeny, pipeline.policies.orchestratorShell);
    const rulesPath = `.codex/rules/${pipeline.name}.rules`;
    const files: HostFile[] = [
      agentsMd(pipeline),
      config(pipeline, profiles),
      ...pipeline.roles.map((r) => agentFile(pipeline, r, vocab)),
      skill(pipeline.name, `Run the ${pipeline.title} pipeline on a request: ${pipeline.description}`, renderOrchestrator(pipeline, vocab)),
      ...pipeline.roles
        .filter((r) => r.isolation === "main" && r.id !== pipeline.name)
        .map((r) => skill(r.id, r.description, `Act as ${r.title} in this session for the request you were given.\n\n${rolePrompt(pipeline, r, vocab)}`)),
      ...(rules.rules.length ? [{ path: rulesPath, kind: "text", text: renderRules(pipeline.title, rules, pipeline.rolesDir) } as const] : []),
      ...pipeline.roles.map((r) =>
        lazyTextFile(
          launcherPath(r.id),
          () =>
            renderLauncher({
              pipelineTitle: pipeline.title,
              rolesDir: pipeline.rolesDir,
              role: r,
              profile: profiles.get(r.id)!,
              ...(modelFor(pipeline, r) ? { model: modelFor(pipeline, r)! } : {}),
              instructions: rolePrompt(pipeline, r, vocab),
            }),
          true,
        ),
      ),
    ];
    const prompts = rolePrompts(pipeline, vocab);
    const lowered = withCodexController(pipeline, withCodexGuard(pipeline, withCodexAudit(pipeline, { files, fidelity: codexFidelity({ pipeline, profiles, rules, rulesPath, modelFor: (r) => modelFor(pipeline, r) }), prompts })));
    return withInstalledEnforcement(lowered, AUDIT_PATH, (emitted) => renderCodexAudit(pipeline, undefined, emitted));
  },
};
