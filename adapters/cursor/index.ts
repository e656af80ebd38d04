// Cursor adapter: lowers the Pipeline IR into a project-root tree for Cursor (editor and CLI).
// Formats from Cursor's documentation of 2026-11-30 (no installable CLI, so nothing here is proven
// on the real host): subagents https://cursor.com/docs/agent/subagents, commands, CLI permissions
// https://docs.cursor.com/en/cli/reference/permissions; hosts note "others.md" §3.3.
//
// Subagent roles are `.cursor/agents/<role>.md` (own context window); main-session roles and the
// orchestrator are commands (`.cursor/commands/*.md`, plain Markdown, the text after /name is the
// request). Per role Cursor offers only `readonly`; the pipeline-wide denies go to `.cursor/cli.json`.
// Under `policies.scope: repository` a hook guard (guard.ts: `.cursor/hooks.json` + the shared guard
// core in `.cursor/hooks/harness-guard.cjs`; hooks docs https://cursor.com/docs/hooks, published
// 2026-08-24, read 2026-11-30) holds every agent to the pipeline-wide limits. Cursor's hook input
// names no role and cannot tell a pipeline run from an ordinary chat, so there is no per-role guard
// and none at all under `scope: pipeline`; per-role write scopes and command rules stay instructed
// and recorded as losses (the guard is defence in depth, not proven on the real host).
import type { Adapter, HostFile, Lowered } from "../../src/adapter/types.js";
import { hostModel } from "../../src/adapter/model.js";
import type { PipelineIR, RoleIR } from "../../src/ir/types.js";
import { renderAgentsMd, renderOrchestrator, rolePrompt, rolePrompts, type HostVocabulary } from "../../src/emit/process.js";
import { lazyMarkdownFile } from "../../src/adapter/lazy.js";
import { cursorFidelity, isReadonly } from "./fidelity.js";
import { cursorPermissions } from "./permissions.js";
import { CURSOR_TOOLS } from "./tools.js";
import { GUARD_PROTECTED_PATHS, GUARD_GAPS, GUARD_PATH, HOOKS_PATH, hooksJson, renderCursorGuard } from "./guard.js";

export const HOST_ID = "cursor";
export const DOCS_DATE = "2026-11-30";

export function modelFor(pipeline: PipelineIR, role: RoleIR): string {
  return hostModel(pipeline, role, HOST_ID).id ?? "inherit";
}

function vocabulary(pipeline: PipelineIR): HostVocabulary {
  return {
    delegate: (role) => `delegate to the \`${role.id}\` subagent (\`.cursor/agents/${role.id}.md\`) in the foreground, briefed as below; wait for its report.`,
    runInMain: (role) =>
      `this stage runs in the main chat as ${role.title}, not as a subagent. Stop and give the human the brief below to run in this chat as \`/${role.id} <brief>\`; when its report is in and the human says to go on, continue from it.`,
    askHuman: "Ask the human plainly in the chat and wait for an explicit yes.",
    request: `the request the human gives you (the text after \`/${pipeline.name}\`).`,
    roleNotes: () => [
      pipeline.policies.scope === "repository"
        ? `Cursor does not enforce your own write scope or shell rules for you: keep to them yourself. A harness guard hook holds every agent here to the pipeline's shared limits; if it or Cursor refuses a write or command, do not work around it: report "blocked" with the refusal text.`
        : `Cursor does not enforce your write scope or shell rules for you: keep to them yourself. If Cursor refuses a write or command, do not work around it: report "blocked" with the refusal text.`,
    ],
  };
}

function agentFile(pipeline: PipelineIR, role: RoleIR, vocab: HostVocabulary): HostFile {
  const frontmatter = { name: role.id, description: role.description, model: modelFor(pipeline, role), readonly: isReadonly(role), is_background: false };
  return lazyMarkdownFile(`.cursor/agents/${role.id}.md`, frontmatter, () => rolePrompt(pipeline, role, vocab));
}

function mainRoleCommand(pipeline: PipelineIR, role: RoleIR, vocab: HostVocabulary): HostFile {
  return { path: `.cursor/commands/${role.id}.md`, kind: "markdown", body: `Act as ${role.title} in this chat for the brief that follows this command.\n\n${rolePrompt(pipeline, role, vocab)}` };
}

