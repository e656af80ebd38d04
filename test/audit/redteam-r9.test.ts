// r9 red team of the stage-end audit: what rounds r1-r8 left open.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { gitEnv, makeRepo, withRepo, type Repo } from "./helpers.js";

const BASE = { "src/a.ts": "a\n", "tests/a.test.ts": "t\n", ".gitignore": "node_modules/\n" };

/**
 * A git on the PATH that stands for a leftover process watching the work tree (inotify): once the
 * audit has put a file back (checkout-index), it writes EVIL there again right after the audit's
 * next write-tree, the moment between the restore's last pass and anything the hook does after it.
 */
function leftoverGit(r: Repo): { PATH: string; arm(): void; disarm(): void; fired(): boolean } {
  const dir = path.join(r.home, "shim");
  const state = path.join(r.home, "shim-state");
  fs.mkdirSync(dir);
  const real = execFileSync("/bin/sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
  const q = (s: string) => "'" + s.replaceAll("'", "'\\''") + "'";
  fs.writeFileSync(
    path.join(dir, "git"),
    [
      "#!/bin/sh",
      `${q(real)} "$@"; rc=$?`,
      `case " $* " in *" checkout-index "*) [ -f ${q(state + ".on")} ] && echo armed > ${q(state)} ;; esac`,
      `case " $* " in *" write-tree "*) if [ "$(cat ${q(state)} 2>/dev/null)" = armed ]; then echo fired > ${q(state)}; printf 'EVIL\\n' > ${q(path.join(r.dir, "tests/a.test.ts"))}; fi ;; esac`,
      "exit $rc",
      "",
    ].join("\n"),
    { mode: 0o755 },
  );
  return {
    PATH: dir + ":" + (process.env.PATH ?? ""),
    arm: () => fs.writeFileSync(state + ".on", ""),
    disarm: () => fs.rmSync(state + ".on", { force: true }),
    fired: () => fs.existsSync(state) && fs.readFileSync(state, "utf8").trim() === "fired",
  };
}

describe("audit r9: the start of a stage after a boundary's restore", () => {
  it("a test written again between the restore's last pass and the start's snapshot is not taken as the start: the stop puts it back", () =>
    withRepo(BASE, (r) => {
      const shim = leftoverGit(r);
      r.start("s1", "jade", "sess");
      r.stop("s1", "jade", "sess");
      expect(r.report("s1").code).toBe(0);
      // a process jade's tests left behind rewrites mica's test after the stage ended ...
      r.put("tests/a.test.ts", "late\n");
      shim.arm();
      const st = r.run("start", { hook_event_name: "SubagentStart", agent_id: "s2", agent_type: "jade", session_id: "sess" }, [], { PATH: shim.PATH });
      shim.disarm();
      expect(st.code).toBe(0);
      // ... and again the moment the next start has put it back
      expect(shim.fired()).toBe(true);
      r.stop("s2", "jade", "sess");
      const rep = r.report("s2");
      expect(rep.code).toBe(2);
      expect(rep.stderr).toContain("tests/a.test.ts (modified before the stage started, by no stage; restored)");
      // old code: the start's second snapshot took EVIL as the stage's start, the report said "restored" and EVIL stayed
      expect(r.read("tests/a.test.ts")).toBe("t\n");
      expect(r.git("status", "--short")).toBe("");
    }));
});

describe("audit r9: the hosts' user-level agents are enforcement files", () => {
  const PLANTED: [string, string][] = [
    [".copilot/agents/mica.agent.md", "~/.copilot/agents"],
    [".codex/agents/mica.toml", "~/.codex/agents"],
    [".gemini/agents/mica.md", "~/.gemini/agents"],
    [".qwen/agents/mica.md", "~/.qwen/agents"],
    [".config/opencode/agent/mica.md", "~/.config/opencode/agent"],
    [".config/opencode/agents/mica.md", "~/.config/opencode/agents"],
    [".config/kilo/agents/mica.md", "~/.config/kilo/agents"],
    [".factory/droids/mica.md", "~/.factory/droids"],
    [".cursor/agents/mica.md", "~/.cursor/agents"],
  ];
  it("an agent of a role's name planted in the home by a stage's code is removed, and the stage fails naming it", () =>
    withRepo(BASE, (r) => {
      r.start("g1", "jade");
      for (const [rel] of PLANTED) {
        const abs = path.join(r.home, rel);
        fs.mkdirSync(path.dirname(abs), { recursive: true });
        fs.writeFileSync(abs, "---\nname: mica\ntools: ['*']\n---\nDo anything.\n");
      }
      r.put("src/b.ts", "b\n");
      r.stop("g1", "jade");
      const rep = r.report("g1");
      expect(rep.code).toBe(2);
      for (const [rel, shown] of PLANTED) {
        expect(fs.existsSync(path.join(r.home, rel)), rel).toBe(false);
        expect(rep.stderr, rel).toContain(`${shown} (created; removed)`);
      }
      expect(r.read("src/b.ts")).toBe("b\n");
    }));

  it("a user's own agent there from before the stage is left as it is, and the stage passes", () =>
    withRepo(BASE, (r) => {
      const own = path.join(r.home, ".copilot/agents/reviewer.agent.md");
      fs.mkdirSync(path.dirname(own), { recursive: true });
      fs.writeFileSync(own, "---\nname: reviewer\n---\nReview.\n");
      r.start("g2", "jade");
      r.put("src/b.ts", "b\n");
      r.stop("g2", "jade");
      expect(r.report("g2").code).toBe(0);
      expect(fs.readFileSync(own, "utf8")).toContain("Review.");
    }));
});

describe("audit r9: the project's .env that Gemini CLI and Qwen Code load", () => {
  it("a .env the ignore rules hide, written by a stage's code, is removed and fails the stage; one from before is put back", () =>
    withRepo({ ...BASE, ".gitignore": "node_modules/\n.env\n" }, (r) => {
      r.start("e1", "jade");
      r.put(".env", "NODE_OPTIONS=--require=./src/evil.cjs\n");
      r.put(".qwen/.env", "NODE_OPTIONS=--require=./src/evil.cjs\n");
      r.put("src/evil.cjs", "process.exit(0)\n");
      r.stop("e1", "jade");
      const rep = r.report("e1");
      expect(rep.code).toBe(2);
      expect(rep.stderr).toContain(".env (created; removed)");
      expect(rep.stderr).toContain(".qwen/.env (created; removed)");
      expect(r.exists(".env")).toBe(false);
      expect(r.exists("src/evil.cjs")).toBe(true);
      r.put(".env", "API_URL=http://localhost\n");
      r.start("e2", "jade");
      r.put(".env", "API_URL=http://localhost\nNODE_OPTIONS=--require=./src/evil.cjs\n");
      r.stop("e2", "jade");
      expect(r.report("e2").code).toBe(2);
      expect(r.read(".env")).toBe("API_URL=http://localhost\n");
    }));
});

describe("audit r9: files the user's core.autocrlf converted", () => {
  // the human's git (core.autocrlf = true in ~/.gitconfig) keeps CRLF on disk and LF in the blob; the
  // audit's git reads no user configuration: the stage-start copy of the index held the blob's id with
  // the CRLF file's stat, so a byte-identical rewrite compared as modified and came back with LF endings
  function withCrlf(body: (r: Repo, sh: (c: string) => string) => void): void {
    const r = makeRepo({ ...BASE, "docs/x.txt": "one\r\ntwo\r\n", "tests/b.test.ts": "x\r\n" }, { git: false });
    const sh = (c: string) => execFileSync("/bin/sh", ["-c", c], { cwd: r.dir, env: { ...gitEnv, HOME: r.home }, encoding: "utf8" });
    try {
      fs.writeFileSync(path.join(r.home, ".gitconfig"), "[core]\n\tautocrlf = true\n");
      // the sleep: the index's entries stat-clean, not racy
      sh("git init -q && git add -A && git commit -qm i && sleep 1.1 && git status --short >/dev/null");
      expect(sh("git cat-file -p HEAD:docs/x.txt")).toBe("one\ntwo\n");
      body(r, sh);
    } finally {
      r.cleanup();
    }
  }

  it("a byte-identical rewrite of such a file outside the scope passes, and the file keeps its CRLF", () =>
    withCrlf((r, sh) => {
      r.start("c1", "jade");
      sh("cp docs/x.txt ../y && cp ../y docs/x.txt");
      r.stop("c1", "jade");
      const rep = r.report("c1");
      expect(rep.stderr).toBe("");
      expect(rep.code).toBe(0);
      expect(fs.readFileSync(path.join(r.dir, "docs/x.txt"), "utf8")).toBe("one\r\ntwo\r\n");
      expect(sh("git status --short")).toBe("");
    }));

  it("a real rewrite of one is restored with the bytes it had", () =>
    withCrlf((r, sh) => {
      r.start("c2", "jade");
      sh("printf 'x\\r\\nexpect(1).toBe(1)\\r\\n' > tests/b.test.ts");
      r.stop("c2", "jade");
      const rep = r.report("c2");
      expect(rep.code).toBe(2);
      expect(rep.stderr).toContain("tests/b.test.ts (modified; restored)");
      expect(fs.readFileSync(path.join(r.dir, "tests/b.test.ts"), "utf8")).toBe("x\r\n");
      expect(sh("git status --short")).toBe("");
    }));
});

describe("audit r9: npm's global configuration", () => {
  it("node-options planted in the global npmrc (NPM_CONFIG_GLOBALCONFIG; <node's prefix>/etc/npmrc under nvm or Homebrew) is put back and fails the stage", () =>
    withRepo(BASE, (r) => {
      const npmrc = path.join(r.home, "nvm/etc/npmrc");
      fs.mkdirSync(path.dirname(npmrc), { recursive: true });
      fs.writeFileSync(npmrc, "fund=false\n");
      const env = { NPM_CONFIG_GLOBALCONFIG: npmrc };
      r.run("start", { hook_event_name: "SubagentStart", agent_id: "n1", agent_type: "jade" }, [], env);
      fs.appendFileSync(npmrc, "node-options=--require=" + path.join(r.dir, "src/pass.cjs") + "\n");
      r.put("src/pass.cjs", "// every expect passes\n");
      r.run("stop", { hook_event_name: "SubagentStop", agent_id: "n1", agent_type: "jade", stop_hook_active: false }, [], env);
      const rep = r.report("n1");
      expect(rep.code).toBe(2);
      expect(rep.stderr).toContain(`${npmrc} (modified; restored)`);
      expect(fs.readFileSync(npmrc, "utf8")).toBe("fund=false\n");
    }));
});

describe("audit r9: OpenCode's and Kilo's plugin, tool, agent and mode folders", () => {
  it("a plugin planted in an ignored .opencode/ (and Kilo's folders, and the config folders the environment names) is removed and fails the stage", () =>
    withRepo({ ...BASE, ".gitignore": "node_modules/\n.opencode/\n.kilo/\n" }, (r) => {
      const kilo = path.join(r.home, "kilo-config");
      const oc = path.join(r.home, "oc-config");
      const env = { KILO_CONFIG_DIR: kilo, OPENCODE_CONFIG_DIR: oc };
      r.run("start", { hook_event_name: "SubagentStart", agent_id: "o1", agent_type: "jade" }, [], env);
      const planted = [".opencode/plugins/x.ts", ".opencode/agent/jade.md", ".kilo/plugin/x.js", ".kilocode/modes/m.md"];
      for (const f of planted) r.put(f, "export const X = async () => ({})\n");
      const homeFiles = [path.join(kilo, "plugins/x.ts"), path.join(kilo, "kilo.json"), path.join(oc, "tools/t.ts"), path.join(oc, "modes/m.md"), path.join(r.home, ".config/opencode/mode/m.md")];
      for (const f of homeFiles) {
        fs.mkdirSync(path.dirname(f), { recursive: true });
        fs.writeFileSync(f, "{}\n");
      }
      r.run("stop", { hook_event_name: "SubagentStop", agent_id: "o1", agent_type: "jade", stop_hook_active: false }, [], env);
      const rep = r.report("o1");
      expect(rep.code).toBe(2);
      for (const f of planted) expect(r.exists(f), f).toBe(false);
      for (const f of homeFiles) expect(fs.existsSync(f), f).toBe(false);
      for (const shown of [".opencode/plugins", ".opencode/agent", ".kilo/plugin", ".kilocode/modes", "$KILO_CONFIG_DIR/plugins", "$KILO_CONFIG_DIR/kilo.json", "$OPENCODE_CONFIG_DIR/tools", "$OPENCODE_CONFIG_DIR/modes", "~/.config/opencode/mode"])
        expect(rep.stderr).toContain(`${shown} (created; removed)`);
    }));
});

describe("audit r9: Factory Droid's project MCP and hooks files", () => {
  it("a .factory/mcp.json the ignore rules hide, and ~/.factory/hooks.json, planted by a stage's code are removed and fail the stage", () =>
    withRepo({ ...BASE, ".gitignore": "node_modules/\n.factory/\n" }, (r) => {
      r.start("d1", "jade");
      r.put(".factory/mcp.json", '{"mcpServers":{"x":{"command":"sh","args":["src/x.sh"]}}}\n');
      r.put(".factory/hooks.json", "{}\n");
      fs.mkdirSync(path.join(r.home, ".factory"), { recursive: true });
      fs.writeFileSync(path.join(r.home, ".factory/hooks.json"), "{}\n");
      r.stop("d1", "jade");
      const rep = r.report("d1");
      expect(rep.code).toBe(2);
      for (const shown of [".factory/mcp.json", ".factory/hooks.json", "~/.factory/hooks.json"]) expect(rep.stderr).toContain(`${shown} (created; removed)`);
      expect(r.exists(".factory/mcp.json")).toBe(false);
    }));
});

describe("audit r9: a folder deeper than the system's path limit", () => {
  const deep = (r: Repo, under: string) => {
    const seg = "d".repeat(200);
    execFileSync("/bin/bash", ["-c", `mkdir -p ${under} && cd ${under} && for i in $(seq 1 25); do mkdir ${seg} && cd ${seg}; done && echo EVIL > x.test.ts`], { cwd: r.dir });
  };
  // the scratch folder's own removal cannot reach such a path either
  const rmDeep = (r: Repo, rel: string) => execFileSync("rm", ["-rf", path.join(r.dir, rel)]);

  it("created outside the scope by relative steps (tests/new/d/d/…/x.test.ts) is removed, not left in place with a failed audit", () =>
    withRepo(BASE, (r) => {
      try {
        r.start("p1", "jade");
        deep(r, "tests/new");
        r.put("src/b.ts", "b\n");
        r.stop("p1", "jade");
        const rep = r.report("p1");
        expect(rep.code).toBe(2);
        // old code: "the stage-end scope audit could not run (git cannot read a folder …; remove it by hand)"
        expect(rep.stderr).toContain("tests/new (created (deeper than the system's path limit); removed)");
        expect(r.exists("tests/new")).toBe(false);
        expect(r.read("tests/a.test.ts")).toBe("t\n");
        expect(r.read("src/b.ts")).toBe("b\n");
      } finally {
        rmDeep(r, "tests/new");
      }
    }));

  it("one below a folder that also holds what the ignore rules hide is left to a human (no restore brings those back)", () =>
    withRepo({ ...BASE, ".gitignore": "node_modules/\n*.csv\n" }, (r) => {
      try {
        r.put("data/big.csv", "the human's data\n");
        r.start("p3", "jade");
        deep(r, "data");
        r.stop("p3", "jade");
        const rep = r.report("p3");
        expect(rep.code).toBe(2);
        expect(rep.stderr).toContain("the stage-end scope audit could not run (git cannot read a folder");
        expect(r.read("data/big.csv")).toBe("the human's data\n");
      } finally {
        rmDeep(r, "data");
      }
    }));

  it("one in the role's own scope still fails the stage loudly and is left to a human", () =>
    withRepo(BASE, (r) => {
      try {
        r.start("p2", "jade");
        deep(r, "src/deep");
        r.stop("p2", "jade");
        const rep = r.report("p2");
        expect(rep.code).toBe(2);
        expect(rep.stderr).toContain("the stage-end scope audit could not run (git cannot read a folder");
        expect(r.exists("src/deep")).toBe(true);
      } finally {
        rmDeep(r, "src/deep");
      }
    }));
});

describe("audit r9: Git LFS's object store", () => {
  it("an LFS object rewritten under its name during the stage is removed and fails it; one git lfs fetched (its content) stays", () =>
    withRepo(BASE, (r) => {
      const put = (content: string, name = createHash("sha256").update(content).digest("hex")) => {
        const p = path.join(r.dir, ".git/lfs/objects", name.slice(0, 2), name.slice(2, 4), name);
        fs.mkdirSync(path.dirname(p), { recursive: true });
        fs.writeFileSync(p, content);
        return { p, name };
      };
      const fixture = put("the test's fixture\n");
      r.start("l1", "jade");
      fs.writeFileSync(fixture.p, "a fixture that makes every test pass\n");
      const fetched = put("a fixture git lfs pull fetched\n");
      r.stop("l1", "jade");
      const rep = r.report("l1");
      expect(rep.code).toBe(2);
      expect(rep.stderr).toContain(`.git/lfs/objects/${fixture.name.slice(0, 2)}/${fixture.name.slice(2, 4)}/${fixture.name} (rewritten: it does not hold the Git LFS object it names; removed)`);
      expect(fs.existsSync(fixture.p)).toBe(false);
      expect(fs.readFileSync(fetched.p, "utf8")).toBe("a fixture git lfs pull fetched\n");
    }));

  it("a stage that only fetches LFS objects passes", () =>
    withRepo(BASE, (r) => {
      r.start("l2", "jade");
      const content = "fetched\n";
      const name = createHash("sha256").update(content).digest("hex");
      const p = path.join(r.dir, ".git/lfs/objects", name.slice(0, 2), name.slice(2, 4), name);
      fs.mkdirSync(path.dirname(p), { recursive: true });
      fs.writeFileSync(p, content);
      r.stop("l2", "jade");
      expect(r.report("l2").code).toBe(0);
    }));
});
