// What every host's run-controller scene shares (test/hosts/enforce-out-controller*.test.ts): the
// role markers the stubs pick conversations by, the scene project (an npm test that runs tests/*.test.mjs),
// and the bundled roles built with policies.max_hops 2.
import fs from "node:fs";
import path from "node:path";
import { readPipeline } from "../../../src/ir/normalize.js";
import { HOST_IDS } from "../../../adapters/index.js";
import { expect } from "vitest";
import { buildEmitted, EMITTED_ROOT, ROLES_DIR } from "./emitted.js";
import { CLI } from "./harness-run.js";
import { run } from "./run.js";

export const PEBBLE = readPipeline(ROLES_DIR, { knownHosts: HOST_IDS }).pipeline;
/** a line only this role's own prompt holds: the stub picks the role's conversation by it */
export const MARKER = Object.fromEntries(PEBBLE.roles.map((r) => [r.id, r.body.split("\n").map((l) => l.trim()).find((l) => l.length > 8)!]));

const RUNNER = `import { readdirSync, existsSync } from "node:fs";
import { pathToFileURL } from "node:url";
const files = existsSync("tests") ? readdirSync("tests").filter((f) => f.endsWith(".test.mjs")) : [];
let failed = 0;
for (const f of files) { try { await import(pathToFileURL("tests/" + f).href); } catch (e) { failed++; console.log("FAIL " + f + ": " + e.message); } }
console.log("SCENE-TESTS " + (failed ? "FAILED" : "PASSED") + " " + (files.length - failed) + "/" + files.length);
process.exit(failed ? 1 : 0);
`;
export const SCENE: Record<string, string> = {
  "package.json": JSON.stringify({ name: "scene", private: true, type: "module", scripts: { test: "node run-tests.mjs" } }),
  "run-tests.mjs": RUNNER,
};

/** the bundled roles with policies.max_hops 2, built once per run */
let lowHop: Promise<string> | undefined;
export async function lowHopTree(host = "claude-code"): Promise<string> {
  return path.join(path.dirname(await lowHopRoot()), host);
}
function lowHopRoot(): Promise<string> {
  lowHop ??= (async () => {
    const base = path.join(EMITTED_ROOT, `max-hops-2-${process.pid}`);
    const roles = path.join(base, "roles");
    fs.rmSync(base, { recursive: true, force: true });
    fs.cpSync(ROLES_DIR, roles, { recursive: true });
    const yml = path.join(roles, "pipeline.yaml");
    fs.writeFileSync(yml, fs.readFileSync(yml, "utf8").replace(/^policies:\n/m, "policies:\n  max_hops: 2\n"));
    const built = await buildEmitted(path.join(base, "out"), roles);
    if (!built.root) throw new Error(built.error);
    return path.join(built.root, "claude-code");
  })();
  return lowHop;
}

/**
 * `harness runs show <id> --json` run in the scene's project lists every stage (with its checks),
 * gate decision and cap the controller recorded, and the checks named (issue 21's Done-when).
 */
export async function expectRunsShow(rec: Record<string, any>, project: string, env: Record<string, string>, checks: readonly string[], why: string): Promise<void> {
  const show = await run(process.execPath, [CLI, "runs", "show", rec.id, "--json"], { cwd: project, env, timeoutMs: 20_000 });
  expect(show.code, show.stderr).toBe(0);
  const shown = JSON.parse(show.stdout);
  expect(shown.stages, why).toEqual(rec.stages);
  expect(shown.gates, why).toEqual(rec.gates);
  expect(shown.caps, why).toEqual(rec.caps);
  expect(shown.stages.flatMap((x: { checks: { check: string }[] }) => x.checks.map((c) => c.check)), why).toEqual(expect.arrayContaining([...checks]));
}
