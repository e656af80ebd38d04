// The benchmark (not a test): whole processes, interleaved round by round so background load hits
// every row alike; median and min–max wall time and median CPU (user+sys) in milliseconds from bash's
// `time` (GNU time counts in steps of 10 ms, too coarse for a 60 ms floor), peak RSS from GNU time.
//
//   node bench/bench.mjs [--runs 15] [--scale-runs 5] [--sizes 8,100,1000] [--peers DIR] [--only bundled,watch,guard,scale] [--against CLI]
//
// Sections (--only): "bundled" (the 8-role roles/: build no-op and cold, a bare Node process creating
// the cold build's files, check, install when the CLI has it; rulesync and ruler with --peers; the
// no-op build and check are answered by the cached no-op, since the bench runs where node_modules/ is),
// "watch" (build --watch: the rebuild after a one-role edit, as its line reports, beside node -e 0),
// "guard" (the emitted Claude Code hook per call at 8 and the largest size), "scale" (cold builds of
// generated pipelines). --peers DIR is a folder made by bench/peers.sh (pinned rulesync and ruler,
// Node 22, their 8-role projects). --against CLI (another build's dist/cli/cli.js, e.g. a copy of main's)
// adds its cold builds beside this tree's in the same rounds: a before/after pair under one load.
// Needs `npm run build` first, bash and /usr/bin/time (GNU time).
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { generateRoles } from "./gen-roles.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const argv = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : fallback;
};
const runs = Number(opt("runs", 15));
const scaleRuns = Number(opt("scale-runs", 5));
const sizes = opt("sizes", "8,100,1000").split(",").map(Number);
const peers = opt("peers") && path.resolve(opt("peers"));
const only = opt("only", "bundled,watch,guard,scale").split(",");
const node = process.execPath;
const cli = path.join(root, "dist/cli/cli.js");
const against = opt("against") && path.resolve(opt("against"));
if (!existsSync(cli)) throw new Error("build first: npm run build");
if (!existsSync("/usr/bin/time")) throw new Error("needs GNU time at /usr/bin/time (apt-get install time)");
const tmp = mkdtempSync(path.join(os.tmpdir(), "harness-bench-"));
process.on("exit", () => rmSync(tmp, { recursive: true, force: true }));

