// Options by allow list (issue 22, item 1): a command a role may run without asking carries only
// options the guard knows to be safe, in every spelling the program accepts. The tables below are the
// red team's spellings; the property asks vitest's CLI parser (in process) and checks that the guard
// never allows a spelling it reads as an option outside the safe list. The real programs' parsers
// (GNU sort/uniq/file/xxd, tsc, npm: a process per spelling) are options-real.slow.test.ts.
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ORCHESTRATOR } from "../../adapters/claude-code/guard.js";
import { PEBBLE_ROLES } from "../helpers/cli.js";
import { readRoles } from "../helpers/compile.js";
import { bashScene, inProcess, payload } from "./helpers.js";

const pipeline = readRoles(PEBBLE_ROLES);
const { P, decide, kind } = bashScene(pipeline);
const CALLERS = ["jade", "mica", "quartz", "onyx", "coral", ORCHESTRATOR];

describe("spellings the red team used are never allowed", () => {
  const never = [
    // GNU getopt_long prefixes
    "sort --out=src/x src/a.ts", "sort --outp src/x src/a.ts", "sort --compress-prog=sh -S 1 src/a.ts", "sort --compress=sh src/a.ts", "sort -T /tmp src/a.ts", "sort -bo src/x src/a.ts",
    "file --comp -m src/magic", "file -Cm src/magic", "uniq src/a.ts tests/out.txt", "xxd src/a.ts tests/out.txt", "xxd -r src/a.hex",
    "tree -o tests/t.txt", "tree -R -H x",
    // npm's nopt: prefixes, config by option, script arguments
    "npm test --userconf=./.pebble/npmrc", "npm test --node-options=--require=./.pebble/spec.md", "npm test --node-opt=--require=./x", "npm test --script-shell=./x.sh", "npm run test --prefix=/tmp",
    "npm test -- --reporter ./x.js", "npm test -- -u", "npm run test:unit -- --coverage", "npm test --if-present false", "npm test --loglevel -u",
    // tsc reads names case-insensitively, with one or two dashes, booleans with a following true/false, and @response files
    "npx tsc --OUTDIR tests", "npx tsc -outdir tests", "npx tsc --noEmit false", "npx tsc --NoEmit FALSE", "npx tsc @args.txt --noEmit", "npx tsc src/a.ts", "npx tsc -p src/tsconfig.json", "npx tsc --build",
    // vitest (cac) and jest (yargs): camel = kebab, values read as options, boolean values
    "npx vitest --reporter=./evil.js", "npx vitest --reporter ./evil.js", "npx vitest run -t -u", "npx vitest --testNamePattern -u", "npx vitest --output-file=x", "npx vitest run --coverage.enabled", "npx vitest -ut x",
    "npx jest --ci false", "npx jest --test-results-processor ./x", "npx jest --update-snapshot", "npx jest -ci",
    // pytest (argparse prefixes, plugins, warning filters that import modules)
    "pytest --junitx=tests/r.xml", "pytest -W error::x.Y", "pytest -xp evil", "pytest --rootd=/tmp", "python -m pytest --basetemp=tests", "python -c 'print(1)'",
    // go, cargo
    "go test -args -test.coverprofile=tests/c.out ./...", "go test -ldflags=-extld=./x ./...", "go test --exec=./x ./...", "go test -C /tmp ./...",
    "cargo test -- --logfile tests/x", "cargo test --manifest-path /tmp/Cargo.toml", "cargo build -Zunstable-options",
    // git: parse-options prefixes of write and exec options
    "git diff --outp=tests/x", "git log --outpu=tests/x", "git show --output-indicator-new=x --ext", "git grep --open-files=sh x", "git grep -Osh x", "git diff --textconv", "git status --porcelain=v1 --untracked-files=all --xyz",
    "git config --get --file=/tmp/x a.b", "git config --get-regexp --add x y",
    // apply_patch through the shell (Codex reads it as a patch)
    "apply_patch '*** Begin Patch'", "applypatch x",
    // variants beyond the red team's
    "date 010112002030", "date -s 2030-01-01", "date --set=2030-01-01", "printf -v x y", "find . -fprint0 tests/x", "find . -execdir sh ;", "rg --pre=./x foo", "rg --pre-glob=* foo", "ugrep --save-config", "ugrep --config=x foo",
    "git --no-pager diff --output tests/x", "git log -p --ext-diff", "git blame --ext", "npm test --silent=false", "npx vitest --silent false", "npx vitest --environment=./x.js", "npx vitest --config=./x.ts", "npx jest --config x.js",
    "npx tsc --noEmit --project src/tsconfig.json", "npx tsc --noEmit --incremental", "npx tsc --noEmit --tsBuildInfoFile .claude/x", "pytest -p no:cacheprovider", "pytest -c /dev/null", "pytest --confcutdir=/", "cargo test --config=build.rustc=x",
    // a rule's word* continued into another program or subcommand (c22): npx fetches package vitest.x, git runs git-status.sh
    "npx vitest.x", "npx vitest.evil run", "npx tsc.x --noEmit", "npx jest:x", "git status.sh", "git diff.x", "git status=x", "pytest.x", "python -m pytest.x", "cargo test.x",
    // second red team (r22): pytest (8.2+) reads @file as more arguments wherever the word stands, even as an option's value or after --
    "pytest @src/args.txt", "pytest -q @args", "pytest -k @args", "pytest -- @args", "python -m pytest @args", "python3 -m pytest -x @args",
    // cac (vitest) picks its command from the first positional word after the options it parses, and --changed takes an optional value
    "npx vitest -t x init browser", "npx vitest --run init browser", "npx vitest --changed HEAD init browser", "npx vitest --bail 1 bench", "npx vitest -t x watch", "npx vitest --project p dev",
    // npm, pnpm and yarn pass every word after the script's name on to it: npm test init browser runs vitest init browser
    "npm test init browser", "npm run test -- init browser", "npm test --silent watch", "pnpm test init browser", "yarn test bench", "npm run test:unit init browser",
    // third red team (r3): in a tree cluster each value letter takes the next word (-P x, then -o FILE), and -L takes its digits first
    "tree -NiPo x .claude/hooks/harness-guard.cjs --noreport 'process.exit(0)//'", "tree -L1o .git/config x", "tree -Po x tests/t.txt", "tree -PIo a b tests/t.txt", "tree -aLo 2 tests/t.txt",
    "tree --sortx name", "tree --noreportx", "tree --noreport=1", "tree -L", "tree -aP", "tree -Ro x", "tree --fromfile x", "tree --infofile=x", "tree -H . -o tests/t.html",
    // xxd reads no options after its input file: the next word is its output file, whatever it looks like
    "xxd src/a.ts -p", "cd ./src && xxd a.ts -p", "xxd - -p", "xxd -p src/a.ts -c", "xxd -- src/a.ts -p",
  ];
  it.each(CALLERS)("for %s", (as) => {
    const allowed = never.filter((c) => kind(as, c) === "allow");
    expect(allowed, `${as} may run:\n${allowed.join("\n")}`).toEqual([]);
  });

  it("while the spellings the programs document stay allowed", () => {
    const ok: [string, string][] = [
      ["jade", "sort -u -k 2 -t , src/a.ts"], ["jade", "sort --reverse --key=2 src/a.ts"], ["jade", "uniq -c src/a.ts"], ["jade", "xxd -l 64 src/a.ts"], ["jade", "file -b --mime-type src/a.ts"],
      ["jade", "npx tsc --noEmit"], ["jade", "npx tsc --NOEMIT"], ["jade", "npx tsc -noEmit --pretty src/a.ts"], ["jade", "npx tsc --noEmit -p"].slice(0, 0) as never,
      ["jade", "npx vitest run src --reporter=verbose"], ["jade", "npx vitest run --pass-with-no-tests -t foo"], ["jade", "npx jest --ci --runInBand"], ["jade", "npx jest --run-in-band"],
      ["jade", "npm test --if-present"], ["jade", "npm test -- --run"], ["jade", "npm run test --silent"], ["jade", "pytest -xq -k foo tests"], ["jade", "go test -v -count=1 -run=TestX ./..."],
      ["jade", "cargo test --release -- --nocapture --test-threads=1"], ["jade", "pytest tests/a_test.py -k 'foo and not bar'"], ["jade", "npx vitest run -t x src"], ["jade", "npm test src/a.test.ts"], ["jade", "npm test -- tests/a.test.ts --run"], ["jade", "pnpm test tests/a.test.ts"], ["quartz", "npx vitest run --bail 1 src"], ["jade", "git diff --stat --cached"], ["jade", "git status --porcelain=v1 -uall"],
      ["jade", "tree -L 2 src"], ["jade", "tree -L2 -a src"], ["jade", "tree -aL 2 src"], ["jade", "tree -L2d src"], ["jade", "tree -PI '*.ts' node_modules src"], ["jade", "tree --sort=name --dirsfirst src"], ["jade", "tree --sort name src"], ["onyx", "tree -a --noreport"],
      ["jade", "xxd -p src/a.ts"], ["jade", "xxd -l 64 -c 16 src/a.ts"],
      ["jade", "npm run test:unit"], ["jade", "npm run typecheck:src"], ["mica", "pnpm run test:e2e"],
      [ORCHESTRATOR, "git stash push -u -m pre-run"], [ORCHESTRATOR, "npm run lint --if-present"], ["onyx", "git log --oneline -5"], ["onyx", "npm audit --json"],
    ].filter((x) => x.length) as [string, string][];
    const blocked = ok.filter(([as, c]) => kind(as, c) !== "allow");
    expect(blocked.map(([as, c]) => `${as}: ${c}`)).toEqual([]);
  });
});

