// Benchmark (not a test): median wall and CPU time of `harness build` and `harness check` on the
// bundled roles, beside a bare `node -e 0`, over N runs after one warm-up. Uses /usr/bin/time for
// the child's CPU (user + sys). Usage: node bench/build-bench.mjs [runs=15]
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const runs = Number(process.argv[2] ?? 15);
const cli = path.join(root, "dist/cli/cli.js");
if (!existsSync(cli)) throw new Error("build first: npm run build");
if (!existsSync("/usr/bin/time")) throw new Error("needs GNU time at /usr/bin/time (apt-get install time)");
const out = mkdtempSync(path.join(tmpdir(), "harness-bench-"));

function measure(args) {
  const r = spawnSync("/usr/bin/time", ["-f", "%e %U %S", ...args], { cwd: root, encoding: "utf8" });
  const last = r.stderr.trim().split("\n").at(-1).split(" ").map(Number);
  return { wall: last[0], cpu: last[1] + last[2], code: r.status };
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const cases = [
  ["node -e 0", [process.execPath, "-e", "0"]],
  ["harness build (no changes)", [process.execPath, cli, "build", "--quiet", "--out", out]],
  ["harness check", [process.execPath, cli, "check", "--quiet", "--out", out]],
];
measure(cases[1][1]); // first build writes the tree
const rows = [];
for (const [name, args] of cases) {
  measure(args); // warm-up
  const samples = Array.from({ length: runs }, () => measure(args));
  if (samples.some((s) => s.code !== 0 && name !== "harness check")) throw new Error(`${name} failed`);
  rows.push({ name, wall: median(samples.map((s) => s.wall)), cpu: median(samples.map((s) => s.cpu)) });
}
const base = rows[0].wall || 0.01;
console.log(`runs: ${runs} (median)`);
console.log("command".padEnd(30), "wall s".padStart(8), "cpu s".padStart(8), "× node -e 0".padStart(12));
for (const r of rows) console.log(r.name.padEnd(30), r.wall.toFixed(3).padStart(8), r.cpu.toFixed(3).padStart(8), (r.wall / base).toFixed(1).padStart(12));
rmSync(out, { recursive: true, force: true });
