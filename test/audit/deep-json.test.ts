// r6: the audit's own reading of what a stage left. ~/.claude.json is compared without the keys Claude Code rewrites itself, through a key-sorting
// copy of the parsed JSON. A value nested 200000 deep (written by a stage's code) overflowed that copy's
// recursion: the stop threw before it put back ~/.claude.json, the guarded files after it or the tree,
// and a fresh snapshot at the next stage's start took all of it as the state to keep.
import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { withRepo } from "./helpers.js";

const BASE = { "src/a.ts": "a\n", "tests/a.test.ts": "t\n", ".gitignore": "node_modules/\n" };

it("JSON nested too deep to compare in ~/.claude.json is a change: put back, with the guarded files after it and the tree", () =>
  withRepo(BASE, (r) => {
    const cj = path.join(r.home, ".claude.json");
    const before = JSON.stringify({ numStartups: 1 });
    fs.writeFileSync(cj, before);
    r.start("d1", "jade");
    const deep = "[".repeat(200000) + "]".repeat(200000);
    fs.writeFileSync(cj, `{"numStartups":2,"mcpServers":{"evil":{"command":"/tmp/evil"}},"x":${deep}}`);
    fs.writeFileSync(path.join(r.home, ".npmrc"), "node-options=--require=/tmp/evil.js\n");
    r.put("README.md", "out of scope\n");
    r.stop("d1", "jade");
    const rep = r.report("d1");
    expect(rep.code).toBe(2);
    expect(rep.stderr).toContain("~/.claude.json (modified; restored)");
    expect(rep.stderr).toContain("~/.npmrc (created; removed)");
    expect(fs.readFileSync(cj, "utf8")).toBe(before);
    expect(fs.existsSync(path.join(r.home, ".npmrc"))).toBe(false);
    expect(r.exists("README.md")).toBe(false);
  }));

it("a link a stage's code put in place of the blob folder is never pruned through: the folder it names keeps its files", () =>
  withRepo(BASE, (r) => {
    const victim = path.join(r.home, "keep");
    fs.mkdirSync(victim);
    fs.writeFileSync(path.join(victim, "notes.txt"), "mine\n");
    r.start("p1", "jade");
    const blobs = path.join(r.dir, ".git/harness-audit/blobs");
    fs.rmSync(blobs, { recursive: true, force: true });
    fs.symlinkSync(victim, blobs);
    r.put("src/b.ts", "b\n");
    r.stop("p1", "jade");
    r.report("p1");
    expect(fs.readFileSync(path.join(victim, "notes.txt"), "utf8")).toBe("mine\n");
  }));

it("a 600 MB settings file and git configuration a stage wrote are changes like any other: put back, with the files after them and the tree", () =>
  withRepo(BASE, (r) => {
    const settings = path.join(r.home, ".claude/settings.json");
    const gitconfig = path.join(r.home, ".gitconfig");
    fs.mkdirSync(path.dirname(settings), { recursive: true });
    fs.writeFileSync(settings, "{}\n");
    fs.writeFileSync(gitconfig, "[user]\n\tname = u\n");
    r.start("b1", "jade");
    // sparse: no memory until read; its text was over the longest string node makes
    fs.writeFileSync(settings, '{"hooks":{"Stop":[{"command":"x"}]}');
    fs.truncateSync(settings, 600 << 20);
    fs.writeFileSync(gitconfig, "[include]\n\tpath = /tmp/x\n");
    fs.truncateSync(gitconfig, 600 << 20);
    fs.writeFileSync(path.join(r.home, ".npmrc"), "node-options=--require=/tmp/evil.js\n");
    r.put("README.md", "out of scope\n");
    r.stop("b1", "jade");
    const rep = r.report("b1");
    expect(rep.code).toBe(2);
    for (const shown of ["~/.claude/settings.json", "~/.gitconfig"]) expect(rep.stderr).toMatch(new RegExp(`${shown.replaceAll(".", "\\.")} \\(replaced by something too large[^\\n]*; restored\\)`));
    expect(fs.readFileSync(settings, "utf8")).toBe("{}\n");
    expect(fs.readFileSync(gitconfig, "utf8")).toBe("[user]\n\tname = u\n");
    expect(fs.existsSync(path.join(r.home, ".npmrc"))).toBe(false);
    expect(r.exists("README.md")).toBe(false);
  }), 120000);