export const CursorAdapter: Adapter = {
  id: HOST_ID,
  displayName: "Cursor",
  checkedAgainst: { program: "Cursor", version: DOCS_DATE, basis: "docs" },
  docs: [
    `https://cursor.com/docs/agent/subagents (read ${DOCS_DATE}: name, description, model, readonly, is_background)`,
    `https://docs.cursor.com/en/cli/reference/permissions (read ${DOCS_DATE}: .cursor/cli.json, Shell(first token), Write(glob), deny wins)`,
    "https://cursor.com/docs/agent/chat/commands (.cursor/commands/*.md, plain Markdown)",
    `https://cursor.com/docs/hooks (published 2026-08-24, read ${DOCS_DATE}: .cursor/hooks.json version 1, run from the project root in trusted workspaces; preToolUse tool_name/tool_input/cwd, beforeShellExecution command/cwd, beforeMCPExecution tool_name, subagentStart subagent_type; output permission allow|deny|ask with user_message/agent_message, ask not enforced for preToolUse and deny for subagentStart; exit 2 blocks; failClosed blocks on a crash, timeout or invalid JSON; no field naming the calling agent)`,
    "https://cursor.com/docs/reference/third-party-hooks (Cursor also loads Claude Code's hooks)",
    "hosts notes: others.md §3.3; claude-code-and-opencode.md §7 (the shell tool is Shell)",
  ],
  capabilities: { subagents: true, commands: true, perRoleTools: false, perRolePaths: "none", perRoleShell: "none", hooks: true, temperature: false },
  tools: CURSOR_TOOLS,
  enforcementPaths: GUARD_PROTECTED_PATHS,
  proofs: {},
  lower(pipeline: PipelineIR): Lowered {
    const vocab = vocabulary(pipeline);
    const perms = cursorPermissions(pipeline);
    const guarded = pipeline.policies.scope === "repository";
    const entry = `In Cursor, start a run with \`/${pipeline.name} ${pipeline.argumentHint}\` (\`.cursor/commands/${pipeline.name}.md\`). Subagent roles are in \`.cursor/agents/\`; main-session roles are commands. \`.cursor/cli.json\` denies the pipeline's never-write paths to every agent of the Cursor CLI${guarded ? `; the hook guard in \`${HOOKS_PATH}\` holds every agent in this repository to the pipeline-wide limits` : ""}; per-role write scopes and command rules are only in the prompts.`;
    const files: HostFile[] = [
      ...pipeline.roles.filter((r) => r.isolation === "subagent").map((r) => agentFile(pipeline, r, vocab)),
      { path: `.cursor/commands/${pipeline.name}.md`, kind: "markdown", body: renderOrchestrator(pipeline, vocab) },
      ...pipeline.roles.filter((r) => r.isolation === "main" && r.id !== pipeline.name).map((r) => mainRoleCommand(pipeline, r, vocab)),
      // Shared with the project's own CLI permissions: install merges by rule.
      { path: ".cursor/cli.json", kind: "json", data: { permissions: { allow: [], deny: perms.deny } }, install: { mode: "merge" } },
      // scope repository only: project hooks bind every chat in the workspace. Shared with the
      // project's own hooks: install merges by entry.
      ...(guarded
        ? [
            { path: HOOKS_PATH, kind: "json" as const, data: hooksJson(), install: { mode: "merge" as const } },
            { path: GUARD_PATH, kind: "text" as const, text: renderCursorGuard(pipeline), executable: true },
          ]
        : []),
      // Other hosts read AGENTS.md too: installed side by side, they compose one block with an entry each.
      { path: "AGENTS.md", kind: "text", text: renderAgentsMd(pipeline, entry), install: { mode: "block", entry } },
    ];
    const prompts = rolePrompts(pipeline, vocab);
    const gaps = [
      ".cursor/cli.json binds the Cursor CLI only; in the editor the pipeline's never-write paths are instructed too.",
      ...(guarded
        ? GUARD_GAPS.map((g) => `hook guard: ${g}`)
        : [
            `no hook guard: Cursor's project hooks run for every chat in the workspace and their input cannot tell a ${pipeline.title} run from an ordinary chat (nor which role calls), so under policies.scope: pipeline harness emits none; policies.scope: repository emits one that binds every agent session here`,
          ]),
      ...(perms.unwritableGlobs.length ? [`never_write globs with no Write() form, instructed only: ${perms.unwritableGlobs.join(", ")}`] : []),
    ];
    return { files, fidelity: cursorFidelity(pipeline, perms, modelFor), prompts, gaps };
  },
};
