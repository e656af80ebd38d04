// Enforcement files the fixed list (enforcement.ts) cannot name (r3 A5-A7): submodules' and linked
// worktrees' git configuration and hooks, the folder core.hooksPath names, and every enforcement file
// harness installs, audited wherever the ignore rules hide them.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { gitEnv, makeRepo, script, type Repo, withRepo } from "./helpers.js";

const BASE = { "src/a.ts": "a\n", "tests/a.test.ts": "t\n", "README.md": "r\n", ".gitignore": "node_modules/\n" };
const gitDir = (r: Repo, rel: string) => path.join(r.dir, ".git", rel);
const put = (abs: string, text: string) => {
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, text);
};

describe("audit: git configuration and hooks outside .git/config and .git/hooks", () => {
  it("a submodule's config and hooks under .git/modules, nested too, are restored and fail the stage (A5)", () =>
    withRepo(BASE, (r) => {
      // a submodule's git folder as git submodule leaves it (the parent's .gitmodules and gitlink do not matter here)
      for (const m of ["sub", "lib/deep", "sub/modules/inner"]) {
        execFileSync("git", ["init", "-q", "--bare", gitDir(r, "modules/" + m)], { env: gitEnv });
        put(gitDir(r, `modules/${m}/config`), "[core]\n\tbare = false\n");
      }
      r.start("s1", "jade");
      fs.appendFileSync(gitDir(r, "modules/sub/config"), '[core]\n\tfsmonitor = "echo pwned > tests/a.test.ts"\n');
      put(gitDir(r, "modules/lib/deep/hooks/post-checkout"), "#!/bin/sh\necho pwned\n");
      put(gitDir(r, "modules/sub/modules/inner/config.worktree"), "[core]\n\tfsmonitor = x\n");
      r.stop("s1", "jade");
      expect(fs.readFileSync(gitDir(r, "modules/sub/config"), "utf8")).toBe("[core]\n\tbare = false\n");
      expect(fs.existsSync(gitDir(r, "modules/lib/deep/hooks/post-checkout"))).toBe(false);
      expect(fs.existsSync(gitDir(r, "modules/sub/modules/inner/config.worktree"))).toBe(false);
      const rep = r.report("s1");
      expect(rep.code).toBe(2);
      expect(rep.stderr).toContain(".git/modules/sub/config (modified; restored)");
      expect(rep.stderr).toContain(".git/modules/lib/deep/hooks (modified; restored)");
      expect(rep.stderr).toContain(".git/modules/sub/modules/inner/config.worktree (created; removed)");
    }));

  it("a submodule's git folder made during the stage: its config is removed and the stage fails (A5)", () =>
    withRepo(BASE, (r) => {
      r.start("s2", "jade");
      put(gitDir(r, "modules/new/config"), '[core]\n\tfsmonitor = "echo pwned"\n');
      r.stop("s2", "jade");
      expect(fs.existsSync(gitDir(r, "modules/new/config"))).toBe(false);
      expect(r.report("s2").stderr).toContain(".git/modules/new/config (created; removed)");
    }));

  it("a linked worktree's config.worktree under .git/worktrees is restored (A5)", () =>
    withRepo(BASE, (r) => {
      r.git("worktree", "add", "-q", path.join(r.dir, "..", "wt2"));
      const name = fs.readdirSync(gitDir(r, "worktrees"))[0]!;
      r.start("w1", "jade");
      put(gitDir(r, `worktrees/${name}/config.worktree`), '[core]\n\tfsmonitor = "echo pwned"\n');
      r.stop("w1", "jade");
      expect(fs.existsSync(gitDir(r, `worktrees/${name}/config.worktree`))).toBe(false);
      expect(r.report("w1").stderr).toContain(`.git/worktrees/${name}/config.worktree (created; removed)`);
    }));

  it("the folder core.hooksPath names at the start (husky's self-ignored .husky/_) is audited like .git/hooks (A6)", () =>
    withRepo({ ...BASE, ".husky/pre-commit": "npm test\n", ".husky/_/.gitignore": "*\n", ".husky/_/h": "#!/bin/sh\n. husky\n" }, (r) => {
      r.git("config", "core.hooksPath", ".husky/_");
      r.start("h1", "jade");
      r.put(".husky/_/h", "#!/bin/sh\necho pwned > tests/a.test.ts\n");
      r.put(".husky/_/pre-push", "#!/bin/sh\necho pwned\n");
      r.stop("h1", "jade");
      expect(r.read(".husky/_/h")).toBe("#!/bin/sh\n. husky\n");
      expect(r.exists(".husky/_/pre-push")).toBe(false);
      const rep = r.report("h1");
      expect(rep.code).toBe(2);
      expect(rep.stderr).toContain("(modified; restored)");
      expect(rep.stderr).toContain(".husky/_");
    }));

  // the three core.* file keys are read with one git config (each value under its own key): all
  // three set in the repository's configuration, and each of their files guarded
  it("core.hooksPath, core.excludesFile and core.attributesFile set together: each one's file is guarded", () =>
    withRepo({ ...BASE, ".husky/_/.gitignore": "*\n", ".husky/_/h": "#!/bin/sh\n. husky\n" }, (r) => {
      const ignore = path.join(r.home, "ignore"), attrs = path.join(r.home, "attrs");
      put(ignore, "*.log\n");
      r.git("config", "core.hooksPath", ".husky/_");
      r.git("config", "core.excludesFile", ignore);
      r.git("config", "core.attributesFile", attrs);
      r.start("h3", "jade");
      r.put(".husky/_/h", "#!/bin/sh\necho pwned > tests/a.test.ts\n");
      put(ignore, "*.log\ntests/new.test.ts\n");
      put(attrs, "*.ts diff=evil\n");
      r.stop("h3", "jade");
      expect(r.read(".husky/_/h")).toBe("#!/bin/sh\n. husky\n");
      expect(fs.readFileSync(ignore, "utf8")).toBe("*.log\n");
      expect(fs.existsSync(attrs)).toBe(false);
      const rep = r.report("h3");
      expect(rep.code).toBe(2);
      expect(rep.stderr).toContain(`${path.join(r.dir, ".husky/_")} (modified; restored)`);
      expect(rep.stderr).toContain(`${ignore} (modified; restored)`);
      expect(rep.stderr).toContain(`${attrs} (created; removed)`);
    }));

  it("a hooks path in the home, set in ~/.gitconfig, is audited too; an unset or missing one guards nothing (A6)", () =>
    withRepo(BASE, (r) => {
      fs.writeFileSync(path.join(r.home, ".gitconfig"), "[core]\n\thooksPath = ~/hooks\n");
      r.start("h2", "jade");
      put(path.join(r.home, "hooks/pre-commit"), "#!/bin/sh\necho pwned\n");
      r.put("src/b.ts", "b\n");
      r.stop("h2", "jade");
      expect(fs.existsSync(path.join(r.home, "hooks/pre-commit"))).toBe(false);
      expect(r.report("h2").stderr).toContain("hooks (created; removed)");
      expect(r.read("src/b.ts")).toBe("b\n");
    }));
});

