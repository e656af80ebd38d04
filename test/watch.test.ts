// harness build --watch and install --watch as users run them: a real process, real edits, Ctrl-C.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { listFiles } from "../src/fileset.js";
import { CLI, harness, MINI_ROLES, tempDir } from "./helpers/cli.js";

/** A watching CLI: lines as they come, and a wait for the next line that matches. */
function start(args: string[], cwd: string) {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, NO_COLOR: "1" } });
  const lines: string[] = [];
  let stderr = "";
  let pending = "";
  child.stdout.on("data", (d) => {
    pending += d;
    const parts = pending.split("\n");
    pending = parts.pop()!;
    lines.push(...parts);
  });
  child.stderr.on("data", (d) => (stderr += d));
  const until = async (test: () => boolean, what: string) => {
    for (const end = Date.now() + 45_000; Date.now() < end; await new Promise((r) => setTimeout(r, 25))) if (test()) return;
    throw new Error(`timed out waiting for ${what}\nstdout:\n${lines.join("\n")}\nstderr:\n${stderr}`);
  };
  return {
    child,
    lines,
    stderr: () => stderr,
    /** Wait for the next stdout line that matches (after the n lines seen so far). */
    async next(pattern: RegExp): Promise<string> {
      const from = lines.length;
      let found = "";
      await until(() => !!(found = lines.slice(from).find((l) => pattern.test(l)) ?? ""), String(pattern));
      return found;
    },
    ready: () => until(() => stderr.includes("watching "), "the watcher"),
    exit: () => new Promise<number | null>((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.on("exit", (code) => resolve(code)))),
  };
}

const tree = (dir: string) => Object.fromEntries(listFiles(dir).map((f) => [f, readFileSync(path.join(dir, f), "utf8")]));

describe("harness build --watch", () => {
  it("rebuilds on a role edit, shows a bad edit in the compiler format, recovers, and exits 0 on Ctrl-C", async () => {
    const dir = tempDir();
    cpSync(MINI_ROLES, path.join(dir, "roles"), { recursive: true });
    const w = start(["build", "--watch"], dir);
    try {
      await w.ready();
      expect(w.lines.join("\n")).toMatch(/^claude-code\s+out\/claude-code: \d+ files, \d+ written/m);
      const writer = path.join(dir, "roles/writer.md");
      const good = readFileSync(writer, "utf8");

      // One line per rebuild, with its time, naming what changed and what was written.
      let seen = w.next(/rebuilt in/);
      writeFileSync(writer, `${good}\nKeep sentences short.\n`);
      expect(await seen).toMatch(/^\d\d:\d\d:\d\d rebuilt in \d+ ms \(writer\.md\): \d+ written, 0 removed in /);
      // Byte for byte what a fresh build of the same roles writes.
      const fresh = tempDir();
      cpSync(path.join(dir, "roles"), path.join(fresh, "roles"), { recursive: true });
      expect((await harness(["build", "-q"], fresh)).code).toBe(0);
      expect(tree(path.join(dir, "out"))).toEqual(tree(path.join(fresh, "out")));

      // A broken role: the error in the compiler format, nothing written, the watcher stays.
      const before = tree(path.join(dir, "out"));
      seen = w.next(/rebuild failed/);
      writeFileSync(writer, good.replace(/^---\n/, ""));
      expect(await seen).toMatch(/rebuild failed in \d+ ms: 1 error\(s\); nothing was written/);
      expect(w.stderr()).toMatch(/^roles\/writer\.md:1:1: error E_NO_FRONT_MATTER /m);
      expect(tree(path.join(dir, "out"))).toEqual(before);

      // Fixed: it recovers; the same text as before the break writes nothing new.
      seen = w.next(/rebuilt in/);
      writeFileSync(writer, `${good}\nKeep sentences short.\n`);
      expect(await seen).toMatch(/rebuilt in \d+ ms \(writer\.md\): no change$/);

      // A burst of saves is one rebuild (debounced).
      const count = w.lines.length;
      seen = w.next(/rebuilt in/);
      for (let i = 0; i < 5; i++) writeFileSync(writer, `${good}\nBurst ${i}.\n`);
      await seen;
      await new Promise((r) => setTimeout(r, 400));
      expect(w.lines.slice(count).filter((l) => /rebuil/.test(l))).toHaveLength(1);
      expect(readFileSync(path.join(dir, "out/claude-code/.claude/agents/writer.md"), "utf8")).toContain("Burst 4.");
    } finally {
      w.child.kill("SIGINT");
    }
    expect(await w.exit()).toBe(0);
    expect(w.stderr()).toMatch(/stopped watching\n$/);
    expect(readdirSync(path.join(dir, "out")).filter((n) => n.startsWith(".harness-staging"))).toEqual([]);
  }, 120_000);

  it("harness install --watch keeps the installed files in step", async () => {
    const dir = tempDir();
    cpSync(MINI_ROLES, path.join(dir, "roles"), { recursive: true });
    mkdirSync(path.join(dir, ".git"));
    const w = start(["install", "--watch", "--host", "claude-code"], dir);
    try {
      await w.ready();
      const agent = path.join(dir, ".claude/agents/writer.md");
      expect(existsSync(agent)).toBe(true);
      const seen = w.next(/rebuilt in/);
      writeFileSync(path.join(dir, "roles/writer.md"), `${readFileSync(path.join(dir, "roles/writer.md"), "utf8")}\nNew rule for the writer.\n`);
      expect(await seen).toMatch(/rebuilt in \d+ ms \(writer\.md\): installed into /);
      expect(readFileSync(agent, "utf8")).toContain("New rule for the writer.");
    } finally {
      w.child.kill("SIGINT");
    }
    expect(await w.exit()).toBe(0);
    expect((await harness(["check", "--installed"], dir)).code).toBe(0);
  }, 120_000);
});
