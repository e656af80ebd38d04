// Host-neutral prose about the process, rendered from the IR with a host's vocabulary.
// Every host gets the same sentences except where the vocabulary differs, which keeps shared
// files (AGENTS.md) identical across hosts and makes `harness diff` of prompts meaningful.
import type { PipelineIR, RoleIR, StageIR } from "../ir/types.js";
import { artifactByName, parallelSiblings, roleById } from "../ir/lookup.js";
import { agentsMd, orchestrator, roleLimits } from "./templates.gen.js";
import { verdictInMessage } from "../adapter/controller/model.js";

export interface HostVocabulary {
  /** How the orchestrator hands a stage to a subagent role. */
  delegate(role: RoleIR): string;
  /** How the orchestrator runs a main-session role itself. */
  runInMain(role: RoleIR): string;
  /** How the orchestrator asks the human at a gate. */
  askHuman: string;
  /** The request text placeholder of the host's command format. */
  request: string;
  /** Host-specific lines added to the role limits (e.g. how the guard reports a refusal). */
  roleNotes?(role: RoleIR): string[];
  /**
   * The host's generated run controller (src/adapter/controller/), when it holds the process: then
   * the prompt leaves order, commands, checks with a command, verdict lines and caps to it.
   */
  controller?: { script: string };
}

const code = (s: string) => `\`${s}\``;
export const list = (items: readonly string[]) => items.map(code).join(", ");

/** artifact names, with the path of each single-document artifact */
function documentPaths(pipeline: PipelineIR, names: readonly string[], side: Side): string {
  return names.map((n) => { const a = artifactByName(pipeline, n); return a?.message ? messageNote(pipeline, n, side) : a?.document ? `${n} (${code(a.paths[0]!)})` : n; }).join("; ");
}

export function artifactPaths(pipeline: PipelineIR, names: readonly string[], side: Side = "reads"): string {
  return names
    .map((n) => {
      const a = artifactByName(pipeline, n);
      return a?.message ? messageNote(pipeline, n, side) : a ? `${n} (${list(a.paths)})` : n;
    })
    .join("; ");
}

type Side = "reads" | "writes";
/** the ids of the stages whose role reads (or writes) artifact `name`, in pipeline order */
function stagesThat(pipeline: PipelineIR, side: Side, name: string): string[] {
  return pipeline.stages.filter((s) => roleById(pipeline, s.role)?.[side].includes(name)).map((s) => s.id);
}

/** A message artifact has no file: the orchestrator carries it from the stage that hands it back to the stages that read it. */
function messageNote(pipeline: PipelineIR, name: string, side: Side): string {
  if (side === "writes") {
    const readers = stagesThat(pipeline, "reads", name);
    return `${name} (handed back in its final message, no file${readers.length ? `: keep it whole and pass it on in the brief of ${list(readers)}` : ""})`;
  }
  return `${name} (the final message of ${list(stagesThat(pipeline, "writes", name))}: put it whole into this stage's brief)`;
}

function stageHow(pipeline: PipelineIR, stage: StageIR, vocab: HostVocabulary): string {
  const role = roleById(pipeline, stage.role)!;
  return role.isolation === "subagent" ? vocab.delegate(role) : vocab.runInMain(role);
}

function routeText(pipeline: PipelineIR, onFailure: string, retries: number): string {
  const repair = pipeline.stages.find((s) => s.id === onFailure)?.repairFor;
  const where =
    onFailure === "human"
      ? "stop and hand the work to the human with what failed"
      : repair
        ? `send the work to the repair stage \`${onFailure}\` with the failure output, then run \`${repair}\` again`
        : `send the work back to stage \`${onFailure}\` with the failure output`;
  return retries > 0 ? `${where}, then check again; after ${retries} ${retries === 1 ? "retry" : "retries"} stop and hand to the human.` : `${where}.`;
}

/** The briefing rule for message artifacts: they are work product, passed on whole. */
function messageBriefing(pipeline: PipelineIR): string {
  const names = pipeline.artifacts.filter((a) => a.message).map((a) => a.name);
  return names.length ? `A message artifact (${list(names)}) is work product with no file: the final message of the stage that hands it back. Pass it on whole, in a section named after it, in the brief of every stage that reads it.` : "";
}

/** A repair stage's line: when it runs (a check routes there) and what follows it. */
function repairText(stage: StageIR): string {
  if (!stage.repairFor) return "";
  return `A repair stage: run it only when a check after \`${stage.repairFor}\` sends the work here, with that check's failure output in the brief; then run \`${stage.repairFor}\` again, and its checks. Otherwise it is no step of the run: go on past it.`;
}

