// The adapter contract: one host = one Adapter. Adapters return structured files; the core serializes.
import type { PipelineIR } from "../ir/types.js";
import type { CanonicalTool, ExtraTool } from "../schema/vocabulary.js";
import type { Constraint, FidelityRecord } from "./fidelity.js";
import type { HostDriver } from "./runner.js";

/**
 * How `harness install` puts a file into a project root that may already have one (src/install/).
 * An adapter declares it; the core merges. Undeclared = `{ mode: "whole" }`.
 *
 * - `whole`: harness writes and owns the whole file. A file of that path that harness did not write
 *   is never overwritten. Several hosts may emit the same whole file only with identical bytes.
 * - `merge` (json, toml): a file the project shares. Harness owns only what it adds: object keys the
 *   project lacks (down to the leaves), array entries the project lacks (Claude Code hook entries,
 *   permission rule strings), and containers it had to create. A key whose value differs from the
 *   project's is a conflict, never overwritten without --force. `units` lists dotted paths (`*` =
 *   any one key) whose value harness owns as one piece (e.g. `agent.*`, `permissions.*`): a
 *   different value already there is a conflict instead of a key-by-key mix. `shorthand` maps a path
 *   pattern to a key: a scalar there means `{ [key]: scalar }` (OpenCode's `"edit": "ask"` is
 *   `{"*": "ask"}`), so harness's rules merge in after the project's instead of conflicting.
 * - `block` (markdown, text): a file the project shares; harness owns one marked block and leaves the
 *   text around it alone. Hosts emitting the same path compose one block: their texts must be equal
 *   except each host's `entry` (a substring of its text, e.g. "start a run with /pebble"), and the
 *   block carries every installed host's entry in host-id order.
 */
export type InstallMode =
  | { mode: "whole" }
  | {
      mode: "merge";
      units?: readonly string[];
      shorthand?: Readonly<Record<string, string>>;
      /** The host reads the file as JSON with comments and trailing commas; install keeps the comments. */
      jsonc?: true;
      /** Another name the host reads the same file under (opencode.jsonc): installed into when only it exists. */
      alias?: string;
    }
  | { mode: "block"; entry?: string };

export type HostFile = (
  | { path: string; kind: "markdown"; frontmatter?: Record<string, unknown>; body: string }
  | { path: string; kind: "json"; data: unknown }
  | { path: string; kind: "yaml"; data: unknown }
  | { path: string; kind: "toml"; data: Record<string, unknown> }
  /** Prose or scripts only; never structured data. */
  | { path: string; kind: "text"; text: string; executable?: boolean }
) & { install?: InstallMode };

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
  version: string; // exact version the real-host tests pin; for basis "docs", the docs' date
  /**
   * "docs": the host has no CLI this project can install (Cursor, Antigravity), so its files rest on
   * the documentation of `version` alone: no pin, no real-host test, no proofs, and MAPPING.md says
   * "not proven on the real host". Default "real-host".
   */
  basis?: "real-host" | "docs";
  /** the host CLI's executable name, looked up on PATH by `harness hosts --check` (real-host hosts) */
  bin?: string;
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
  /**
   * The same for `guard` records, where a host has both a native layer and a guard for one constraint
   * (Codex: the launchers' profiles and the spawned roles' guard) and one test cannot prove both;
   * without an entry a guard record cites `proofs`.
   */
  guardProofs?: Readonly<Partial<Record<Constraint, string>>>;
  /**
   * Paths the host and harness use for enforcement on this host (guard, audit, settings, agent and
   * hook files): a role whose write scope covers one is a build error (E_PROTECTED_ARTIFACT), never a
   * prompt that allows the write and a guard that refuses it.
   */
  enforcementPaths?: readonly string[];
  /** What the host can carry beyond the canonical tools (optional: a host without it reports them lost). */
  roleFeatures?: RoleFeatures;
  lower(pipeline: PipelineIR): Lowered;
  /**
   * `harness check --installed`: what outside the project changes what the host loads of the installed
   * files (a user-level agent of the same name, …), one warning line each. `paths`: the installed
   * files of this host; `env`: the environment to find the user's config with. Read only.
   */
  installedWarnings?(paths: readonly string[], env: Readonly<Record<string, string | undefined>>): string[];
  /**
   * `harness run`: the driver that starts one headless session of this host as a role (its
   * `runner.ts`, loaded lazily). Absent: the host has no headless CLI harness drives (yet).
   */
  runner?: () => Promise<HostDriver>;
  /** MAPPING.md lines after the fidelity table: what `harness run --sandbox` changes on this host (absent: it has no driven sandbox). */
  sandboxMapping?(pipeline: PipelineIR): string[];
}

/** A host-native role field (`hosts.<host>.<field>` in a role) and the values the host reads. */
export type HostFieldSpec =
  | { type: "string" | "boolean" | "integer" | "number" | "string-list" | "object" | "string-or-list"; note?: string }
  | { type: "enum"; values: readonly string[]; note?: string };

export interface RoleFeatures {
  /** The host's name for each extra tool it has. */
  extraTools?: Readonly<Partial<Record<ExtraTool, string>>>;
  /** The host's tool name for an MCP tool (`tool` "*": every tool of the server), when roles can list them. */
  mcpTool?: (server: string, tool: string) => string;
  /** A lead's `starts` list is bound by the host or its guard (else the core records L_SPAWN_INSTRUCTED). */
  leads?: boolean;
  /** `tools: [all]` can be said on this host (an open tool list). */
  allTools?: boolean;
  /**
   * Host-native fields a role may set under `hosts.<host>`, exactly the ones the host reads (checked
   * against the real program); anything else is an error. Harness emits them only to this host.
   */
  fields?: Readonly<Record<string, HostFieldSpec>>;
  /** Fields harness itself writes from host-neutral ones: a host block naming one gets the harness spelling. */
  owned?: Readonly<Record<string, string>>;
}