describe("the guard against vitest's own CLI parser", () => {
  const SAFE = new Set(["--", "color", "run", "passWithNoTests", "allowOnly", "silent", "hideSkippedTests", "globals", "logHeapUsage", "expandSnapshotDiff", "fileParallelism", "changed", "t", "testNamePattern", "reporter", "bail", "maxWorkers", "minWorkers", "testTimeout", "hookTimeout", "project", "shard", "mode"]);
  const BUILTIN = new Set(["default", "basic", "verbose", "dot", "tree", "tap", "tap-flat", "hanging-process", "github-actions", "minimal", "agent"]);
  const names = ["update", "u", "outputFile", "output-file", "reporter", "config", "c", "root", "r", "dir", "t", "testNamePattern", "test-name-pattern", "run", "silent", "coverage", "coverage.reportsDirectory", "passWithNoTests", "pass-with-no-tests", "globalSetup", "environment", "api", "ui", "watch", "no-color", "bail"];
  const word = fc.oneof(
    fc.tuple(fc.constantFrom(...names), fc.constantFrom("", "=x", "=./evil.js", "=verbose")).map(([n, v]) => [(n.length === 1 ? "-" : "--") + n + v]),
    fc.tuple(fc.array(fc.constantFrom("u", "t", "r", "c"), { minLength: 2, maxLength: 3 })).map(([cs]) => [`-${cs.join("")}`]),
    fc.constantFrom(["-u"], ["false"], ["true"], ["./evil.js"], ["verbose"], ["run"], ["watch"], ["src"]),
  );
  it("never allows a spelling vitest reads as an option outside the safe list or a reporter module", async () => {
    const { parseCLI } = (await import("vitest/node")) as { parseCLI: (argv: string[]) => { filter: string[]; options: Record<string, unknown> } };
    let unsafe = 0;
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 4 }), (words) => {
        const args = words.flat();
        let parsed;
        try {
          parsed = parseCLI(["vitest", ...args]);
        } catch {
          return; // vitest refuses the command line
        }
        const bad = Object.keys(parsed.options).filter((k) => !SAFE.has(k));
        const reporters = ([] as unknown[]).concat(parsed.options.reporter ?? []);
        if (reporters.some((r) => typeof r !== "string" || !BUILTIN.has(r))) bad.push("reporter module");
        if (["watch", "dev", "bench"].includes(args[0] ?? "")) bad.push("a long-running command");
        if (!bad.length) return;
        unsafe++;
        expect(kind("jade", ["npx", "vitest", ...args]), `npx vitest ${args.join(" ")} reads ${bad.join(", ")}`).not.toBe("allow");
      }),
      { numRuns: 500, seed: 22 },
    );
    expect(unsafe).toBeGreaterThan(20);
  }, 120_000);
});