export function renderOrchestrator(pipeline: PipelineIR, vocab: HostVocabulary): string {
  if (vocab.controller) return renderControlledOrchestrator(pipeline, vocab, vocab.controller.script);
  const p = pipeline.policies;
  const hardRules = [
    ...(p.shellDeny.length ? [`Neither you nor any agent runs: ${list(p.shellDeny)}. The human owns every irreversible action.`] : []),
    ...(p.orchestratorShell.length ? [`The only exceptions are yours alone: ${list(p.orchestratorShell)}.`] : []),
    p.nestedAgents ? "Delegated agents may start agents of their own." : "Agents never start other agents: there is one orchestrator (you) and one level of delegation.",
    `At most ${p.maxHops} delegations in one run. Past that, stop and ask the human.`,
    ...(p.neverWrite.length ? [`Nobody writes: ${list(p.neverWrite)}.`] : []),
    "Deterministic steps (the commands below) need no agent: run them yourself and record the result.",
  ];
  const beforeStart = [
    ...(p.orchestratorShell.length ? [`Protect the human's uncommitted work first: if the working tree is dirty, stash it and say so (the commands only you may run: ${list(p.orchestratorShell)}).`] : []),
    "Read the git state (status, current branch) so you can report what changed.",
  ];
  const stages = pipeline.stages.map((stage) => {
    const role = roleById(pipeline, stage.role)!;
    const siblings = parallelSiblings(pipeline, stage);
    return {
      number: stage.index + 1,
      id: stage.id,
      roleTitle: role.title,
      parallelNote: siblings.length ? `in parallel with ${list(siblings.map((s) => s.id))}` : "",
      description: stage.description ?? "",
      condition: stage.when ? stage.when.text : "",
      repair: repairText(stage),
      how: stageHow(pipeline, stage, vocab),
      reads: role.reads.length ? artifactPaths(pipeline, role.reads, "reads") : "",
      writes: role.writes.length ? artifactPaths(pipeline, role.writes, "writes") : "",
      commands: pipeline.commands.filter((c) => c.after.includes(stage.id)).map((c) => ({ run: c.run, description: c.description })),
      checks: pipeline.checks
        .filter((c) => c.after === stage.id)
        .map((c) => ({ id: c.id, description: c.description, command: c.command?.run ?? "", expect: c.expect, onFailure: routeText(pipeline, c.onFailure, c.retries) })),
      gate: stage.gate ? `${vocab.askHuman} ${stage.gate.ask} (artifact: ${artifactPaths(pipeline, [stage.gate.approve])})` : "",
    };
  });
  const loop = pipeline.loop
    ? `The stages ${list(pipeline.loop.stages)} form a loop: findings from review or verification go back to ${code(pipeline.loop.stages[0]!)} with exact fixes. Run at most ${pipeline.loop.maxRounds} rounds. ${pipeline.loop.onExhausted}`
    : "";
  return orchestrator({
    title: pipeline.title,
    description: pipeline.description,
    request: vocab.request,
    hardRules,
    beforeStart,
    workKinds: pipeline.workKinds.map((w) => ({ id: w.id, description: w.description, stages: w.stages.join(" → ") })),
    declare: "",
    stages: stages.map((x) => ({ ...x, atEnd: "", skip: "", gateNote: "" })),
    loop,
    briefing: pipeline.briefing,
    messageNote: messageBriefing(pipeline),
  });
}

/**
 * The orchestrator of a host whose run controller holds the process: what the controller decides
 * (order, commands and the checks that have one, verdict lines, caps) is one line each; what only
 * the model can do (classify, brief, judge what no line records) keeps its full text.
 */
