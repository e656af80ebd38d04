// Cursor adapter: lowers the Pipeline IR into a project-root tree for Cursor (editor and CLI).
// Formats from Cursor's documentation of 2026-11-30 (no installable CLI, so nothing here is proven
// on the real host): subagents https://cursor.com/docs/agent/subagents, commands, CLI permissions
// https://docs.cursor.com/en/cli/reference/permissions; hosts note "others.md" §3.3.
//
// Subagent roles are `.cursor/agents/<role>.md` (own context window); main-session roles and the
// orchestrator are commands (`.cursor/commands/*.md`, plain Markdown, the text after /name is the
// request). Per role Cursor offers only `readonly`; the pipeline-wide denies go to `.cursor/cli.json`.
// No hook guard yet: Cursor's hooks would need the host-neutral guard core, so per-role write
// scopes and command rules are instructed and recorded as losses.
import type { Adapter, HostFile, Lowered } from "../../src/adapter/types.js";
import type { PipelineIR, RoleIR } from "../../src/ir/types.js";
import { renderAgentsMd, renderOrchestrator, rolePrompt, type HostVocabulary } from "../../src/emit/process.js";
import { cursorFidelity, isReadonly } from "./fidelity.js";
import { cursorPermissions } from "./permissions.js";
import { CURSOR_TOOLS } from "./tools.js";

export const HOST_ID = "cursor";
export const DOCS_DATE = "2026-11-30";

export function modelFor(pipeline: PipelineIR, role: RoleIR): string {
  return pipeline.hosts[HOST_ID]?.models[role.model] ?? "inherit";
}

function vocabulary(pipeline: PipelineIR): HostVocabulary {
  return {
    delegate: (role) => `delegate to the \`${role.id}\` subagent (\`.cursor/agents/${role.id}.md\`) in the foreground, briefed as below; wait for its report.`,
    runInMain: (role) =>
      `this stage runs in the main chat as ${role.title}, not as a subagent. Stop and give the human the brief below to run in this chat as \`/${role.id} <brief>\`; when its report is in and the human says to go on, continue from it.`,
    askHuman: "Ask the human plainly in the chat and wait for an explicit yes.",
    request: `the request the human gives you (the text after \`/${pipeline.name}\`).`,
    roleNotes: () => [`Cursor does not enforce your write scope or shell rules for you: keep to them yourself. If Cursor refuses a write or command, do not work around it: report "blocked" with the refusal text.`],
  };
}

function agentFile(pipeline: PipelineIR, role: RoleIR, vocab: HostVocabulary): HostFile {
  return {
    path: `.cursor/agents/${role.id}.md`,
    kind: "markdown",
    frontmatter: { name: role.id, description: role.description, model: modelFor(pipeline, role), readonly: isReadonly(role), is_background: false },
    body: rolePrompt(pipeline, role, vocab),
  };
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
    "hosts notes: others.md §3.3; claude-code-and-opencode.md §7 (the shell tool is Shell)",
  ],
  capabilities: { subagents: true, commands: true, perRoleTools: false, perRolePaths: "none", perRoleShell: "none", hooks: true, temperature: false },
  tools: CURSOR_TOOLS,
  proofs: {},
  lower(pipeline: PipelineIR): Lowered {
    const vocab = vocabulary(pipeline);
    const perms = cursorPermissions(pipeline);
    const entry = `In Cursor, start a run with \`/${pipeline.name} ${pipeline.argumentHint}\` (\`.cursor/commands/${pipeline.name}.md\`). Subagent roles are in \`.cursor/agents/\`; main-session roles are commands. \`.cursor/cli.json\` denies the pipeline's never-write paths to every agent of the Cursor CLI; per-role write scopes and command rules are only in the prompts.`;
    const files: HostFile[] = [
      ...pipeline.roles.filter((r) => r.isolation === "subagent").map((r) => agentFile(pipeline, r, vocab)),
      { path: `.cursor/commands/${pipeline.name}.md`, kind: "markdown", body: renderOrchestrator(pipeline, vocab) },
      ...pipeline.roles.filter((r) => r.isolation === "main" && r.id !== pipeline.name).map((r) => mainRoleCommand(pipeline, r, vocab)),
      // Shared with the project's own CLI permissions: install merges by rule.
      { path: ".cursor/cli.json", kind: "json", data: { permissions: { allow: [], deny: perms.deny } }, install: { mode: "merge" } },
      // Other hosts read AGENTS.md too: installed side by side, they compose one block with an entry each.
      { path: "AGENTS.md", kind: "text", text: renderAgentsMd(pipeline, entry), install: { mode: "block", entry } },
    ];
    const prompts = Object.fromEntries(pipeline.roles.map((r) => [r.id, rolePrompt(pipeline, r, vocab)]));
    const gaps = [
      ".cursor/cli.json binds the Cursor CLI only; in the editor the pipeline's never-write paths are instructed too.",
      ...(perms.unwritableGlobs.length ? [`never_write globs with no Write() form, instructed only: ${perms.unwritableGlobs.join(", ")}`] : []),
    ];
    return { files, fidelity: cursorFidelity(pipeline, perms, modelFor), prompts, gaps };
  },
};