describe("a file with more than one name (c22)", () => {
  it("a write to a hard link of a never-write file is refused, by the write tool and by a redirection", () => {
    fs.mkdirSync(path.join(P, "tests"), { recursive: true });
    fs.writeFileSync(path.join(P, "tests/linked.test.ts"), "t\n");
    fs.linkSync(path.join(P, "tests/linked.test.ts"), path.join(P, "src/linked.ts"));
    fs.writeFileSync(path.join(P, "src/plain.ts"), "p\n");
    try {
      const write = (file: string) => decide(JSON.stringify(payload({ tool: "Write", input: { file_path: path.join(P, file), content: "x" }, role: "jade", cwd: P })), { CLAUDE_PROJECT_DIR: P }, "jade");
      expect(write("src/linked.ts")).toMatchObject({ kind: "deny", reason: expect.stringMatching(/2 hard links/) });
      expect(kind("jade", "echo x > src/linked.ts")).toBe("deny");
      expect(kind("jade", "echo x >> ./src/../src/linked.ts")).toBe("deny");
      // the permit: a file with one name in jade's scope
      expect(write("src/plain.ts").kind).toBe("allow");
      expect(kind("jade", "echo x > src/plain.ts")).toBe("allow");
    } finally {
      fs.rmSync(path.join(P, "src/linked.ts"));
    }
  });
});

