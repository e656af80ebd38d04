// Benchmark (not a test): median wall and CPU time of `harness build` and `harness check` on the
// bundled roles, beside a bare `node -e 0`, over N runs after one warm-up. Uses /usr/bin/time for
// the child's CPU (user + sys). Usage: node bench/build-bench.mjs [runs=15] [--peers DIR]
// --peers DIR: also time rulesync 17 and ruler on the same 8-role process, from a folder prepared by
// a peers setup (DIR/tools/node_modules/{rulesync,@intellectronica/ruler}, DIR/tools/node22, and
// DIR/out/{rulesync-min,ruler} projects). rulesync needs Node 22, so its floor is node22 -e 0.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const peersAt = args.indexOf("--peers");
const peers = peersAt >= 0 ? path.resolve(args[peersAt + 1]) : undefined;
const runs = Number(args.find((a, i) => /^\d+$/.test(a) && args[i - 1] !== "--peers") ?? 15);
const cli = path.join(root, "dist/cli/cli.js");
if (!existsSync(cli)) throw new Error("build first: npm run build");
if (!existsSync("/usr/bin/time")) throw new Error("needs GNU time at /usr/bin/time (apt-get install time)");
const out = mkdtempSync(path.join(tmpdir(), "harness-bench-"));

function measure(args, cwd = root) {
  const r = spawnSync("/usr/bin/time", ["-f", "%e %U %S", ...args], { cwd, encoding: "utf8" });
  const last = r.stderr.trim().split("\n").at(-1).split(" ").map(Number);
  return { wall: last[0], cpu: last[1] + last[2], code: r.status };
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const cases = [
  ["node -e 0", [process.execPath, "-e", "0"], root],
  ["harness build (3 hosts, no change)", [process.execPath, cli, "build", "--quiet", "--out", out], root],
  ["harness build (3 hosts, all new)", ["sh", "-c", `rm -rf '${out}-fresh' && exec '${process.execPath}' '${cli}' build --quiet --out '${out}-fresh'`], root],
  ["harness check (3 hosts)", [process.execPath, cli, "check", "--quiet", "--out", out], root],
];
if (peers) {
  const node22 = path.join(peers, "tools/node22/package/bin/node");
  const rulesync = path.join(peers, "tools/node_modules/rulesync/dist/cli/index.js");
  const ruler = path.join(peers, "tools/node_modules/@intellectronica/ruler/dist/cli/index.js");
  cases.push(
    ["node22 -e 0 (rulesync's floor)", [node22, "-e", "0"], root],
    ["rulesync generate (4 targets)", [node22, rulesync, "generate", "--silent"], path.join(peers, "out/rulesync-min")],
    ["rulesync generate --check", [node22, rulesync, "generate", "--check", "--silent"], path.join(peers, "out/rulesync-min")],
    ["ruler apply (4 agents)", [node22, ruler, "apply", "--agents", "claude,opencode,codex,gemini-cli", "--subagents", "--skills", "--no-backup", "--no-gitignore", "--no-mcp"], path.join(peers, "out/ruler")],
  );
}
measure(cases[1][1]); // first build writes the tree
// Interleave the commands run by run, so background load hits every row alike.
const samples = cases.map(() => []);
for (const [, args, cwd] of cases) measure(args, cwd); // warm-up
for (let i = 0; i < runs; i++) cases.forEach(([, args, cwd], j) => samples[j].push(measure(args, cwd)));
const rows = cases.map(([name], j) => {
  if (samples[j].some((s) => s.code !== 0) && name.startsWith("harness")) throw new Error(`${name} failed`);
  return { name, wall: median(samples[j].map((s) => s.wall)), cpu: median(samples[j].map((s) => s.cpu)) };
});
const base = rows[0].wall || 0.01;
console.log(`runs: ${runs} (median)`);
console.log("command".padEnd(36), "wall s".padStart(8), "cpu s".padStart(8), "× node -e 0".padStart(12));
for (const r of rows) console.log(r.name.padEnd(36), r.wall.toFixed(3).padStart(8), r.cpu.toFixed(3).padStart(8), (r.wall / base).toFixed(1).padStart(12));
rmSync(out, { recursive: true, force: true });
rmSync(`${out}-fresh`, { recursive: true, force: true });
