// Gemini CLI adapter: lowers the Pipeline IR into a project-root tree Gemini CLI 0.61.0 reads.
// Formats: ../shared notes "codex-and-gemini-cli.md" §2 (agents §2.2, commands §2.3, policy engine
// §2.5, GEMINI.md §2.7), checked against the 0.61.0 bundle and run offline with a scripted model.
//
// out/gemini-cli/
//   GEMINI.md                              the process, with the Gemini entry line (how to start it)
//   .gemini/agents/<role>.md               subagent roles (strict schema: name, description, tools, model, temperature, max_turns)
//   .gemini/commands/<pipeline>.toml       /<pipeline>: the orchestrator
//   .gemini/commands/<pipeline>/<role>.toml  /<pipeline>:<role> for main-session roles
//   .gemini/policies/<pipeline>.toml       every role's write scope and shell rules (subagent-scoped)
//
// 0.61 does not read project policies (disableWorkspacePolicies): the policy folder must be passed
// with `gemini --policy .gemini/policies` (or installed in ~/.gemini/policies). It is emitted in the
// project anyway, where a later Gemini CLI that reads the workspace tier finds it.
import type { Adapter, HostFile, Lowered } from "../../src/adapter/types.js";
import { hostModel } from "../../src/adapter/model.js";
import type { PipelineIR, RoleIR } from "../../src/ir/types.js";
import { lazyMarkdownFile } from "../../src/adapter/lazy.js";
import { renderAgentsMd, renderOrchestrator, rolePrompt, rolePrompts, type HostVocabulary } from "../../src/emit/process.js";
import { geminiFidelity } from "./fidelity.js";
import { planPolicy, policyDocument, subagentRoles } from "./rules.js";
import { GEMINI_TOOLS, READ_COMPANIONS } from "./tools.js";
import { GEMINI_CONTROLLER_PATH, GEMINI_CONTROLLER_PROOFS, withGeminiController } from "./controller.js";

export const HOST_ID = "gemini-cli";
export const POLICY_DIR = ".gemini/policies";
export const LAUNCH = `gemini --policy ${POLICY_DIR}`;

export function modelFor(pipeline: PipelineIR, role: RoleIR): string | undefined {
  return hostModel(pipeline, role, HOST_ID).id;
}

const pipelineCommand = (p: PipelineIR) => `/${p.name}`;
const roleCommand = (p: PipelineIR, r: RoleIR) => `/${p.name}:${r.id}`;

/**
 * Custom command prompts expand `{{args}}`, run `!{…}` as shell commands and inline `@{…}` files.
 * Generated prose must never trigger them: a space breaks each opener (only `{{args}}` we add stays).
 */
