// Wires commands to the compiler and the host registry: `main` runs one command line and returns its
// exit code. The executable (src/bin.ts) is the only place that sets the process's exit code; tests
// call `main` in-process, so a call leaves no state behind (cwd, env, output streams, colours).
// Imports lazily.
import { Command, CommanderError } from "commander";
import { createRequire } from "node:module";
// The registry is a table of lazy loaders: importing it loads no adapter.
import { HOSTS as registry } from "../adapters/index.js";
import { stream, useOutput, type Output } from "./ui.js";
import { colorRule } from "./colors.js";

const collect = (value: string, previous: string[] = []) => [...previous, value];

function version(): string {
  const require = createRequire(import.meta.url);
  for (const p of ["../../package.json", "../package.json"]) {
    try {
      return (require(p) as { version: string }).version;
    } catch {
      /* try the next layout */
    }
  }
  return "0.0.0";
}

/** A fresh program for one command line (commander keeps parsed option values on its commands). */
function cliProgram(argv: readonly string[], exit: (code: number) => void): Command {
  async function run(action: () => Promise<number>): Promise<void> {
    try {
      exit(await action());
    } catch (error) {
      const { InputError, UsageError } = await import("./errors.js");
      if (error instanceof InputError || error instanceof UsageError) {
        stream(2).write(`${error.message}\n`);
        if (error instanceof InputError) {
          const n = error.diagnostics.filter((d) => d.severity === "error").length;
          stream(2).write(`${n} error(s); nothing was written.\n`);
        }
        exit(2);
        return;
      }
      throw error;
    }
  }

  const program = new Command("harness")
    .description("Compile one host-neutral agent process (roles/) into the native files of every coding-agent host (out/<host>/).")
    .version(version(), "-V, --version")
    .showHelpAfterError()
    .exitOverride()
    // before the subcommands, which inherit it: help, version and usage errors go where the rest does
    .configureOutput({ writeOut: (text) => stream(1).write(text), writeErr: (text) => stream(2).write(text) });

  // From a subfolder, project commands run at the project root (src/project-root.ts).
  program.hook("preAction", async (_program, cmd) => (await import("./project-root.js")).settle(cmd));

  const common = (cmd: Command) =>
    cmd
      .option("--roles <dir>", "folder with pipeline.yaml and one .md per role", "roles")
      .option("--out <dir>", "output folder; each host gets out/<host>/", "out")
      .option("--host <id>", `build only this host (repeatable): ${Object.keys(registry).join(", ")}`, collect)
      .option("--strict", "exit 1 when a constraint listed in required_enforcement is only instructed or lost on some host");

  common(program.command("build"))
    .description("compile roles/ and write out/<host>/ (only changed files; never touches files it did not write)")
    .option("-q, --quiet", "print nothing but errors")
    .option("-v, --verbose", "list every loss, accepted and info-level ones too")
    .option("--force", "overwrite generated files that were edited by hand since harness wrote them")
    .option("--watch", "rebuild whenever a file in the roles folder changes, one line per rebuild (Ctrl-C stops)")
    .addHelpText("after", "\nExamples:\n  harness build\n  harness build --watch\n  harness build --host claude-code --out generated\n\nExit codes: 0 ok, 1 unaccepted error-level losses (the files are still written, and the build says so), 2 invalid input or usage (nothing written).")
    .action(async (opts) => run(async () => (opts.watch ? (await import("./commands/watch.js")).watchBuild({ ...opts, registry }) : (await import("./commands/build.js")).build({ ...opts, registry, argv }))));

  common(program.command("check"))
    .description("compile in memory and compare with out/ (or, with --installed, with the files harness installed); exit 1 on drift (changed, missing or stray files)")
    .option("--json", "print a machine-readable report on stdout")
    .option("-q, --quiet", "print only the drifted paths and failing locations, one per line")
    .option("--installed", "check the files `harness install` put into the project (--into) against harness.lock.json and roles/")
    .option("--into <dir>", "with --installed: the project root", ".")
    .addHelpText("after", "\nExamples:\n  harness check\n  harness check --json --host claude-code\n  harness check --installed\n\nExit codes: 0 in sync, 1 drift or unaccepted losses, 2 invalid input or usage.")
    .action(async (opts) => run(async () => (opts.installed ? (await import("./commands/install.js")).checkInstalled({ ...opts, registry, version: version() }) : (await import("./commands/check.js")).check({ ...opts, registry, argv }))));

  program
    .command("install")
    .description("compile roles/ and install the hosts into a project root, merging the files it shares with the project (settings.json, opencode.json, config.toml, AGENTS.md …) by what harness owns; records ownership in harness.lock.json")
    .option("--roles <dir>", "folder with pipeline.yaml and one .md per role", "roles")
    .option("--into <dir>", "project root to install into", ".")
    .option("--host <id>", "install this host (repeatable; default: pipeline.yaml's targets, or every host); hosts already installed stay installed", collect)
    .option("--dry-run", "print what would change (problems first, a line per host); write nothing")
    .option("-v, --verbose", "with --dry-run: print the full diff")
    .option("--force", "overwrite parts harness owns that were edited by hand, and take over conflicting keys (uninstall gives them back)")
    .option("--json", "print the plan and result as JSON on stdout")
    .option("-q, --quiet", "print nothing but problems")
    .option("--watch", "install again whenever a file in the roles folder changes, one line each (Ctrl-C stops)")
    .addHelpText("after", "\nExamples:\n  harness install\n  harness install --watch\n  harness install --host claude-code --host codex --dry-run -v\n  harness install --into ../app\n\nExit codes: 0 installed, 1 something was kept (hand edits, conflicts, files harness does not own) or unaccepted losses, 2 invalid input or usage (nothing written).")
    .action(async (opts) => run(async () => (opts.watch ? (await import("./commands/watch.js")).watchInstall({ ...opts, registry, version: version() }) : (await import("./commands/install.js")).install({ ...opts, registry, version: version() }))));

  program
    .command("uninstall")
    .description("remove what harness installed (harness.lock.json): harness-only files go, shared files get their own content back")
    .option("--into <dir>", "project root", ".")
    .option("--host <id>", "uninstall only this host (repeatable)", collect)
    .option("--dry-run", "print what would change (problems first, a line per host); write nothing")
    .option("-v, --verbose", "with --dry-run: print the full diff")
    .option("--force", "also remove parts harness installed that were edited by hand")
    .option("--json", "print the result as JSON on stdout")
    .option("-q, --quiet", "print nothing but problems")
    .addHelpText("after", "\nExamples:\n  harness uninstall\n  harness uninstall --host opencode\n\nExit codes: 0 removed, 1 hand-edited parts were kept, 2 invalid input or usage (nothing written).")
    .action(async (opts) => run(async () => (await import("./commands/install.js")).uninstall({ ...opts, registry, version: version() })));

  program
    .command("diff")
    .description("compare how two hosts realise the pipeline: per role, each constraint's level and form, the files, and the prompts")
    .argument("[hosts...]", "two host ids, e.g. claude-code codex")
    .option("--roles <dir>", "folder with pipeline.yaml and one .md per role", "roles")
    .option("--out <dir>", "output folder (not written)", "out")
    .option("--role <id>", "only this role")
    .option("--all", "a matrix of every host pipeline.yaml targets (every host without targets:)")
    .option("--json", "print the full comparison as JSON on stdout")
    .option("--wide", "do not shorten the how column")
    .addHelpText("after", "\nExamples:\n  harness diff claude-code codex\n  harness diff claude-code opencode --role quartz\n  harness diff --all\n  harness diff claude-code codex --json\n\nExit codes: 0 shown, 2 invalid input or usage.")
    .action(async (hosts: string[], opts) => run(async () => (await import("./commands/diff.js")).diff(hosts, { ...opts, registry })));

  program
    .command("init")
    .description("write a starter pipeline (pipeline.yaml and its roles) that builds clean on every host; never overwrites")
    .option("--template <name>", "minimal (3 roles: plan, build, review) or pebble (the bundled 8-role process)", "minimal")
    .option("--roles <dir>", "folder to create", "roles")
    .addHelpText("after", "\nExamples:\n  harness init\n  harness init --template pebble --roles agents\n\nExit codes: 0 written, 2 the folder already holds files or unknown template (nothing written).")
    .action(async (opts, cmd: Command) => run(async () => (await import("./commands/init.js")).init({ ...opts, rolesNamed: cmd.getOptionValueSource("roles") === "cli", registry })));

  program
    .command("import")
    .description("read a project's existing agents (.claude/agents, .opencode/agents, .kilo/agents, .codex/agents, .gemini/agents, .github/agents, .cursor/agents) into roles/, with a report of every field; docs/import.md")
    .option("--from <host>", "import only this host's agents (repeatable): claude-code, opencode, kilo, codex, gemini-cli, copilot, cursor", collect)
    .option("--roles <dir>", "folder to write pipeline.yaml and the roles into", "roles")
    .option("--into <dir>", "the project root to read the agents from", ".")
    .option("--dry-run", "print the report; write nothing")
    .option("--force", "replace the files import writes in a roles folder that already holds others")
    .option("-q, --quiet", "print nothing but problems")
    .addHelpText("after", "\nExamples:\n  harness import\n  harness import --from claude-code --dry-run\n\nExit codes: 0 written (or unchanged), 2 nothing to import, a roles folder that holds other files (without --force), or invalid input (nothing written).")
    .action(async (opts) => run(async () => (await import("./commands/import.js")).importAgents({ ...opts, registry })));

  program
    .command("hosts")
    .description("print what every registered host can enforce (capabilities, missing tools, real-host proofs)")
    .option("--check", "print each host's pinned version, the version of its CLI on PATH, and whether they differ")
    .action(async (opts: { check?: boolean }) => run(async () => (await import("./commands/hosts.js")).hosts(registry, opts)));

  program
    .command("report")
    .description("write one static HTML page: every host × role × constraint coloured by level (how, loss, proof), the accepted losses, and the recorded runs (.harness/runs/) as timelines")
    .option("--roles <dir>", "folder with pipeline.yaml and one .md per role", "roles")
    .option("--out <file>", "the HTML file to write", "out/report.html")
    .option("--host <id>", "only this host (repeatable)", collect)
    .option("--open", "open the page in the default browser")
    .option("-q, --quiet", "print nothing but errors")
    .addHelpText("after", "\nExamples:\n  harness report\n  harness report --out report.html --open\n\nExit codes: 0 written, 2 invalid input or usage (nothing written).")
    .action(async (opts) => run(async () => (await import("./commands/report-page.js")).reportPage({ ...opts, registry })));

  program
    .command("explain")
    .description("explain a loss code (L_…) or diagnostic code (E_…, W_…): what it means and what to do")
    .argument("<code>", "e.g. L_SCOPE_INSTRUCTED or E_DRIFT")
    .action(async (code: string) => run(async () => (await import("./commands/explain.js")).explain(code)));

  program
    .command("run")
    .description("run the pipeline headless from outside the host: each stage one session of the installed host as its role; harness runs the checks, caps, gates and budget itself and records the run in .harness/runs/")
    .argument("[request]", "what to build, fix or change")
    .option("--roles <dir>", "folder with pipeline.yaml and one .md per role", "roles")
    .option("--host <id>", "the installed host to run (default: the one installed host harness run can drive)")
    .option("--kind <kind>", "the work kind (default: one short classifying session decides)")
    .option("--approve <gates>", "approve these gates without asking, e.g. spec,blueprint (repeatable)", collect)
    .option("--resume <id>", "continue a run that waits at a gate or was interrupted")
    .option("--json", "stream events on stdout, one JSON object per line")
    .option("--sandbox", "run every session in the host's OS sandbox (Claude Code: needs bubblewrap and socat); each role's never-write folders then hold for the code its commands run")
    .addHelpText("after", '\nExamples:\n  harness run "add a --json flag to list"\n  harness run --kind bug-fix --approve spec,blueprint "fix the off-by-one in paging"\n  harness run --resume 20261201T231500Z-a1b2c3\n\nExit codes: 0 passed, 1 stopped or failed (the record says why), 2 usage or not installed, 3 waiting at a gate, 130 interrupted.')
    .action(async (request: string | undefined, opts) => run(async () => (await import("./run/command.js")).runCommand(request, { ...opts, registry, version: version() })));

  const runsCmd = program
    .command("runs")
    .description("list the pipeline runs recorded in .harness/runs/ (by `harness run` and by the in-host run controller), newest first")
    .option("--into <dir>", "project root", ".")
    .option("--json", "print the records as a JSON list on stdout")
    .addHelpText("after", "\nExamples:\n  harness runs\n  harness runs show 20261201T231500Z-a1b2c3\n\nExit codes: 0 listed, 1 the record cannot be read, 2 usage.")
    .action(async (opts) => run(async () => (await import("./runs/runs.js")).runs(opts)));
  runsCmd
    .command("show")
    .description("print one run: its stages, checks, gates, caps and budget")
    .argument("<id>", "run id, e.g. 20261201T231500Z-a1b2c3")
    .option("--into <dir>", "project root (default: .)")
    .option("--json", "print the record as JSON on stdout")
    .action(async (id: string, opts) => run(async () => (await import("./runs/runs.js")).runsShow(id, { into: opts.into ?? runsCmd.opts().into, json: opts.json ?? runsCmd.opts().json })));
  return program;
}

