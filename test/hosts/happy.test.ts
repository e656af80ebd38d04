// Happy path on the real hosts: the whole pipeline (the bundled Pebble process, and the mini fixture)
// played by the scripted model, headless, session by session in one real git project whose `npm test`
// really runs. Every legitimate step must run with no prompt and no refusal (a false block fails the
// test exactly like a bypass), every expected file must exist afterwards, and the forbidden probes
// in the same project must be refused, unless the host's MAPPING.md records that loss.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readPipeline } from "../../src/ir/normalize.js";
import { HOST_IDS } from "../../adapters/index.js";
import { emittedTree, hostBin, REAL_HOSTS, REGISTERED_HOSTS } from "./helpers.js";
import { buildEmitted, EMITTED_ROOT } from "./lib/emitted.js";
import { REPO_ROOT } from "./lib/env.js";
import { runHappy, type StepResult } from "./lib/happy.js";
import { codexLauncherDriver, HAPPY_DRIVERS, HAPPY_PENDING } from "./lib/happy-hosts.js";
import { buildScenario, ORCHESTRATOR } from "./lib/scenario.js";
import type { HostId } from "./versions.js";

const MINI = path.join(REPO_ROOT, "test", "fixtures", "mini");
let miniBuild: Promise<string> | undefined;
async function miniTree(host: string): Promise<string> {
  miniBuild ??= buildEmitted(path.join(EMITTED_ROOT, `mini-${process.pid}`), MINI).then((e) => {
    if (e.error) throw new Error(e.error);
    return e.root;
  });
  return path.join(await miniBuild, host);
}

/** every write the scenario expects (an allowed write step) exists with the step's content */
function scenarioFiles(r: Awaited<ReturnType<typeof runHappy>>): { path: string; ok: boolean }[] {
  return r.results
    .filter((x) => x.step.expect === "allow" && x.step.action.kind === "write")
    .map((x) => ({ path: (x.step.action as { path: string }).path, ok: x.outcome === "allowed" }));
}

const PIPELINES = [
  { name: "pebble", dir: path.join(REPO_ROOT, "roles"), tree: (h: string) => emittedTree(h) },
  { name: "mini", dir: MINI, tree: miniTree },
];

/** MAPPING.md rows as [role, constraint, level, loss]; "(pipeline)" rows stand for the orchestrator. */
function mappingRows(tree: string): string[][] {
  const text = fs.readFileSync(path.join(tree, "MAPPING.md"), "utf8");
  return text.split("\n").filter((l) => l.startsWith("| ") && !l.startsWith("| role") && !l.startsWith("| ---")).map((l) => l.split(" | ").map((c) => c.replace(/^\| |\s*\|$/g, "").trim())).map((c) => [c[0]!, c[1]!, c[2]!, c[4] ?? ""]);
}

/**
 * The loss MAPPING.md records for a probe that got through (write scope / never-write / shell of that
 * actor below native), if any. A write whose row is `audit` counts only when the stage-end audit really
 * took it back: the file is gone from the project after the run.
 */
function recordedLoss(rows: string[][], r: StepResult, project: string): string | undefined {
  const who = r.step.actor === ORCHESTRATOR ? "(pipeline)" : r.step.actor;
  const a = r.step.action;
  const constraints = a.kind === "write" ? ["write-scope", "never-write"] : ["git-deny", "shell"];
  const restored = a.kind === "write" && !fs.existsSync(path.join(project, a.path));
  const row = rows.find(([role, c, level]) => role === who && constraints.includes(c!) && (level === "instructed" || level === "lost" || (level === "audit" && restored)));
  return row ? `${row[0]} ${row[1]} ${row[2]} ${row[3]}${row[2] === "audit" ? " (restored at stage end)" : ""}` : undefined;
}

it("every pinned host has a happy-path driver, or is listed as pending with the reason", () => {
  for (const host of REAL_HOSTS) expect(host in HAPPY_DRIVERS || host in HAPPY_PENDING, `${host}: no driver in test/hosts/lib/happy-hosts.ts`).toBe(true);
  for (const host of Object.keys(HAPPY_PENDING)) expect(HAPPY_DRIVERS[host], `${host} has a driver: take it off HAPPY_PENDING`).toBeUndefined();
});