/** One whole-process run: wall s, cpu s (user+sys), peak RSS MiB, exit code. */
function measure({ args, cwd = root, input, env, before }) {
  before?.();
  // bash times only the command (its own start is outside); GNU time's peak RSS is the largest of
  // bash and the command, and bash is far smaller than any row.
  const timed = ["bash", "-c", 'TIMEFORMAT="@@@ %3R %3U %3S"; time "$@"', "bench", ...args];
  const r = spawnSync("/usr/bin/time", ["-f", "@@ %M", ...timed], { cwd, input, env: env ?? process.env, encoding: "utf8", maxBuffer: 1 << 26 });
  const lines = r.stderr.split("\n").reverse();
  const times = lines.find((l) => l.startsWith("@@@ "));
  const peak = lines.find((l) => l.startsWith("@@ "));
  if (!times || !peak) throw new Error(`no timing for ${args.join(" ")}: ${r.stderr.slice(-500)}`);
  const [wall, user, sys] = times.slice(4).split(" ").map(Number);
  return { wall, cpu: user + sys, rss: Number(peak.slice(3)) / 1024, code: r.status, stdout: r.stdout };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Run every case once per round (rotating the start), after one warm-up each. */
function interleave(cases, n) {
  const samples = cases.map(() => []);
  for (const c of cases) measure(c);
  for (let i = 0; i < n; i++)
    for (let k = 0; k < cases.length; k++) {
      const j = (i + k) % cases.length;
      samples[j].push(measure(cases[j]));
    }
  return cases.map((c, j) => {
    const s = samples[j];
    const bad = s.filter((x) => !(c.ok ?? [0]).includes(x.code));
    if (bad.length) throw new Error(`${c.name}: exit ${bad[0].code} (expected ${(c.ok ?? [0]).join("/")})\n${bad[0].stdout}`);
    const wall = s.map((x) => x.wall);
    return { name: c.name, base: c.base, wall: median(wall), min: Math.min(...wall), max: Math.max(...wall), cpu: median(s.map((x) => x.cpu)), rss: median(s.map((x) => x.rss)), n: s.length };
  });
}

function table(title, rows, note = "") {
  const byName = new Map(rows.map((r) => [r.name, r]));
  console.log(`\n### ${title}\n${note ? `\n${note}\n` : ""}`);
  console.log("| command | wall s median (min–max) | × floor wall | cpu s | × floor cpu | peak RSS MiB |");
  console.log("|---|---|---|---|---|---|");
  for (const r of rows) {
    const b = r.base && byName.get(r.base);
    const x = (a, f) => (b ? `${(a / f).toFixed(2)}×` : "—");
    console.log(`| ${r.name} | ${r.wall.toFixed(3)} (${r.min.toFixed(3)}–${r.max.toFixed(3)}) | ${x(r.wall, b?.wall)} | ${r.cpu.toFixed(3)} | ${x(r.cpu, b?.cpu)} | ${r.rss.toFixed(1)} |`);
  }
}

const harness = (...a) => [node, cli, ...a];
const NODE0 = { name: "node -e 0", args: [node, "-e", "0"] };
const cold = (name, roles, out, base = "node -e 0", program = cli) => ({
  name,
  base,
  args: [node, program, "build", "-q", "--roles", roles, "--out", out],
  before: () => rmSync(out, { recursive: true, force: true }),
  ok: [0, 1],
});

/**
 * A bare Node process that creates `from`'s files (same paths, same sizes) under `to`, one
 * mkdir per folder and one write per file: what file creation alone costs on this disk, beside a
 * cold build that does the same plus compiling (on some disks it is most of the difference).
 */
function createFiles(name, from, to) {
  const list = path.join(tmp, `${path.basename(to)}.json`);
  const files = [];
  const walk = (dir, rel) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(path.join(dir, e.name), path.join(rel, e.name));
      else files.push([path.join(rel, e.name), statSync(path.join(dir, e.name)).size]);
    }
  };
  walk(from, "");
  writeFileSync(list, JSON.stringify(files));
  const script = `const fs=require("fs"),p=require("path"),[,l,t]=process.argv,m=new Set();for(const[f,n]of JSON.parse(fs.readFileSync(l,"utf8"))){const d=p.dirname(p.join(t,f));if(!m.has(d)){fs.mkdirSync(d,{recursive:true});m.add(d)}fs.writeFileSync(p.join(t,f),"x".repeat(n))}`;
  return { name, base: "node -e 0", args: [node, "-e", script, list, to], before: () => rmSync(to, { recursive: true, force: true }) };
}

console.log(`## harness benchmark\n`);
console.log(`machine: ${os.cpus()[0]?.model ?? "?"}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; ${process.platform} ${os.release()}; Node ${process.version}; load average at start ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`);
console.log(`runs: ${runs} per row (scaling: ${scaleRuns}), interleaved round by round after one warm-up; "× floor" = median ÷ the floor's median`);

// ---- the bundled 8-role process ----
if (only.includes("bundled")) {
  const out = path.join(tmp, "out");
  measure({ args: harness("build", "-q", "--out", out) });
  const cases = [
    NODE0,
    { name: "harness build (no change)", base: "node -e 0", args: harness("build", "-q", "--out", out) },
    cold("harness build (cold, empty out/)", "roles", path.join(tmp, "out-cold")),
    ...(against ? [cold("--against: harness build (cold, empty out/)", "roles", path.join(tmp, "out-cold-against"), "node -e 0", against)] : []),
    createFiles("node: create the same files, nothing else (this disk's part of a cold build)", out, path.join(tmp, "out-plain")),
    { name: "harness check", base: "node -e 0", args: harness("check", "-q", "--out", out) },
    { name: "harness build (no change, full run: HARNESS_NO_CACHE=1)", base: "node -e 0", args: harness("build", "-q", "--out", out), env: { ...process.env, HARNESS_NO_CACHE: "1" } },
    { name: "harness check (full run: HARNESS_NO_CACHE=1)", base: "node -e 0", args: harness("check", "-q", "--out", out), env: { ...process.env, HARNESS_NO_CACHE: "1" } },
  ];
  const help = measure({ args: harness("--help") }).stdout;
  if (/^\s+install\b/m.test(help)) {
    const project = path.join(tmp, "project");
    cases.push({
      // the three real-host-proven hosts (at main 1968f82 all five stop at AGENTS.md's install modes)
      name: "harness install (claude-code, codex, opencode; no change)",
      base: "node -e 0",
      args: harness("install", "--into", project, "-q", "--host", "claude-code", "--host", "codex", "--host", "opencode"),
      before: () => mkdirSync(project, { recursive: true }),
      ok: [0, 1],
    });
  }
  if (peers) {
    const node22 = path.join(peers, "tools/node22/package/bin/node");
    const rulesync = path.join(peers, "tools/node_modules/rulesync/dist/cli/index.js");
    const ruler = path.join(peers, "tools/node_modules/@intellectronica/ruler/dist/cli/index.js");
    const rs = path.join(peers, "out/rulesync-min");
    cases.push(
      { name: "node22 -e 0 (the peers' floor)", args: [node22, "-e", "0"] },
      { name: "rulesync generate (4 targets)", base: "node22 -e 0 (the peers' floor)", args: [node22, rulesync, "generate", "--silent"], cwd: rs },
      { name: "rulesync generate --check", base: "node22 -e 0 (the peers' floor)", args: [node22, rulesync, "generate", "--check", "--silent"], cwd: rs },
      {
        name: "ruler apply (4 agents)",
        base: "node22 -e 0 (the peers' floor)",
        args: [node22, ruler, "apply", "--agents", "claude,opencode,codex,gemini-cli", "--subagents", "--skills", "--no-backup", "--no-gitignore", "--no-mcp"],
        cwd: path.join(peers, "out/ruler"),
      },
    );
  }
  const rows = interleave(cases, runs);
  table(`Bundled roles (8 roles × ${readdirSync(out).length} hosts)`, rows);
  const r = Object.fromEntries(rows.map((x) => [x.name, x]));
  if (peers) {
    const g = r["rulesync generate (4 targets)"];
    console.log(`\nrulesync generate ÷ harness: build no change ${(g.wall / r["harness build (no change)"].wall).toFixed(2)}×, cold ${(g.wall / r["harness build (cold, empty out/)"].wall).toFixed(2)}×; rulesync --check ÷ harness check ${(r["rulesync generate --check"].wall / r["harness check"].wall).toFixed(2)}× (wall medians)`);
  }
}