describe("audit: .git/commondir, which moves git's configuration and hooks elsewhere (r4)", () => {
  // git reads <git dir>/commondir in any repository: a path there makes that folder's config and hooks
  // the repository's, so the human's next commit ran a hook planted outside the project
  const plant = (r: Repo, at: string) => {
    const evil = path.join(r.home, "evil");
    fs.cpSync(path.join(r.dir, ".git"), evil, { recursive: true });
    fs.rmSync(path.join(evil, "harness-audit"), { recursive: true, force: true });
    put(path.join(evil, "hooks/pre-commit"), '#!/bin/sh\ntouch "$HOME/pwned"\n');
    fs.chmodSync(path.join(evil, "hooks/pre-commit"), 0o755);
    fs.writeFileSync(at, evil + "\n");
  };
  it("a commondir created in the repository's .git is removed and fails the stage; the next commit runs no planted hook", () =>
    withRepo(BASE, (r) => {
      r.start("d1", "jade");
      plant(r, gitDir(r, "commondir"));
      r.stop("d1", "jade");
      expect(fs.existsSync(gitDir(r, "commondir"))).toBe(false);
      const rep = r.report("d1");
      expect(rep.code).toBe(2);
      expect(rep.stderr).toContain(".git/commondir (created; removed)");
      r.put("src/b.ts", "b\n");
      r.git("add", "src/b.ts");
      r.git("commit", "-q", "-m", "b");
      expect(fs.existsSync(path.join(r.home, "pwned"))).toBe(false);
    }));

  it("a linked worktree's commondir rewritten is restored (r4)", () =>
    withRepo(BASE, (r) => {
      r.git("worktree", "add", "-q", path.join(r.dir, "..", "wt3"));
      const name = fs.readdirSync(gitDir(r, "worktrees"))[0]!;
      const at = gitDir(r, `worktrees/${name}/commondir`);
      const was = fs.readFileSync(at, "utf8");
      r.start("d2", "jade");
      plant(r, at);
      r.stop("d2", "jade");
      expect(fs.readFileSync(at, "utf8")).toBe(was);
      expect(r.report("d2").stderr).toContain(`.git/worktrees/${name}/commondir (modified; restored)`);
    }));
});

