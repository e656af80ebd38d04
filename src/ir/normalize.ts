// Stage 3: validated author input → Pipeline IR (defaults applied, references resolved, stable order).
import { InputError, sortDiagnostics, type Diagnostic } from "../errors.js";
import { loadProject } from "../load/load.js";
import { fieldPositions } from "../load/yaml-source.js";
import { ID_PATTERN } from "../schema/vocabulary.js";
import { roleTools, roleModel, roleHosts } from "./role-parts.js";
import { checkProgram, expandEntry } from "./checks.js";
import { pathWarnings } from "./paths.js";
import { hopNeed } from "./hops.js";
import type { PipelineIR, RoleIR, StageIR } from "./types.js";
import { validateProject, type ValidProject } from "./validate.js";
import { byCodeUnit } from "../compare.js";
import { mergeSorted, uniqSorted } from "./sorted.js";
import { HARNESS_STATE_GLOB } from "../schema/vocabulary.js";

export interface ReadOptions {
  knownHosts?: readonly string[];
  cwd?: string;
}

export interface ReadResult {
  pipeline: PipelineIR;
  warnings: Diagnostic[];
}

/** load → validate → check → normalize. Throws InputError with every problem at once. */
export function readPipeline(dir: string, options: ReadOptions = {}): ReadResult {
  const project = loadProject(dir, options.cwd);
  const { valid, diagnostics } = validateProject(project);
  if (valid)
    diagnostics.push(
      ...checkProgram({ project: valid, pipelineSource: project.pipeline, allRoleIds: project.roleIds.filter((id) => ID_PATTERN.test(id)), knownHosts: options.knownHosts }),
      ...pathWarnings(valid, project.pipeline, options.cwd),
    );
  const sorted = sortDiagnostics(diagnostics);
  if (!valid || sorted.some((d) => d.severity === "error")) throw new InputError(sorted.filter((d) => d.severity === "error").concat(sorted.filter((d) => d.severity !== "error")));
  return { pipeline: normalize(valid, fieldPositions(project.pipeline), project.pipeline.file), warnings: sorted };
}

