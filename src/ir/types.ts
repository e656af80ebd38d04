// The Pipeline IR: what every adapter lowers. Built by `normalize` from validated author input;
// defaults applied, references resolved, lists in a stable order. No host knowledge lives here.
import type {
  CanonicalTool,
  Constraint,
  Effort,
  Isolation,
  ModelTier,
  ShellAction,
  Temperature,
} from "../schema/vocabulary.js";

export interface SourceRef {
  file: string; // path as given to the loader, POSIX separators
  /** 1-based line/column of each field, keyed by dotted path ("permissions.write"). */
  fields: Readonly<Record<string, { line: number; column: number }>>;
}

export interface ArtifactIR {
  name: string;
  description: string;
  paths: readonly string[]; // globs in harness's dialect (picomatch)
  /** One literal path: a single document the role writes whole. */
  document: boolean;
}

export interface ShellPolicyIR {
  allow: readonly string[];
  ask: readonly string[];
  deny: readonly string[]; // role denies plus the pipeline's shell_deny
  default: ShellAction;
}

export interface RoleIR {
  id: string;
  title: string;
  description: string;
  isolation: Isolation;
  worktree: boolean;
  model: ModelTier;
  temperature: { class: Temperature; value: number };
  tools: readonly CanonicalTool[]; // canonical order
  /** Globs the role may write (artifact paths resolved). Empty = writes nothing. */
  write: readonly string[];
  /** Globs the role must never write (role + pipeline policy); these win over `write`. */
  neverWrite: readonly string[];
  /** null when the role has no shell tool. */
  shell: ShellPolicyIR | null;
  canSpawn: boolean;
  reads: readonly string[];
  writes: readonly string[];
  forbidden: string;
  done: string;
  maxTurns?: number;
  effort?: Effort;
  body: string; // host-neutral prompt, trimmed, LF
  stages: readonly string[]; // ids of the stages that run this role
  source: SourceRef;
}

export interface GateIR {
  approve: string; // artifact name
  ask: string;
}

export interface StageIR {
  id: string;
  role: string;
  description?: string;
  when?: { id: string; text: string };
  gate?: GateIR;
  /** Stages sharing a group number run in parallel. */
  group: number;
  index: number; // position in the flattened order
}

export interface CommandIR {
  id: string;
  run: string;
  description: string;
  after: readonly string[];
}

export interface CheckIR {
  id: string;
  after: string;
  description: string;
  command?: CommandIR;
  expect: "pass" | "fail";
  retries: number;
  onFailure: "human" | string;
}

export interface LoopIR {
  stages: readonly string[];
  maxRounds: number;
  onExhausted: string;
}

export interface WorkKindIR {
  id: string;
  description: string;
  stages: readonly string[]; // in the author's order (an infra change runs infra before review)
}

export interface PoliciesIR {
  shellDeny: readonly string[];
  neverWrite: readonly string[];
  orchestratorShell: readonly string[];
  nestedAgents: boolean;
  maxHops: number;
  /** `pipeline`: limits bind pipeline runs and roles only; `repository`: every session. */
  scope: "pipeline" | "repository";
}

export interface AcceptedLossIR {
  host: string;
  role?: string;
  constraint: string;
  /** Only this loss code (accepted_losses[].loss); every code of the constraint when absent. */
  loss?: string;
  reason: string;
  index: number;
}

export interface PipelineIR {
  name: string;
  title: string;
  description: string;
  argumentHint: string;
  artifacts: readonly ArtifactIR[]; // sorted by name
  conditions: Readonly<Record<string, string>>;
  roles: readonly RoleIR[]; // in order of first stage
  stages: readonly StageIR[]; // pipeline order
  workKinds: readonly WorkKindIR[]; // in file order
  commands: readonly CommandIR[]; // in file order
  checks: readonly CheckIR[];
  loop?: LoopIR;
  /** `harness run`'s per-run token budget (pipeline.yaml budget.tokens). */
  budget?: { tokens: number };
  briefing: readonly string[];
  policies: PoliciesIR;
  hosts: Readonly<Record<string, { models: Partial<Record<ModelTier, string>> }>>;
  acceptedLosses: readonly AcceptedLossIR[];
  requiredEnforcement: readonly Constraint[];
  source: SourceRef;
  /** The roles folder as generated files name it ("roles/", "agents/"): where to make changes. */
  rolesDir: string;
}
