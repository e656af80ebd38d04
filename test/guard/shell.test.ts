// The guard's Bash analysis, in-process (the same runtime text the script embeds; guard.test.ts
// shows the two agree). Each row: who runs what, and the expected decision.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pebble } from "./fixture.js";
import { type Project, inProcess, makeProject, payload } from "./helpers.js";

const pipeline = pebble();
const decide = inProcess(pipeline);
let P: Project;
beforeAll(() => {
  P = makeProject(pipeline);
});
afterAll(() => P?.cleanup());

type Row = [who: string | undefined, command: string, expected: "allow" | "ask" | "block", reason?: RegExp];

function run(who: string | undefined, command: string, cwd?: string) {
  const input = payload({ tool: "Bash", input: { command }, ...(who ? { role: who } : {}), cwd: cwd ?? P.dir });
  return decide(JSON.stringify(input), { CLAUDE_PROJECT_DIR: P.dir, HOME: "/home/someone" });
}

function table(title: string, rows: Row[]): void {
  describe(title, () => {
    for (const [who, command, expected, reason] of rows) {
      it(`${who ?? "main"}: ${JSON.stringify(command)} → ${expected}`, () => {
        const d = run(who, command);
        expect(d.kind, d.reason).toBe(expected);
        if (reason) expect(d.reason).toMatch(reason);
      });
    }
  });
}

const PUSH = /no pipeline agent may run git push/;
const COMMIT = /no pipeline agent may run git commit/;

table("compound commands are split and every part is checked", [
  ["jade", "npm test && git push", "block", PUSH],
  ["jade", "npm test || git push origin", "block", PUSH],
  ["jade", "npm test; git push", "block", PUSH],
  ["jade", "npm test | git push", "block", PUSH],
  ["jade", "npm test |& git push", "block", PUSH],
  ["jade", "npm test & git push", "block", PUSH],
  ["jade", "npm test\ngit push", "block", PUSH],
  ["jade", "(git push)", "block", PUSH],
  ["jade", "{ git push; }", "block", PUSH],
  ["jade", "if true; then git push; fi", "block", PUSH],
  ["jade", "while false; do git commit -m x; done", "block", COMMIT],
  ["jade", "for f in a b; do git push; done", "block", PUSH],
  ["jade", "echo $(git push)", "block", PUSH],
  ["jade", "echo \"$(git push)\"", "block", PUSH],
  ["jade", "echo `git push`", "block", PUSH],
  ["jade", "echo \"`git push`\"", "block", PUSH],
  ["jade", "echo $(echo $(git push))", "block", PUSH],
  ["jade", "diff <(git push) x", "block", PUSH],
  ["jade", "echo ${X:-$(git push)}", "block", PUSH],
  ["jade", "echo $(( $(git push) + 1 ))", "block", PUSH],
  ["jade", "bash -c 'git push'", "block", PUSH],
  ["jade", "sh -lc \"npm test && git commit -m wip\"", "block", COMMIT],
  ["jade", "eval git push", "block", PUSH],
  ["jade", "bash <<'EOF'\ngit push\nEOF", "block", PUSH],
  ["jade", "bash <<< 'git push'", "block", PUSH],
  ["jade", "cat <<EOF\n$(git push)\nEOF", "block", PUSH],
  ["jade", "git log | xargs git push", "block", PUSH],
  ["jade", "find . -name x -exec git push \\;", "block", PUSH],
]);