function renderControlledOrchestrator(pipeline: PipelineIR, vocab: HostVocabulary, script: string): string {
  const p = pipeline.policies;
  const hardRules = [
    ...(p.shellDeny.length ? ["The guard refuses every irreversible command (commits, pushes, history rewrites, publishing, deploying; the project instructions list them). The human owns every irreversible action."] : []),
    ...(p.orchestratorShell.length ? [`The only exceptions are yours alone: ${list(p.orchestratorShell)}.`] : []),
    p.nestedAgents ? "Delegated agents may start agents of their own." : "Agents never start other agents: there is one orchestrator (you) and one level of delegation.",
    ...(p.neverWrite.length ? ["Nobody writes harness's or the hosts' own files, secrets or vendored code: the guard refuses them."] : []),
    `A run controller (${code(script)}) holds this process: it refuses a stage out of order, before its gate is approved, or past a cap (${p.maxHops} delegations${pipeline.loop ? `, ${pipeline.loop.maxRounds} rounds` : ""}), and says what may run now. At each stage end it runs the stage's commands and checks itself and hands you a one-line verdict. Never run them yourself or work around a refusal: do what it says may run now, or hand over to the human.`,
  ];
  const stages = pipeline.stages.map((stage) => {
    const role = roleById(pipeline, stage.role)!;
    const siblings = parallelSiblings(pipeline, stage);
    const checks = pipeline.checks.filter((c) => c.after === stage.id);
    const doc = role.worktree ? undefined : role.writes.map((a) => artifactByName(pipeline, a)).find((a) => a?.document);
    const judged = checks.filter((c) => !c.command);
    const held = checks.filter((c) => c.command).map((c) => c.id);
    const inMessage = !doc && judged.length > 0 && verdictInMessage(pipeline, stage.role);
    const atEnd = [
      ...(held.length ? [`the controller runs the checks ${list(held)}`] : []),
      ...((doc || inMessage) && judged.length ? [`the \`Verdict:\` line of ${doc ? code(doc.paths[0]!) : "its final message"} decides ${list(judged.map((c) => c.id))}: pass, fail (${judged[0]!.onFailure === "human" ? "the run stops for the human" : `${pipeline.stages.some((x) => x.id === judged[0]!.onFailure && x.repairFor) ? "to the repair stage" : "back to"} ${code(judged[0]!.onFailure)}`}) or needs-human (the run stops)`] : []),
    ];
    return {
      number: stage.index + 1,
      id: stage.id,
      roleTitle: role.title,
      parallelNote: siblings.length ? `in parallel with ${list(siblings.map((s) => s.id))}` : "",
      description: stage.description ?? "",
      condition: stage.when ? stage.when.text : "",
      skip: stage.when ? `record it skipped with the shell step \`: harness skip ${stage.id} <reason>\`.` : "",
      repair: repairText(stage),
      how: stageHow(pipeline, stage, vocab),
      // documents by path; a glob artifact by name (its paths are in the role's own prompt)
      reads: role.reads.length ? documentPaths(pipeline, role.reads, "reads") : "",
      writes: role.writes.length ? documentPaths(pipeline, role.writes, "writes") : "",
      commands: [],
      atEnd: atEnd.length ? `At stage end ${atEnd.join("; ")}.` : "",
      checks: (doc || inMessage ? [] : judged).map((c) => ({ id: c.id, description: c.description, command: "", expect: c.expect, onFailure: routeText(pipeline, c.onFailure, c.retries) })),
      gate: stage.gate ? `${vocab.askHuman} ${stage.gate.ask} (artifact: ${artifactPaths(pipeline, [stage.gate.approve])})` : "",
      gateNote: stage.gate ? `Only the human's own reply \`approve ${stage.gate.approve}\` counts (headless, the controller prints the resume command); a change to the artifact after that voids the approval.` : "",
    };
  });
  return orchestrator({
    title: pipeline.title,
    description: `${pipeline.stages.length} stages, ${pipeline.roles.length} roles; a run controller holds the order, the gates, the checks and the caps, and this prompt says what only you can do.`,
    request: vocab.request,
    hardRules,
    beforeStart: [
      ...(p.orchestratorShell.length ? [`First protect the human's uncommitted work: stash it if the tree is dirty (${list(p.orchestratorShell)}).`] : []),
    ],
    workKinds: pipeline.workKinds.map((w) => ({ id: w.id, description: w.description, stages: w.stages.join(" → ") })),
    declare: pipeline.workKinds.length ? "Declare the kind once, before any stage, with the shell step `: harness kind <kind>`: it runs nothing; the controller records it and runs only that kind's stages." : "",
    stages,
    loop: pipeline.loop ? `The stages ${list(pipeline.loop.stages)} form a loop: findings go back to ${code(pipeline.loop.stages[0]!)} with exact fixes. The controller refuses round ${pipeline.loop.maxRounds + 1} and says what to hand over.` : "",
    briefing: pipeline.briefing,
    messageNote: messageBriefing(pipeline),
  });
}

// The host-neutral part of a role's limits, listed once per role rather than once per role and host:
// at 1,000 roles the pipeline-wide deny list alone was ~400 MB of short-lived strings per build.
const neutralLimits = new WeakMap<PipelineIR, WeakMap<RoleIR, { data: Record<string, unknown>; rendered: Map<string, string> }>>();
// The rendered limits by content (the neutral part, then the host's notes): hosts whose notes are the
// same, and roles whose limits are the same, render the template once. The text is short (no role body).
const renderedLimits = new WeakMap<PipelineIR, Map<string, Map<string, string>>>();