// ---- watch mode: a one-role edit, the rebuild's own time (its "rebuilt in N ms" line) ----
if (only.includes("watch")) {
  const { spawn } = await import("node:child_process");
  const project = path.join(tmp, "watch");
  cpSync(path.join(root, "roles"), path.join(project, "roles"), { recursive: true });
  const child = spawn(node, [cli, "build", "--watch", "-q"], { cwd: project, env: { ...process.env, NO_COLOR: "1" }, stdio: ["ignore", "pipe", "pipe"] });
  let buffer = "";
  const waiters = [];
  child.stdout.on("data", (d) => {
    buffer += d;
    for (let i; (i = buffer.indexOf("\n")) >= 0; ) {
      const line = buffer.slice(0, i);
      buffer = buffer.slice(i + 1);
      waiters.shift()?.(line);
    }
  });
  const ready = new Promise((resolve) => child.stderr.on("data", (d) => String(d).includes("watching") && resolve()));
  await ready;
  const floor = [];
  const rebuild = [];
  const jade = path.join(project, "roles/jade.md");
  for (let i = 0; i < runs + 1; i++) {
    const f = measure({ args: [node, "-e", "0"] });
    const line = new Promise((resolve) => waiters.push(resolve));
    writeFileSync(jade, `${readFileSync(jade, "utf8")}\nOne more line (${i}).\n`);
    const m = /rebuilt in (\d+) ms/.exec(await line);
    if (!m) throw new Error("watch: no rebuild line");
    if (i > 0) {
      floor.push(f.wall);
      rebuild.push(Number(m[1]) / 1000);
    }
  }
  child.kill("SIGINT");
  await new Promise((resolve) => child.on("exit", resolve));
  const row = (name, xs, base) => ({ name, base, wall: median(xs), min: Math.min(...xs), max: Math.max(...xs), cpu: NaN, rss: NaN, n: xs.length });
  console.log(`\n### build --watch: one-role edit (roles/jade.md), ${runs} rebuilds\n`);
  console.log("| what | wall s median (min–max) | × node -e 0 |");
  console.log("|---|---|---|");
  const f = row("node -e 0 (whole process, between edits)", floor);
  const r = row("rebuild (in the watching process, as its line reports)", rebuild);
  for (const x of [f, r]) console.log(`| ${x.name} | ${x.wall.toFixed(3)} (${x.min.toFixed(3)}–${x.max.toFixed(3)}) | ${x === f ? "—" : `${(x.wall / f.wall).toFixed(2)}×`} |`);
}