export function inert(text: string): string {
  return text.replace(/!\{/g, "! {").replace(/@\{/g, "@ {").replace(/\{\{/g, "{ {");
}

function vocabulary(pipeline: PipelineIR): HostVocabulary {
  return {
    delegate: (role) => `delegate to the \`${role.id}\` subagent: call invoke_agent with agent_name "${role.id}" and the brief below as its prompt, and wait for its report.`,
    runInMain: (role) =>
      `this stage runs in this session as ${role.title}, under the session's policy. Stop and give the human the brief below to run as \`${roleCommand(pipeline, role)} <brief>\`; when its report is in, go on from it.`,
    askHuman: "Ask the human plainly in the chat (or with ask_user) and wait for an explicit yes.",
    request: `the request the human gives after \`${pipelineCommand(pipeline)}\`.`,
    roleNotes: () => [
      `Gemini CLI's policy rules (\`${POLICY_DIR}\`, loaded with \`--policy\`) enforce your write scope and command rules. Give file paths relative to the project root: absolute paths and ".." are refused. If a write or command is refused, do not work around it (another tool, a shell redirection, a script): report "blocked" with the refusal text.`,
    ],
    controller: { script: GEMINI_CONTROLLER_PATH },
  };
}

function agentFile(pipeline: PipelineIR, role: RoleIR, vocab: HostVocabulary): HostFile {
  const tools = [...new Set(role.tools.filter((t) => t !== "spawn-agent").flatMap((t) => [GEMINI_TOOLS[t], ...(READ_COMPANIONS[t] ?? [])]))];
  const model = modelFor(pipeline, role);
  // Strict schema: any other key fails the whole file. No display_name: policy `subagent` matches it when set.
  const frontmatter: Record<string, unknown> = {
    name: role.id,
    description: role.description,
    kind: "local",
    tools,
    ...(model ? { model } : {}),
    ...(role.temperature ? { temperature: role.temperature.value } : {}),
    ...(role.maxTurns !== undefined ? { max_turns: role.maxTurns } : {}),
  };
  return lazyMarkdownFile(`.gemini/agents/${role.id}.md`, frontmatter, () => rolePrompt(pipeline, role, vocab));
}

function command(path: string, description: string, prompt: string): HostFile {
  return { path, kind: "toml", data: { description: description.replace(/\s+/g, " ").trim(), prompt } };
}

function geminiMd(pipeline: PipelineIR): HostFile {
  const entry = [
    `**Gemini CLI:** start the session with \`${LAUNCH}\` (Gemini CLI 0.61 ignores project policies, so without \`--policy\` none of the roles' limits apply), then run \`${pipelineCommand(pipeline)} ${pipeline.argumentHint}\`.`,
    "Subagent roles are in `.gemini/agents/` (acknowledge them once in `/agents`); main-session roles are commands; keep the default approval mode, never `--yolo`.",
  ].join(" ");
  // A project may keep its own GEMINI.md: harness owns one marked block in it.
  return { path: "GEMINI.md", kind: "text", text: renderAgentsMd(pipeline, entry), install: { mode: "block", entry } };
}

export const GeminiCliAdapter: Adapter = {
  runner: async () => (await import("./runner.js")).geminiCli,
  id: HOST_ID,
  displayName: "Gemini CLI",
  checkedAgainst: { program: "Gemini CLI", version: "0.61.0", bin: "gemini" },
  docs: [
    "https://github.com/google-gemini/gemini-cli/blob/main/docs/core/subagents.md",
    "https://github.com/google-gemini/gemini-cli/blob/main/docs/cli/custom-commands.md",
    "https://github.com/google-gemini/gemini-cli/blob/main/docs/reference/policy-engine.md",
    "@google/gemini-cli@0.61.0 bundle: localAgentSchema (agentLoader.ts), PolicyRuleSchema and isSafeRegExp (policy/toml-loader.ts, policy/utils.ts), PolicyEngine.check and getExcludedTools (policy-engine.ts), disableWorkspacePolicies = true (cli/config/policy.ts)",
    "Gemini CLI 0.61.0 observed offline with a scripted model: subagent-scoped policy rules, invoke_agent allow-list, headless refusals",
  ],
  capabilities: { subagents: true, commands: true, perRoleTools: true, perRolePaths: "native", perRoleShell: "native", hooks: true, temperature: false },
  tools: GEMINI_TOOLS,
  proofs: {
    ...GEMINI_CONTROLLER_PROOFS,
    tools: "gemini-cli: subagent jade gets exactly its tools and model in its own context, and no invoke_agent",
    "write-scope": "gemini-cli: policy limits subagent jade's writes to its scope and the main session's to its roles' union",
    "never-write": "gemini-cli: policy limits subagent jade's writes to its scope and the main session's to its roles' union",
    shell: "gemini-cli: policy runs jade's allowed command and refuses git commit, git push and unlisted commands",
    "git-deny": "gemini-cli: policy runs jade's allowed command and refuses git commit, git push and unlisted commands",
    spawn: "gemini-cli: subagent jade gets exactly its tools and model in its own context, and no invoke_agent",
    isolation: "gemini-cli: subagent jade gets exactly its tools and model in its own context, and no invoke_agent",
    model: "gemini-cli: subagent jade gets exactly its tools and model in its own context, and no invoke_agent",
    "max-turns": "gemini-cli: max_turns stops subagent jade",
  },
  lower(pipeline: PipelineIR): Lowered {
    const vocab = vocabulary(pipeline);
    const plan = planPolicy(pipeline);
    const policyPath = `${POLICY_DIR}/${pipeline.name}.toml`;
    const mains = pipeline.roles.filter((r) => r.isolation === "main");
    // the run controller binds a session by the command's expanded text, up to the request
    const entryText = `${inert(renderOrchestrator(pipeline, vocab))}\n\n## The request\n\n`;
    const files: HostFile[] = [
      geminiMd(pipeline),
      ...subagentRoles(pipeline).map((r) => agentFile(pipeline, r, vocab)),
      command(`.gemini/commands/${pipeline.name}.toml`, `Run the ${pipeline.title} pipeline: ${pipeline.description}`, `${entryText}{{args}}\n`),
      ...mains.map((r) =>
        command(`.gemini/commands/${pipeline.name}/${r.id}.toml`, r.description, `Act as ${inert(r.title)} in this session for the brief below.\n\n${inert(rolePrompt(pipeline, r, vocab))}\n\n## The brief\n\n{{args}}\n`),
      ),
      { path: policyPath, kind: "toml", data: policyDocument(plan) },
    ];
    const prompts = rolePrompts(pipeline, vocab);
    const gaps = [
      `Gemini CLI 0.61 reads no project policy: the rules apply only to a session started with \`${LAUNCH}\` (or with ${policyPath} copied into ~/.gemini/policies).`,
      "Write rules match the file_path argument as the model wrote it: paths must be relative to the project root (absolute paths and \"..\" are refused); a symbolic link inside an allowed folder that points elsewhere is not detected.",
      "Gemini CLI asks before any write to a build file (Dockerfile, package.json, Makefile, go.mod, …) whatever the policy allows; a headless run refuses those writes.",
      "Shell rules match the command text (each part of a compound command separately); files written by a command (redirections, interpreters, scripts) are not checked against the write scope.",
      "--yolo (or --approval-mode yolo) allows every call no rule matches: the main session then runs any command that is not denied.",
    ];
    return withGeminiController(pipeline, entryText, LAUNCH, { files, fidelity: geminiFidelity({ pipeline, plan, policyPath, commandFor: (r) => roleCommand(pipeline, r), pipelineCommand: pipelineCommand(pipeline), modelFor: (r) => modelFor(pipeline, r) }), prompts, gaps });
  },
};
