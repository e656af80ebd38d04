import * as z from "zod";
import { commonSchemas, once } from "./common.js";
import { ARTIFACT_REF, EFFORTS, ISOLATIONS, MEMORIES, SHELL_ACTIONS, TEMPERATURES } from "./vocabulary.js";
import { modelProblem, toolProblem } from "./role-rules.js";

export const roleSchemas = once(() => {
  const { CommandPattern, Glob, Id, NonEmptyText } = commonSchemas();

  const PathEntry = z.string().superRefine((value, ctx) => {
    const ref = ARTIFACT_REF.exec(value);
    if (ref) {
      if (!Id.safeParse(ref[1]).success)
        ctx.addIssue({ code: "custom", message: `"${value}" does not name an artifact; write "artifact:<name>"` });
      return;
    }
    const result = Glob.safeParse(value);
    if (!result.success) for (const issue of result.error.issues) ctx.addIssue({ code: "custom", message: issue.message });
  });

  const ShellRules = z
    .object({
      allow: z.array(CommandPattern).default([]),
      ask: z.array(CommandPattern).default([]),
      deny: z.array(CommandPattern).default([]),
      /** What happens to a command no rule names. */
      default: z.enum(SHELL_ACTIONS).default("ask"),
    })
    .strict();

  /** A canonical or extra tool, `all`, or `mcp:<server>/<tool|*>`. */
  const ToolEntry = z.string().superRefine((value, ctx) => {
    const problem = toolProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });
  const ModelRef = z.string().superRefine((value, ctx) => {
    const problem = modelProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });
  const ServerName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, { message: "not an MCP server name; use letters, digits, _, . and -" });

  const RolePermissions = z
    .object({
      /** Extra paths the role may write, beyond the artifacts it `writes`. */
      write: z.array(PathEntry).default([]),
      /** Paths the role must never write; these win over `write`. */
      never_write: z.array(PathEntry).default([]),
      shell: ShellRules.optional(),
    })
    .strict();

  const RoleFrontMatter = z
    .object({
      /** Optional; when given it must equal the file name. */
      id: Id.optional(),
      title: NonEmptyText,
      description: NonEmptyText,
      isolation: z.enum(ISOLATIONS),
      worktree: z.boolean().default(false),
      /** A tier (mapped per host under the pipeline's hosts), `inherit`, or a host model id; absent = the host's default. */
      model: ModelRef.optional(),
      temperature: z.enum(TEMPERATURES).optional(),
      tools: z.array(ToolEntry).min(1, { message: "a role needs at least one tool" }),
      permissions: RolePermissions.default({ write: [], never_write: [] }),
      reads: z.array(Id).default([]),
      writes: z.array(Id).default([]),
      forbidden: NonEmptyText,
      done: NonEmptyText,
      max_turns: z.number().int().positive().optional(),
      effort: z.enum(EFFORTS).optional(),
      /** A lead: the roles it may start itself (implies spawn-agent; needs no policies.nested_agents). */
      starts: z.array(Id).min(1, { message: "a lead starts at least one role" }).optional(),
      /** Skills the host preloads for the role. */
      skills: z.array(NonEmptyText).optional(),
      /** MCP servers the role gets: names of servers the project configures, or their definitions. */
      mcp_servers: z.union([z.array(ServerName), z.record(ServerName, z.record(z.string(), z.unknown()))]).optional(),
      /** Persistent memory the host keeps for the role. */
      memory: z.enum(MEMORIES).optional(),
      /** The first user turn the host submits when the role runs as the main session. */
      initial_prompt: NonEmptyText.optional(),
      /** Run the role in the background (the host does not wait for it). */
      background: z.boolean().optional(),
      /** Per host: a model pin (`model`) and host-native fields emitted only to that host. */
      hosts: z.record(Id, z.record(z.string(), z.unknown())).optional(),
    })
    .strict();
  return { RoleFrontMatter };
});

/** The role front matter schema (built on first use). */
export const roleSchema = () => roleSchemas().RoleFrontMatter;

export type RoleFrontMatterInput = z.input<ReturnType<typeof roleSchema>>;
export type RoleFrontMatterData = z.output<ReturnType<typeof roleSchema>>;
