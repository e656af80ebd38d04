// `npm test`: the unit suite as two vitest runs at once, one per core, then one merged report (the
// terminal summary and test-results.json, as a single run gives). Most tests wait on a process they
// spawned (the CLI, a generated hook script, git), and one worker runs one test at a time, so a
// single run keeps one core busy. vitest's own second worker would also use the other, but under
// isolate: false which files share a module graph then depends on timing; a shard is a fixed set of
// files (test/helpers/sequencer.ts) run in path order by one worker, the same on every run.
// Arguments go to both runs (file filters, -t); --reporter/--outputFile go to the merged report.
// HARNESS_TEST_SHARDS=1 runs the suite as one run.
import { spawn, spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";

const vitest = path.resolve("node_modules/vitest/vitest.mjs");
const blobs = path.resolve(".vitest-reports");
const count = Math.max(1, Number(process.env.HARNESS_TEST_SHARDS ?? 2) || 2);
const args = process.argv.slice(2);
const reportArgs = args.filter((a) => /^--(reporter|outputFile)\b/.test(a));
const runArgs = args.filter((a) => !reportArgs.includes(a));

rmSync(blobs, { recursive: true, force: true });
const t0 = performance.now();
const exits = await Promise.all(
  Array.from({ length: count }, (_, i) => {
    const shard = `${i + 1}/${count}`;
    const child = spawn(process.execPath, [vitest, "run", `--shard=${shard}`, "--passWithNoTests", "--reporter=blob", `--outputFile=${path.join(blobs, `blob-${i + 1}-${count}.json`)}`, ...runArgs], { stdio: ["ignore", "inherit", "inherit"] });
    return new Promise((resolve) =>
      child.on("exit", (code, signal) => {
        process.stderr.write(`shard ${shard}: done in ${((performance.now() - t0) / 1000).toFixed(1)} s${code ? ` (exit ${code ?? signal})` : ""}\n`);
        resolve(code ?? 1);
      }),
    );
  }),
);
const merged = spawnSync(process.execPath, [vitest, "run", "--mergeReports", blobs, ...reportArgs], { stdio: "inherit" });
rmSync(blobs, { recursive: true, force: true });
// A shard that failed without failing a test (it crashed, or wrote no report) fails the run too.
process.exit(merged.status !== 0 ? (merged.status ?? 1) : exits.some((c) => c !== 0) ? 1 : 0);
