// r6: what the audit reads of what a stage left must never throw out of the stop before everything is
// put back (the stage failed as "could not run", nothing restored, and a fresh snapshot at the next
// start took it all as the state to keep): ~/.claude.json's volatile-key comparison of JSON nested
// 200000 deep overflowed the stack; a 600 MB settings file's text was over node's longest string; an
// unreadable real index failed git. And the blob prune never removes through a link.
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

it("a real index a stage's code made unreadable is put back from the start, and the tree is still audited", () =>
  withRepo(BASE, (r) => {
    const real = path.join(r.dir, ".git/index");
    const before = fs.readFileSync(real);
    r.start("i1", "jade");
    fs.writeFileSync(real, "DIRC garbage");
    r.put("tests/a.test.ts", "changed by jade's code\n");
    r.stop("i1", "jade");
    const rep = r.report("i1");
    expect(rep.code).toBe(2);
    expect(rep.stderr).toContain(".git/index (staged changes; put back)");
    expect(rep.stderr).toContain("tests/a.test.ts (modified; restored)");
    expect(fs.readFileSync(real).equals(before)).toBe(true);
    expect(r.read("tests/a.test.ts")).toBe("t\n");
  }));
