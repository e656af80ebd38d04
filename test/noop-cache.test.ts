// The cached no-op answers only where the full run would answer the same. In-process, so a property
// run costs milliseconds: random edits to the roles, to out/ and to what the compiler probes, then
// for a random command line the cached answer (when there is one) must equal the full run's output
// and exit code byte for byte. The CLI tests at the end prove the loader path (dist/cli/replay.cjs).
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOSTS } from "../adapters/index.js";
import { build } from "../src/commands/build.js";
import { check } from "../src/commands/check.js";
import { cachedAnswer, BUILD_ID } from "../src/cache/replay.js";
import { listFiles } from "../src/fileset.js";
import { CLI, harnessProcess, MINI_ROLES, tempDir } from "./helpers/cli.js";
import { spawnSync } from "node:child_process";

const BUILD = "test-build-id";
const COMMANDS: string[][] = [["build"], ["build", "-q"], ["build", "-v"], ["check"], ["check", "-q"], ["check", "--json"], ["build", "--host", "claude-code"], ["check", "--strict"]];

/** The command line as cli.ts would run it, in-process: exit code 2 for input/usage errors, and everything printed. */
async function full(argv: string[], record: boolean): Promise<{ code: number; printed: [1 | 2, string][] }> {
  const saved = process.env.HARNESS_NO_CACHE;
  if (!record) process.env.HARNESS_NO_CACHE = "1";
  try {
    const flags = new Set(argv.slice(1));
    const host = argv.includes("--host") ? [argv[argv.indexOf("--host") + 1]!] : undefined;
    const common = { registry: HOSTS, roles: "roles", out: "out", host, strict: flags.has("--strict"), quiet: flags.has("-q"), argv };
    let code = 0;
    const { lines } = await keepOutputAsync(async () => {
      try {
        code = argv[0] === "build" ? await build({ ...common, verbose: flags.has("-v") }) : await check({ ...common, json: flags.has("--json") });
      } catch (error) {
        if (!(error instanceof Error) || !/InputError|UsageError/.test(error.constructor.name)) throw error;
        code = 2;
      }
    });
    return { code, printed: lines };
  } finally {
    if (saved === undefined) delete process.env.HARNESS_NO_CACHE;
    else process.env.HARNESS_NO_CACHE = saved;
  }
}

/** Everything written to stdout and stderr while fn runs, in order, and not shown. */
async function keepOutputAsync(fn: () => Promise<void>): Promise<{ lines: [1 | 2, string][] }> {
  const lines: [1 | 2, string][] = [];
  const [o, e] = [process.stdout.write, process.stderr.write];
  process.stdout.write = ((text: string) => lines.push([1, String(text)]) > 0) as typeof o;
  process.stderr.write = ((text: string) => lines.push([2, String(text)]) > 0) as typeof e;
  try {
    await fn();
  } finally {
    process.stdout.write = o;
    process.stderr.write = e;
  }
  return { lines };
}

type Edit = (dir: string, pick: number) => void;
const pickFile = (root: string, pick: number) => {
  const files = existsSync(root) ? listFiles(root) : [];
  return files.length ? path.join(root, files[pick % files.length]!) : null;
};
const EDITS: Record<string, Edit> = {
  "append to a role": (d, n) => {
    const f = pickFile(path.join(d, "roles"), n);
    if (f) writeFileSync(f, `${readFileSync(f, "utf8")}\nMore words.\n`);
  },
  "rewrite a role unchanged": (d, n) => {
    const f = pickFile(path.join(d, "roles"), n);
    if (f) writeFileSync(f, readFileSync(f));
  },
  nothing: () => {},
  "touch a role": (d, n) => {
    const f = pickFile(path.join(d, "roles"), n);
    if (f) utimesSync(f, new Date(), new Date(Date.now() + 5000));
  },
  "touch an output": (d, n) => {
    const f = pickFile(path.join(d, "out"), n);
    if (f) utimesSync(f, new Date(), new Date(Date.now() + 5000));
  },
  "comment in pipeline.yaml": (d) => writeFileSync(path.join(d, "roles/pipeline.yaml"), `${readFileSync(path.join(d, "roles/pipeline.yaml"), "utf8")}# note\n`),
  "break pipeline.yaml": (d) => writeFileSync(path.join(d, "roles/pipeline.yaml"), `${readFileSync(path.join(d, "roles/pipeline.yaml"), "utf8")}stages: [\n`),
  "extra file in roles": (d) => writeFileSync(path.join(d, "roles/notes.txt"), "x\n"),
  "remove a role": (d, n) => {
    const roles = readdirSync(path.join(d, "roles")).filter((f) => f.endsWith(".md"));
    if (roles.length) rmSync(path.join(d, "roles", roles[n % roles.length]!));
  },
  "edit an output": (d, n) => {
    const f = pickFile(path.join(d, "out"), n);
    if (f) writeFileSync(f, `${readFileSync(f, "utf8")}x`);
  },
  "rewrite an output unchanged": (d, n) => {
    const f = pickFile(path.join(d, "out"), n);
    if (f) writeFileSync(f, readFileSync(f));
  },
  "delete an output": (d, n) => {
    const f = pickFile(path.join(d, "out"), n);
    if (f) rmSync(f);
  },
  "flip a mode": (d, n) => {
    const f = pickFile(path.join(d, "out"), n);
    if (f) chmodSync(f, statSync(f).mode & 0o111 ? 0o644 : 0o755);
  },
  "stray file": (d) => {
    mkdirSync(path.join(d, "out/claude-code"), { recursive: true });
    writeFileSync(path.join(d, "out/claude-code/stray.txt"), "mine\n");
  },
  "orphaned host": (d) => {
    mkdirSync(path.join(d, "out/old"), { recursive: true });
    writeFileSync(path.join(d, "out/old/.harness-manifest.json"), '{"generator":"harness","host":"codex","files":{}}\n');
  },
  "folder where a file is named": (d) => mkdirSync(path.join(d, "drafts/outline.md"), { recursive: true }),
  "ignore out/": (d) => writeFileSync(path.join(d, ".gitignore"), "out/\n"),
  "revert everything": (d) => restore(d),
};

