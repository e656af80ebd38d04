import * as z from "zod";
import { commonSchemas, once } from "./common.js";
import { ARTIFACT_REF, CANONICAL_TOOLS, EFFORTS, ISOLATIONS, MODEL_TIERS, SHELL_ACTIONS, TEMPERATURES } from "./vocabulary.js";

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
      model: z.enum(MODEL_TIERS).default("balanced"),
      temperature: z.enum(TEMPERATURES).default("neutral"),
      tools: z.array(z.enum(CANONICAL_TOOLS)).min(1, { message: "a role needs at least one tool" }),
      permissions: RolePermissions.default({ write: [], never_write: [] }),
      reads: z.array(Id).default([]),
      writes: z.array(Id).default([]),
      forbidden: NonEmptyText,
      done: NonEmptyText,
      max_turns: z.number().int().positive().optional(),
      effort: z.enum(EFFORTS).optional(),
    })
    .strict();
  return { RoleFrontMatter };
});

/** The role front matter schema (built on first use). */
export const roleSchema = () => roleSchemas().RoleFrontMatter;

export type RoleFrontMatterInput = z.input<ReturnType<typeof roleSchema>>;
export type RoleFrontMatterData = z.output<ReturnType<typeof roleSchema>>;
