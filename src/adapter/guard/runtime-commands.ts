// Guard runtime, part 2: what the guard knows about commands. JavaScript source text (see render.ts).
//
// - Deny and ask rules are matched on the command as written and on its normalised forms: git's
//   global options removed, and for other tools every way of skipping leading options
//   (`npm --tag x publish` is also read as `npm publish`, `kubectl -n x apply` as `kubectl apply`).
// - Allow rules are matched on the command as written only (git: minus harmless global options),
//   and the words a rule's `*` covers must be options known safe for that program (runtime-options).
// - Git: roles and the orchestrator run read-only git only, unless a rule allows the command itself.
// - A short list of read-only commands (ls, cat, rg, …) runs for every role with a shell: on
//   Linux builds Claude Code serves Grep and Glob through the shell.
export const GUARD_COMMANDS_SOURCE = String.raw`
// Commands that run another command: the guard cannot see what that one is.
const GUARD_WRAPPERS = new Set(["env", "command", "builtin", "exec", "eval", "source", ".", "nohup", "sudo", "doas", "su", "runuser", "timeout", "nice", "ionice", "stdbuf", "time", "xargs", "parallel", "watch", "script", "flock", "setsid", "chronic", "unbuffer", "sh", "bash", "dash", "zsh", "ksh", "fish", "busybox", "trap", "hash", "alias", "unalias", "set", "shopt", "export", "declare", "typeset", "local", "readonly", "unset", "enable", "ssh", "chroot", "nsenter", "unshare", "fakeroot", "caffeinate", "pushd", "popd", "apply_patch", "applypatch"]);

function guardBase(w) { const k = w.lastIndexOf("/"); return k >= 0 ? w.slice(k + 1) : w; }

// Read-only commands every role with a shell may run, with options known safe (runtime-options).
function guardReadOnly(argv) {
  const name = argv[0];
  if (!(Object.prototype.hasOwnProperty.call(GUARD_SPECS, name) || GUARD_ANY_ARGS.has(name) || name === "printf")) return false;
  return guardArgsWhy(argv, 1) === null;
}

// A pattern's "word*" continues a word (test:unit) only where that word names one of the project's
// package.json scripts: npm, pnpm and yarn read it so. Anywhere else it names another program
// (git status.sh runs git-status.sh from PATH, npx vitest.x fetches package vitest.x): the word must be
// the stem itself.
// Returns the word that continues a stem elsewhere, or null.
function guardStemBad(p, argv) {
  const toks = guardPatCompile(p);
  const scripts = argv[0] === "npm" || argv[0] === "pnpm" || argv[0] === "yarn";
  for (let j = 0; j < toks.length && j < argv.length; j++) {
    const t = toks[j];
    if (t.star) return null;
    if (t.stem !== undefined && argv[j] !== t.stem && !(scripts && j >= 1)) return argv[j];
  }
  return null;
}
// The first pattern of list that matches argv with every word a "*" covers known safe: { pat } or { why }.
function guardAllowMatch(policy, list, argv) {
  let why = null;
  for (const k of list) {
    const p = policy.pats[k];
    if (!guardPatMatch(p, argv)) continue;
    const stem = guardStemBad(p, argv);
    if (stem !== null) { if (why === null) why = "it runs " + stem + ", which is not the program or subcommand its rule names"; continue; }
    const w = guardArgsWhy(argv, guardPatTrusted(p));
    if (w === null) return { pat: p };
    if (why === null) why = w;
  }
  return { why };
}

// ---------------------------------------------------------------- git

const GUARD_GIT_ARG = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env", "--super-prefix", "--list-cmds", "--attr-source", "--shallow-file"]);
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
const GUARD_GIT_CONFIG_OPTS = new Set(["--show-origin", "--show-scope", "--name-only", "-z", "--null", "--includes", "--no-includes", "--bool", "--int", "--path", "--local", "--worktree"]);
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
  if (sub === "config") {
    if (!["--get", "--get-all", "--get-regexp", "--list", "-l", "get", "list"].includes(args[0])) return false;
    const rest = args.slice(1);
    return rest.every((a) => !a.startsWith("-") || GUARD_GIT_CONFIG_OPTS.has(a)) && rest.filter((a) => !a.startsWith("-")).length <= 2;
  }
  if (sub === "worktree") return args[0] === "list";
  if (sub === "reflog") return args.length === 0 || args[0] === "show" || args[0] === "exists";
  if (sub === "notes") return args[0] === "list" || args[0] === "show";
  if (sub === "submodule") return args[0] === "status";
  if (sub === "symbolic-ref") return args.filter((a) => !a.startsWith("-")).length === 1 && args.every((a) => a === "-q" || a === "--quiet" || a === "--short" || !a.startsWith("-"));
  return false;
}

// ---------------------------------------------------------------- normal forms for deny and ask

const GUARD_DOCKER_GROUPS = new Set(["image", "container", "network", "volume", "builder", "plugin", "system", "context", "manifest", "trust", "buildx"]);
// npm reads its command word by exact name, alias or unique prefix, camelCase as kebab-case
// (lib/utils/cmd-list.js, npm 11): "npm publis" is npm publish, "npm add" npm install, "npm x" npm exec
const GUARD_NPM_COMMANDS = "access adduser approve-scripts audit bugs cache ci completion config dedupe deny-scripts deprecate diff dist-tag docs doctor edit exec explain explore find-dupes fund get help help-search init install install-ci-test install-scripts install-test link ll login logout ls org outdated owner pack ping pkg prefix profile prune publish query rebuild repo restart root run sbom search set shrinkwrap stage star stars start stop team test token trust undeprecate uninstall unpublish unstar update version view whoami".split(" ");
const GUARD_NPM_ALIASES = new Map(Object.entries({ author: "owner", home: "docs", issues: "bugs", info: "view", show: "view", find: "search", add: "install", unlink: "uninstall", remove: "uninstall", rm: "uninstall", r: "uninstall", un: "uninstall", rb: "rebuild", list: "ls", ln: "link", create: "init", i: "install", it: "install-test", cit: "install-ci-test", u: "update", up: "update", c: "config", s: "search", se: "search", tst: "test", t: "test", ddp: "dedupe", v: "view", "run-script": "run", "clean-install": "ci", "clean-install-test": "install-ci-test", x: "exec", why: "explain", la: "ll", verison: "version", ic: "ci", innit: "init", in: "install", ins: "install", inst: "install", insta: "install", instal: "install", isnt: "install", isnta: "install", isntal: "install", isntall: "install", "install-clean": "ci", "isntall-clean": "ci", hlep: "help", "dist-tags": "dist-tag", upgrade: "update", udpate: "update", rum: "run", sit: "install-ci-test", urn: "run", ogr: "org", "add-user": "adduser" }));
// Every command npm may read word as: itself when it is one, else each command or alias it is a
// prefix of (all of them, so an npm with fewer commands, where a shorter prefix is unique, is covered).
function guardNpmNames(w) {
  if (w === "") return [];
  if (/[A-Z]/.test(w)) w = w.replace(/[A-Z]/g, (m) => "-" + m.toLowerCase());
  if (GUARD_NPM_COMMANDS.includes(w)) return [w];
  const out = new Set();
  for (const n of GUARD_NPM_COMMANDS.concat([...GUARD_NPM_ALIASES.keys()])) if (n.startsWith(w)) out.add(GUARD_NPM_ALIASES.get(n) || n);
  return [...out];
}
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
  for (const f of forms.slice()) if (guardBase(f[0]) === "npm" && f.length > 1 && !f[1].startsWith("-")) for (const c of guardNpmNames(f[1])) if (c !== f[1]) add(["npm", c, ...f.slice(2)]);
  // a program the guard does not read may run its trailing words as a command (taskset 1 git push,
  // strace -f git push, npx git push), and so do npm exec and npm explore, and pnpm and yarn (exec,
  // dlx, and a word that names no script: pnpm git push): a deny or ask rule also sees every command
  // that starts later
  const runs = name === "pnpm" || name === "yarn" || (name === "npm" && forms.some((f) => guardBase(f[0]) === "npm" && (f[1] === "exec" || f[1] === "explore")));
  if (!guardModelled(name) || runs) {
    for (let k = 1; k < argv.length; k++) {
      if (argv[k].startsWith("-")) continue;
      const tail = argv.slice(k);
      add(guardBase(tail[0]) === tail[0] ? tail : [guardBase(tail[0]), ...tail.slice(1)]);
      if (guardBase(tail[0]) === "git") add(guardGit(tail).normal);
    }
  }
  return forms;
}
// Programs whose every word the guard reads (their operands are data, not a command to run).
function guardModelled(name) {
  return Object.prototype.hasOwnProperty.call(GUARD_SPECS, name) || GUARD_ANY_ARGS.has(name) || name === "printf" || name === "npm" || name === "pnpm" || name === "yarn" || name === "go" || name === "cargo" || name === "python" || name === "python3" || name === "tsc" || name === "vitest" || name === "jest" || name === "pytest";
}
`;