export function renderRoleLimits(pipeline: PipelineIR, role: RoleIR, vocab: HostVocabulary): string {
  const neutral = memo(memo(neutralLimits, pipeline, () => new WeakMap()), role, () => {
    const data = limitsOf(pipeline, role);
    return { data, rendered: memo(memo(renderedLimits, pipeline, () => new Map()), JSON.stringify(data), () => new Map()) };
  });
  const extra = vocab.roleNotes?.(role) ?? [];
  const key = JSON.stringify(extra);
  let text = neutral.rendered.get(key);
  if (text === undefined) neutral.rendered.set(key, (text = roleLimits({ ...neutral.data, extra })));
  return text;
}

function limitsOf(pipeline: PipelineIR, role: RoleIR): Record<string, unknown> {
  const shell = role.shell
    ? [
        role.shell.allow.length ? `you may run ${list(role.shell.allow)}` : "",
        role.shell.ask.length ? `ask before ${list(role.shell.ask)}` : "",
        `anything else: ${role.shell.default === "allow" ? "allowed unless denied" : role.shell.default === "ask" ? "needs approval" : "refused"}`,
      ]
        .filter(Boolean)
        .join("; ") + "."
    : "";
  return {
    forbidden: role.forbidden,
    done: role.done,
    writes: list(role.write),
    neverWrite: list(role.neverWrite),
    shell,
    shellDeny: list(role.shell?.deny ?? pipeline.policies.shellDeny),
    canSpawn: role.canSpawn,
    starts: role.starts?.length ? list(role.starts) : "",
    handsBack: messages(pipeline, role.writes),
    receives: messages(pipeline, role.reads),
  };
}

/** The role's message artifacts among `names`, each with its description. */
function messages(pipeline: PipelineIR, names: readonly string[]): string {
  return names
    .map((n) => artifactByName(pipeline, n))
    .filter((a) => a?.message)
    .map((a) => `${a!.name} (${a!.description.replace(/\.$/, "")})`)
    .join("; ");
}

/**
 * The full system prompt of a role on a host: the author's body, then the generated limits. Made
 * anew for each file that holds it (adapters make those files on render, src/adapter/lazy.ts): a
 * prompt kept for reuse would live through the whole host, and copying it costs more than making it.
 */
export function rolePrompt(pipeline: PipelineIR, role: RoleIR, vocab: HostVocabulary): string {
  return `${role.body.trimEnd()}\n\n${renderRoleLimits(pipeline, role, vocab)}`;
}

/** Each role's prompt by id, made when read (`harness diff` reads them; build and check do not). */
export function rolePrompts(pipeline: PipelineIR, vocab: HostVocabulary): Record<string, string> {
  const out: Record<string, string> = {};
  // defineProperty: a role named "__proto__" stays a key
  for (const role of pipeline.roles) Object.defineProperty(out, role.id, { enumerable: true, configurable: true, get: () => rolePrompt(pipeline, role, vocab) });
  return out;
}

function memo<K, V>(map: { get(key: K): V | undefined; set(key: K, value: V): unknown }, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) map.set(key, (value = make()));
  return value;
}

/**
 * AGENTS.md: read by several hosts (OpenCode, Codex, Copilot …). Everything but `entry` is
 * host-neutral, so trees installed side by side compose without conflict.
 */
export function renderAgentsMd(pipeline: PipelineIR, entry: string): string {
  const p = pipeline.policies;
  return agentsMd({
    title: pipeline.title,
    rolesDir: pipeline.rolesDir,
    description: pipeline.description,
    entry,
    // Every session of these hosts reads AGENTS.md: under scope pipeline the rules must say they bind only a run.
    ...(p.scope === "pipeline"
      ? { rulesHeading: `Rules for every ${pipeline.title} run`, rulesScope: `They bind the ${pipeline.title} orchestrator and its roles during a run (policies.scope: pipeline); any other session in this project is not bound by them.` }
      : { rulesHeading: "Rules for every agent", rulesScope: "They bind every session and agent in this project (policies.scope: repository)." }),
    stages: pipeline.stages.map((s) => {
      const role = roleById(pipeline, s.role)!;
      return { id: s.id, role: role.id, title: role.title, description: role.description.replace(/\s*\n\s*/g, " ").replace(/\|/g, "\\|") };
    }),
    rules: [
      ...(p.shellDeny.length ? [`Never run ${list(p.shellDeny)}: the human owns irreversible actions.`] : []),
      ...(p.nestedAgents ? [] : ["Never start other agents; only the orchestrator delegates."]),
      ...(p.neverWrite.length ? [`Never write ${list(p.neverWrite)}.`] : []),
      "Each role writes only its own artifacts and reports back briefly; no role grades its own work.",
    ],
  });
}
