// Guard runtime, part 2b: each program's reader over the option specs of part 2a. JavaScript source
// text (see render.ts). guardArgsWhy(argv, trusted) says why a command is not known safe, or null.
export const GUARD_PROGRAMS_SOURCE = String.raw`
const GUARD_GIT_DIFF = "-p -u -s --patch --no-patch -U=? --unified=? --raw --patch-with-raw --patch-with-stat --stat=? --numstat --shortstat --dirstat=? --summary --name-only --name-status --check --full-index --binary --abbrev=? --no-abbrev -B=? -M=? -C=? --break-rewrites=? --find-renames=? --find-copies=? --find-copies-harder --no-renames -D --irreversible-delete -l= -S= -G= --pickaxe-all --pickaxe-regex -R --relative=? --no-relative -a --text -b -w --ignore-space-change --ignore-all-space --ignore-blank-lines --ignore-cr-at-eol --ignore-space-at-eol --inter-hunk-context= -W --function-context --exit-code --quiet --no-ext-diff --no-textconv --ignore-submodules=? --src-prefix= --dst-prefix= --no-prefix --default-prefix --color=? --no-color --color-moved=? --no-color-moved --word-diff=? --word-diff-regex= --color-words=? --minimal --patience --histogram --diff-algorithm= --diff-filter= --cached --staged --merge-base -z --compact-summary --ita-invisible-in-index --no-index --submodule=? --full-diff";
const GUARD_GIT_LOG = GUARD_GIT_DIFF + " -# -n= --max-count= --skip= --since= --after= --until= --before= --author= --committer= --grep= --all-match --invert-grep -i --regexp-ignore-case -E -F -P --extended-regexp --fixed-strings --perl-regexp --merges --no-merges --min-parents=? --max-parents=? --first-parent --reverse --follow --oneline --graph --decorate=? --no-decorate --all --branches=? --tags=? --remotes=? --exclude= --format=? --pretty=? --abbrev-commit --no-abbrev-commit --date= --relative-date --parents --children --left-right --cherry-pick --cherry-mark --cherry --topo-order --date-order --author-date-order --boundary --simplify-by-decoration --full-history --dense --sparse --ancestry-path --source --use-mailmap --mailmap --no-mailmap --log-size -L= --notes=? --no-notes -m --cc --dd -c --diff-merges= --no-diff-merges -g --walk-reflogs --not --encoding= --expand-tabs=? --no-expand-tabs --count --no-walk=? --do-walk --objects --no-object-names";
const GUARD_GIT_SPECS = {
  status: "G * -s -b -v -z -u=? --short --branch --long --verbose --porcelain=? --untracked-files=? --ignored=? --ignore-submodules=? --column=? --no-column --ahead-behind --no-ahead-behind --renames --no-renames --find-renames=? --show-stash",
  diff: "G * " + GUARD_GIT_DIFF, "diff-tree": "G * -r -t --root --stdin -m -c --cc --always --no-commit-id -v " + GUARD_GIT_DIFF, "diff-files": "G * -q -0 -1 -2 -3 --base --ours --theirs " + GUARD_GIT_DIFF, "diff-index": "G * -m " + GUARD_GIT_DIFF,
  log: "G * " + GUARD_GIT_LOG, show: "G * " + GUARD_GIT_LOG, whatchanged: "G * " + GUARD_GIT_LOG, "rev-list": "G * --all " + GUARD_GIT_LOG,
  shortlog: "G * " + GUARD_GIT_LOG + " -n -s -e --numbered --summary --email --committer --group= -w=?",
  "range-diff": "G * --creation-factor= --no-dual-color --left-only --right-only " + GUARD_GIT_DIFF,
  blame: "G * -L= -l -t -S= -p -e -w -s -n -f -c -b --reverse --first-parent --porcelain --line-porcelain --incremental --encoding= --contents= --date= -M=? -C=? --show-name --show-number --show-email --abbrev=? --root --ignore-rev= --ignore-revs-file= --color-lines --color-by-age --no-progress",
  annotate: "G * -L= -l -t -p -e -w -s -n -f -c -b --reverse --porcelain --date= -M=? -C=?",
  "ls-files": "G * -c -d -m -o -i -s -u -k -z -t -v -f --cached --deleted --modified --others --ignored --stage --unmerged --killed --directory --no-empty-directory --eol --exclude= -x= --exclude-from= -X= --exclude-per-directory= --exclude-standard --error-unmatch --with-tree= --full-name --recurse-submodules --abbrev=? --format= --deduplicate --sparse",
  "ls-tree": "G * -d -r -t -l -z --name-only --name-status --object-only --full-name --full-tree --abbrev=? --format= --long",
  "rev-parse": "G * -q --verify --quiet --short=? --abbrev-ref=? --symbolic --symbolic-full-name --show-toplevel --show-prefix --show-cdup --git-dir --git-common-dir --absolute-git-dir --is-inside-work-tree --is-inside-git-dir --is-bare-repository --is-shallow-repository --show-superproject-working-tree --all --branches=? --tags=? --remotes=? --glob= --default= --revs-only --no-revs --flags --no-flags --sq --not --path-format= --git-path= --show-object-format=? --since= --until= --disambiguate= --end-of-options",
  "cat-file": "G * -t -s -e -p --batch=? --batch-check=? --batch-all-objects --follow-symlinks --buffer --unordered",
  grep: "G * -n -i -I -l -L -c -v -w -h -H -E -F -G -P -o -q -z -W -p -e= -f= -A= -B= -C= -m= --cached --untracked --no-index --recurse-submodules --full-name --line-number --column --name-only --files-with-matches --files-without-match --count --all-match --and --or --not --heading --break --color=? --no-color --max-depth= --threads= --exclude-standard --no-exclude-standard --ignore-case --word-regexp --invert-match --extended-regexp --fixed-strings --basic-regexp --perl-regexp --only-matching --quiet --null --function-context --show-function --text -a",
  describe: "G * --all --tags --contains --abbrev=? --candidates= --exact-match --long --match= --exclude= --always --first-parent --dirty=? --broken=?",
  "merge-base": "G * -a --all --octopus --independent --is-ancestor --fork-point",
  "name-rev": "G * --tags --refs= --exclude= --all --name-only --no-undefined --always",
  "show-ref": "G * -d -s -q --head --tags --branches --heads --verify --exists --dereference --hash=? --abbrev=? --quiet",
  "for-each-ref": "G * -s -p --count= --sort= --format= --color=? --shell --perl --python --tcl --points-at= --merged=? --no-merged=? --contains=? --no-contains=? --ignore-case --omit-empty --exclude=",
  "count-objects": "G * -v -H --verbose --human-readable",
  cherry: "G * -v --abbrev=?",
  "check-ignore": "G * -q -v -n -z --quiet --verbose --non-matching --no-index",
  "check-attr": "G * -a --all --cached -z --source=",
  "check-ref-format": "G * --allow-onelevel --no-allow-onelevel --refspec-pattern --normalize --branch",
  var: "G * -l", version: "G * --build-options", help: "G * -a --all -g --guides -c --config",
  "show-branch": "G * -a -r --all --remotes --topo-order --date-order --current --color=? --no-color --more= --list --merge-base --independent --no-name --sha1-name --sparse",
  "verify-commit": "G * -v --verbose --raw", "verify-tag": "G * -v --verbose --raw --format=",
  // git reflog show is git log -g (log's options, --output too)
  "reflog show": "G * " + GUARD_GIT_LOG, "reflog exists": "G *",
  "stash list": "G * " + GUARD_GIT_LOG, "stash show": "G * --include-untracked --only-untracked " + GUARD_GIT_DIFF,
  "stash push": "G * -m= --message= -u --include-untracked -a --all -k --keep-index --no-keep-index -q --quiet -S --staged",
};

// Why the words of argv from index trusted on are not known safe, or null.
function guardArgsWhy(argv, trusted) {
  const name = guardBase(argv[0]);
  const r = guardReadArgs(name, argv, Math.max(1, trusted));
  return r === null ? null : "it carries " + r + ", which the guard does not know to be safe for " + name;
}
// The first word not known safe, or null.
function guardReadArgs(name, argv, t) {
  if (GUARD_ANY_ARGS.has(name)) return null;
  if (name === "printf") return argv.slice(Math.max(1, t)).find((w) => w.startsWith("-")) || null;
  if (Object.prototype.hasOwnProperty.call(GUARD_SPECS, name)) {
    const r = guardReadOpts(GUARD_SPECS[name], argv, 1, t);
    // date reads a positional word that is not +FORMAT as a time to set the clock to
    if (r.bad === null && name === "date") { const p = r.pos.find((k) => k >= t && !argv[k].startsWith("+")); if (p !== undefined) return argv[p]; }
    return r.bad;
  }
  if (name === "git") return guardReadGit(argv, t);
  if (name === "npm" || name === "pnpm" || name === "yarn") return guardReadScripts(name, argv, 1, t);
  if (name === "npx") {
    if (argv.length < 2) return null;
    if (argv[1].startsWith("-") && t < 2) return argv[1];
    return guardReadTool(argv[1], argv, 2, t);
  }
  if (name === "python" || name === "python3") {
    if (argv[1] !== "-m" || argv[2] !== "pytest") return t >= argv.length ? null : guardUnknown(argv, 1, t);
    return guardReadTool("pytest", argv, 3, t);
  }
  if (name === "go" || name === "cargo") {
    if (argv.length < 2) return null;
    return guardReadTool(name + " " + argv[1], argv, 2, t);
  }
  return guardReadTool(name, argv, 1, t);
}
// A test runner or build tool, its words from index from.
function guardReadTool(tool, argv, from, t) {
  if (tool === "cargo test" || tool === "cargo build" || tool === "cargo check") {
    const r = guardReadOpts(GUARD_TOOL_SPECS.cargo, argv, from, t, true);
    if (r.bad !== null || r.rest < 0) return r.bad;
    return guardReadOpts(GUARD_TOOL_SPECS["cargo --"], argv, r.rest, t).bad;
  }
  const spec = GUARD_TOOL_SPECS[tool];
  if (spec === undefined || tool === "script" || tool === "cargo --") return guardUnknown(argv, from, t);
  // pytest (8.2+, argparse fromfile_prefix_chars) reads a word starting with @ as more arguments from
  // that file, wherever it stands: an option's value and after -- too. Its consider_preparse scans
  // every word for -p NAME / -pNAME, past -- as well, and imports that module before any test runs
  if (tool === "pytest") { const at = argv.slice(Math.max(from, t)).find((w) => w.startsWith("@") || w.startsWith("-p")); if (at !== undefined) return at; }
  const r = guardReadOpts(spec, argv, from, t);
  if (r.bad !== null) return r.bad;
  if (tool === "tsc" && !r.seen.has("-noemit")) { const p = r.pos.find((k) => k >= t); if (p !== undefined) return argv[p]; }
  if (tool === "vitest") {
    for (const k of r.seen) if (k.startsWith("--reporter=") && !GUARD_VITEST_REPORTERS.has(k.slice(11))) return k;
    // vitest's command is run (once) or a filter; watch, dev, bench, init, serve… are not. cac takes the
    // command from the first positional word after the options it parsed, wherever that stands, and an
    // option with an optional value (--changed [since]) may take the word the guard reads as positional:
    // no positional word may name another command
    const cmd = r.pos.find((k) => k >= t && GUARD_VITEST_COMMANDS.test(argv[k]));
    if (cmd !== undefined) return argv[cmd];
  }
  return null;
}
// A program the guard has no spec for: its positional words pass, its options do not.
function guardUnknown(argv, from, t) {
  for (let i = Math.max(from, t); i < argv.length; i++) if (argv[i].startsWith("-") && argv[i] !== "-") return argv[i];
  return null;
}
const GUARD_VITEST_COMMANDS = /^(watch|dev|bench|init|list|related|typecheck|serve)$/;
// npm, pnpm, yarn: their own options, then what they pass on to the project's script.
function guardReadScripts(name, argv, from, t) {
  // every word after the script's name reaches the script (npm test init browser runs vitest init
  // browser): none may name a vitest command other than run
  const cmd = argv.slice(Math.max(from, t)).find((w) => GUARD_VITEST_COMMANDS.test(w));
  if (cmd !== undefined) return cmd;
  const r = guardReadOpts(GUARD_TOOL_SPECS[name], argv, from, t, true);
  if (r.bad !== null) return r.bad;
  // pnpm and yarn pass every word after the script's name on to it, options included: only the
  // script spec's harmless options may follow it
  if (name !== "npm" && r.pos.length) {
    const after = guardReadOpts(GUARD_TOOL_SPECS.script, argv, r.pos[0] + 1, t);
    if (after.bad !== null) return after.bad;
  }
  if (r.rest >= 0) return guardReadOpts(GUARD_TOOL_SPECS.script, argv, r.rest, t).bad;
  return null;
}
function guardReadGit(argv, t) {
  const normal = argv;
  const sub = normal[1];
  if (sub === undefined) return null;
  const two = sub + " " + normal[2];
  if (Object.prototype.hasOwnProperty.call(GUARD_GIT_SPECS, two)) return guardReadOpts(GUARD_GIT_SPECS[two], normal, 3, t).bad;
  if (Object.prototype.hasOwnProperty.call(GUARD_GIT_SPECS, sub)) return guardReadOpts(GUARD_GIT_SPECS[sub], normal, 2, t).bad;
  // the listing forms guardGitReadOnly reads exactly (branch, tag, remote, config, worktree, …)
  if (guardGitReadOnly(normal)) return null;
  return guardUnknown(normal, 2, t);
}
`;
