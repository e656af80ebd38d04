// Whole-program checks: references between the pipeline and its roles, each with a position.
import { isGlobMatch } from "../glob.js";
import type { Diagnostic, SourcePosition } from "../errors.js";
import { locate, type YamlSource } from "../load/yaml-source.js";
import { closest } from "../schema/diagnose.js";
import { ARTIFACT_REF } from "../schema/vocabulary.js";
import type { StageData } from "../schema/pipeline.js";
import type { ValidProject } from "./validate.js";
import { describeNeed, hopNeed } from "./hops.js";
import { roleTools } from "./role-parts.js";

export interface CheckContext {
  project: ValidProject;
  pipelineSource: YamlSource;
  allRoleIds: readonly string[]; // every role file, valid or not
  knownHosts?: readonly string[];
}

export function checkProgram(ctx: CheckContext): Diagnostic[] {
  const { pipeline, roles } = ctx.project;
  const src = ctx.pipelineSource;
  const out: Diagnostic[] = [];
  const err = (code: string, position: SourcePosition, field: string, message: string) =>
    out.push({ code, severity: "error", position, field, message });
  const warn = (code: string, position: SourcePosition, field: string, message: string) =>
    out.push({ code, severity: "warning", position, field, message });
  const suggest = (word: string, known: readonly string[]) => {
    const near = closest(word, known);
    return near ? `Did you mean "${near}"? ` : "";
  };
  const artifacts = Object.keys(pipeline.artifacts);
  const conditions = Object.keys(pipeline.conditions);

  // Flatten stages, remembering where each came from.
  const flat: { stage: StageData; path: (string | number)[]; group: number }[] = [];
  pipeline.stages.forEach((entry, i) => {
    if ("parallel" in entry) entry.parallel.forEach((s, j) => flat.push({ stage: s, path: ["stages", i, "parallel", j], group: i }));
    else flat.push({ stage: entry, path: ["stages", i], group: i });
  });
  const stageIds = flat.map((f) => f.stage.id);
  // Indexes built once, so the checks below stay linear in roles and stages.
  const roleIds = new Set(ctx.allRoleIds);
  const roleById = new Map(roles.map((r) => [r.loaded.id, r] as const));
  const stagesByRole = new Map<string, typeof flat>();
  for (const f of flat) {
    const list = stagesByRole.get(f.stage.role);
    if (list) list.push(f);
    else stagesByRole.set(f.stage.role, [f]);
  }
  const stageIdSet = new Set(stageIds);
  const seenStages = new Set<string>();
  for (const { stage, path } of flat) {
    if (seenStages.has(stage.id))
      err("E_DUPLICATE_ID", locate(src, [...path, "id"]), fp(path, "id"), `stage id "${stage.id}" is used twice. Give each stage its own id.`);
    seenStages.add(stage.id);
    if (!roleIds.has(stage.role))
      err("E_UNKNOWN_ROLE", locate(src, [...path, "role"]), fp(path, "role"), `no role "${stage.role}". ${suggest(stage.role, ctx.allRoleIds)}Create ${stage.role}.md in the roles folder or name an existing role (${ctx.allRoleIds.join(", ")}).`);
    if (stage.when && !conditions.includes(stage.when))
      err("E_UNKNOWN_CONDITION", locate(src, [...path, "when"]), fp(path, "when"), `no condition "${stage.when}". ${suggest(stage.when, conditions)}Define it under "conditions".`);
    if (stage.gate) {
      const gatePath = [...path, "gate", "approve"];
      if (!artifacts.includes(stage.gate.approve))
        err("E_UNKNOWN_ARTIFACT", locate(src, gatePath), fp(path, "gate.approve"), `the gate approves "${stage.gate.approve}", which is no artifact. ${suggest(stage.gate.approve, artifacts)}Name one of: ${artifacts.join(", ")}.`);
      else {
        const role = roleById.get(stage.role);
        if (pipeline.artifacts[stage.gate.approve]?.kind === "message")
          err("E_GATE_NOTHING", locate(src, gatePath), fp(path, "gate.approve"), `the gate approves "${stage.gate.approve}", a message artifact: it is handed back in a final message, so there is no file for the human to read and approve. Approve a file artifact, or make "${stage.gate.approve}" one with paths.`);
        else if (role && !role.data.writes.includes(stage.gate.approve))
          err("E_GATE_NOTHING", locate(src, gatePath), fp(path, "gate.approve"), `the gate approves "${stage.gate.approve}", but role "${stage.role}" does not write it, so there is nothing to approve. Approve an artifact this stage writes, or add it to the role's "writes".`);
      }
    }
  }
  for (const id of ctx.allRoleIds)
    if (!stagesByRole.has(id)) {
      const role = roleById.get(id);
      // A role file whose front matter did not load still has a path next to pipeline.yaml.
      const file = role?.loaded.source.file ?? `${src.file.replace(/[^/]*$/, "")}${id}.md`;
      err("E_ROLE_UNUSED", { file, line: 1, column: 1 }, "", `role "${id}" runs in no stage. Add a stage with role: ${id} to pipeline.yaml, or delete the file.`);
    }

  const stageRef = (value: string, path: (string | number)[], what: string) => {
    if (!stageIdSet.has(value))
      err("E_UNKNOWN_STAGE", locate(src, path), fp(path), `${what} "${value}" is no stage. ${suggest(value, stageIds)}Stages: ${[...new Set(stageIds)].join(", ")}.`);
  };
  for (const [kind, wk] of Object.entries(pipeline.work_kinds))
    wk.stages.forEach((s, i) => stageRef(s, ["work_kinds", kind, "stages", i], "work kind stage"));
  for (const [id, cmd] of Object.entries(pipeline.commands))
    cmd.after.forEach((s, i) => stageRef(s, ["commands", id, "after", i], "command runs after"));
  // Repair stages: each repairs one earlier plain stage, on its own (no group, no condition).
  const repairOf = new Map<string, string>(); // repair stage id → the stage it repairs
  for (const { stage, path } of flat) {
    if (!stage.repair_for) continue;
    const at = [...path, "repair_for"];
    const target = flat.find((f) => f.stage.id === stage.repair_for);
    if (!target) {
      stageRef(stage.repair_for, at, "repair_for");
      continue;
    }
    repairOf.set(stage.id, stage.repair_for);
    const problem =
      stageIds.indexOf(stage.repair_for) >= stageIds.indexOf(stage.id)
        ? `"${stage.id}" repairs "${stage.repair_for}", which does not run before it. List the repair stage after "${stage.repair_for}"; to send work back to an earlier stage, name that stage in on_failure with no repair_for`
        : target.stage.repair_for
          ? `"${stage.id}" repairs "${stage.repair_for}", which is a repair stage itself. Name the stage the checks judge`
          : path.includes("parallel")
            ? `a repair stage runs on its own, not in a parallel group. Move "${stage.id}" out of the group`
            : stage.when
              ? `a repair stage runs when a check sends work to it, so it takes no "when". Remove when from "${stage.id}"`
              : roleById.get(stage.role)?.data.isolation === "main"
                ? `a repair stage runs in a session of its own, but role "${stage.role}" runs in the orchestrator's (isolation: main). Use a role with isolation: subagent`
                : null;
    if (problem) err("E_REPAIR_STAGE", locate(src, at), fp(path, "repair_for"), `${problem}.`);
  }
  const routedRepairs = new Set<string>();
  pipeline.checks.forEach((check, i) => {
    stageRef(check.after, ["checks", i, "after"], "check runs after");
    if (check.command && !(check.command in pipeline.commands))
      err("E_UNKNOWN_COMMAND", locate(src, ["checks", i, "command"]), `checks[${i}].command`, `no command "${check.command}": a check's command names an entry under "commands:", not a shell command. ${suggest(check.command, Object.keys(pipeline.commands))}Add commands: { ${check.command}: { run: "<shell command>", description: "…" } }${Object.keys(pipeline.commands).length ? `, or name one of: ${Object.keys(pipeline.commands).join(", ")}` : ""}.`);
    if (check.on_failure !== "human") {
      stageRef(check.on_failure, ["checks", i, "on_failure"], "on_failure route");
      const from = stageIds.indexOf(check.after);
      const to = stageIds.indexOf(check.on_failure);
      const repairs = repairOf.get(check.on_failure);
      if (repairs !== undefined) {
        routedRepairs.add(check.on_failure);
        if (repairs !== check.after)
          err("E_ROUTE_FORWARD", locate(src, ["checks", i, "on_failure"]), `checks[${i}].on_failure`, `on_failure sends work to the repair stage "${check.on_failure}", which repairs "${repairs}", not "${check.after}". Route to a repair stage with repair_for: ${check.after}, to "${check.after}" or an earlier stage, or to "human".`);
      } else if (from >= 0 && to > from)
        err("E_ROUTE_FORWARD", locate(src, ["checks", i, "on_failure"]), `checks[${i}].on_failure`, `on_failure sends work forward to "${check.on_failure}", past the failed stage. Route to "${check.after}" or an earlier stage, or to "human"; for a stage that fixes what "${check.after}" found, add repair_for: ${check.after} to stage "${check.on_failure}".`);
    }
  });
  for (const { stage, path } of flat)
    if (repairOf.has(stage.id) && !routedRepairs.has(stage.id))
      warn("W_REPAIR_UNUSED", locate(src, [...path, "repair_for"]), fp(path, "repair_for"), `no check sends work to the repair stage "${stage.id}", so it never runs. Set on_failure: ${stage.id} on a check after "${stage.repair_for}", or remove the stage.`);
  if (pipeline.loop) {
    pipeline.loop.stages.forEach((s, i) => stageRef(s, ["loop", "stages", i], "loop stage"));
    const idx = pipeline.loop.stages.map((s) => stageIds.indexOf(s));
    if (idx.every((n) => n >= 0) && idx.some((n, i) => i > 0 && n <= idx[i - 1]!))
      err("E_LOOP_ORDER", locate(src, ["loop", "stages"]), "loop.stages", "loop stages are not in pipeline order. List them in the order the pipeline runs them.");
  }

  // Artifacts: known names, and never read before a stage writes them.
  const loopStages = new Set(pipeline.loop?.stages ?? []);
  // A repaired stage runs again after its repair stage, so it may read what the repair stage writes.
  const writtenByRepairOf = new Map<string, Set<string>>(); // repaired stage → artifacts its repairs write
  for (const [repair, target] of repairOf) {
    const f = flat.find((x) => x.stage.id === repair)!;
    const set = writtenByRepairOf.get(target) ?? new Set<string>();
    for (const a of roleById.get(f.stage.role)?.data.writes ?? []) set.add(a);
    writtenByRepairOf.set(target, set);
  }
  const written = new Map<string, number>(); // artifact → group that first writes it
  const writtenInLoop = new Set<string>(); // artifacts some loop stage writes
  for (const { stage, group } of flat) {
    for (const a of roleById.get(stage.role)?.data.writes ?? []) {
      if (!written.has(a)) written.set(a, group);
      if (loopStages.has(stage.id)) writtenInLoop.add(a);
    }
  }
  for (const { loaded, data } of roles) {
    const rs = loaded.source;
    (["reads", "writes"] as const).forEach((key) =>
      data[key].forEach((a, i) => {
        if (!artifacts.includes(a))
          err("E_UNKNOWN_ARTIFACT", locate(rs, [key, i]), `${key}[${i}]`, `no artifact "${a}". ${suggest(a, artifacts)}Artifacts: ${artifacts.join(", ")}.`);
      }),
    );
    (["write", "never_write"] as const).forEach((key) =>
      data.permissions[key].forEach((entry, i) => {
        const ref = ARTIFACT_REF.exec(entry);
        if (ref && !artifacts.includes(ref[1]!))
          err("E_UNKNOWN_ARTIFACT", locate(rs, ["permissions", key, i]), `permissions.${key}[${i}]`, `no artifact "${ref[1]}". ${suggest(ref[1]!, artifacts)}Artifacts: ${artifacts.join(", ")}.`);
        else if (ref && pipeline.artifacts[ref[1]!]?.kind === "message")
          err("E_UNKNOWN_ARTIFACT", locate(rs, ["permissions", key, i]), `permissions.${key}[${i}]`, `"${ref[1]}" is a message artifact: it has no paths, so artifact:${ref[1]} names no file. Remove the entry, or give "${ref[1]}" paths.`);
      }),
    );
    const ownStages = stagesByRole.get(loaded.id) ?? [];
    const firstGroup = Math.min(...ownStages.map((f) => f.group));
    const inLoop = ownStages.some((o) => loopStages.has(o.stage.id));
    data.reads.forEach((a, i) => {
      const w = written.get(a);
      // A stage inside the loop may read what a later loop stage wrote in the previous round.
      const loopBack = inLoop && writtenInLoop.has(a);
      const repairBack = ownStages.length > 0 && ownStages.every((o) => writtenByRepairOf.get(o.stage.id)?.has(a));
      if (pipeline.artifacts[a]?.kind === "message" && w === undefined)
        err("E_READ_BEFORE_WRITE", locate(rs, ["reads", i]), `reads[${i}]`, `"${a}" is a message artifact that no stage hands back, so there is nothing to pass on. Add "${a}" to the writes of the role of an earlier stage, or drop it from reads.`);
      else if (artifacts.includes(a) && w !== undefined && w >= firstGroup && !loopBack && !repairBack)
        err("E_READ_BEFORE_WRITE", locate(rs, ["reads", i]), `reads[${i}]`, `"${a}" is read before any stage writes it (it is first written in a later or parallel stage). Move the stage that writes it earlier, or drop it from reads.`);
    });
    const granted = roleTools(data.tools).tools;
    data.tools.forEach((t, i) => {
      if (!t.startsWith("mcp:") && t !== t.toLowerCase())
        warn("W_TOOL_CASE", locate(rs, ["tools", i]), `tools[${i}]`, `"${t}" is read as "${t.toLowerCase()}" (tool names are lowercase and host-neutral). Write "${t.toLowerCase()}".`);
    });
    (data.starts ?? []).forEach((id, i) => {
      if (!roleIds.has(id))
        err("E_UNKNOWN_ROLE", locate(rs, ["starts", i]), `starts[${i}]`, `no role "${id}". ${suggest(id, ctx.allRoleIds)}A lead starts roles of this pipeline (${ctx.allRoleIds.join(", ")}).`);
    });
    if (granted.includes("spawn-agent") && !pipeline.policies.nested_agents && !data.starts?.length)
      err("E_POLICY_CONFLICT", locate(rs, ["tools"]), "tools", `the pipeline forbids nested agents (policies.nested_agents: false), but this role has "spawn-agent". Remove it from tools, or make the role a lead: starts: [the roles it starts].`);
    if (data.permissions.shell && !granted.includes("bash"))
      err("E_POLICY_CONFLICT", locate(rs, ["permissions", "shell"]), "permissions.shell", `shell rules for a role without the "bash" tool. Add "bash" to tools or remove permissions.shell.`);
    const canWrite = granted.includes("edit") || granted.includes("write");
    // a message is handed back in the final reply: no tool writes it
    const writesFiles = data.writes.some((a) => pipeline.artifacts[a]?.kind !== "message");
    if (!canWrite && (writesFiles || data.permissions.write.length > 0))
      warn("W_WRITE_WITHOUT_TOOL", locate(rs, ["tools"]), "tools", `the role writes artifacts but has neither "edit" nor "write"; it can only write through the shell. Add "write" or "edit" to tools.`);
    // A document the role must write but may never write: the scope cannot match.
    const never = data.permissions.never_write.flatMap((e) => expandEntry(e, pipeline.artifacts)).concat(pipeline.policies.never_write);
    for (const a of data.writes) {
      for (const p of pipeline.artifacts[a]?.paths ?? []) {
        if (never.some((g) => isGlobMatch(p, g)))
          err("E_SCOPE_CONFLICT", locate(rs, ["writes"]), "writes", `the role writes "${a}" (${p}), but its never_write covers that path, so the write can never happen. Narrow never_write or drop "${a}" from writes.`);
      }
    }
  }

  // A hop cap below what the pipeline's own retries and loop allow would stop runs that are still within them.
  const cap = pipeline.policies.max_hops;
  if (cap !== undefined) {
    const need = hopNeed(pipeline, (id) => roleById.get(id)?.data.isolation);
    if (cap < need.total)
      warn("W_MAX_HOPS_LOW", locate(src, ["policies", "max_hops"]), "policies.max_hops", `${cap} is below the ${need.total} delegations a run can need (${describeNeed(need)}); the orchestrator would stop runs still within their retries and loop rounds. Raise it to ${need.total}, or remove it to use that default.`);
  }

  // Hosts and accepted losses.
  if (ctx.knownHosts) {
    for (const host of Object.keys(pipeline.hosts))
      if (!ctx.knownHosts.includes(host))
        err("E_UNKNOWN_HOST", locate(src, ["hosts", host], true), `hosts.${host}`, `no adapter "${host}". ${suggest(host, ctx.knownHosts)}Known hosts: ${ctx.knownHosts.join(", ")}.`);
    (pipeline.targets ?? []).forEach((host, i) => {
      if (!ctx.knownHosts!.includes(host))
        err("E_UNKNOWN_HOST", locate(src, ["targets", i]), `targets[${i}]`, `no adapter "${host}". ${suggest(host, ctx.knownHosts!)}Known hosts: ${ctx.knownHosts!.join(", ")}.`);
    });
    for (const { loaded, data } of roles)
      for (const [host, block] of Object.entries(data.hosts ?? {})) {
        if (!ctx.knownHosts.includes(host))
          err("E_UNKNOWN_HOST", locate(loaded.source, ["hosts", host], true), `hosts.${host}`, `no adapter "${host}". ${suggest(host, ctx.knownHosts)}Known hosts: ${ctx.knownHosts.join(", ")}.`);
        if ("model" in block && (typeof block.model !== "string" || block.model.trim() === "" || /[\n\r]/.test(block.model)))
          err("E_ROLE_SCHEMA", locate(loaded.source, ["hosts", host, "model"]), `hosts.${host}.model`, `a model pin is the host's model id on one line, e.g. model: claude-opus-4-6.`);
      }
    pipeline.accepted_losses.forEach((loss, i) => {
      if (!ctx.knownHosts!.includes(loss.host))
        err("E_UNKNOWN_HOST", locate(src, ["accepted_losses", i, "host"]), `accepted_losses[${i}].host`, `no adapter "${loss.host}". ${suggest(loss.host, ctx.knownHosts!)}Known hosts: ${ctx.knownHosts!.join(", ")}.`);
    });
  }
  pipeline.accepted_losses.forEach((loss, i) => {
    if (loss.role && !ctx.allRoleIds.includes(loss.role))
      err("E_UNKNOWN_ROLE", locate(src, ["accepted_losses", i, "role"]), `accepted_losses[${i}].role`, `no role "${loss.role}". ${suggest(loss.role!, ctx.allRoleIds)}Roles: ${ctx.allRoleIds.join(", ")}.`);
  });
  return out;
}

export function expandEntry(entry: string, artifacts: Record<string, { paths?: string[] }>): string[] {
  const ref = ARTIFACT_REF.exec(entry);
  return ref ? [...(artifacts[ref[1]!]?.paths ?? [])] : [entry];
}

function fp(path: (string | number)[], tail?: string): string {
  let out = "";
  for (const seg of path) out += typeof seg === "number" ? `[${seg}]` : out ? `.${seg}` : seg;
  return tail ? `${out}.${tail}` : out;
}