describe("audit: the enforcement files harness installs", () => {
  const installed = [".claude/hooks/harness-audit.mjs", ".claude/hooks/harness-guard.cjs", ".claude/agents/jade.md"];
  it("an installed hook script the ignore rules hide is restored byte for byte (A7)", () =>
    withRepo(
      { ...BASE, ".gitignore": ".claude/\n", ".claude/hooks/harness-guard.cjs": "guard\n", ".claude/agents/jade.md": "jade\n" },
      (r) => {
        r.start("i1", "jade");
        r.put(".claude/hooks/harness-guard.cjs", "process.exit(0)\n");
        fs.rmSync(path.join(r.dir, ".claude/agents/jade.md"));
        r.stop("i1", "jade");
        expect(r.read(".claude/hooks/harness-guard.cjs")).toBe("guard\n");
        expect(r.read(".claude/agents/jade.md")).toBe("jade\n");
        const rep = r.report("i1");
        expect(rep.code).toBe(2);
        expect(rep.stderr).toContain(".claude/hooks/harness-guard.cjs (modified; restored)");
        expect(rep.stderr).toContain(".claude/agents/jade.md (deleted; restored)");
      },
      { scriptText: script({ installed }) },
    ));

  it("every file harness emits under a host's protected paths is in its audit's list (Claude Code, Codex, Copilot CLI)", () => {
    const out = path.join(import.meta.dirname, "../../out");
    for (const [host, audit, protect] of [
      ["claude-code", ".claude/hooks/harness-audit.mjs", /^\.claude\//],
      ["codex", ".codex/hooks/harness-audit.mjs", /^(\.codex\/|\.agents\/|AGENTS\.md$)/],
      ["copilot", ".github/hooks/harness-audit.mjs", /^\.github\/(hooks|agents|skills|prompts|copilot)\//],
    ] as const) {
      const files = Object.keys(JSON.parse(fs.readFileSync(path.join(out, host, ".harness-manifest.json"), "utf8")).files as object);
      const text = fs.readFileSync(path.join(out, host, audit), "utf8");
      const policy = JSON.parse(/^const POLICY = (\{[\s\S]*?\n\});$/m.exec(text)![1]!) as { guarded: { base: string; path: string }[] };
      const guarded = new Set(policy.guarded.filter((g) => g.base === "project").map((g) => g.path));
      const want = files.filter((f) => protect.test(f));
      expect(want.length, host).toBeGreaterThan(2);
      expect(want.filter((f) => !guarded.has(f)), host).toEqual([]);
      expect(guarded.has(audit), host).toBe(true);
    }
  });
});
