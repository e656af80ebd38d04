// The adapter contract: one host = one Adapter. Adapters return structured files; the core serializes.
import type { PipelineIR } from "../ir/types.js";
import type { CanonicalTool } from "../schema/vocabulary.js";
import type { Constraint, FidelityRecord } from "./fidelity.js";

export type HostFile =
  | { path: string; kind: "markdown"; frontmatter?: Record<string, unknown>; body: string }
  | { path: string; kind: "json"; data: unknown }
  | { path: string; kind: "yaml"; data: unknown }
  | { path: string; kind: "toml"; data: Record<string, unknown> }
  /** Prose or scripts only; never structured data. */
  | { path: string; kind: "text"; text: string; executable?: boolean };

export interface Capabilities {
  subagents: boolean;
  commands: boolean;
  perRoleTools: boolean;
  perRolePaths: "native" | "guard" | "none";
  perRoleShell: "native" | "guard" | "none";
  hooks: boolean;
  temperature: boolean;
}

export interface CheckedAgainst {
  program: string; // e.g. "Claude Code"
  version: string; // exact version the real-host tests pin
}

export interface Lowered {
  files: HostFile[];
  fidelity: FidelityRecord[];
  /** Each role's full prompt as the host receives it, for `harness diff`. */
  prompts: Record<string, string>;
  /** Known limits of a `guard` or `native` realisation, listed in MAPPING.md. */
  gaps?: readonly string[];
}

/** Host id → lazy loader. Built in adapters/index.ts and handed to the commands by src/cli.ts. */
export type AdapterRegistry = Readonly<Record<string, () => Promise<Adapter>>>;

export interface Adapter {
  /** kebab-case = folder name = out/ folder = CLI name */
  id: string;
  displayName: string;
  checkedAgainst: CheckedAgainst;
  docs: readonly string[];
  capabilities: Capabilities;
  /** Exhaustive: a missing canonical tool is a type error. null = the host cannot express it. */
  tools: Readonly<Record<CanonicalTool, string | null>>;
  /**
   * Real-host tests (test/hosts/enforce-out.test.ts names) that prove a `native` or `guard`
   * constraint on the pinned host version. Static data: build never runs tests.
   */
  proofs: Readonly<Partial<Record<Constraint, string>>>;
  /** The same for `audit` records: the real-host test that shows the stage-end audit restoring and failing. */
  auditProofs?: Readonly<Partial<Record<Constraint, string>>>;
  lower(pipeline: PipelineIR): Lowered;
}