/** Where an in-process call runs and what it sees; each part left out is this process's own. */
export interface CliContext extends Partial<Output> {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

/**
 * Run one command line (the arguments after `harness`) and return its exit code: 0 ok, 1 drift or
 * losses, 2 input or usage, 70 an internal error. It never exits the process nor sets its exit code,
 * and puts back the working folder (a project command moves to the project root), the environment,
 * and where output goes.
 */
export async function main(argv: readonly string[], context: CliContext = {}): Promise<number> {
  const cwd = process.cwd();
  const env = context.env ? { ...process.env } : null;
  let code = 0;
  const restoreOutput = context.stdout || context.stderr || context.env ? useOutput({ stdout: context.stdout ?? process.stdout, stderr: context.stderr ?? process.stderr }, colorsFor(context)) : () => {};
  try {
    if (context.env) setEnv(context.env);
    if (context.cwd) process.chdir(context.cwd);
    await cliProgram(argv, (c) => (code = c)).parseAsync([...argv], { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version exit 0; every other parse failure is a usage error.
      code = error.exitCode === 0 ? 0 : 2;
    } else {
      stream(2).write(`harness: internal error: ${(error as Error).stack ?? String(error)}\n`);
      code = 70;
    }
  } finally {
    process.chdir(cwd);
    if (env) setEnv(env);
    restoreOutput();
  }
  return code;
}

/**
 * Make the process's environment exactly `to`, in place: what reads the environment outside
 * process.env (os.homedir() and HOME, child processes, native code) sees the same.
 */
function setEnv(to: NodeJS.ProcessEnv): void {
  for (const k of Object.keys(process.env)) if (to[k] === undefined) delete process.env[k];
  for (const [k, v] of Object.entries(to)) if (v !== undefined && process.env[k] !== v) process.env[k] = v;
}

/** picocolors' own rule (it decides once, at start-up, for this process), for a caller's env and streams. */
function colorsFor(context: CliContext): boolean {
  return colorRule(context.env ?? process.env, [], process.platform, () => Boolean((context.stdout ?? process.stdout).isTTY));
}
