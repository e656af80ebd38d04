// Antigravity adapter: lowers the Pipeline IR into the `.agents/` tree of Antigravity 2.0 and its
// CLI `agy` (not the `.agent/` layout of IDE 1.x). Formats from Google's docs as of 2026-11-30
// (hosts note "antigravity-and-copilot-hooks.md" §1); there is no installable CLI, so nothing here
// is proven on the real host.
//
// Every role is an agent folder `.agents/agents/<role>/agent.md` with an explicit `tools:`
// allow-list and a `commandExecutionPolicy` (`off` without a shell; otherwise the documented
// default `sandbox`: auto-execution is never turned on, and no workflow carries `// turbo`). The
// entry command is a skill (the CLI builds its slash commands from skills). Permissions cannot be
// committed (the CLI keeps them in user settings), so write scopes and command rules are instructed.
import type { Adapter, HostFile, Lowered } from "../../src/adapter/types.js";
import { hostModel } from "../../src/adapter/model.js";
import type { PipelineIR, RoleIR } from "../../src/ir/types.js";
import { list, renderAgentsMd, renderOrchestrator, rolePrompt, rolePrompts, type HostVocabulary } from "../../src/emit/process.js";
import { lazyMarkdownFile } from "../../src/adapter/lazy.js";
import { antigravityFidelity } from "./fidelity.js";
import { ANTIGRAVITY_TOOL_IDS, ANTIGRAVITY_TOOLS } from "./tools.js";

export const HOST_ID = "antigravity";
export const DOCS_DATE = "2026-11-30";

export function modelFor(pipeline: PipelineIR, role: RoleIR): string {
  return hostModel(pipeline, role, HOST_ID).id ?? "inherit";
}

const agentPath = (role: RoleIR) => `.agents/agents/${role.id}/agent.md`;

function vocabulary(pipeline: PipelineIR): HostVocabulary {
  return {
    delegate: (role) => `delegate to the \`${role.id}\` subagent with invoke_subagent, briefed as below; wait for its report.`,
    runInMain: (role) =>
      `this stage runs as the main agent \`${role.id}\`, under its own tools, not as you. Stop and give the human the brief below to paste after switching to \`${role.id}\` (\`/agents\`, or a new session with \`agy --agent ${role.id}\`); when its report is in, the human switches back and you go on from it.`,
    askHuman: "Ask the human plainly in the conversation and wait for an explicit yes.",
    request: `the request the human gives you (the text after \`/${pipeline.name}\`).`,
    roleNotes: () => [`Antigravity does not enforce your write scope or command rules for you: keep to them yourself. If a write or command is refused, do not work around it: report "blocked" with the refusal text.`],
  };
}

function agentFile(pipeline: PipelineIR, role: RoleIR, vocab: HostVocabulary): HostFile {
  const main = role.isolation === "main";
  const frontmatter = {
    name: role.id,
    description: role.description,
    tools: [...new Set(role.tools.flatMap((t) => ANTIGRAVITY_TOOL_IDS[t]))],
    model: modelFor(pipeline, role),
    commandExecutionPolicy: role.shell ? "sandbox" : "off",
    mainAgent: main,
    subagent: !main,
  };
  return lazyMarkdownFile(agentPath(role), frontmatter, () => rolePrompt(pipeline, role, vocab));
}

function rulesFile(pipeline: PipelineIR): HostFile {
  const p = pipeline.policies;
  const rules = [
    ...(p.shellDeny.length ? [`- Never run ${list(p.shellDeny)}: the human owns irreversible actions.`] : []),
    ...(p.nestedAgents ? [] : ["- Never start other agents; only the orchestrator delegates."]),
    ...(p.neverWrite.length ? [`- Never write ${list(p.neverWrite)}.`] : []),
    "- Never mark a command as safe to run without confirmation.",
  ];
  return { path: `.agents/rules/${pipeline.name}.md`, kind: "markdown", frontmatter: { trigger: "always_on" }, body: `# ${pipeline.title} rules\n\n${rules.join("\n")}` };
}

export const AntigravityAdapter: Adapter = {
  id: HOST_ID,
  displayName: "Antigravity",
  checkedAgainst: { program: "Antigravity", version: DOCS_DATE, basis: "docs" },
  docs: [
    `google-antigravity/antigravity-cli docs/docs-cli-commands-agents.md (read ${DOCS_DATE}: .agents/agents/<name>/agent.md; tools default to none; commandExecutionPolicy)`,
    `google-antigravity/antigravity-cli docs/docs-cli-gcli-migration.md (read ${DOCS_DATE}: slash commands are skills, .agents/skills/<name>/SKILL.md; AGENTS.md)`,
    "google-antigravity/antigravity-cli #559 (permissions are not stored in the repository), #725 (empty tools by default)",
    "hosts note: antigravity-and-copilot-hooks.md §1 (Antigravity 2.0 / CLI layout, not IDE 1.x .agent/)",
  ],
  capabilities: { subagents: true, commands: true, perRoleTools: true, perRolePaths: "none", perRoleShell: "none", hooks: false, temperature: false },
  tools: ANTIGRAVITY_TOOLS,
  proofs: {},
  lower(pipeline: PipelineIR): Lowered {
    const vocab = vocabulary(pipeline);
    const entry = `In Antigravity (2.0 or the \`agy\` CLI), start a run with \`/${pipeline.name} ${pipeline.argumentHint}\` (the skill in \`.agents/skills/${pipeline.name}/\`). Every role is an agent in \`.agents/agents/<role>/agent.md\` with its own tool list; write scopes and command rules are only in the prompts, because Antigravity keeps permissions out of the repository.`;
    const files: HostFile[] = [
      ...pipeline.roles.map((r) => agentFile(pipeline, r, vocab)),
      {
        path: `.agents/skills/${pipeline.name}/SKILL.md`,
        kind: "markdown",
        frontmatter: { name: pipeline.name, description: `Run the ${pipeline.title} pipeline on a request: ${pipeline.argumentHint}` },
        body: renderOrchestrator(pipeline, vocab),
      },
      rulesFile(pipeline),
      // Other hosts read AGENTS.md too: installed side by side, they compose one block with an entry each.
      { path: "AGENTS.md", kind: "text", text: renderAgentsMd(pipeline, entry), install: { mode: "block", entry } },
    ];
    const prompts = rolePrompts(pipeline, vocab);
    const gaps = [
      "No hook guard: workspace .agents/hooks.json loads only in an open workspace (open bugs say not at all), and hook input names no agent.",
      "The orchestrating main agent is Antigravity's default agent: its tools and commands are the user's settings.",
    ];
    return { files, fidelity: antigravityFidelity(pipeline, modelFor, agentPath), prompts, gaps };
  },
};
