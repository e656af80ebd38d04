// The closed vocabularies of the host-neutral model, defined once. Adapters must map every entry
// (their tool tables are typed `Record<CanonicalTool, …>`, so a missing entry is a type error).

export const CANONICAL_TOOLS = [
  "read", // read a file
  "grep", // search file contents
  "glob", // find files by name
  "edit", // change an existing file
  "write", // create or overwrite a file
  "bash", // run shell commands
  "web-fetch", // fetch a URL
  "web-search", // search the web
  "todo", // keep a task list
  "ask-human", // ask the human a structured question
  "spawn-agent", // start another agent
] as const;
export type CanonicalTool = (typeof CANONICAL_TOOLS)[number];

/**
 * Host tools beyond the canonical set that real agents list (Claude Code's agent-team tools, LSP,
 * Skill). Optional per host: an adapter that has no equivalent reports the tool lost (L_TOOL_MISSING),
 * never drops it silently. Kept apart from CANONICAL_TOOLS so adapters need not map them.
 */
export const EXTRA_TOOLS = ["task-create", "task-get", "task-list", "task-update", "send-message", "team-create", "team-delete", "lsp", "skill"] as const;
export type ExtraTool = (typeof EXTRA_TOOLS)[number];

/** `all` in a role's tools: every tool the host has (MCP tools included); the role's write and shell limits still apply. */
export const ALL_TOOLS = "all";

/** `mcp:<server>/<tool>` or `mcp:<server>/*` in a role's tools. */
export const MCP_TOOL = /^mcp:([A-Za-z0-9][A-Za-z0-9_.-]*)\/(\*|[A-Za-z0-9][A-Za-z0-9_.-]*)$/;

/** Claude Code's persistent agent memory scopes. */
export const MEMORIES = ["user", "project", "local"] as const;
export type Memory = (typeof MEMORIES)[number];

/** `model: inherit`: the session's (the host's default) model, said explicitly. */
export const INHERIT = "inherit";

/** Tools that change files: a role with none of them cannot write anything. */
export const WRITE_TOOLS: readonly CanonicalTool[] = ["edit", "write"];

/** `file` (the default): written at its paths; `message`: handed back in the stage's final message. */
export const ARTIFACT_KINDS = ["file", "message"] as const;
export type ArtifactKind = (typeof ARTIFACT_KINDS)[number];

export const ISOLATIONS = ["subagent", "main"] as const;
export type Isolation = (typeof ISOLATIONS)[number];

export const MODEL_TIERS = ["deep", "balanced", "fast"] as const;
export type ModelTier = (typeof MODEL_TIERS)[number];

export const TEMPERATURES = ["cold", "neutral", "warm"] as const;
export type Temperature = (typeof TEMPERATURES)[number];

export const EFFORTS = ["low", "medium", "high", "xhigh", "max"] as const;
export type Effort = (typeof EFFORTS)[number];

export const SHELL_ACTIONS = ["allow", "ask", "deny"] as const;
export type ShellAction = (typeof SHELL_ACTIONS)[number];

/** A plain name: role ids, stage ids, artifact names, work kinds, host ids. */
export const ID_PATTERN = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
/** `artifact:NAME` in a path list stands for every path of that pipeline artifact. */
export const ARTIFACT_REF = /^artifact:(.*)$/;
export const ID_HINT = "use lowercase letters, digits and single hyphens, starting with a letter (e.g. \"jade\", \"bug-fix\")";

/** The constraints every adapter must account for, per role (or for the pipeline as a whole). */
export const CONSTRAINTS = [
  "tools",
  "write-scope",
  "never-write",
  "shell",
  "git-deny",
  "spawn",
  "isolation",
  "model",
  "temperature",
  "max-turns",
  "gates",
  "checks",
  "loop-cap",
  "handoffs",
  "effort",
  "mcp",
  "skills",
  "memory",
  "initial-prompt",
  "background",
  "host-fields",
  "order", // stages run in the pipeline's order (a work kind's stages only)
  "hop-cap", // at most policies.max_hops delegations per run
] as const;
export type Constraint = (typeof CONSTRAINTS)[number];

/** harness's own state folder in a project (the run controller's runs and records); no role may write it. */
export const HARNESS_STATE_DIR = ".harness";
export const HARNESS_STATE_GLOB = ".harness/**";