// ---- generated pipelines: trees for the guard and the scaling rows ----
const trees = new Map(); // size → { roles, out }
function tree(n) {
  if (!trees.has(n)) {
    const roles = n === 8 ? path.join(root, "roles") : generateRoles(n, path.join(tmp, `roles-${n}`));
    const out = path.join(tmp, `tree-${n}`);
    const r = measure({ args: harness("build", "-q", "--roles", roles, "--out", out) });
    if (r.code !== 0 && r.code !== 1) throw new Error(`build of ${n} roles failed (exit ${r.code})`);
    trees.set(n, { roles, out });
  }
  return trees.get(n);
}

// ---- the Claude Code guard per call ----
if (only.includes("guard")) {
  const cases = [NODE0];
  const sizesNote = [];
  for (const n of [8, Math.max(...sizes)]) {
    const built = path.join(tree(n).out, "claude-code");
    // The hook command as the build wrote it: node "$CLAUDE_PROJECT_DIR/<script>" [args], in jade's
    // agent front matter (scope: pipeline) or in .claude/settings.json (scope: repository).
    const sources = [".claude/agents/jade.md", ".claude/settings.json"].map((f) => path.join(built, f)).filter((f) => existsSync(f));
    const hook = sources.map((f) => /node \\?"\$CLAUDE_PROJECT_DIR\/([^"\\]+)\\?"([^;]*);/.exec(readFileSync(f, "utf8"))).find(Boolean);
    if (!hook) throw new Error(`no guard hook command in ${sources.join(", ")}`);
    const script = hook[1];
    const scriptArgs = hook[2].trim().split(/\s+/).filter(Boolean);
    const project = path.join(tmp, `guard-project-${n}`);
    cpSync(built, project, { recursive: true });
    for (const d of ["src", "tests"]) mkdirSync(path.join(project, d), { recursive: true });
    const hookDir = path.dirname(path.join(project, script));
    const bytes = readdirSync(hookDir).reduce((s, f) => s + statSync(path.join(hookDir, f)).size, 0);
    sizesNote.push(`${n} roles: ${script} ${(statSync(path.join(project, script)).size / 1024).toFixed(1)} KiB (its folder ${(bytes / 1024).toFixed(1)} KiB)`);
    const env = { ...process.env, CLAUDE_PROJECT_DIR: project }; // the same environment as every other row
    const call = (tool, input) =>
      JSON.stringify({ session_id: "bench", transcript_path: "/dev/null", cwd: project, permission_mode: "acceptEdits", hook_event_name: "PreToolUse", tool_name: tool, tool_input: input, tool_use_id: "toolu_bench", agent_type: "jade", agent_id: "a1" });
    cases.push(
      { name: `guard, ${n} roles: Bash "git status" (jade)`, base: "node -e 0", args: [node, path.join(project, script), ...scriptArgs], cwd: project, env, input: call("Bash", { command: "git status" }) },
      { name: `guard, ${n} roles: Write src/a.ts (jade)`, base: "node -e 0", args: [node, path.join(project, script), ...scriptArgs], cwd: project, env, input: call("Write", { file_path: path.join(project, "src/a.ts"), content: "x\n" }) },
    );
  }
  table("Claude Code guard, one tool call (a whole hook process)", interleave(cases, runs), sizesNote.join("; "));
}

// ---- scaling: cold builds of generated pipelines ----
if (only.includes("scale")) {
  const cases = [NODE0];
  const hosts = readdirSync(tree(8).out).length;
  const label = (n) => `cold build, ${n} roles × ${hosts} hosts`;
  for (const n of sizes) {
    cases.push(cold(label(n), tree(n).roles, path.join(tmp, `scale-${n}`)));
    if (against) cases.push(cold(`--against: ${label(n)}`, tree(n).roles, path.join(tmp, `scale-against-${n}`), "node -e 0", against));
  }
  const rows = interleave(cases, scaleRuns);
  const files = (dir) => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  table(
    "Scaling (generated pipelines: the bundled roles plus copies of jade.md, one stage each)",
    rows,
    sizes.map((n) => {
      const f = files(tree(n).out);
      return `${n} roles: ${f.length} files, ${(f.reduce((s, e) => s + statSync(path.join(e.parentPath ?? e.path, e.name)).size, 0) / 2 ** 20).toFixed(1)} MiB`;
    }).join("; "),
  );
  const at = (n) => rows.find((r) => r.name === label(n));
  const big = Math.max(...sizes);
  if (sizes.includes(100) && big > 100) console.log(`\n${big} roles ÷ 100 roles: wall ${(at(big).wall / at(100).wall).toFixed(1)}×, cpu ${(at(big).cpu / at(100).cpu).toFixed(1)}×`);
}
console.log(`\nload average at end ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`);
