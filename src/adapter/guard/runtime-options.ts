// Guard runtime, part 2a: which options of a command are known to be safe. JavaScript source text
// (see render.ts for the rules of these strings).
//
// An allow list, never a deny list: a command the guard would let run without asking must carry only
// options listed here for its program, spelled exactly (never an abbreviation: GNU getopt_long, git,
// argparse and nopt accept any unambiguous prefix, so `--compress-prog` is `--compress-program`),
// with its value where the program takes one. Anything else makes the command "not known safe": the
// role's default decides (ask or deny), never allow. Words a pattern names literally ("npm audit
// --json") are the author's own and pass; words a `*` covers must be known safe.
//
// A spec is "<style> <max positionals or *> <options…>"; an option is `-x` / `--name` (a flag),
// `…=` (takes a value: attached, or the next word), `…=?` (an optional value, attached only), `…=2`
// (two values, the next words), `-#` (a bare number, `head -5`). Styles, as each parser reads them:
//   g  getopt_long, argparse, clap, lexopt, git: `--name=v` / `--name v`, short clusters `-xvk2`
//   G  git's parse-options and revision walker: as g, but a separate value that starts with "-" is
//      refused: git reads many options only attached (`--format=`, `--max-parents=`), and an option
//      one subcommand lacks (rev-list -L) is an error, yet git opens `--output` first, so in
//      `git log --format --output=FILE` the guard must read `--output=FILE` as the option git sees
//   w  one dash per word (Go's flag package): `-name v` = `--name v` = `-name=v`, no clusters
//   f  find: as w, but `--` ends only find's leading options (-H -L -P -D -O): the expression after it
//      is still read, so `find -- . -exec sh -c … ;` runs a command
//   x  xxd: one dash, whole words only (xxd reads `-len` as `-l`, so `-l64` and `-len` are refused);
//      options end at the first operand (xxd reads the next word as its output file, whatever it looks like)
//   T  tree (its own loop in tree.c): long names exact (`--name=v` / `--name v`), no abbreviation;
//      in a short cluster every value letter takes the NEXT word, in order (`-PI a b`: -P a, -I b),
//      and `-L` takes the digits right after it if there are any (`-L2d`), else the next word
//   t  tsc: `-` or `--`, names case-insensitive, no `=`; a flag takes a following true/false
//   y  yargs, cac (jest, vitest): camelCase = kebab-case, no clusters; a flag takes a following true/false
//   n  nopt (npm): exact names, no clusters; a flag takes a following true/false
// In G, y and n a separate value that starts with "-" is refused: those parsers read it as an option.
export const GUARD_OPTIONS_SOURCE = String.raw`
const GUARD_SPECS = {
  ls: "g * -a -A -l -h -R -t -r -S -1 -d -F -i -s -n -G -X -U -v -c -u -p -m -x -C --all --almost-all --human-readable --recursive --reverse --directory --classify --inode --size --numeric-uid-gid --color=? --group-directories-first --sort= --time= --time-style= --full-time --format= --width= -w= --ignore= -I= --hide= --literal -N --quoting-style= --indicator-style=",
  cat: "g * -n -b -s -v -e -t -A -E -T -u --number --number-nonblank --squeeze-blank --show-all --show-ends --show-tabs --show-nonprinting",
  head: "g * -# -n= -c= -q -v -z --lines= --bytes= --quiet --silent --verbose --zero-terminated",
  tail: "g * -# -n= -c= -q -v -z --lines= --bytes= --quiet --silent --verbose --zero-terminated",
  wc: "g * -l -w -c -m -L --lines --words --bytes --chars --max-line-length",
  grep: "g * -r -R -n -i -l -L -c -v -w -x -E -F -G -P -o -q -s -h -H -I -a -z -Z -b -U -y -T -A= -B= -C= -e= -f= -m= -# --recursive --dereference-recursive --line-number --ignore-case --no-ignore-case --files-with-matches --files-without-match --count --invert-match --word-regexp --line-regexp --extended-regexp --fixed-strings --basic-regexp --perl-regexp --only-matching --quiet --silent --no-messages --no-filename --with-filename --text --null --null-data --byte-offset --initial-tab --binary --after-context= --before-context= --context= --regexp= --file= --max-count= --include= --exclude= --exclude-dir= --exclude-from= --color=? --colour=? --label= --line-buffered --binary-files=",
  rg: "g * -n -N -i -s -S -l -c -v -w -x -F -P -o -q -H -I -L -u -a -z -0 -b -U -e= -f= -g= -t= -T= -A= -B= -C= -m= -M= -j= -d= --line-number --no-line-number --ignore-case --case-sensitive --smart-case --files-with-matches --files-without-match --count --count-matches --invert-match --word-regexp --line-regexp --fixed-strings --pcre2 --only-matching --quiet --with-filename --no-filename --follow --hidden --no-ignore --no-ignore-vcs --no-heading --heading --text --null --multiline --multiline-dotall --json --files --type-list --vimgrep --column --no-messages --stats --trim --regexp= --file= --glob= --iglob= --type= --type-not= --after-context= --before-context= --context= --max-count= --max-columns= --max-depth= --max-filesize= --threads= --color= --sort= --sortr= --replace= -r= --passthru --context-separator= --field-match-separator= --path-separator= --unrestricted --ignore-file=",
  ugrep: "g * -r -R -n -i -j -l -L -c -v -w -x -E -F -G -P -o -q -s -h -H -I -a -z -Z -b -k -U -Y -0 -A= -B= -C= -e= -f= -m= -g= -t= -d= -N= -O= -M= -# --recursive --dereference-recursive --line-number --ignore-case --smart-case --files-with-matches --files-without-match --count --invert-match --word-regexp --line-regexp --extended-regexp --fixed-strings --basic-regexp --perl-regexp --only-matching --quiet --silent --no-messages --no-filename --with-filename --with-filename --binary --null --null-data --byte-offset --column-number --hidden --ignore-files=? --ignore-binary --after-context= --before-context= --context= --regexp= --file= --max-count= --glob= --iglob= --file-type= --include= --exclude= --include-dir= --exclude-dir= --file-extension= --max-depth= --depth= --color=? --colour=? --sort=? --heading --no-heading --break --separator=? --format= --json --csv --xml --tree --files --stats=? --pretty=? --line-buffered",
  find: "f * -name= -iname= -path= -ipath= -wholename= -iwholename= -regex= -iregex= -regextype= -lname= -ilname= -type= -xtype= -maxdepth= -mindepth= -newer= -anewer= -cnewer= -mtime= -mmin= -atime= -amin= -ctime= -cmin= -size= -perm= -user= -group= -uid= -gid= -links= -inum= -samefile= -used= -empty -readable -writable -executable -nouser -nogroup -print -print0 -printf= -prune -quit -ls -not -a -and -o -or -true -false -depth -mount -xdev -follow -noleaf -ignore_readdir_race -L -H -P -D= -O=",
  stat: "g * -L -f -t -c= --format= --printf= --dereference --file-system --terse",
  file: "g * -b -c -E -h -i -k -L -l -N -n -p -r -s -z -Z -0 -S -F= -e= -P= --brief --checking-printout --dereference --no-dereference --mime --mime-type --mime-encoding --keep-going --list --no-pad --preserve-date --raw --special-files --uncompress --uncompress-noreport --print0 --no-sandbox --separator= --exclude= --exclude-quiet= --parameter= --extension --apple",
  // no -o (the output file), -R (reruns tree through system() in HTML mode), -H/-T (HTML), --fromfile, --infofile, --gitfile
  tree: "T * -a -d -l -f -x -i -q -N -Q -p -u -g -s -h -D -F -v -t -c -U -r -C -n -A -S -J -X --du --si --noreport --dirsfirst --filesfirst --prune --gitignore --matchdirs --ignore-case --inodes --device -L= -P= -I= --filelimit= --sort= --charset= --timefmt=",
  du: "g * -s -h -a -c -k -m -b -x -L -H -P -l -0 -S -D --summarize --human-readable --all --total --apparent-size --bytes --one-file-system --dereference --count-links --separate-dirs --si -d= --max-depth= --exclude= -B= --block-size= -t= --threshold= --time=? --inodes",
  df: "g * -h -H -T -i -k -P -a -l -x= -t= --human-readable --si --print-type --inodes --portability --all --local --total --type= --exclude-type= --sync --no-sync -B= --block-size=",
  diff: "g 2 -u -c -q -s -r -N -w -b -B -i -y -a -t -T -E -Z -p -d -U= -C= -W= -I= -x= -X= -S= --unified=? --context=? --brief --report-identical-files --recursive --new-file --unidirectional-new-file --ignore-all-space --ignore-space-change --ignore-blank-lines --ignore-case --side-by-side --text --expand-tabs --initial-tab --ignore-tab-expansion --ignore-trailing-space --show-c-function --minimal --speed-large-files --color=? --label= --width= --ignore-matching-lines= --exclude= --exclude-from= --starting-file= --strip-trailing-cr --normal --suppress-common-lines --left-column --no-dereference --from-file= --to-file= --tabsize= --show-function-line= --horizon-lines= --line-format= --old-line-format= --new-line-format= --unchanged-line-format= --old-group-format= --new-group-format= --unchanged-group-format= --changed-group-format=",
  cmp: "g 4 -b -l -s -i= -n= --print-bytes --verbose --quiet --silent --ignore-initial= --bytes=",
  sort: "g * -b -d -f -g -i -M -h -n -R -r -V -c -C -m -s -u -z -k= -t= -S= --ignore-leading-blanks --dictionary-order --ignore-case --general-numeric-sort --ignore-nonprinting --month-sort --human-numeric-sort --numeric-sort --random-sort --reverse --version-sort --check=? --merge --stable --unique --zero-terminated --key= --field-separator= --buffer-size= --sort= --debug",
  uniq: "g 1 -c -d -D -u -i -z -f= -s= -w= --count --repeated --all-repeated=? --group=? --unique --ignore-case --zero-terminated --skip-fields= --skip-chars= --check-chars=",
  cut: "g * -b= -c= -d= -f= -s -z -n --bytes= --characters= --delimiter= --fields= --only-delimited --complement --output-delimiter= --zero-terminated",
  tr: "g 2 -c -C -d -s -t --complement --delete --squeeze-repeats --truncate-set1",
  nl: "g 1 -b= -d= -f= -h= -i= -l= -n= -s= -v= -w= -p --body-numbering= --number-format= --number-separator= --starting-line-number= --number-width= --line-increment=",
  column: "g * -t -x -n -e -c= -s= -o= -N= -R= -J -l= --table --fillrows --table-columns= --separator= --output-separator= --output-width=",
  xxd: "x 1 -a -b -C -E -e -i -p -u -d -R= -c= -g= -l= -o= -s= -n=",
  jq: "g * -r -j -a -c -n -e -s -S -C -M -R --raw-output --join-output --ascii-output --compact-output --null-input --exit-status --slurp --sort-keys --color-output --monochrome-output --raw-input --tab --seq --stream --indent= -f --from-file --arg=2 --argjson=2 --slurpfile=2 --rawfile=2 --args --jsonargs",
  md5sum: "g * -b -c -t -z -w --binary --check --text --tag --zero --ignore-missing --quiet --status --strict --warn",
  basename: "g * -a -s= -z --multiple --suffix= --zero",
  dirname: "g * -z --zero",
  realpath: "g * -e -m -L -P -q -s -z --canonicalize-existing --canonicalize-missing --logical --physical --quiet --strip --no-symlinks --zero --relative-to= --relative-base=",
  readlink: "g * -f -e -m -n -q -s -v -z --canonicalize --canonicalize-existing --canonicalize-missing --no-newline --quiet --silent --verbose --zero",
  which: "g * -a -s --all",
  type: "g * -a -f -p -P -t",
  date: "g 1 -u -R -I=? -d= -r= --utc --universal --rfc-email --iso-8601=? --rfc-3339= --date= --reference=",
  uname: "g 0 -a -s -n -r -v -m -p -i -o --all --kernel-name --nodename --kernel-release --kernel-version --machine --processor --hardware-platform --operating-system",
  id: "g 1 -u -g -G -n -r -z --user --group --groups --name --real --zero",
  whoami: "g 0",
  pwd: "g 0 -L -P",
};
GUARD_SPECS.egrep = GUARD_SPECS.grep; GUARD_SPECS.fgrep = GUARD_SPECS.grep; GUARD_SPECS.bfs = GUARD_SPECS.find;
GUARD_SPECS.sha1sum = GUARD_SPECS.md5sum; GUARD_SPECS.sha256sum = GUARD_SPECS.md5sum; GUARD_SPECS.sha512sum = GUARD_SPECS.md5sum;
// commands that read no options at all: every word is text to print or ignore
const GUARD_ANY_ARGS = new Set(["echo", "true", "false", ":"]);

// Programs that run tests or builds (specs for the words after the subcommand).
const GUARD_TOOL_SPECS = {
  tsc: "t * --noEmit --pretty --listFiles --listFilesOnly --showConfig --version -v --help -h --all --strict --skipLibCheck --noErrorTruncation --diagnostics --extendedDiagnostics --explainFiles --traceResolution --noUnusedLocals --noUnusedParameters --noImplicitAny --noImplicitReturns --strictNullChecks --exactOptionalPropertyTypes --noUncheckedIndexedAccess --noFallthroughCasesInSwitch --allowJs --checkJs --esModuleInterop --resolveJsonModule --isolatedModules --target= -t= --module= -m= --lib= --jsx= --moduleResolution= --types=",
  vitest: "y * --run --passWithNoTests --allowOnly --silent --hideSkippedTests --noColor --color --globals --logHeapUsage --expandSnapshotDiff --noFileParallelism --changed --testNamePattern= -t= --reporter= --bail= --maxWorkers= --minWorkers= --testTimeout= --hookTimeout= --project= --shard= --mode=",
  jest: "y * --ci --runInBand -i --passWithNoTests --silent --verbose --listTests --colors --noCache --detectOpenHandles --forceExit --json --onlyChanged -o --lastCommit --errorOnDeprecated --noStackTrace --testNamePattern= -t= --maxWorkers= -w= --testTimeout= --bail= --shard= --selectProjects=",
  pytest: "g * -q -v -x -s -l -r= -k= -m= --tb= --maxfail= --durations= --durations-min= --co --collect-only --fixtures --fixtures-per-test --markers --no-header --no-summary --strict-markers --strict-config --showlocals --capture= --exitfirst --quiet --verbose --lf --last-failed --ff --failed-first --nf --new-first --sw --stepwise --deselect= --ignore= --ignore-glob= --full-trace --color= --code-highlight= -n= --disable-warnings --runxfail --version -V --help -h",
  "go test": "w * -v -race -short -failfast -cover -json -benchmem -trimpath -run= -skip= -count= -timeout= -covermode= -coverpkg= -bench= -benchtime= -cpu= -parallel= -p= -tags= -shuffle= -list= -vet=",
  "go build": "w * -v -race -trimpath -a -n -x -p= -tags=",
  "go vet": "w * -json -v -tags= -c=",
  cargo: "g * --release -r --workspace --all --all-features --no-default-features -F= --features= -p= --package= --exclude= --lib --bins --bin= --tests --test= --examples --example= --benches --bench= --all-targets --no-run --no-fail-fast --doc --offline --locked --frozen -q --quiet -v --verbose -j= --jobs= --message-format= --color= --keep-going --future-incompat-report",
  "cargo --": "g * --nocapture --no-capture --test-threads= --exact --ignored --include-ignored --show-output -q --quiet --skip= --list --color=",
  npm: "n * --if-present --silent -s --quiet -q --json --loglevel= --workspaces --ws --workspace= -w= --include-workspace-root --ignore-scripts --foreground-scripts --no-color --omit= --audit-level= --production",
  pnpm: "n * --if-present --silent -s --recursive -r",
  yarn: "n * --silent",
  // what npm/pnpm/yarn may pass on to the project's own script: filters, and options that mean the same harmless thing in the runners that read them
  script: "y * --run --passWithNoTests --silent --verbose",
};
const GUARD_VITEST_REPORTERS = new Set(["default", "basic", "verbose", "dot", "tree", "tap", "tap-flat", "hanging-process", "github-actions", "minimal", "agent"]);

const guardSpecCache = new Map();
function guardSpec(text) {
  let s = guardSpecCache.get(text);
  if (s) return s;
  const w = text.split(" ");
  const style = w[0] === "G" ? "g" : w[0] === "f" ? "w" : w[0];
  // dashValue: a separate value may not start with "-"; dashEnds: "--" ends the options
  s = { style, dashValue: w[0] === "G" || style === "y" || style === "n", dashEnds: w[0] !== "f", max: w[1] === "*" ? Infinity : Number(w[1]), opts: new Map(), num: false };
  for (const o of w.slice(2)) {
    if (o === "-#") { s.num = true; continue; }
    const m = /^(-[^=]*)(=(\?|2)?)?$/.exec(o);
    const arity = !m[2] ? 0 : m[3] === "?" ? 2 : m[3] === "2" ? 3 : 1;
    s.opts.set(guardOptKey(s.style, m[1]), arity);
  }
  guardSpecCache.set(text, s);
  return s;
}
// The name an option is looked up by, as the program's parser folds it.
function guardOptKey(style, name) {
  if (style === "t") return name.replace(/^--?/, "-").toLowerCase();
  if (style === "w") return name.replace(/^--?/, "-");
  if (style === "y" && name.startsWith("--")) return "--" + name.slice(2).replace(/-([a-z])/g, (m, c) => c.toUpperCase());
  return name;
}

// Read argv[from…] with spec: { bad, pos, seen } — bad is the first word not known safe (or null),
// pos the positional words, seen the option names met. Words before index trusted pass unread.
function guardReadOpts(spec, argv, from, trusted, stopAtDashDash) {
  const s = typeof spec === "string" ? guardSpec(spec) : spec;
  const out = { bad: null, pos: [], seen: new Set(), rest: -1 };
  let ended = false;
  const fail = (w) => { if (out.bad === null) out.bad = w; };
  const boolNext = (i) => (s.style === "t" || s.style === "y" || s.style === "n") && i + 1 < argv.length && /^(true|false)$/i.test(argv[i + 1]);
  const value = (i, w) => {
    if (i + 1 >= argv.length) { fail(w); return i; }
    const v = argv[i + 1];
    if (s.dashValue && v.startsWith("-") && v !== "-") fail(w);
    return i + 1;
  };
  for (let i = from; i < argv.length && out.bad === null; i++) {
    const a = argv[i];
    if (ended || a === "-" || !a.startsWith("-")) {
      if (s.style === "t" && a.startsWith("@") && i >= trusted) fail(a); // a response file: more options
      if (s.style === "x") ended = true; // xxd: no options after its input file
      out.pos.push(i);
      continue;
    }
    if (a === "--") {
      if (stopAtDashDash) { out.rest = i + 1; break; }
      if (s.dashEnds) ended = true;
      continue;
    }
    if (i < trusted) continue;
    if (s.num && /^-\d+$/.test(a)) continue;
    const long = a.startsWith("--") || s.style === "w" || s.style === "t" || s.style === "x";
    if (s.style === "T" && !long) { i = guardTreeCluster(s, argv, i, out, fail); continue; }
    if (long) {
      const eq = s.style === "t" || s.style === "x" ? -1 : a.indexOf("=");
      const name = eq < 0 ? a : a.slice(0, eq);
      const key = guardOptKey(s.style, name);
      const ar = s.opts.get(key);
      if (ar === undefined) { fail(a); continue; }
      out.seen.add(key);
      if (ar === 0) { if (eq >= 0 && s.style !== "w") fail(a); else if (boolNext(i)) fail(a); continue; }
      if (ar === 2) continue;
      if (eq >= 0) { if (ar === 3) fail(a); out.seen.add(key + "=" + a.slice(eq + 1)); continue; }
      if (ar === 3) { i = value(i, a); i = value(i, a); continue; }
      const j = value(i, a);
      if (j > i) out.seen.add(key + "=" + argv[j]);
      i = j;
      continue;
    }
    // short options: y and n read one letter per word; g reads clusters (-xvk2 = -x -v -k 2)
    if (s.style !== "g") {
      const ar = a.length === 2 ? s.opts.get(a) : undefined;
      if (ar === undefined || ar === 2 || ar === 3) { fail(a); continue; }
      out.seen.add(a);
      if (ar === 0) { if (boolNext(i)) fail(a); continue; }
      const j = value(i, a);
      if (j > i) out.seen.add(a + "=" + argv[j]);
      i = j;
      continue;
    }
    for (let k = 1; k < a.length; k++) {
      const key = "-" + a[k];
      const ar = s.opts.get(key);
      if (ar === undefined || ar === 3) { fail(a); break; }
      out.seen.add(key);
      if (ar === 0) continue;
      if (k + 1 < a.length || ar === 2) break; // the value is the rest of the word
      i = value(i, a);
      break;
    }
  }
  if (out.bad === null && out.pos.filter((k) => k >= trusted).length > s.max) out.bad = argv[out.pos[out.pos.length - 1]];
  return out;
}
// tree's short cluster at argv[i], as tree.c reads it: each value letter takes the next unused word.
// Returns the index of the last word the cluster used.
function guardTreeCluster(s, argv, i, out, fail) {
  const a = argv[i];
  let next = i + 1;
  for (let k = 1; k < a.length; k++) {
    const key = "-" + a[k];
    const ar = s.opts.get(key);
    if (ar === undefined || ar !== 0 && ar !== 1) { fail(a); return i; }
    out.seen.add(key);
    if (ar === 0) continue;
    if (key === "-L" && /[0-9]/.test(a[k + 1] || "")) { while (/[0-9]/.test(a[k + 1] || "")) k++; continue; }
    if (next >= argv.length) { fail(a); return i; }
    out.seen.add(key + "=" + argv[next]);
    next++;
  }
  return next - 1;
}
`;
