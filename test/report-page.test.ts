// harness report: one static page, every value escaped, deterministic; rendered by a real headless
// Chromium (Debian's `chromium`), whose DOM must hold every host and role of the bundled pipeline
// and the recorded run, and whose screenshot must show the matrix's level colours.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { harness, PEBBLE_ROLES, tempDir } from "./helpers/cli.js";
import { HOST_IDS } from "../adapters/index.js";
import { countColour, decodePng } from "./helpers/png.js";

const CHROMIUM = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((f) => existsSync(f));
const HOSTS = [...HOST_IDS].sort(); // every registered host is on the page
const ROLES = ["flint", "slate", "mica", "jade", "onyx", "quartz", "coral", "chalk"];
const RUN_ID = "20261201T231500Z-a1b2c3";
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

let project: string;
let html: string;
beforeAll(() => {
  project = tempDir("harness-report-");
  cpSync(PEBBLE_ROLES, path.join(project, "roles"), { recursive: true });
  mkdirSync(path.join(project, ".harness/runs"), { recursive: true });
  writeFileSync(path.join(project, `.harness/runs/${RUN_ID}.json`), JSON.stringify(RUN, null, 2));
  writeFileSync(path.join(project, ".harness/runs/notes.json"), "not a record");
  const r = harness(["report"], project);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toBe(`out/report.html: ${HOSTS.length} hosts, 8 roles, 1 runs\n`);
  html = readFileSync(path.join(project, "out/report.html"), "utf8");
});

function chromium(args: string[]): { stdout: string; code: number | null } {
  const profile = tempDir("harness-chromium-");
  const r = spawnSync(CHROMIUM!, ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", `--user-data-dir=${profile}`, ...args], { encoding: "utf8", timeout: 90_000, maxBuffer: 1 << 26 });
  return { stdout: r.stdout, code: r.status };
}

describe("harness report", () => {
  it("is one self-contained page: no script, nothing from the network, every input escaped", () => {
    expect(html.startsWith("<!doctype html>\n")).toBe(true);
    expect(html).not.toMatch(/<script|<link|<img|<iframe|<[a-z][^>]*\ssrc=|url\(|@import|https?:\/\//i);
    expect(html).toContain("add a --json flag &lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    expect(html).toContain("Not shown (not a run record): .harness/runs/notes.json");
  });

  it("writes the same bytes again (no clock, stable order), and check ignores it", () => {
    expect(harness(["report", "--out", "out/again.html", "-q"], project).stdout).toBe("");
    expect(readFileSync(path.join(project, "out/again.html"), "utf8")).toBe(html);
    expect(harness(["build", "-q"], project).code).toBe(0);
    expect(harness(["check", "-q"], project).code).toBe(0);
  });

  it("shows each cell's level, how, loss and proof, and links the host's MAPPING.md", () => {
    expect(html).toMatch(/<td class="cell guard" title="guard: \.claude\/hooks\/harness-guard\.cjs[^"]*">/);
    expect(html).toContain('<a href="claude-code/MAPPING.md">claude-code: guard refuses jade writing tests/</a>');
    expect(html).toMatch(/<span class="code">L_SCOPE_INSTRUCTED<\/span>/);
    expect(html).toMatch(/<h2 id="accepted">Accepted losses \(\d+\)<\/h2><table>/);
  });

  it.skipIf(!CHROMIUM && !process.env.HARNESS_REQUIRE_BROWSER)("renders in headless Chromium with every host, role and the run", () => {
    expect(CHROMIUM, "install Debian's chromium (apt-get install chromium)").toBeDefined();
    const url = `file://${path.join(project, "out/report.html")}`;
    const dom = chromium(["--dump-dom", url]);
    expect(dom.code).toBe(0);
    for (const host of HOSTS) expect(dom.stdout).toContain(`<table class="matrix" data-host="${host}">`);
    for (const role of ROLES) expect(dom.stdout.match(new RegExp(`<tr data-role="${role}">`, "g"))).toHaveLength(HOSTS.length);
    expect(dom.stdout).toContain(`<section class="run" data-run="${RUN_ID}">`);
    expect(dom.stdout).toMatch(/<div class="bar done" style="left:0\.00%;width:20\.00%" title="spec \(flint\): done">spec<\/div>/);
    expect(dom.stdout).toMatch(/✗<\/span> tests-pass \(exit 1, expect pass\)/);
    expect(dom.stdout).not.toContain("<img");

    const shot = path.join(tempDir("harness-shot-"), "report.png");
    expect(chromium(["--window-size=1400,1800", `--screenshot=${shot}`, url]).code).toBe(0);
    const image = decodePng(readFileSync(shot));
    expect([image.width, image.height]).toEqual([1400, 1800]);
    // The matrix is painted in its level colours (native, guard, instructed, lost), not blank.
    for (const colour of ["#c9f0d1", "#cfe3ff", "#ffe9b8", "#ffc9c9"]) expect(countColour(image, colour), colour).toBeGreaterThan(5_000);
  }, 200_000);
});