describe("a role whose shell default is allow (c22)", () => {
  it("its deny rules see through a program that runs its trailing words as a command", () => {
    const p = readRoles(PEBBLE_ROLES);
    const coral = p.roles.find((r) => r.id === "coral")!;
    coral.shell = { ...coral.shell!, default: "allow" };
    const d = inProcess(p);
    const k = (command: string) => d(JSON.stringify(payload({ tool: "Bash", input: { command }, role: "coral", cwd: P })), { CLAUDE_PROJECT_DIR: P }, "coral").kind;
    const denied = ["git push", "taskset 1 git push", "strace -f git push origin main", "npx git push", "chrt 1 git commit -m x", "valgrind /usr/bin/git reset --hard", "prlimit git -C . push", "numactl 0 git --no-pager push"];
    expect(denied.map((c) => `${c}: ${k(c)}`)).toEqual(denied.map((c) => `${c}: deny`));
    // the permits: its own tools, and words that are only data to a program the guard reads
    const allowed = ["terraform validate", "hadolint Dockerfile", "helm lint charts/x", "echo git push", "grep git README.md"];
    expect(allowed.map((c) => `${c}: ${k(c)}`)).toEqual(allowed.map((c) => `${c}: allow`));
  });
});

describe("instruction files the hosts read in place of or beside the ones harness writes (second red team)", () => {
  it("AGENTS.override.md (Codex reads it instead of AGENTS.md in each folder) and CLAUDE.local.md are never-write at any depth", () => {
    const write = (file: string) => decide(JSON.stringify(payload({ tool: "Write", input: { file_path: path.join(P, file), content: "x" }, role: "jade", cwd: P })), { CLAUDE_PROJECT_DIR: P }, "jade").kind;
    expect([write("src/AGENTS.override.md"), write("src/CLAUDE.local.md"), write("src/x/AGENTS.override.md")]).toEqual(["deny", "deny", "deny"]);
    expect(write("src/AGENTS.ts")).toBe("allow");
  });
});

describe("a file system that folds case (c22)", () => {
  const as = (platform: string, body: () => void) => {
    const real = Object.getOwnPropertyDescriptor(process, "platform")!;
    Object.defineProperty(process, "platform", { value: platform });
    try {
      body();
    } finally {
      Object.defineProperty(process, "platform", real);
    }
  };
  const write = (role: string, file: string) => decide(JSON.stringify(payload({ tool: "Write", input: { file_path: path.join(P, file), content: "x" }, role, cwd: P })), { CLAUDE_PROJECT_DIR: P }, role).kind;
  it("on macOS and Windows never-write holds in any case, and on Windows without trailing dots and spaces; write scopes stay as spelled", () => {
    for (const platform of ["darwin", "win32"])
      as(platform, () => {
        expect([write("jade", "TESTS/a.test.ts"), write("jade", "src/Claude.md"), write("jade", "src/x.TEST.ts"), write("jade", ".Claude/settings.json"), write("jade", "SRC/x.ts")]).toEqual(["deny", "deny", "deny", "deny", "deny"]);
        expect(write("jade", "src/x.ts")).toBe("allow");
        expect(write("mica", "tests/a.test.ts")).toBe("allow");
      });
    // second red team (r22): APFS and NTFS also fold what Unicode folds onto ASCII: the Kelvin sign is K in NFD, long s is s in case folding
    for (const platform of ["darwin", "win32"])
      as(platform, () => expect([write("jade", "src/__moc\u212as__/x.ts"), write("jade", "src/x.te\u017ft.ts"), write("jade", "src/x.\u017fpec.ts")]).toEqual(["deny", "deny", "deny"]));
    as("win32", () => expect([write("jade", "tests./a.test.ts"), write("jade", "tests /a.test.ts"), write("jade", "src/CLAUDE.md.")]).toEqual(["deny", "deny", "deny"]));
    // Linux: names are bytes; src/Claude.md is not CLAUDE.md there
    as("linux", () => expect(write("jade", "src/Claude.md")).toBe("allow"));
  });
});
