// What the shared guard runtime leaves to another layer. Every host with a generated guard lists these
// under MAPPING.md's Known gaps, after its own, with the layer that catches each: the stage-end audit
// where the host has one, "no layer" where it has none.
export interface SharedGapOptions {
  /** the host runs the stage-end audit (src/adapter/audit) */
  audit: boolean;
  /** the host's write tool takes a patch (apply_patch) */
  patch: boolean;
  /**
   * the guard honours the off switch (HARNESS_GUARD_OFF): "settings" where the host copies a settings
   * file's env into the hook (the switch counts only when no such file sets it, and the host started
   * with it), "start" where the host reads no environment from files (only its start counts), false: none
   */
  off: false | "settings" | "start";
  /**
   * how the guard starts: "hook", a shell line the host runs (guardHookCommand), or "in-process", code
   * the host loads into its own process (an extension); the adapter names what reaches that process
   */
  runs?: "hook" | "in-process";
}

export function guardSharedGaps(o: SharedGapOptions): string[] {
  const files = o.audit ? "file effects: the stage-end audit" : "no layer catches it: the host has no stage-end audit";
  const gaps = [
    `options are read by allow list for the programs the guard models (read-only utilities, git's read-only subcommands, npm/npx/pnpm/yarn, tsc, vitest, jest, pytest, go, cargo); for any other program a rule allows (actionlint, hadolint, docker compose config, terraform, helm, playwright, cypress) only its positional words pass and each option is asked (refused for default-deny roles). Positional words are that program's operands: what a role's own test file, package script, build file or tool configuration (vitest.config, conftest.py, a .cargo/config.toml or .npmrc in a folder the role writes and then runs the tool from) does when the allowed runner loads it is code (${files})`,
    `npm, pnpm and yarn pass words on to the project's package.json script; only filters and --run, --passWithNoTests, --silent, --verbose pass, and what the script (the project's own) does with them is its own. \`go build\` writes its binary into the working folder (${files})`,
    `a command is read as bash, zsh and sh (dash) with their default options all read it (each of the three runs on what the guard allows in test/guard/shells-real.slow.test.ts); a host that runs it in another shell (PowerShell or cmd on Windows, fish, csh) reads other syntax, which the guard does not model (${files}; a push or a network call: no layer)`,
    `case-insensitive file systems (macOS, Windows): never-write paths are matched without case, and on Windows without a name's trailing dots and spaces; a write scope is matched as spelled (another case is refused). Windows short (8.3) names and alternate data streams, and a never-write glob with non-ASCII letters under macOS's Unicode normalisation, are not modelled (${files})`,
    `a hard link or a symbolic link made, or swapped in, between the guard's check and the write is not detected; a file that already has more than one hard link is refused (${files})`,
    `cd is read both as bash's logical cd (from the folder the host reports, as spelled and resolved) and physically, and refused where the two land apart; a $PWD the host's own shell holds that names the folder through some other symbolic link is not seen (${files})`,
    `a role whose shell default is allow runs any program the guard does not read: its deny and ask rules bind the command as written, its forms without leading options and every command its later words start (taskset 1 git push), not what a program does with one word (awk 'BEGIN{system(…)}', a script file) (${files}; a push or a network call: no layer)`,
    // r8g: the guard answers nothing for these, by design: the author gave the role every tool
    `a role given every tool (tools: [all], as an agent imported without a tools line is) leaves each tool the guard does not model (Claude Code's Monitor and PowerShell, Factory Droid's Script, Qwen Code's exec, a new tool of a later host version) to the host's own permission flow, so the host's default for that tool decides, not the role's scope (${files}); a role that names its tools gets every other tool refused`,
  ];
  if ((o.runs ?? "hook") === "hook")
    gaps.push(
      o.audit
        ? "every hook line (guard, stage-end audit, run controller) unsets NODE_OPTIONS, NODE_PATH, the loader's LD_*/DYLD_* and BASH_ENV/ENV and drops relative PATH entries before it starts node, and takes the system's node (/usr/bin, /bin) when it is Node.js 20 or newer, so a node planted in a folder the user can write ahead of it on the PATH (~/.local/bin) is never run; otherwise it finds node on the PATH it is given (the installed files are committed and hold no machine's path), and a node in a folder the user can write (nvm, volta, Homebrew), replaced or shadowed by code a role ran, runs every later hook: no layer catches that (the audit's git, and the repository root Codex's lines look up, come from the system's /usr/bin and /bin first, that PATH only where they hold no git). An absolute PATH entry a settings file's env adds (with a fake node that code a role ran planted there) takes effect from the host's next start; the stage-end audit's snapshot of the user's settings restores the file and fails the stage, and `harness run` and the launchers, where the host has them, refuse to start with hooks disabled (audit layer). A variable the shell itself reads before the line runs (LD_PRELOAD for sh, exported bash functions where the host runs hooks with bash) is likewise the audit's"
        : "the hook line unsets NODE_OPTIONS, NODE_PATH, the loader's LD_*/DYLD_* and BASH_ENV/ENV and drops relative PATH entries before it starts node, and takes the system's node (/usr/bin, /bin) when it is Node.js 20 or newer; otherwise it finds node on the PATH it is given (the installed files are committed and hold no machine's path), and a node in a folder the user can write, replaced or shadowed by code a role ran, runs every later hook. An absolute PATH entry a settings file's env adds (with a fake node that code a role ran planted there), and a variable the shell itself reads before the line runs (LD_PRELOAD for sh), take effect from the host's next start; no layer catches it: the host has no stage-end audit to restore the user's settings",
    );
  if (o.off === "settings")
    gaps.push(
      "the off switch counts only when no settings file the host reads sets it (read as JSON) and, on Linux, only when the host process was started with it (its /proc environment); on macOS and Windows the starting environment is not readable, so the settings-file check is the only one",
    );
  if (o.off === "start")
    gaps.push(
      "the off switch counts, on Linux, only when the host process was started with it (its /proc environment; the host reads no environment from files); on macOS and Windows the starting environment is not readable, so the environment the process runs with is taken as it is",
    );
  if (o.patch)
    gaps.push(
      "apply_patch: a patch in any shape but the canonical one (a line that could read as a directive once trimmed, a file name with white space or a control character at an end, carriage returns, a heredoc wrapper) is refused whole, even where the host would apply it",
    );
  return gaps;
}
