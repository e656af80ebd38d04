// The real programs behind the ninth red team (redteam-r9.test.ts): bash and git read these inputs
// the way the fixes there assume.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "harness-r9-real-")));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const nl = "\\\n";

describe("r9: what bash and git really do", () => {
  it("bash itself reads them so (real bash)", () => {
    const dir = fs.mkdtempSync(path.join(root, "bash-"));
    const out = execFileSync("/bin/bash", ["-c", `HOME=${dir}/home; mkdir -p $HOME; cd ${dir} && echo x >${nl}~/probe; ls $HOME`], { encoding: "utf8" });
    expect(out.trim()).toBe("probe");
  });
  it("git really takes such a folder for a repository (real git)", () => {
    const dir = path.join(root, "realgit");
    fs.mkdirSync(path.join(dir, "objects"), { recursive: true });
    fs.mkdirSync(path.join(dir, "refs"), { recursive: true });
    fs.writeFileSync(path.join(dir, "HEAD"), "ref: refs/heads/main\n");
    fs.writeFileSync(path.join(dir, "config"), "[core]\n\trepositoryformatversion = 0\n[r9]\n\tprobe = planted\n");
    const env = { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", GIT_CEILING_DIRECTORIES: root };
    expect(execFileSync("git", ["config", "--get", "r9.probe"], { cwd: dir, env, encoding: "utf8" }).trim()).toBe("planted");
  });
  it("bash really drops it from a script file (real bash)", () => {
    const f = path.join(root, "nul.sh");
    fs.writeFileSync(f, "printf '[%s]' 'a\u0000--b'\n");
    expect(execFileSync("/bin/bash", ["-c", `source ${f}`], { encoding: "utf8" })).toBe("[a--b]");
  });
  it("bash really expands it again, and &> not (real bash)", () => {
    const dir = fs.mkdtempSync(path.join(root, "dup-"));
    fs.mkdirSync(path.join(dir, "src"));
    execFileSync("/bin/bash", ["-c", "echo x >&'`echo ran`'; echo y >&src/.\\\"./up.txt; echo z &>'`echo lit`'"], { cwd: dir });
    expect(fs.readdirSync(dir).sort()).toEqual(["`echo lit`", "ran", "src", "up.txt"]);
  });
  it("bash reads 2&> as the word 2 and &> (real bash and sort)", () => {
    const dir = fs.mkdtempSync(path.join(root, "amp-"));
    fs.writeFileSync(path.join(dir, "x"), "{}\n");
    fs.writeFileSync(path.join(dir, "settings.json"), "{\"hooks\":1}\n");
    execFileSync("/bin/bash", ["-c", "sort -k 2&>/dev/null -o settings.json x"], { cwd: dir });
    expect(fs.readFileSync(path.join(dir, "settings.json"), "utf8")).toBe("{}\n");
    execFileSync("/bin/bash", ["-c", "printf '[%s]' a 2&>out"], { cwd: dir });
    expect(fs.readFileSync(path.join(dir, "out"), "utf8")).toBe("[a][2]");
  });
});
