// Per-call cost of the generated Claude Code guard, as a whole process beside `node -e 0`, at 8 roles
// (the bundled roles) and at N generated roles: its size, and the median / min / max wall time of a
// read-only command and a write, each run as the hook runs (node <script> <role> < input).
// Usage: node bench/guard-bench.mjs [--rounds 7] [--roles 1000]   (after npm run build; 10 runs per round)
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { generateRoles } from "./gen-roles.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const arg = (name, dflt) => { const i = process.argv.indexOf(name); return i > 0 ? Number(process.argv[i + 1]) : dflt; };
const ROUNDS = arg("--rounds", 7);
const BIG = arg("--roles", 1000);
const cli = path.join(root, "dist/cli/cli.js");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "harness-guard-bench-"));

function build(rolesDir, label) {
  const proj = path.join(tmp, label);
  fs.mkdirSync(path.join(proj, "src"), { recursive: true });
  const r = spawnSync(process.execPath, [cli, "build", "--roles", rolesDir, "--out", path.join(tmp, `${label}-out`), "--host", "claude-code", "--quiet"], { encoding: "utf8" });
  if (r.status !== 0 && r.status !== 1) throw new Error(`build failed: ${r.stderr}`);
  fs.cpSync(path.join(tmp, `${label}-out`, "claude-code", ".claude"), path.join(proj, ".claude"), { recursive: true });
  return proj;
}

// One round: `n` runs in a bash loop; wall time per run, and CPU time per run (user + sys of the
// children, from bash's `times`, ms resolution), which a loaded machine disturbs much less.
function round(cmd, input, env, n) {
  const inFile = path.join(tmp, "input.json");
  fs.writeFileSync(inFile, input);
  const t0 = process.hrtime.bigint();
  const r = spawnSync("bash", ["-c", `for i in $(seq ${n}); do ${cmd} < "$1" > /dev/null 2>&1 || exit 9; done; times`, "bench", inFile], { env, encoding: "utf8" });
  const wall = Number(process.hrtime.bigint() - t0) / 1e6 / n;
  if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr}`);
  const [u, s] = r.stdout.trim().split("\n").pop().split(/\s+/).map((t) => { const m = /^(\d+)m([\d.]+)s$/.exec(t); return Number(m[1]) * 60 + Number(m[2]); });
  return { wall, cpu: ((u + s) * 1000) / n };
}
const stats = (xs) => { const s = [...xs].sort((a, b) => a - b); return { median: s[Math.floor(s.length / 2)], min: s[0], max: s[s.length - 1] }; };
const fmt = (x) => `${x.median.toFixed(1)} ms (min ${x.min.toFixed(1)}, max ${x.max.toFixed(1)})`;

function measure(proj, label) {
  const script = path.join(proj, ".claude/hooks/harness-guard.cjs");
  const env = { PATH: process.env.PATH, CLAUDE_PROJECT_DIR: proj };
  const input = (tool, ti) => JSON.stringify({ hook_event_name: "PreToolUse", cwd: proj, tool_name: tool, tool_input: ti, agent_type: "jade", agent_id: "a1", session_id: "s" });
  const node = JSON.stringify(process.execPath);
  const cases = {
    "node -e 0": [`${node} -e 0`, ""],
    "read-only command": [`${node} ${JSON.stringify(script)} jade`, input("Bash", { command: "git status -u" })],
    write: [`${node} ${JSON.stringify(script)} jade`, input("Write", { file_path: path.join(proj, "src/x.ts"), content: "x" })],
  };
  const res = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
  // rounds interleaved, so machine load hits every case alike
  for (let i = 0; i < ROUNDS; i++) for (const [k, [cmd, inp]] of Object.entries(cases)) res[k].push(round(cmd, inp, env, 10));
  const size = fs.statSync(script).size;
  for (const m of ["cpu", "wall"]) {
    const base = stats(res["node -e 0"].map((x) => x[m]));
    const parts = Object.entries(res).map(([k, xs]) => { const s = stats(xs.map((x) => x[m])); return `${k} ${fmt(s)}${k === "node -e 0" ? "" : ` = ${(s.median / base.median).toFixed(2)}x`}`; });
    console.log(`${label}, guard ${(size / 1024).toFixed(1)} KiB, ${m} per call: ${parts.join(" | ")}`);
  }
}

try {
  measure(build(path.join(root, "roles"), "r8"), "8 roles");
  measure(build(generateRoles(BIG, path.join(tmp, `roles${BIG}`)), `r${BIG}`), `${BIG} roles`);
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