let base: string; // the project after its first build
function restore(dir: string): void {
  for (const p of ["roles", "out", "drafts", ".gitignore"]) rmSync(path.join(dir, p), { recursive: true, force: true });
  for (const p of ["roles", "out"]) cpSync(path.join(base, p), path.join(dir, p), { recursive: true });
}

const cwd0 = process.cwd();
beforeAll(async () => {
  (globalThis as Record<symbol, unknown>)[BUILD_ID] = BUILD;
  base = tempDir("harness-noop-base-");
  cpSync(MINI_ROLES, path.join(base, "roles"), { recursive: true });
  process.chdir(base);
  await full(["build", "-q"], false);
});
afterAll(() => {
  process.chdir(cwd0);
  delete (globalThis as Record<symbol, unknown>)[BUILD_ID];
});

describe("the cached no-op", () => {
  it("gives the full run's verdict, byte for byte, after random edits to inputs and outputs", async () => {
    const dir = tempDir("harness-noop-");
    mkdirSync(path.join(dir, "node_modules"));
    spawnSync("git", ["init", "-q"], { cwd: dir });
    process.chdir(dir);
    const tally = { hits: 0, misses: 0 };
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.tuple(fc.constantFrom(...Object.keys(EDITS)), fc.nat(50), fc.nat(COMMANDS.length - 1)), { minLength: 1, maxLength: 4 }),
          async (steps) => {
            restore(dir);
            rmSync(path.join(dir, "node_modules/.cache"), { recursive: true, force: true });
            for (const [edit, n, c] of steps) {
              const argv = COMMANDS[c]!;
              await full(argv, true); // the entry for the state before the edit (a failed run records none)
              EDITS[edit]!(dir, n);
              const cached = cachedAnswer(argv, BUILD);
              // A miss runs in full anyway; only an answer needs the full run to compare with.
              if (cached) {
                tally.hits++;
                expect({ code: cached.code, printed: cached.printed }).toEqual(await full(argv, false));
              } else tally.misses++;
            }
          },
        ),
        { numRuns: 40 },
      );
    } finally {
      process.chdir(base);
    }
    // Both sides were exercised: edits that change nothing are answered, the rest are not.
    expect(tally.hits).toBeGreaterThan(12);
    expect(tally.misses).toBeGreaterThan(12);
  }, 120_000);

  it("answers nothing without node_modules/ in the working directory, or with HARNESS_NO_CACHE", async () => {
    const dir = tempDir("harness-noop-none-");
    cpSync(path.join(base, "roles"), path.join(dir, "roles"), { recursive: true });
    process.chdir(dir);
    try {
      await full(["check"], true);
      expect(cachedAnswer(["check"], BUILD)).toBeNull();
      mkdirSync(path.join(dir, "node_modules"));
      await full(["build"], true);
      await full(["check"], true);
      expect(cachedAnswer(["check"], BUILD)).not.toBeNull();
      process.env.HARNESS_NO_CACHE = "1";
      expect(cachedAnswer(["check"], BUILD)).toBeNull();
    } finally {
      delete process.env.HARNESS_NO_CACHE;
      process.chdir(base);
    }
  });
});

describe("the cached no-op through the CLI", () => {
  it("prints what the full run prints, and a changed output is checked in full", async () => {
    if (!existsSync(CLI)) throw new Error("run `npm run build` first");
    const dir = tempDir("harness-noop-cli-");
    cpSync(MINI_ROLES, path.join(dir, "roles"), { recursive: true });
    mkdirSync(path.join(dir, "node_modules"));
    const report = { HARNESS_CODE_CACHE_REPORT: "1" };
    expect(harnessProcess(["build"], dir).code).toBe(0);
    for (const argv of [["build"], ["check"], ["check", "-q"]]) {
      const uncached = harnessProcess(argv, dir, { HARNESS_NO_CACHE: "1" });
      harnessProcess(argv, dir); // records
      const cached = harnessProcess(argv, dir, report);
      expect(cached.stderr).toContain("harness: answered by the cached no-op");
      expect({ ...cached, stderr: cached.stderr.replace("harness: answered by the cached no-op\n", "") }).toEqual(uncached);
    }
    const guard = path.join(dir, "out/claude-code/.claude/hooks/harness-guard.cjs");
    writeFileSync(guard, `${readFileSync(guard, "utf8")}// edited\n`);
    const after = harnessProcess(["check"], dir, report);
    expect(after.code).toBe(1);
    expect(after.stderr).not.toContain("answered by the cached no-op");
    expect(after.stderr).toMatch(/out\/claude-code\/\.claude\/hooks\/harness-guard\.cjs: error E_DRIFT .*edited by hand/);
  });
});
