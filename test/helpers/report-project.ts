// The project the report tests share: the bundled roles and one recorded run, reported once.
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { HOST_IDS } from "../../adapters/index.js";
import { harness, PEBBLE_ROLES, tempDir } from "./cli.js";

export const HOSTS = [...HOST_IDS].sort(); // every registered host is on the page
export const ROLES = ["flint", "slate", "mica", "jade", "onyx", "quartz", "coral", "chalk"];
export const RUN_ID = "20261201T231500Z-a1b2c3";
const RUN = {
  version: 1, id: RUN_ID, source: "runner", host: "claude-code", session: null, pipeline: "pebble",
  request: 'add a --json flag <img src=x onerror="alert(1)">', kind: "feature", status: "failed", ending: "retries used up",
  started: "2026-12-01T23:15:00.000Z", ended: "2026-12-01T23:25:00.000Z",
  stages: [
    { stage: "spec", role: "flint", status: "done", started: "2026-12-01T23:15:00.000Z", ended: "2026-12-01T23:17:00.000Z", retries: 0, round: 1, session: null, files: [], checks: [], verdict: null, tokens: { input: 1200, output: 300 }, reason: null },
    { stage: "tests", role: "mica", status: "done", started: "2026-12-01T23:17:30.000Z", ended: "2026-12-01T23:20:00.000Z", retries: 0, round: 1, session: null, files: [], checks: [{ check: "tests-fail", command: "npm test", expect: "fail", exit: 1, passed: true, durationMs: 812, log: "l" }], verdict: null, tokens: { input: 900, output: 200 }, reason: null },
    { stage: "implement", role: "jade", status: "failed", started: "2026-12-01T23:20:00.000Z", ended: "2026-12-01T23:25:00.000Z", retries: 2, round: 2, session: null, files: [], checks: [{ check: "tests-pass", command: "npm test", expect: "pass", exit: 1, passed: false, durationMs: 900, log: "l" }], verdict: null, tokens: null, reason: "retries used up" },
  ],
  gates: [{ gate: "spec", artifact: ".pebble/spec.md", sha256: "abc", decision: "approved", at: "2026-12-01T23:17:10.000Z", channel: "tty" }],
  caps: {}, budget: null,
};

/** A project with the bundled roles and one run record (and a file that is not one), after `harness report`. */
export async function reportProject(): Promise<{ project: string; html: string }> {
  const project = tempDir("harness-report-");
  cpSync(PEBBLE_ROLES, path.join(project, "roles"), { recursive: true });
  mkdirSync(path.join(project, ".harness/runs"), { recursive: true });
  writeFileSync(path.join(project, `.harness/runs/${RUN_ID}.json`), JSON.stringify(RUN, null, 2));
  writeFileSync(path.join(project, ".harness/runs/notes.json"), "not a record");
  const r = await harness(["report"], project);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toBe(`out/report.html: ${HOSTS.length} hosts, 8 roles, 1 runs\n`);
  return { project, html: readFileSync(path.join(project, "out/report.html"), "utf8") };
}
