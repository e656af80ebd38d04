// MAPPING.md's `harness run --sandbox` section for Claude Code: which rows the sandbox moves, role
// by role, and which writes outside the project stay in reach. Every claim here is what
// test/hosts/run-sandbox.test.ts measures on Claude Code 2.1.332; what it does not measure is said so.
import type { PipelineIR } from "../../src/ir/types.js";
import { plainPrefix } from "./sandbox.js";

export const SANDBOX_PROOF = "claude-code: harness run --sandbox: Jade's npm test code cannot write test/, .harness/, .git/ hooks and config, .claude/, HOME or outside the project bar the sandbox's own folders; src/ and a passing npm test still work";
/** The same test code without the sandbox: what harness run alone sees of it. */
export const NO_SANDBOX_PROOF = "claude-code: harness run without --sandbox: the same test code writes every target, and the scope check sees only what git's view shows: .git/hooks, .git/config, .harness/ and the home pass unseen";

/** What harness run has without the sandbox: its check of git's changed files after each session (docs/run.md). */
const SCOPE_CHECK = "harness run's scope check after the session (git's changed files: refuses the stage, restores nothing)";

const list = (xs: readonly string[], max = 8) => (xs.length ? `${xs.slice(0, max).map((x) => `\`${x}\``).join(", ")}${xs.length > max ? `, and ${xs.length - max} more` : ""}` : "none");

export function sandboxMapping(pipeline: PipelineIR): string[] {
  const policy = new Set(pipeline.policies.neverWrite);
  const policyPrefixes = pipeline.policies.neverWrite.map(plainPrefix).filter((p): p is string => p !== null);
  const rows = pipeline.roles.flatMap((r) => {
    const own = r.neverWrite.filter((g) => !policy.has(g));
    const ownPrefixes = own.map(plainPrefix).filter((p): p is string => p !== null);
    const globs = r.neverWrite.filter((g) => plainPrefix(g) === null);
    return [
      `| ${r.id} | never-write, code its commands run (folder and file prefixes) | ${SCOPE_CHECK} | native: Claude Code sandbox denyWrite and Edit deny rules from the session's --settings; the role's own: ${list(ownPrefixes)}; and the pipeline's (below) | ${SANDBOX_PROOF} |`,
      ...(globs.length ? [`| ${r.id} | never-write, code its commands run (globs) | ${SCOPE_CHECK} | unchanged: the sandbox silently does not enforce a glob deny, so ${list(globs, 4)} stay with the scope check |  |`] : []),
      `| ${r.id} | write-scope, code its commands run | ${SCOPE_CHECK} | unchanged: the sandbox has no allow list (a deny beats an allow), so a write outside ${list(r.write, 3)} that no never-write prefix covers lands, and the scope check refuses the stage |  |`,
    ];
  });
  return [
    "",
    "## Under `harness run --sandbox`",
    "",
    "`harness run --sandbox` starts every stage's session with a `--settings` file of its own (written outside the project, removed when the session ends) that turns on Claude Code's sandbox (bubblewrap and socat on Linux) for everything Bash starts: `enabled`, `failIfUnavailable`, `allowUnsandboxedCommands: false`, `autoAllowBashIfSandboxed: false`, no `excludedCommands`, and the paths below as `//absolute` `filesystem.denyWrite` entries and `Edit(…)` deny rules. Without bwrap or socat on PATH the run refuses to start. It holds only for sessions harness run starts: the sandbox is session-wide, and a `/" + pipeline.name + "` session started by hand, its subagents included, runs without it. Harness's own hooks run outside it.",
    "",
    "| role | constraint | harness run without --sandbox | with --sandbox | proven by |",
    "| --- | --- | --- | --- | --- |",
    ...rows,
    `| (every role) | run state and the audit's inputs, code its commands run: \`.harness/\` (ignored by git), the git folder's \`hooks\`, \`config\`, \`info\`, \`harness-audit\` | none: git's changed files do not show them (${NO_SANDBOX_PROOF}) | native | ${SANDBOX_PROOF} |`,
    `| (every role) | the installed enforcement files, code its commands run: \`.claude/\` | ${SCOPE_CHECK} | native | ${SANDBOX_PROOF} |`,
    "",
    `The pipeline's never-write prefixes, denied in every role's session: ${policyPrefixes.map((p) => `\`${p}\``).join(", ")}. Its globs stay with the scope check: ${pipeline.policies.neverWrite.filter((g) => plainPrefix(g) === null).map((g) => `\`${g}\``).join(", ") || "none"}.`,
    "",
    "Writes outside the project by code a role's commands run, under `--sandbox` (measured by the test above; without the sandbox every one of them lands):",
    "",
    "- **out of reach** (EROFS): the home folder and its `.claude/settings.json`, harness's state folder (`$HARNESS_STATE_HOME`: the run records' digests), a sibling of the project, `/tmp`;",
    "- **in reach, and they reach the host**: the session's temporary folder (Claude Code points `TMPDIR` at `$TMPDIR/claude-<uid>`) and `~/.npm/_logs`;",
    "- **writable inside the sandbox, but the write never reaches the host**: `~/.claude/file-history`, `~/.claude/daemon`, `/etc/ssh/ssh_config.d`;",
    "- **not tested**: the other folders Claude Code mounts writable (`~/.claude/seed-admin`, `~/.claude/bridge-spawn`, `/tmp/cc-daemon-<uid>`, `/dev/shm`), and network access from Bash (Claude Code's sandbox default applies).",
  ];
}
