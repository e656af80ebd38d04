// Seventh red team of the guards (r7): option spellings the readers mis-modelled, each confirmed
// against the real program (options-real.slow.test.ts, "r7"). Every command below was allowed before
// the fix, for default-deny onyx and the orchestrator on the unaudited main thread as well.
import { describe, expect, it } from "vitest";
import { ORCHESTRATOR } from "../../adapters/claude-code/guard.js";
import { PEBBLE_ROLES } from "../helpers/cli.js";
import { readRoles } from "../helpers/compile.js";
import { bashScene, inProcess, payload } from "./helpers.js";

const pipeline = readRoles(PEBBLE_ROLES);
const { P, kind } = bashScene(pipeline);
const CALLERS = ["jade", "mica", "quartz", "onyx", "coral", ORCHESTRATOR];
const allowedFor = (as: string, list: string[]) => list.filter((c) => kind(as, c) === "allow");

describe("find reads its expression after -- (r7)", () => {
  // GNU find's `--` ends only its leading options (-H -L -P -D -O): the primaries after it are still
  // read, so `find -- . -exec sh -c … ;` runs a command. The guard read every word after `--` as an operand.
  const never = ["find -- . -exec touch /tmp/x ';'", "find -- . -delete", "find -L -- src -fprint tests/x", "find -- . -execdir sh -c id ';'", "bfs -- . -exec id ';'", "find -- . -ok id ';'"];
  it.each(CALLERS)("for %s", (as) => expect(allowedFor(as, never)).toEqual([]));
  it("while find with -- and a plain expression stays allowed", () => {
    expect(kind("onyx", "find -- src -name '*.ts' -type f")).toBe("allow");
    expect(kind("jade", "find src -maxdepth 2 -name x")).toBe("allow");
  });
});

describe("git options read only attached, and values that are options (r7)", () => {
  // git log reads --format, --min-parents and --max-parents only as --name=value; spelled alone they
  // are an error, but git opens --output (truncating the file) before it fails on them. shortlog's
  // -n and --committer are flags, and rev-list has no -L: in each the guard took the next word as a
  // value, so `--output=<any file>` went unread. The guard script itself, truncated, answers nothing.
  const never = [
    "git log --format --output=.claude/hooks/harness-guard.cjs",
    "git log --max-parents --output=tests/a.test.ts",
    "git show --min-parents --output=src/a.ts",
    "git log -n --output=tests/x",
    "git log --author --output=tests/x",
    "git diff -S --output=tests/x",
    "git diff --src-prefix --output=tests/x",
    "git blame -L --output=tests/x src/a.ts",
    "git log --grep -x --output=tests/x",
  ];
  it.each(CALLERS)("for %s", (as) => expect(allowedFor(as, never)).toEqual([]));
  it("while values, attached or separate, stay allowed", () => {
    const ok = ["git log --format=%H -n 5", "git log -n 3 --author alice", "git log --grep fix --since 2.weeks", "git show --format=%s HEAD", "git diff -S needle --stat", "git blame -L 1,5 src/a.ts", "git log --pretty=oneline -5"];
    expect(ok.filter((c) => kind("onyx", c) !== "allow")).toEqual([]);
  });
  it("a default-allow role's git shortlog, rev-list, reflog show: the same values", () => {
    const p = readRoles(PEBBLE_ROLES);
    const coral = p.roles.find((r) => r.id === "coral")!;
    coral.shell = { ...coral.shell!, default: "allow" };
    const d = inProcess(p);
    const k = (command: string) => d(JSON.stringify(payload({ tool: "Bash", input: { command }, role: "coral", cwd: P })), { CLAUDE_PROJECT_DIR: P }, "coral").kind;
    // git reflog show is git log -g: it takes log's options, --output too
    const bad = ["git shortlog -n --output=tests/x", "git shortlog --committer --output=tests/x", "git rev-list -L --output=tests/x HEAD", "git rev-list --format --output=tests/x HEAD", "git reflog show --output=tests/x", "git reflog show -p --ext-diff"];
    expect(bad.filter((c) => k(c) === "allow")).toEqual([]);
    expect(k("git shortlog -n -s HEAD")).toBe("allow");
    expect(k("git reflog show -n 5 --format=%gs")).toBe("allow");
  });
});

describe("git's --shallow-file takes the next word (r7)", () => {
  // `git --shallow-file status commit -m x` runs git commit (status is the shallow file's name): the
  // guard read status as the subcommand and only asked, where every git write is refused
  it.each(CALLERS)("for %s", (as) => {
    for (const c of ["git --shallow-file status commit -m x", "git --shallow-file x push", "git --shallow-file status tag v1"]) expect(`${c}: ${kind(as, c)}`).toBe(`${c}: deny`);
  });
});

