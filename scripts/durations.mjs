// Refresh test/durations.json (the seconds per test file that `npm test`'s shards are balanced by,
// test/helpers/sequencer.ts) from the last run's test-results.json: `npm test && node scripts/durations.mjs`.
// Files the run did not include keep their old figure; files that are gone are dropped.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const file = path.join(root, "test/durations.json");
const results = JSON.parse(readFileSync(path.join(root, process.argv[2] ?? "test-results.json"), "utf8"));
const seconds = JSON.parse(readFileSync(file, "utf8"));
for (const r of results.testResults) seconds[path.relative(root, r.name).split(path.sep).join("/")] = Math.round((r.endTime - r.startTime) / 100) / 10;
const kept = Object.fromEntries(Object.keys(seconds).filter((f) => existsSync(path.join(root, f))).sort().map((f) => [f, seconds[f]]));
writeFileSync(file, `${JSON.stringify(kept, null, 2)}\n`);
const total = Object.values(kept).reduce((a, b) => a + b, 0);
process.stdout.write(`test/durations.json: ${Object.keys(kept).length} files, ${total.toFixed(1)} s in all\n`);