export function normalize(project: ValidProject, pipelineFields: Record<string, { line: number; column: number }>, pipelineFile: string): PipelineIR {
  const p = project.pipeline;
  const stages: StageIR[] = [];
  p.stages.forEach((entry, group) => {
    for (const s of "parallel" in entry ? entry.parallel : [entry])
      stages.push({
        id: s.id,
        role: s.role,
        ...(s.description ? { description: s.description } : {}),
        ...(s.when ? { when: { id: s.when, text: p.conditions[s.when]! } } : {}),
        ...(s.gate ? { gate: { approve: s.gate.approve, ask: s.gate.ask } } : {}),
        ...(s.repair_for ? { repairFor: s.repair_for } : {}),
        group,
        index: stages.length,
      });
  });
  // Indexes, so normalizing stays linear in roles and stages.
  const stageIdsByRole = new Map<string, string[]>();
  const stageIndex = new Map<string, number>();
  for (const s of stages) {
    if (!stageIndex.has(s.id)) stageIndex.set(s.id, s.index);
    const list = stageIdsByRole.get(s.role);
    if (list) list.push(s.id);
    else stageIdsByRole.set(s.role, [s.id]);
  }
  const firstStageOf = new Map<string, number>();
  for (const s of stages) if (!firstStageOf.has(s.role)) firstStageOf.set(s.role, s.index);
  const firstStage = (id: string) => firstStageOf.get(id) ?? -1;
  // One sorted copy of each pipeline-wide list: the policies', the base a role's own entries merge
  // into, and the deny list of every role that adds none (sorting it per role was ~35 ms at 1,000
  // roles). Frozen: a consumer that sorted one in place would change every role.
  const shellDeny: readonly string[] = Object.freeze(uniqSorted(p.policies.shell_deny));
  // .harness/ is harness's own state (the run controller's runs and records): no role may write it
  const neverWrite: readonly string[] = Object.freeze(uniqSorted([...p.policies.never_write, HARNESS_STATE_GLOB]));
  const roles: RoleIR[] = project.roles
    .map(({ loaded, data }): RoleIR => {
      const own = [...data.writes.flatMap((a) => p.artifacts[a]?.paths ?? []), ...data.permissions.write.flatMap((e) => expandEntry(e, p.artifacts))];
      const never = data.permissions.never_write.flatMap((e) => expandEntry(e, p.artifacts));
      const tools = roleTools(data.starts?.length && !data.tools.includes("spawn-agent") ? [...data.tools, "spawn-agent"] : data.tools);
      const hasShell = tools.tools.includes("bash");
      const shell = data.permissions.shell;
      return {
        id: loaded.id,
        title: data.title,
        description: data.description,
        isolation: data.isolation,
        worktree: data.worktree,
        ...roleModel(data.model),
        ...roleHosts(data.hosts),
        ...(data.temperature ? { temperature: { class: data.temperature, value: p.temperatures[data.temperature] ?? DEFAULT_TEMPERATURES[data.temperature] } } : {}),
        tools: tools.tools,
        ...(tools.extra.length ? { extraTools: tools.extra } : {}),
        ...(tools.mcp.length ? { mcpTools: tools.mcp } : {}),
        ...(tools.all ? { allTools: true } : {}),
        write: uniqSorted(own),
        neverWrite: mergeSorted(neverWrite, never),
        shell: hasShell
          ? {
              allow: uniqSorted(shell?.allow ?? []),
              ask: uniqSorted(shell?.ask ?? []),
              deny: shell?.deny?.length ? mergeSorted(shellDeny, shell.deny) : shellDeny,
              default: shell?.default ?? "ask",
            }
          : null,
        canSpawn: (tools.tools.includes("spawn-agent") && p.policies.nested_agents) || Boolean(data.starts?.length),
        ...(data.starts?.length ? { starts: [...new Set(data.starts)] } : {}),
        reads: [...data.reads],
        writes: [...data.writes],
        forbidden: data.forbidden,
        done: data.done,
        ...(data.max_turns !== undefined ? { maxTurns: data.max_turns } : {}),
        ...(data.effort ? { effort: data.effort } : {}),
        ...(data.skills?.length ? { skills: [...data.skills] } : {}),
        ...(data.mcp_servers ? { mcpServers: data.mcp_servers } : {}),
        ...(data.memory ? { memory: data.memory } : {}),
        ...(data.initial_prompt ? { initialPrompt: data.initial_prompt } : {}),
        ...(data.background !== undefined ? { background: data.background } : {}),
        body: loaded.body,
        stages: [...(stageIdsByRole.get(loaded.id) ?? [])],
        source: { file: loaded.source.file, fields: fieldPositions(loaded.source) },
      };
    })
    .sort((a, b) => firstStage(a.id) - firstStage(b.id) || byCodeUnit(a.id, b.id));

  const at = (id: string) => stageIndex.get(id) ?? -1;
  const order = (ids: readonly string[]) => [...ids].sort((a, b) => at(a) - at(b));
  const commands = Object.entries(p.commands).map(([id, c]) => ({ id, run: c.run, description: c.description, after: order(c.after) }));
  const isolationOf = new Map<string, string>();
  for (const r of roles) if (!isolationOf.has(r.id)) isolationOf.set(r.id, r.isolation);
  const delegations = hopNeed(p, (id) => isolationOf.get(id)).total;

  return {
    name: p.name,
    title: p.title,
    description: p.description,
    argumentHint: p.argument_hint,
    artifacts: Object.entries(p.artifacts)
      .map(([name, a]) => {
        const paths = a.paths ?? [];
        return { name, description: a.description, paths: [...paths], document: paths.length === 1 && !/[*?[\]{}]/.test(paths[0]!), ...(a.kind === "message" ? { message: true as const } : {}) };
      })
      .sort((a, b) => byCodeUnit(a.name, b.name)),
    conditions: { ...p.conditions },
    roles,
    stages,
    workKinds: Object.entries(p.work_kinds).map(([id, w]) => ({ id, description: w.description, stages: [...w.stages] })),
    commands,
    checks: p.checks.map((c) => {
      const command = c.command ? commands.find((x) => x.id === c.command) : undefined;
      return { id: c.id, after: c.after, description: c.description, ...(command ? { command } : {}), expect: c.expect, retries: c.retries, onFailure: c.on_failure };
    }),
    ...(p.loop ? { loop: { stages: order(p.loop.stages), maxRounds: p.loop.max_rounds, onExhausted: p.loop.on_exhausted } } : {}),
    ...(p.budget ? { budget: { tokens: p.budget.tokens } } : {}),
    briefing: [...p.briefing],
    policies: {
      shellDeny,
      neverWrite,
      orchestratorShell: uniqSorted(p.policies.orchestrator_shell),
      nestedAgents: p.policies.nested_agents,
      maxHops: p.policies.max_hops ?? delegations,
      scope: p.policies.scope,
    },
    ...(p.targets ? { targets: [...new Set(p.targets)].sort(byCodeUnit) } : {}),
    hosts: Object.fromEntries(Object.entries(p.hosts).sort(([a], [b]) => byCodeUnit(a, b)).map(([id, h]) => [id, { models: { ...(h?.models ?? {}) } }])),
    acceptedLosses: p.accepted_losses.map((l, index) => ({ host: l.host, ...(l.role ? { role: l.role } : {}), constraint: l.constraint, ...(l.loss ? { loss: l.loss } : {}), reason: l.reason, index })),
    requiredEnforcement: [...new Set(p.required_enforcement)],
    source: { file: pipelineFile, fields: pipelineFields },
    rolesDir: rolesFolder(pipelineFile),
  };
}

/** The roles folder relative to the working directory; only its name when it lies elsewhere (no absolute paths in output). */
/** The classes' values when pipeline.yaml's `temperatures:` leaves one out. */
const DEFAULT_TEMPERATURES = { cold: 0.1, neutral: 0.3, warm: 0.6 } as const;

export function rolesFolder(pipelineFile: string): string {
  const parts = pipelineFile.split("/").slice(0, -1);
  const dir = pipelineFile.startsWith("/") || /^[A-Za-z]:/.test(pipelineFile) ? parts.slice(-1) : parts;
  const shown = dir.join("/").replace(/[`\u0000-\u001f\u007f]/g, "");
  return shown ? `${shown}/` : "./";
}
