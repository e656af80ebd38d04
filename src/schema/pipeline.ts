import * as z from "zod";
import { commonSchemas, once } from "./common.js";
import { LOSS_CODES } from "../adapter/fidelity.js";
import { ARTIFACT_KINDS, CONSTRAINTS, ID_PATTERN, MODEL_TIERS, TEMPERATURES } from "./vocabulary.js";

export const pipelineSchemas = once(() => {
  const { CommandPattern, Glob, Id, NonEmptyText } = commonSchemas();

  /** A check's `command` names an entry under `commands:`; people write a shell command here first. */
  const CommandRef = z.string().regex(ID_PATTERN, {
    message: 'names an entry under "commands:", not a shell command. Add e.g. commands: { test: { run: "npm test", description: "run the tests" } } and write command: test',
  });

  const Artifact = z
    .object({
      description: NonEmptyText,
      /** `message`: the stage hands it back in its final message (no file); the orchestrator passes it on. */
      kind: z.enum(ARTIFACT_KINDS).optional(),
      /** One literal path makes a document; several paths or globs make a set of files. */
      paths: z.array(Glob).min(1, { message: "an artifact needs at least one path" }).optional(),
    })
    .strict()
    .superRefine((a, ctx) => {
      if (a.kind === "message" && a.paths)
        ctx.addIssue({ code: "custom", path: ["paths"], message: "a message artifact has no paths: the stage hands it back in its final message. Remove paths, or remove kind: message to make it a file" });
      if (a.kind !== "message" && !a.paths)
        ctx.addIssue({ code: "custom", path: ["paths"], message: "an artifact needs at least one path; for a result the stage hands back in its final message, write kind: message instead" });
    });

  const Gate = z
    .object({
      /** The artifact the human approves before the pipeline goes on. */
      approve: Id,
      ask: NonEmptyText,
    })
    .strict();

  const Stage = z
    .object({
      id: Id,
      role: Id,
      description: NonEmptyText.optional(),
      /** A condition name from `conditions`; the stage runs only when it holds. */
      when: Id.optional(),
      gate: Gate.optional(),
      /** A repair stage: runs only when a check after the named stage sends work to it, then that stage runs again. */
      repair_for: Id.optional(),
    })
    .strict();

  const ParallelGroup = z.object({ parallel: z.array(Stage).min(2, { message: "a parallel group needs two or more stages" }) }).strict();

  const StageEntry = z.union([Stage, ParallelGroup]);

  const Command = z
    .object({
      run: NonEmptyText,
      description: NonEmptyText,
      /** Stages after which the orchestrator runs it itself, with no agent. */
      after: z.array(Id).default([]),
    })
    .strict();

  const Check = z
    .object({
      id: Id,
      after: Id,
      description: NonEmptyText,
      /** A deterministic command from `commands`; without one the orchestrator judges the role's report. */
      command: CommandRef.optional(),
      expect: z.enum(["pass", "fail"]).default("pass"),
      /** How many times the check may be retried after its stage is rerun. */
      retries: z.number().int().min(0).max(10).default(1),
      /** A stage to send the work back to, or `human` to stop and hand over. */
      on_failure: z.union([z.literal("human"), Id]).default("human"),
    })
    .strict();

  const Loop = z
    .object({
      stages: z.array(Id).min(2, { message: "a loop needs two or more stages" }),
      max_rounds: z.number().int().min(1).max(10),
      on_exhausted: NonEmptyText,
    })
    .strict();

  const WorkKind = z
    .object({
      description: NonEmptyText,
      stages: z.array(Id).min(1, { message: "a work kind runs at least one stage" }),
    })
    .strict();

  const Policies = z
    .object({
      /** Shell commands no role may run (the git writes, at least). */
      shell_deny: z.array(CommandPattern).default([]),
      /** Paths no role may write. */
      never_write: z.array(Glob).default([]),
      /** The only shell commands the orchestrator runs that would otherwise be denied. */
      orchestrator_shell: z.array(CommandPattern).default([]),
      /** Whether a delegated agent may start agents of its own. */
      nested_agents: z.boolean().default(false),
      /** The most delegations in one run; the orchestrator stops and asks beyond it. */
      max_hops: z.number().int().positive().optional(),
      /**
       * What the limits bind. `pipeline`: the orchestrator's limits apply while a pipeline run is
       * active and each role's limits to that role wherever it runs; ordinary sessions and agents that
       * are not roles keep the host's normal behaviour. `repository`: every session in the repository.
       */
      scope: z.enum(["pipeline", "repository"]).default("pipeline"),
    })
    .strict();

  const HostSettings = z
    .object({
      models: z.partialRecord(z.enum(MODEL_TIERS), NonEmptyText).optional(),
    })
    .strict();

  const AcceptedLoss = z
    .object({
      host: Id,
      role: Id.optional(),
      constraint: z.enum(CONSTRAINTS),
      /** Only this loss code; without it the entry accepts every loss of the constraint. */
      loss: z.enum(Object.keys(LOSS_CODES) as [keyof typeof LOSS_CODES, ...(keyof typeof LOSS_CODES)[]]).optional(),
      reason: NonEmptyText,
    })
    .strict();

  const PipelineFile = z
    .object({
      name: Id,
      title: NonEmptyText,
      description: NonEmptyText,
      /** What the request argument is called in the entry command. */
      argument_hint: NonEmptyText.default("<request>"),
      artifacts: z.record(Id, Artifact),
      conditions: z.record(Id, NonEmptyText).default({}),
      work_kinds: z.record(Id, WorkKind),
      stages: z.array(StageEntry).min(1, { message: "a pipeline needs at least one stage" }),
      commands: z.record(Id, Command).default({}),
      checks: z.array(Check).default([]),
      loop: Loop.optional(),
      /** `harness run`: the most tokens (input + output, every stage session) one run may spend; checked before each stage. */
      budget: z.object({ tokens: z.number().int().positive() }).strict().optional(),
      briefing: z.array(NonEmptyText).min(1).default([
        "why the task matters",
        "which artifacts to read",
        "what done looks like",
        "what is off limits",
      ]),
      policies: Policies.default({ shell_deny: [], never_write: [], orchestrator_shell: [], nested_agents: false, scope: "pipeline" }),
      temperatures: z.partialRecord(z.enum(TEMPERATURES), z.number().min(0).max(2)).default({ cold: 0.1, neutral: 0.3, warm: 0.6 }),
      hosts: z.record(Id, HostSettings.nullable()).default({}),
      /** The hosts to build and install; absent = every registered host (`hosts:` maps models only). */
      targets: z.array(Id).min(1, { message: "list at least one host, or leave targets out for every host" }).optional(),
      accepted_losses: z.array(AcceptedLoss).default([]),
      /** Constraints that must be enforced (native or guard) on every host under `--strict`. */
      required_enforcement: z.array(z.enum(CONSTRAINTS)).default([]),
    })
    .strict();

  return { PipelineFile, Stage, Check };
});

/** The pipeline.yaml schema (built on first use). */
export const pipelineSchema = () => pipelineSchemas().PipelineFile;

type Built = ReturnType<typeof pipelineSchemas>;
export type PipelineFileData = z.output<Built["PipelineFile"]>;
export type StageData = z.output<Built["Stage"]>;
export type CheckData = z.output<Built["Check"]>;
