// Guard runtime, part 2: what the guard knows about commands. JavaScript source text (see render.ts).
//
// - Deny and ask rules are matched on the command as written and on its normalised forms: git's
//   global options removed, and for other tools every way of skipping leading options
//   (`npm --tag x publish` is also read as `npm publish`, `kubectl -n x apply` as `kubectl apply`).
// - Allow rules are matched on the command as written only (git: minus harmless global options),
//   and never when an argument is one of the command's write or exec options.
// - Git: roles and the orchestrator run read-only git only, unless a rule allows the command itself.
// - A short list of read-only commands (ls, cat, rg, …) runs for every role with a shell: on
//   Linux builds Claude Code serves Grep and Glob through the shell.
export const GUARD_COMMANDS_SOURCE = String.raw`
// Commands that run another command: the guard cannot see what that one is.
const GUARD_WRAPPERS = new Set(["env", "command", "builtin", "exec", "eval", "source", ".", "nohup", "sudo", "doas", "su", "runuser", "timeout", "nice", "ionice", "stdbuf", "time", "xargs", "parallel", "watch", "script", "flock", "setsid", "chronic", "unbuffer", "sh", "bash", "dash", "zsh", "ksh", "fish", "busybox", "trap", "hash", "alias", "unalias", "set", "shopt", "export", "declare", "typeset", "local", "readonly", "unset", "enable", "ssh", "chroot", "nsenter", "unshare", "fakeroot", "caffeinate", "pushd", "popd"]);

// Write or exec options: an allow rule never covers a command that carries one.
const GUARD_FORBID_ANY = ["--output", "--output-file", "--outputFile", "--output-dir", "--outDir", "--outdir", "--out-dir", "--outFile", "--target-dir", "--artifact-dir", "--update", "--update-snapshots", "--updateSnapshot", "--snapshot-update", "--write", "--fix", "--exec", "--ext-diff", "--upload-pack", "--receive-pack", "--basetemp", "--junitxml", "--junit-xml", "--cov-report", "--rootdir", "--compress-program", "--post-renderer", "--tsBuildInfoFile", "--declarationDir", "--generateTrace", "--cache-location", "--coverage.reportsDirectory"];
const GUARD_JS = ["-u", "-C", "--prefix", "--userconfig", "--globalconfig"];
const GUARD_FORBID = {
  git: ["-O", "--open-files-in-pager"],
  rg: ["--pre"], ugrep: ["--filter", "--save-config", "--pre"],
  npm: GUARD_JS, npx: GUARD_JS, pnpm: GUARD_JS, yarn: GUARD_JS, bun: GUARD_JS, bunx: GUARD_JS, vitest: GUARD_JS, jest: GUARD_JS,
  pytest: ["-o", "-c", "-p", "--override-ini", "--config-file"], python: ["-o", "-c", "-p", "--override-ini", "--config-file"], python3: ["-o", "-c", "-p", "--override-ini", "--config-file"],
  go: ["-o", "-exec", "-toolexec", "-coverprofile", "-cpuprofile", "-memprofile", "-blockprofile", "-mutexprofile", "-trace", "-outputdir", "-modfile", "-overlay", "-pkgdir", "-vettool"],
  cargo: ["-Z", "--config"], sort: ["-o"], tree: ["-o"], file: ["-C", "--compile"], docker: ["-o"], terraform: ["-out", "-state-out", "-backup", "-write"], helm: ["--output-dir"],
  find: ["-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"], bfs: ["-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"],
};
function guardBase(w) { const k = w.lastIndexOf("/"); return k >= 0 ? w.slice(k + 1) : w; }
// Tools whose options are single-dash words (go test -count=1), never clusters of letters.
const GUARD_NO_CLUSTER = new Set(["go", "find", "bfs", "terraform"]);
function guardFlagHit(arg, f, cluster) {
  if (arg === f || arg.startsWith(f + "=")) return true;
  // getopt style: a single-letter option with its value attached (-ofile) or in a cluster (-vu)
  if (!cluster || f.length !== 2 || f[0] !== "-" || arg.length < 3 || arg[0] !== "-" || arg[1] === "-") return false;
  return arg[1] === f[1] || (/^-[A-Za-z]+$/.test(arg) && arg.includes(f[1]));
}
// The write or exec option the command carries, or null.
function guardForbidden(argv) {
  const name = guardBase(argv[0]);
  const own = GUARD_FORBID[name] || [];
  const cluster = !GUARD_NO_CLUSTER.has(name);
  for (const a of argv.slice(1)) {
    for (const f of GUARD_FORBID_ANY) if (a === f || a.startsWith(f + "=")) return f;
    for (const f of own) if (guardFlagHit(a, f, cluster)) return f;
  }
  return null;
}

// Read-only commands every role with a shell may run (with no write or exec option).
const GUARD_READ_ONLY = new Set(["ls", "pwd", "cat", "head", "tail", "wc", "grep", "egrep", "fgrep", "rg", "ugrep", "bfs", "find", "stat", "file", "tree", "du", "df", "diff", "cmp", "sort", "cut", "tr", "basename", "dirname", "realpath", "readlink", "which", "type", "echo", "printf", "true", "false", "nl", "column", "jq", "md5sum", "sha1sum", "sha256sum", "date", "uname", "whoami", "id"]);
function guardReadOnly(argv) {
  const name = argv[0];
  if (!GUARD_READ_ONLY.has(name)) return false;
  if (name === "printf" && argv.includes("-v")) return false;
  return guardForbidden(argv) === null;
}

// ---------------------------------------------------------------- git

const GUARD_GIT_ARG = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env", "--super-prefix", "--list-cmds", "--attr-source"]);
const GUARD_GIT_SAFE = new Set(["--no-pager", "-P", "--no-optional-locks", "--literal-pathspecs", "--no-replace-objects", "--no-advice", "--glob-pathspecs", "--noglob-pathspecs", "--icase-pathspecs"]);
// { normal: ["git", sub, ...], safe: only harmless global options were given }
function guardGit(argv) {
  let k = 1, safe = true;
  while (k < argv.length && argv[k].startsWith("-")) {
    const t = argv[k];
    if (!GUARD_GIT_SAFE.has(t)) safe = false;
    k += GUARD_GIT_ARG.has(t) ? 2 : 1;
  }
  return { normal: ["git", ...argv.slice(k)], safe };
}
const GUARD_GIT_RO = new Set(["status", "diff", "log", "show", "blame", "annotate", "shortlog", "describe", "rev-parse", "rev-list", "ls-files", "ls-tree", "cat-file", "grep", "diff-tree", "diff-files", "diff-index", "merge-base", "name-rev", "show-ref", "for-each-ref", "count-objects", "whatchanged", "range-diff", "cherry", "check-ignore", "check-attr", "check-ref-format", "var", "version", "help", "show-branch", "verify-commit", "verify-tag"]);
const GUARD_GIT_LIST = /^(-a|--all|-r|--remotes|-v|-vv|--verbose|-l|--list|--show-current|--no-color|--color(=.*)?|--column(=.*)?|--no-column|--format=.*|--sort=.*|--contains(=.*)?|--no-contains(=.*)?|--merged(=.*)?|--no-merged(=.*)?|--points-at(=.*)?|-n\d*|--ignore-case|--omit-empty)$/;
// Does this git command (normal form) only read?
function guardGitReadOnly(normal) {
  const sub = normal[1];
  const args = normal.slice(2);
  if (sub === undefined) return true;
  if (GUARD_GIT_RO.has(sub)) return true;
  const listing = () => { const l = args.includes("--list") || args.includes("-l"); return args.every((a) => GUARD_GIT_LIST.test(a) || (l && !a.startsWith("-"))); };
  if (sub === "branch" || sub === "tag") return listing() && (sub === "branch" || args.length === 0 || args.includes("-l") || args.includes("--list"));
  if (sub === "stash") return args[0] === "list" || args[0] === "show";
  if (sub === "remote") return args.length === 0 || (args.length === 1 && args[0] === "-v") || args[0] === "get-url";
  if (sub === "config") return ["--get", "--get-all", "--get-regexp", "--list", "-l", "get", "list"].includes(args[0]) && !args.some((a) => /^--(add|unset|replace|rename|remove|edit|file|blob|global|system)/.test(a));
  if (sub === "worktree") return args[0] === "list";
  if (sub === "reflog") return args.length === 0 || args[0] === "show" || args[0] === "exists";
  if (sub === "notes") return args[0] === "list" || args[0] === "show";
  if (sub === "submodule") return args[0] === "status";
  if (sub === "symbolic-ref") return args.filter((a) => !a.startsWith("-")).length === 1 && args.every((a) => a === "-q" || a === "--quiet" || a === "--short" || !a.startsWith("-"));
  return false;
}

// ---------------------------------------------------------------- normal forms for deny and ask

const GUARD_DOCKER_GROUPS = new Set(["image", "container", "network", "volume", "builder", "plugin", "system", "context", "manifest", "trust", "buildx"]);
// The command as written, plus the forms a denied command could hide behind.
function guardForms(argv) {
  const forms = [argv];
  const add = (f) => { if (forms.length < 64 && !forms.some((x) => x.length === f.length && x.every((w, j) => w === f[j]))) forms.push(f); };
  if (argv[0].includes("/")) add([guardBase(argv[0]), ...argv.slice(1)]);
  const name = guardBase(argv[0]);
  if (name === "git") { add(guardGit(argv).normal); return forms; }
  // every way of skipping leading options, each of which may or may not take the next word
  const starts = new Set();
  const walk = (k, depth) => {
    if (depth > 24 || k >= argv.length) return;
    const t = argv[k];
    if (t === "--") return;
    if (!t.startsWith("-") || t === "-") { starts.add(k); return; }
    walk(k + 1, depth + 1);
    if (!t.includes("=")) walk(k + 2, depth + 1);
  };
  walk(1, 0);
  for (const k of [...starts].sort((a, b) => a - b)) {
    if (k === 1) continue;
    add([name, ...argv.slice(k)]);
  }
  for (const f of forms.slice()) if (guardBase(f[0]) === "docker" && GUARD_DOCKER_GROUPS.has(f[1]) && f.length > 2) add(["docker", ...f.slice(2)]);
  return forms;
}
`;
