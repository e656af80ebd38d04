// The runner's child processes: nothing a stage or check started outlives it, even a helper that
// left the process group and the session (Codex 0.171 runs its sandbox's fs helper under
// `bwrap --new-session`, which the CI's Ctrl-C scene found alive after the runner exited).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { killGroup, runProcess, sessionMembers } from "../../src/adapter/process-group.js";

const linux = process.platform === "linux" && fs.existsSync("/usr/bin/setsid");
const dirs: string[] = [];
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "harness-pg-"));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    const state = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0];
    return state !== "Z";
  } catch {
    return false;
  }
};
const waitFor = async (ok: () => boolean, ms = 5000) => {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    if (ok()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return ok();
};
const pidIn = (file: string) => Number(fs.readFileSync(file, "utf8").trim());

describe.runIf(linux)("process groups", () => {
  it("killGroup reaches a child that moved to a session of its own", async () => {
    const d = tmp();
    const leader = spawn("sh", ["-c", `setsid sh -c 'echo $$ > ${d}/pid; exec sleep 30' & wait`], { detached: true, stdio: "ignore" });
    expect(await waitFor(() => fs.existsSync(`${d}/pid`) && fs.readFileSync(`${d}/pid`, "utf8").endsWith("\n"))).toBe(true);
    const helper = pidIn(`${d}/pid`);
    expect(sessionMembers(leader.pid!)).toContain(helper);
    await killGroup(leader.pid!);
    expect(await waitFor(() => !alive(helper))).toBe(true);
  });

  it("a step that exits leaves nothing running: a new-session child whose parent ended first is stopped", async () => {
    const d = tmp();
    // the parent lives long enough to be sampled, then exits; its child would write after the step
    const script = `setsid sh -c 'echo $$ > ${d}/pid; sleep 2; echo late > ${d}/late' & sleep 1.2`;
    const r = await runProcess("sh", ["-c", script], { cwd: d });
    expect(r.exit).toBe(0);
    const helper = pidIn(`${d}/pid`);
    expect(await waitFor(() => !alive(helper), 1000)).toBe(true);
    await new Promise((res) => setTimeout(res, 1500));
    expect(fs.existsSync(`${d}/late`)).toBe(false);
  });

  it("an interrupted step stops its whole tree and says it was interrupted", async () => {
    const d = tmp();
    const ac = new AbortController();
    const script = `setsid sh -c 'echo $$ > ${d}/pid; exec sleep 30' & sh -c 'sleep 30' & wait`;
    const run = runProcess("sh", ["-c", script], { cwd: d, signal: ac.signal });
    expect(await waitFor(() => fs.existsSync(`${d}/pid`) && fs.readFileSync(`${d}/pid`, "utf8").endsWith("\n"))).toBe(true);
    const helper = pidIn(`${d}/pid`);
    ac.abort();
    const r = await run;
    expect(r.interrupted).toBe(true);
    expect(alive(helper)).toBe(false);
  });

  it("a pid reused by another process is left alone", async () => {
    // a known pid whose start time differs is not ours any more: killGroup must not signal it
    const other = spawn("sleep", ["30"], { stdio: "ignore" });
    const leader = spawn("sh", ["-c", "exit 0"], { detached: true, stdio: "ignore" });
    await new Promise((r) => leader.on("exit", r));
    await killGroup(leader.pid!, 200, new Map([[other.pid!, "not-its-start-time"]]));
    expect(alive(other.pid!)).toBe(true);
    other.kill("SIGKILL");
  });
});