describe("pytest imports -p plugins wherever the word stands (r7)", () => {
  // pytest's consider_preparse scans every word for -p NAME / -pNAME, after -- too, and imports the
  // module before any test runs: `python -m pytest -- -p pip.__main__` runs pip with pytest's words
  const never = ["python -m pytest -q tests -- -p evilmod", "pytest tests -- -pevil", "pytest -- -p pip.__main__", "python -m pytest -k x -- -p src.evil"];
  it.each(CALLERS)("for %s", (as) => expect(allowedFor(as, never)).toEqual([]));
  it("while pytest's ordinary words stay allowed", () => {
    expect(kind("jade", "pytest -q tests -k 'foo and not bar'")).toBe("allow");
    expect(kind("quartz", "python -m pytest -x tests -- tests/test_a.py")).toBe("allow");
  });
});

describe("npm's command words and the commands npm, pnpm and yarn run (r7)", () => {
  // npm reads a command by alias or unique prefix (npm publis = npm publish, npm add = npm install),
  // and npm exec/x/explore, pnpm and yarn (exec, dlx, a word that names no script) run their later
  // words as a command: deny and ask rules saw neither, so they bound only the spelling written
  const p = readRoles(PEBBLE_ROLES);
  const coral = p.roles.find((r) => r.id === "coral")!;
  coral.shell = { ...coral.shell!, default: "allow" };
  const d = inProcess(p);
  const k = (command: string) => d(JSON.stringify(payload({ tool: "Bash", input: { command }, role: "coral", cwd: P })), { CLAUDE_PROJECT_DIR: P }, "coral").kind;
  it("a default-allow role: the pipeline's deny rules hold", () => {
    const denied = ["npm publis", "npm versio patch", "npm pu --tag x", "npm exec git push", "npm x git push", "npm exec -- git push origin", "npm explore vitest -- git push", "pnpm exec git push", "pnpm dlx git push", "pnpm git push", "yarn exec git push", "yarn dlx git commit -m x", "npm --silent x git push"];
    expect(denied.map((c) => `${c}: ${k(c)}`)).toEqual(denied.map((c) => `${c}: deny`));
    expect(["npm test", "npm exec vitest run", "pnpm test src", "npm run build"].map((c) => `${c}: ${k(c)}`)).toEqual(["npm test: allow", "npm exec vitest run: allow", "pnpm test src: allow", "npm run build: allow"]);
  });
  it("quartz's deny rules and the orchestrator's pipeline denies see the full command", () => {
    for (const c of ["npm add left-pad", "npm isntall left-pad", "npm in left-pad", "npm insta x"]) expect(`${c}: ${kind("quartz", c)}`).toBe(`${c}: deny`);
    for (const c of ["npm publis", "npm versio patch", "npm x git push"]) expect(`${c}: ${kind(ORCHESTRATOR, c)}`).toBe(`${c}: deny`);
    expect(kind("jade", "npm test")).toBe("allow");
    expect(kind("quartz", "npm run test -- src")).toBe("allow");
    expect(kind("onyx", "npm audit --json")).toBe("allow");
  });
});

describe("an input redirection from bash's /dev/tcp and /dev/udp (r7)", () => {
  // bash opens a network connection for < /dev/tcp/HOST/PORT itself: default-deny onyx reached the network
  const never = ["cat < /dev/tcp/127.0.0.1/9", "head -c1 </dev/udp/127.0.0.1/9", "git log < /dev/tcp/example.com/80", "ls 0</dev/tcp/h/1"];
  it.each(CALLERS)("for %s", (as) => expect(allowedFor(as, never)).toEqual([]));
  it("while reading a file and /dev/null stay allowed", () => {
    expect(kind("onyx", "cat < /dev/null")).toBe("allow");
    expect(kind("onyx", "wc -l < package.json")).toBe("allow");
  });
});

describe("jq's -f is a flag (r7)", () => {
  // jq 1.6 and 1.7 read -f / --from-file as a flag (the first operand is the program file): the guard
  // took the next word as its value, so a jq option after it went unread (jq -f --version prints jq's version)
  it("the word after -f is read as jq reads it", () => {
    expect(kind("onyx", "jq -f --seq prog.jq in.json")).toBe("allow");
    expect(kind("onyx", "jq -f --bogus prog.jq")).not.toBe("allow");
    expect(kind("onyx", "jq --from-file prog.jq in.json")).toBe("allow");
  });
});
