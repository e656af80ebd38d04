// The Pipeline IR: what every adapter lowers. Built by `normalize` from validated author input;
// defaults applied, references resolved, lists in a stable order. No host knowledge lives here.
import type {
  CanonicalTool,
  Constraint,
  Effort,
  ExtraTool,
  Isolation,
  Memory,
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
  paths: readonly string[]; // globs in harness's dialect (picomatch); none for a message
  /** One literal path: a single document the role writes whole. */
  document: boolean;
  /** `kind: message`: handed back in the writing stage's final message, passed on in later briefs; no file. */
  message?: true;
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
  /** The tier the role names; absent with no `model` (the host's default) or a direct id. */
  model?: ModelTier;
  /** A host model id, or "inherit", named by the role itself (every host gets it verbatim). */
  modelId?: string;
  /** Per-host model pins (`hosts.<host>.model` in the role): win over `model`. */
  hostModels?: Readonly<Record<string, string>>;
  /** Absent: the role names none, and no temperature is emitted (the host's default). */
  temperature?: { class: Temperature; value: number };
  tools: readonly CanonicalTool[]; // canonical order
  /** Host tools beyond the canonical set (agent-team tools, LSP, Skill), in EXTRA_TOOLS order. */
  extraTools?: readonly ExtraTool[];
  /** MCP tools the role may call: `tool` "*" = every tool of the server. Sorted. */
  mcpTools?: readonly McpToolIR[];
  /** `tools: [all]`: every tool the host has (MCP included); write and shell limits still apply. */
  allTools?: boolean;
  /** A lead: the roles it may start (canSpawn is true for them only, whatever policies.nested_agents says). */
  starts?: readonly string[];
  skills?: readonly string[];
  /** MCP servers: names of servers the project configures, or inline definitions (host-native shape). */
  mcpServers?: readonly string[] | Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  memory?: Memory;
  initialPrompt?: string;
  background?: boolean;
  /** Host-native fields per host (`hosts.<host>` in the role, `model` removed), emitted only there. */
  hostFields?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
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

export interface McpToolIR {
  server: string;
  tool: string; // "*" = every tool of the server
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
  /**
   * A repair stage: it runs only when a check after this stage id fails and names it in on_failure;
   * then that stage runs again. Outside a repair it is no step of the run.
   */
  repairFor?: string;
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
  /** `targets:` in pipeline.yaml: the hosts to build; absent = every registered host. */
  targets?: readonly string[];
  acceptedLosses: readonly AcceptedLossIR[];
  requiredEnforcement: readonly Constraint[];
  source: SourceRef;
  /** The roles folder as generated files name it ("roles/", "agents/"): where to make changes. */
  rolesDir: string;
}