table("denied commands are recognized in disguise", [
  ["jade", "git  push", "block", PUSH],
  ["jade", "\"git\" push", "block", PUSH],
  ["jade", "g'i't push", "block", PUSH],
  ["jade", "\\git push", "block", PUSH],
  ["jade", "/usr/bin/git push", "block", PUSH],
  ["jade", "git -C . push", "block", PUSH],
  ["jade", "git --no-pager -c user.name=x commit -m y", "block", COMMIT],
  ["jade", "GIT_TRACE=1 git push", "block", PUSH],
  ["jade", "env GIT_TRACE=1 git push", "block", PUSH],
  ["jade", "sudo -u root git push", "block", PUSH],
  ["jade", "command git push", "block", PUSH],
  ["jade", "nohup git push &", "block", PUSH],
  ["jade", "timeout 10 git push", "block", PUSH],
  ["jade", "git push --force-with-lease", "block", PUSH],
  ["jade", "git reset --hard HEAD~1", "block", /git reset --hard\*/],
  ["jade", "git rebase -i main", "block", /git rebase \*/],
  ["jade", "git merge feature", "block", /git merge \*/],
  ["jade", "$GIT push", "block", /its command name is computed or expanded at run time/],
  ["jade", "$'\\x67it' push", "block", PUSH],
  ["jade", "$'\\147\\151\\164' push", "block", PUSH],
  ["jade", "$'git\\x20push'", "block", PUSH],
  ["jade", "{git,push}", "block", /expanded at run time/],
  ["jade", "/usr/bin/gi? push", "block", /expanded at run time/],
  ["jade", "git {push,status}", "block", PUSH],
  ["jade", "git pu{sh,}", "block", PUSH],
  ["jade", "git $SUB origin", "block", /\(it could expand to a command that matches git (commit|push) \*; write its arguments out\)/],
  ["jade", "X=push; git \"$X\"", "block", /could expand/],
  ["jade", "git pus? origin", "block", /could expand/],
  ["jade", "git $(echo push)", "block", /could expand/],
  ["jade", "git add src/*.ts", "ask"], // a wildcard that cannot become a denied command
  ["jade", "npm test -- $EXTRA", "allow"],
  ["jade", "coproc git push", "block", PUSH],
  ["jade", "coproc P { git push; }", "block", PUSH],
  ["jade", "function f { git push; }; f", "block", PUSH],
  ["jade", "f() { git push; }; f", "block", PUSH],
  ["jade", "env -S 'git push'", "block", /env -S runs a command line built at run time/],
  ["jade", "\"env\" git push", "block", PUSH],
  ["jade", "'sudo' git push", "block", PUSH],
  ["jade", "git -c alias.p=push p", "block", /defines a git alias/],
  ["quartz", "X=\"a b\" npm test", "allow"],
  ["jade", "watch -n 5 git push", "block", PUSH],
  ["jade", "su -c 'git push' me", "block", PUSH],
  ["jade", "$(echo git) push", "block", /computed or expanded at run time/],
  ["mica", "npm publish", "block", /its shell rules deny npm publish \*/],
  // not a deny: word boundaries hold
  ["jade", "git pushd-helper", "ask", /default is ask/],
  ["jade", "npm test -- --grep 'git push'", "allow"],
  ["jade", "echo 'git push' > src/notes.txt", "ask"],
]);

table("role shell rules: deny, then ask, then allow, then the default", [
  ["quartz", "npm test", "allow"],
  ["quartz", "npm test -- --run", "allow"],
  ["quartz", "npm testx", "block", /not among its allowed commands: npm test \*/],
  ["quartz", "npm test && npm run lint", "block", /may not run "npm run lint"/],
  ["quartz", "cd src && npm test", "allow"], // cd is neutral
  ["quartz", "npm test 2>&1 | tail -20", "block", /may not run "tail -20"/], // strict: tail is not allowed
  ["coral", "terraform plan -out x.plan", "ask", /its shell rules ask for terraform plan \*/],
  ["coral", "terraform apply", "block", /its shell rules deny terraform apply \*/],
  ["coral", "terraform fmt infra", "allow"],
  ["jade", "npm install left-pad", "ask", /ask for npm install \*/],
  ["jade", "sudo npm install left-pad", "ask", /ask for npm install \*/],
  ["jade", "npm run build -- --watch", "allow"],
  ["jade", "make", "ask", /default is ask/],
  ["slate", "git log --oneline -5", "allow"],
  ["slate", "GIT_PAGER=cat git log", "allow"],
  ["slate", "git status", "block", /not among its allowed commands/],
  ["quartz", "CI=1; npm test", "allow"], // an assignment alone runs nothing
  ["quartz", "X=$(git push)", "block", PUSH],
  ["quartz", "exec 2>/dev/null", "allow"],
  ["flint", "ls", "block", /its role has no shell tool/],
  ["chalk", "npm test", "block", /its role has no shell tool/],
]);

table("the orchestrator on the main thread", [
  [undefined, "git push", "block", PUSH],
  [undefined, "git stash push -m 'before jade'", "allow"],
  [undefined, "git stash", "block", /git stash \*/],
  [undefined, "git stash list", "block", /git stash \*/],
  [undefined, "git stash push -m x && git push", "block", PUSH],
  [undefined, "npm install && npm test", "allow"],
  [undefined, "mkdir -p .pebble", "allow"], // mkdir checks only never-write
  [undefined, "mkdir -p .git/hooks", "block", /never-write: \.git\/\*\* \(pipeline policy\)/],
  [undefined, "cat > .pebble/spec.md <<'EOF'\n# Spec\nNever run git push here.\nEOF", "allow"],
  [undefined, "cat > src/a.ts <<'EOF'\nx\nEOF", "block", /Delegate it to jade/],
  [undefined, "cp .pebble/spec.md .pebble/review.md", "allow"],
  [undefined, "gh pr create --body \"$(cat <<'EOF'\nSummary (with parens) and git push in prose\nEOF\n)\"", "allow"],
  [undefined, "git commit -m \"$(cat <<'EOF'\nfix: x\nEOF\n)\"", "block", COMMIT],
  [undefined, "! git push", "block", PUSH],
  [undefined, "time git push", "block", PUSH],
]);

