// The tests' fork server (test/helpers/spawn-setup.ts) answers a synchronous process start as Node's
// own spawnSync, execFileSync and execSync answer it: exits, signals, output in each encoding, input,
// folders, environments, time limits, buffer limits and the errors of a program that is not there.
import cp, { execFileSync, execSync, spawnSync } from "node:child_process";
import { describe, expect, test } from "vitest";
import { real, serving } from "./helpers/spawn-setup.ts";

// the pid differs between any two starts; an Error compares by its message and own fields (an
// execFileSync error holds itself as .error, as Node's does)
const plain = (r: unknown): unknown => {
  const seen = new Set<unknown>();
  return JSON.parse(
    JSON.stringify(r, (k, v: unknown) => {
      if (k === "pid") return typeof v;
      if (!(v instanceof Error)) return v;
      if (seen.has(v)) return "(itself)";
      seen.add(v);
      return { message: v.message, ...v };
    }),
  );
};
const thrown = (f: () => unknown): unknown => {
  try {
    return { returned: plain(f()) };
  } catch (e) {
    return { thrown: plain(e), message: (e as Error).message };
  }
};

const CALLS: [string, string[], cp.SpawnSyncOptions | undefined][] = [
  ["harness-no-such-program", ["a"], undefined],
  ["sh", ["-c", "echo hi; echo err >&2; exit 3"], { encoding: "utf8" }],
  ["sh", ["-c", "cat; pwd; echo $FOO"], { input: "abc", cwd: "/tmp", env: { FOO: "x", PATH: "/usr/bin:/bin" } }],
  ["sh", ["-c", "cat"], { input: Buffer.from([0, 255, 1]) }],
  ["sh", ["-c", "cat"], { input: "é", encoding: "latin1" }],
  ["sleep", ["5"], { timeout: 100 }],
  ["sh", ["-c", "kill -9 $$"], {}],
  // past the limit and still running: killed (a child that had exited would race the kill)
  ["sh", ["-c", "printf %02000d 0; exec sleep 5"], { maxBuffer: 1000 }],
  ["sh", ["-c", "echo out; echo err >&2"], { stdio: ["ignore", "pipe", "ignore"], encoding: "hex" }],
  ["sh", ["-c", "printf '\\377\\376'"], { encoding: "utf8" }],
  ["sh", ["-c", "cat; echo"], { input: "" }],
  // more than a pipe holds, both ways (the request FIFO is written without blocking)
  ["sh", ["-c", "wc -c"], { input: Buffer.alloc(1_000_000, 97), encoding: "utf8" }],
  ["sh", ["-c", "cat"], { input: new Uint8Array([104, 105]), encoding: "buffer" }],
  ["sh", ["-c", "head -c 300000 /dev/zero | tr '\\0' x"], { encoding: "utf8" }],
];

describe("the fork server", () => {
  test("serves this worker", () => {
    expect(serving()).toBe(true);
    expect(cp.spawnSync).toBe(spawnSync);
    expect(cp.spawnSync).not.toBe(real.spawnSync);
  });

  test.each(CALLS)("spawnSync %s %j %j answers as Node's", (file, args, options) => {
    expect(plain(spawnSync(file, args, options))).toEqual(plain(real.spawnSync(file, args, options)));
  });

  test("execFileSync and execSync return and throw as Node's", () => {
    const cases: [string, () => unknown, () => unknown][] = [
      ["output", () => execFileSync("echo", ["x"], { encoding: "utf8" }), () => real.execFileSync("echo", ["x"], { encoding: "utf8" })],
      ["options in the arguments' place", () => execFileSync("pwd", { cwd: "/" }), () => real.execFileSync("pwd", { cwd: "/" })],
      ["a failure", () => execFileSync("sh", ["-c", "echo bad >&2; exit 2"], { stdio: "pipe" }), () => real.execFileSync("sh", ["-c", "echo bad >&2; exit 2"], { stdio: "pipe" })],
      ["a missing program", () => execFileSync("harness-no-such-program"), () => real.execFileSync("harness-no-such-program")],
      ["a shell command", () => execSync("echo $((1+2))"), () => real.execSync("echo $((1+2))")],
      ["a failing shell command", () => execSync("exit 4", { stdio: "pipe" }), () => real.execSync("exit 4", { stdio: "pipe" })],
      // the child runs, then its output cannot be decoded; the next call is answered as before
      ["an unknown encoding", () => execFileSync("echo", ["x"], { encoding: "bogus" as BufferEncoding }), () => real.execFileSync("echo", ["x"], { encoding: "bogus" as BufferEncoding })],
      ["a call after it", () => execFileSync("echo", ["y"], { encoding: "utf8" }), () => real.execFileSync("echo", ["y"], { encoding: "utf8" })],
    ];
    for (const [what, ours, node] of cases) expect(thrown(ours), what).toEqual(thrown(node));
  });
});