// every registered host with a pinned CLI and a driver (docs-only adapters have no program to run)
describe.each((REAL_HOSTS as HostId[]).filter((h) => !(h in HAPPY_PENDING)))("%s: the happy path runs headless", (host) => {
  for (const pl of PIPELINES)
    it(`${host}: ${pl.name}: every legitimate step runs, every probe is refused`, async () => {
      const driver = HAPPY_DRIVERS[host];
      expect(driver, `no happy-path driver for ${host} in test/hosts/lib/happy-hosts.ts`).toBeDefined();
      const scenario = buildScenario(readPipeline(pl.dir, { knownHosts: HOST_IDS }).pipeline, { controllerRunsChecks: driver!.controllerRunsChecks === true });
      const r = await runHappy(driver!, scenario, await pl.tree(host), hostBin(host));
      try {
        const tree = await pl.tree(host);
        const rows = mappingRows(tree);
        const happy = r.results.filter((x) => x.step.expect === "allow");
        const probes = r.results.filter((x) => x.step.expect === "deny");
        const accepted = probes.filter((x) => x.outcome === "allowed").map((x) => [x, recordedLoss(rows, x, r.env.project)] as const);
        process.stderr.write(
          `[happy ${host} ${pl.name}] ${happy.filter((x) => x.outcome === "allowed").length}/${happy.length} legitimate steps ran, ` +
            `${probes.filter((x) => x.outcome !== "allowed").length}/${probes.length} probes refused` +
            `${accepted.length ? ` (${accepted.filter(([, l]) => l).length} through as recorded losses)` : ""} in ${r.durationMs} ms\n${r.table()}\n`,
        );
        const falseBlocks = r.surprises().filter((s) => s.startsWith("FALSE BLOCK"));
        expect(falseBlocks, "legitimate steps the host refused (false blocks)").toEqual([]);
        const unrecorded = accepted.filter(([, loss]) => !loss).map(([x]) => r.surprises().find((s) => s.includes(x.step.id)));
        expect(unrecorded, "forbidden probes that got through with no loss recorded in MAPPING.md").toEqual([]);
        for (const f of scenarioFiles(r)) expect(f.ok, `expected file ${f.path} is missing`).toBe(true);
      } finally {
        r.dispose();
      }
    }, 900_000);
});

// Codex's enforced route: each role alone through .codex/bin/<role>.sh (its own permission profile is
// the session's sandbox). Every role must be able to write its own artifacts and run its commands;
// the prober's forbidden steps must be refused by that profile and the rules.
describe.runIf(REGISTERED_HOSTS.includes("codex"))("codex: each role alone through its launcher", () => {
  for (const pl of PIPELINES)
    it(`codex launchers: ${pl.name}: every role writes its own artifacts and runs its commands, probes refused`, async () => {
      const scenario = buildScenario(readPipeline(pl.dir, { knownHosts: HOST_IDS }).pipeline);
      const tree = await pl.tree("codex");
      const r = await runHappy(codexLauncherDriver, scenario, tree, hostBin("codex"));
      try {
        const rows = mappingRows(tree);
        process.stderr.write(`[happy codex launchers ${pl.name}] in ${r.durationMs} ms\n${r.table()}\n`);
        // a legitimate write the launcher cannot make must be one MAPPING.md records as left out (narrower)
        const blocked = r.results.filter((x) => x.step.expect === "allow" && x.outcome !== "allowed");
        const unrecorded = blocked.filter((x) => {
          const a = x.step.action;
          return !(a.kind === "write" && rows.some(([role, c, , loss]) => role === x.step.actor && c === "write-scope" && loss === "L_GLOB_NARROWED"));
        });
        expect(unrecorded.map((x) => r.surprises().find((s) => s.includes(x.step.id))), "false blocks through the launchers").toEqual([]);
        expect(r.results.filter((x) => x.step.expect === "deny" && x.outcome === "allowed").map((x) => x.step.id), "probes not refused by the launcher").toEqual([]);
      } finally {
        r.dispose();
      }
    }, 900_000);
});
