// A hand-built Pipeline IR shaped like Pebble, for the Claude Code guard tests. It does not go
// through the loader: the guard consumes the IR, so the tests pin the IR shape they rely on.
import type { ArtifactIR, PipelineIR, RoleIR, ShellPolicyIR } from "../../src/ir/types.js";
import type { CanonicalTool, Isolation } from "../../src/schema/vocabulary.js";

export const SHELL_DENY = [
  "git commit",
  "git commit *",
  "git push",
  "git push *",
  "git merge *",
  "git rebase *",
  "git reset --hard*",
  "git push --force*",
  // Not in the brief's list, added so orchestrator_shell has a deny to lift.
  "git stash *",
];
export const ORCHESTRATOR_SHELL = ["git stash push *"];
export const GLOBAL_NEVER_WRITE = [".git/**", "CLAUDE.md"];

export const TEST_GLOBS = ["test/**", "tests/**", "**/__tests__/**", "**/*.test.*", "**/*.spec.*"];
export const CODE_GLOBS = ["src/**", "lib/**", "app/**"];

const artifacts: ArtifactIR[] = [
  { name: "blueprint", description: "The design", paths: [".pebble/blueprint.md"], document: true },
  { name: "code", description: "The implementation", paths: CODE_GLOBS, document: false },
  { name: "docs", description: "User docs", paths: ["docs/**", "README.md"], document: false },
  { name: "infra", description: "Infrastructure", paths: ["infra/**", ".github/workflows/**", "Dockerfile"], document: false },
  { name: "review", description: "The review", paths: [".pebble/review.md"], document: true },
  { name: "spec", description: "The spec", paths: [".pebble/spec.md"], document: true },
  { name: "tests", description: "The tests", paths: TEST_GLOBS, document: false },
  { name: "verification", description: "The verification report", paths: [".pebble/verification.md"], document: true },
];

function shell(allow: string[], ask: string[], deny: string[], dflt: ShellPolicyIR["default"]): ShellPolicyIR {
  return { allow, ask, deny: [...deny, ...SHELL_DENY], default: dflt };
}

interface RoleSpec {
  id: string;
  isolation: Isolation;
  write: string[];
  neverWrite?: string[];
  shell: ShellPolicyIR | null;
  canSpawn?: boolean;
  writes: string[];
}

function role(spec: RoleSpec): RoleIR {
  const tools: CanonicalTool[] = ["read", "grep", "glob", "edit", "write"];
  if (spec.shell) tools.push("bash");
  if (spec.canSpawn) tools.push("spawn-agent");
  return {
    id: spec.id,
    title: spec.id[0]!.toUpperCase() + spec.id.slice(1),
    description: `The ${spec.id} role`,
    isolation: spec.isolation,
    worktree: false,
    model: "balanced",
    temperature: { class: "neutral", value: 0.3 },
    tools,
    write: spec.write,
    neverWrite: [...(spec.neverWrite ?? []), ...GLOBAL_NEVER_WRITE],
    shell: spec.shell,
    canSpawn: spec.canSpawn ?? false,
    reads: [],
    writes: spec.writes,
    forbidden: "Anything outside its artifacts.",
    done: "Its artifact is written.",
    body: `You are ${spec.id}.`,
    stages: [spec.id],
    source: { file: `roles/${spec.id}.md`, fields: {} },
  };
}

export const ROLES: RoleIR[] = [
  role({ id: "flint", isolation: "main", write: [".pebble/spec.md"], shell: null, writes: ["spec"] }),
  role({
    id: "slate",
    isolation: "subagent",
    write: [".pebble/blueprint.md"],
    shell: shell(["git log *", "git diff *", "ls *"], [], [], "deny"),
    writes: ["blueprint"],
  }),
  role({
    id: "mica",
    isolation: "subagent",
    write: TEST_GLOBS,
    neverWrite: CODE_GLOBS,
    shell: shell(["npm test *", "npx vitest *", "ls *"], [], ["npm publish *"], "ask"),
    writes: ["tests"],
  }),
  role({
    id: "jade",
    isolation: "subagent",
    write: CODE_GLOBS,
    neverWrite: TEST_GLOBS,
    shell: shell(["npm test *", "npm run build *", "ls *", "cat *"], ["npm install *"], ["npm publish *"], "ask"),
    writes: ["code"],
  }),
  role({
    id: "onyx",
    isolation: "main",
    write: [".pebble/review.md"],
    shell: shell(["git diff *", "git log *", "npm test *"], [], [], "deny"),
    writes: ["review"],
  }),
  role({
    id: "quartz",
    isolation: "subagent",
    write: [".pebble/verification.md"],
    shell: shell(["npm test *"], [], [], "deny"),
    writes: ["verification"],
  }),
  role({
    id: "coral",
    isolation: "subagent",
    write: ["infra/**", ".github/workflows/**", "Dockerfile"],
    shell: shell(["docker build *", "terraform fmt *"], ["terraform plan *"], ["terraform apply *"], "deny"),
    writes: ["infra"],
  }),
  role({ id: "chalk", isolation: "subagent", write: ["docs/**", "README.md"], shell: null, writes: ["docs"] }),
];

export function pebble(overrides: Partial<PipelineIR["policies"]> = {}, roles: RoleIR[] = ROLES): PipelineIR {
  return {
    name: "pebble",
    title: "Pebble",
    description: "Eight roles from request to docs.",
    argumentHint: "<feature request>",
    artifacts,
    conditions: {},
    roles,
    stages: roles.map((r, index) => ({ id: r.id, role: r.id, group: index, index })),
    workKinds: [],
    commands: [],
    checks: [],
    briefing: [],
    policies: {
      shellDeny: SHELL_DENY,
      neverWrite: GLOBAL_NEVER_WRITE,
      orchestratorShell: ORCHESTRATOR_SHELL,
      nestedAgents: false,
      maxHops: 20,
      scope: "pipeline",
      ...overrides,
    },
    hosts: {},
    acceptedLosses: [],
    source: { file: "roles/pipeline.yaml", fields: {} },
  };
}