table("writes through the shell", [
  ["jade", "echo x > tests/a.test.ts", "block", /never-write: artifact tests/],
  ["jade", "echo x >> tests/a.test.ts", "block", /never-write: artifact tests/],
  ["jade", "echo x >| tests/a.test.ts", "block", /never-write/],
  ["jade", "npm test &> tests/log.test.txt", "block", /never-write/],
  ["jade", "npm test 2> tests/err.txt", "block", /never-write/],
  ["jade", "npm test >& tests/err.txt", "block", /never-write/],
  ["jade", "npm test > src/out.txt 2>&1", "allow"],
  ["jade", "npm test > /dev/null 2>&1", "allow"],
  ["jade", "npm test >/tmp/out.txt", "block", /outside the project directory/],
  ["jade", "cat src/a.ts | tee tests/a.test.ts", "block", /never-write/],
  ["jade", "cat src/a.ts | tee -a src/b.ts tests/a.test.ts", "block", /tests\/a\.test\.ts \(never-write/],
  ["quartz", "sed -i s/a/b/ src/a.ts", "block", /not among its allowed commands/],
  ["jade", "sed -i s/a/b/ tests/a.test.ts", "block", /never-write/],
  ["jade", "sed -i.bak -e s/a/b/ tests/a.test.ts", "block", /never-write/],
  ["jade", "sed --in-place=.orig 's/a/b/' src/a.ts tests/a.test.ts", "block", /tests\/a\.test\.ts/],
  ["jade", "sed -n 1p tests/a.test.ts", "ask"], // reading is fine (jade's default is ask)
  ["jade", "perl -pi -e 's/a/b/' tests/a.test.ts", "block", /never-write/],
  ["jade", "cp src/a.ts tests/", "block", /tests\/a\.ts \(never-write/],
  ["jade", "cp src/a.ts tests/new.ts", "block", /never-write/],
  ["jade", "cp -t tests src/a.ts", "block", /never-write/],
  ["jade", "cp tests/a.test.ts src/copy.ts", "ask"], // reading a test is fine
  ["jade", "cp tests/* src/", "block", /src\/a\.test\.ts \(never-write/], // names from the glob
  ["jade", "cp -r tests lib/", "block", /lib\/tests/],
  ["jade", "mv tests/a.test.ts src/a2.ts", "block", /tests\/a\.test\.ts \(never-write/], // mv removes the source
  ["jade", "mv src/a.ts src/b.ts", "ask"],
  ["jade", "install -m 644 src/a.ts tests/a2.ts", "block", /never-write/],
  ["jade", "rm tests/a.test.ts", "block", /never-write/],
  ["jade", "rm -f src/util.test.ts", "block", /never-write/],
  ["jade", "rm src/*", "block", /src\/util\.test\.ts \(never-write/], // glob expanded against the disk
  ["jade", "rm -rf src/deep", "block", /src\/deep\/__tests__/], // trees are walked
  ["jade", "rm -rf src", "block", /never-write/],
  ["jade", "rm src/out", "ask"], // removing a link does not touch its target
  ["jade", "rm -rf solo", "block", /not in its write scope/],
  ["jade", "unlink tests/a.test.ts", "block", /never-write/],
  ["jade", "touch tests/new.test.ts", "block", /never-write/],
  ["jade", "touch -d yesterday src/a.ts", "ask"],
  ["jade", "truncate -s 0 tests/a.test.ts", "block", /never-write/],
  ["jade", "dd if=/dev/zero of=tests/a.test.ts bs=1 count=1", "block", /never-write/],
  ["jade", "curl -o tests/fixture.json https://example.com", "block", /never-write/],
  ["jade", "curl -sSLo src/vendor.js https://example.com", "ask"],
  ["jade", "curl -O https://example.com/x.js", "block", /computed at run time/],
  ["jade", "wget https://example.com/x.js", "block", /computed at run time/],
  ["jade", "wget -qO- https://example.com", "ask"],
  ["jade", "find tests -name '*.snap' -delete", "block", /never-write/],
  ["jade", "find src -name x -exec rm {} \\;", "block", /computed at run time/],
  ["jade", "ls tests | xargs rm", "block", /computed at run time/],
  ["jade", "ln -s /etc src/etc", "block", /may not write \/etc/],
  ["jade", "ln -s ../tests/a.test.ts src/t.ts", "block", /tests\/a\.test\.ts \(never-write/],
  ["jade", "ln -s ../lib/b.ts src/b-link.ts", "ask"],
  ["jade", "mkdir -p tests/unit", "block", /never-write/],
  ["jade", "mkdir -p src/new", "ask"],
  ["jade", "echo x > \"$OUT\"", "block", /a path computed at run time/],
  ["jade", "echo x > $(mktemp)", "block", /computed at run time/],
  ["jade", "echo x > ~/x", "block", /outside the project directory/],
  ["jade", "echo x > $CLAUDE_PROJECT_DIR/tests/a.test.ts", "block", /never-write/],
  ["jade", "echo x > \"${CLAUDE_PROJECT_DIR}/src/ok.ts\"", "ask"],
  ["jade", "echo x > src/{a,b}.ts", "ask"],
  ["jade", "echo x > {src,tests}/a.test.ts", "block", /never-write/],
  ["jade", "echo x > src/out/secret.txt", "block", /resolves through a symbolic link/],
  ["jade", "echo x > lib/t/a.test.ts", "block", /never-write/],
  ["jade", "echo x > .git/config", "block", /\.git\/\*\* \(pipeline policy\)/],
  ["jade", "exec 3> tests/x.txt", "block", /never-write/],
]);

table("cd is followed", [
  ["jade", "cd tests && echo x > a.test.ts", "block", /tests\/a\.test\.ts \(never-write/],
  ["jade", "cd tests; cd ../src && echo x > ok.ts", "ask"],
  ["jade", "cd src && echo x > ../tests/a.test.ts", "block", /never-write/],
  ["jade", "(cd tests) && echo x > src/ok.ts", "ask"], // a subshell's cd ends with it
  ["jade", "(cd tests && echo x > a.ts)", "block", /never-write/],
  ["jade", "cd \"$SOMEWHERE\" && echo x > a.ts", "block", /an earlier cd went to a directory the guard cannot follow/],
  ["jade", "cd - && echo x > /dev/null", "ask"], // /dev/null needs no cd; echo is jade's default (ask)
  ["jade", `cd ${"/"} && echo x > etc/passwd`, "block", /outside the project/],
]);

table("unparseable commands fail closed", [
  ["jade", "echo 'x", "block", /a single quote is not closed/],
  ["jade", "echo \"x", "block", /a double quote is not closed/],
  ["jade", "echo $(ls", "block", /is not closed/],
  ["jade", "echo `ls", "block", /a backtick is not closed/],
  ["jade", "echo x >", "block", /a redirection has no target/],
  ["jade", "echo x > ; ls", "block", /a redirection has no target/],
  [undefined, "echo $(((1+2))", "block", /not closed/],
]);

describe("built-in agents and spawning, in-process", () => {
  it("a built-in agent is blocked even for harmless commands", () => {
    const d = decide(JSON.stringify(payload({ tool: "Bash", input: { command: "ls" }, role: "Explore", cwd: P.dir })), { CLAUDE_PROJECT_DIR: P.dir });
    expect(d.kind).toBe("block");
  });
  it("nested agents on: a spawning role may start agents from a subagent, also built-ins", () => {
    const roles = pipeline.roles.map((r) => (r.id === "slate" ? { ...r, canSpawn: true } : r));
    const nested = inProcess(pebble({ nestedAgents: true }, roles));
    const ask = (role: string, target: string) =>
      nested(JSON.stringify(payload({ tool: "Agent", input: { subagent_type: target, prompt: "p" }, role, cwd: P.dir })), { CLAUDE_PROJECT_DIR: P.dir });
    expect(ask("slate", "jade").kind).toBe("allow");
    expect(ask("slate", "Explore").kind).toBe("allow");
    expect(ask("jade", "slate")).toMatchObject({ kind: "block", reason: expect.stringMatching(/jade may not start agents \(its role cannot spawn/) });
  });
  it("nested agents off: even a spawning role may not start agents from a subagent", () => {
    const roles = pipeline.roles.map((r) => (r.id === "slate" ? { ...r, canSpawn: true } : r));
    const flat = inProcess(pebble({}, roles));
    const d = flat(JSON.stringify(payload({ tool: "Agent", input: { subagent_type: "jade" }, role: "slate", cwd: P.dir })), { CLAUDE_PROJECT_DIR: P.dir });
    expect(d).toMatchObject({ kind: "block", reason: expect.stringMatching(/a delegated agent may not start agents of its own \(nested agents are off\)/) });
  });
});

describe("a role whose shell default is allow", () => {
  it("runs unnamed commands, still not denied ones or writes out of scope", () => {
    const open = inProcess(pebble({}, pipeline.roles.map((r) => (r.id === "jade" && r.shell ? { ...r, shell: { ...r.shell, default: "allow" as const } } : r))));
    const go = (command: string) => open(JSON.stringify(payload({ tool: "Bash", input: { command }, role: "jade", cwd: P.dir })), { CLAUDE_PROJECT_DIR: P.dir });
    expect(go("make -j4").kind).toBe("allow");
    expect(go("npm install x").kind).toBe("ask");
    expect(go("git push").kind).toBe("block");
    expect(go("make > tests/out.txt").kind).toBe("block");
  });
});

describe("long and deep commands", () => {
  it("a very long command with computed words neither crashes nor passes a deny", () => {
    const long = `git ${"$X ".repeat(3000)}`;
    const d = run("jade", long);
    expect(d.kind).toBe("block");
    expect(d.reason).not.toMatch(/internal error/);
  });
  it("nesting beyond the limit blocks", () => {
    let cmd = "ls";
    for (let i = 0; i < 12; i++) cmd = `echo $(${cmd})`;
    expect(run("jade", cmd)).toMatchObject({ kind: "block", reason: expect.stringMatching(/nested too deeply/) });
  });
});

describe("paths in other shapes", () => {
  it("resolves a relative file_path against the input cwd", () => {
    const sub = path.join(P.dir, "src");
    const d = decide(JSON.stringify(payload({ tool: "Write", input: { file_path: "../tests/a.test.ts" }, role: "jade", cwd: sub })), { CLAUDE_PROJECT_DIR: P.dir });
    expect(d).toMatchObject({ kind: "block", reason: expect.stringMatching(/tests\/a\.test\.ts \(never-write/) });
    const ok = decide(JSON.stringify(payload({ tool: "Write", input: { file_path: "new.ts" }, role: "jade", cwd: sub })), { CLAUDE_PROJECT_DIR: P.dir });
    expect(ok.kind).toBe("allow");
  });
  it("uses the input cwd as the project when CLAUDE_PROJECT_DIR is absent", () => {
    const d = decide(JSON.stringify(payload({ tool: "Write", input: { file_path: path.join(P.dir, "src/x.ts") }, role: "jade", cwd: P.dir })), {});
    expect(d.kind).toBe("allow");
  });
  it("a shell command run from a subfolder resolves against it", () => {
    expect(run("jade", "echo x > a.test.ts", path.join(P.dir, "src")).kind).toBe("block");
    expect(run("jade", "echo x > ok.ts", path.join(P.dir, "src")).kind).toBe("ask");
  });
  it("a project reached through a symbolic link", async () => {
    const fs = await import("node:fs");
    const via = path.join(P.root, "via-link");
    fs.symlinkSync(P.dir, via);
    for (const file of [path.join(via, "src/x.ts"), path.join(P.dir, "src/x.ts")]) {
      const d = decide(JSON.stringify(payload({ tool: "Write", input: { file_path: file }, role: "jade", cwd: via })), { CLAUDE_PROJECT_DIR: via });
      expect(d.kind, file).toBe("allow");
    }
    const bad = decide(JSON.stringify(payload({ tool: "Write", input: { file_path: path.join(P.dir, "tests/a.test.ts") }, role: "jade", cwd: via })), { CLAUDE_PROJECT_DIR: via });
    expect(bad).toMatchObject({ kind: "block", reason: expect.stringMatching(/tests\/a\.test\.ts \(never-write/) });
  });
  it("a NUL byte in a path blocks", () => {
    const d = decide(JSON.stringify(payload({ tool: "Write", input: { file_path: "src/a\u0000.ts" }, role: "jade", cwd: P.dir })), { CLAUDE_PROJECT_DIR: P.dir });
    expect(d).toMatchObject({ kind: "block", reason: expect.stringMatching(/contains a NUL byte/) });
  });
  it("control characters in a path cannot break the one-line reason", () => {
    const d = decide(JSON.stringify(payload({ tool: "Write", input: { file_path: "tests/a\nb\u2028c.test.ts" }, role: "jade", cwd: P.dir })), { CLAUDE_PROJECT_DIR: P.dir });
    expect(d.kind).toBe("block");
    expect(d.reason).not.toMatch(/[\n\r\u2028]/);
  });
});
