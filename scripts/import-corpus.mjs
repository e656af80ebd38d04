#!/usr/bin/env node
// Measures `harness import` on a folder of real projects' agent files (docs/import.md, issue 24):
//   node scripts/import-corpus.mjs CORPUS [--keep DIR] [--json]
// CORPUS holds one folder per source repository, laid out as that repository is
// (CORPUS/<repo>/.claude/agents/x.md, CORPUS/<repo>/.opencode/agents/y.md, …). Each is copied into a
// scratch git repository under the system temp folder (never this checkout: the agents' text is
// third-party and stays out of the project), then:
//   1. `harness import` and `harness build` exit 0 (losses listed as accepted in pipeline.yaml);
//   2. for Claude Code and OpenCode, the emitted agent keeps the original's description, body,
//      tools, model and every other field, unless the import report lists it as not representable;
//   3. `harness install` then `harness uninstall` leaves every original file byte for byte.
// An agent defined inside a shared config (opencode.json(c), kilo.json(c): `agent.<name>`) is checked
// as OpenCode reads it: the entry's fields, `prompt` (or a `{file:…}` it names) as the body, deep-merged
// under an agent file of the same name; install must take exactly that key away.
// Prints one line per agent file and per step; exit 1 when any check fails. The per-agent comparisons
// are in import-corpus-checks.mjs.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parse as parseYaml } from "yaml";
import { checkClaude, checkOpenCode, configAgent, frontMatter, mergeDeep, parseJsonc } from "./import-corpus-checks.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const cli = path.join(here, "..", "dist", "cli", "cli.js");
const args = process.argv.slice(2);
const corpus = args.find((a) => !a.startsWith("--"));
const keep = args.includes("--keep") ? args[args.indexOf("--keep") + 1] : undefined;
const json = args.includes("--json");
if (!corpus || !fs.existsSync(cli)) {
  console.error("usage: node scripts/import-corpus.mjs CORPUS [--keep DIR] [--json]   (run `npm run build` first)");
  process.exit(2);
}
const work = keep ? path.resolve(keep) : fs.mkdtempSync(path.join(os.tmpdir(), "harness-corpus-"));

const harness = (cwd, ...a) => spawnSync(process.execPath, [cli, ...a], { cwd, encoding: "utf8", timeout: 120_000 });
const sha = (b) => createHash("sha256").update(b).digest("hex");
function snapshot(root) {
  const files = new Map();
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const abs = path.join(dir, e.name);
      const rel = path.relative(root, abs).split(path.sep).join("/");
      if (rel === ".git" || rel === "roles" || rel === "out") continue;
      if (e.isDirectory()) walk(abs);
      else if (e.isFile()) files.set(rel, sha(fs.readFileSync(abs)));
    }
  };
  walk(root);
  return files;
}

const emittedPath = (host, id) =>
  host === "claude-code" ? `out/claude-code/.claude/agents/${id}.md` : host === "opencode" ? `out/opencode/.opencode/agents/${id}.md` : host === "kilo" ? `out/kilo/.kilo/agents/${id}.md` : undefined;

const results = [];
let failed = 0;
for (const repo of fs.readdirSync(corpus).filter((n) => fs.statSync(path.join(corpus, n)).isDirectory()).sort()) {
  const root = path.join(work, repo);
  fs.rmSync(root, { recursive: true, force: true });
  fs.cpSync(path.join(corpus, repo), root, { recursive: true });
  execFileSync("git", ["init", "-q"], { cwd: root });
  const before = snapshot(root);
  const step = {};
  const r = { repo, steps: step, files: [] };
  results.push(r);
  const imp = harness(root, "import", "-q");
  step.import = imp.status;
  // every candidate tunes one of the host's own agents (opencode.json agent.build): nothing of the team's to import
  if (imp.status === 2 && /left in place, settings of the host's own agents/.test(imp.stderr)) {
    step.import = "nothing to import (settings of built-in agents, left in place)";
    const after = snapshot(root);
    if ([...before].some(([p, h]) => after.get(p) !== h)) (r.error = "a file changed"), failed++;
    continue;
  }
  if (imp.status !== 0) {
    r.error = (imp.stderr || imp.stdout).trim().split("\n").slice(0, 3).join(" | ");
    failed++;
    continue;
  }
  // a second run with the same files changes nothing
  const again = harness(root, "import", "-q");
  step.reimport = again.status === 0 && !again.stdout.trim() ? "unchanged" : `exit ${again.status}`;
  if (step.reimport !== "unchanged") failed++;
  const build = harness(root, "build", "-q");
  step.build = build.status;
  if (build.status !== 0) r.error = (build.stderr || build.stdout).trim().split("\n").slice(0, 3).join(" | ");
  const pipeline = parseYaml(fs.readFileSync(path.join(root, "roles", "pipeline.yaml"), "utf8"));
  step.accepted = (pipeline.accepted_losses ?? []).length;
  const record = JSON.parse(fs.readFileSync(path.join(root, "roles", ".harness-import.json"), "utf8"));
  // OpenCode (and Kilo) resolve one agent per name: the config entries of that name (opencode.json
  // agent.<name>, in the order the files load), then an agent file's own fields over them; a file's
  // name is its front matter's `name`, else its file name (OpenCode 1.18.33, measured)
  const agentName = (f) => {
    if (f.key) return f.key[1];
    const fm = frontMatter(fs.readFileSync(path.join(root, f.path), "utf8")).data;
    return typeof fm.name === "string" ? fm.name : f.path.replace(/^\.(opencode|kilo)\/agents?\//, "").replace(/\.md$/, "");
  };
  const groups = new Map();
  for (const f of record.files.filter((x) => x.host === "opencode" || x.host === "kilo")) {
    const k = `${f.host}\0${agentName(f)}`;
    groups.set(k, [...(groups.get(k) ?? []), f]);
  }
  const readEntry = (f) => {
    try {
      return f.key.reduce((o, k) => o?.[k], parseJsonc(fs.readFileSync(path.join(root, f.path), "utf8")));
    } catch {
      return undefined;
    }
  };
  for (const f of record.files) {
    const report = record.fields[f.role] ?? [];
    const lost = new Set(report.filter((x) => x.status === "not representable").map((x) => x.field));
    const file = { path: f.key ? `${f.path} ${f.key.join(".")}` : f.path, host: f.host, role: f.role, lost: [...lost] };
    const out = emittedPath(f.host, f.role);
    const group = f.host === "opencode" || f.host === "kilo" ? [...groups.values()].find((g) => g.includes(f)) : [f];
    const main = group.find((x) => !x.key) ?? group[0];
    if (f !== main) {
      // checked with the agent it is merged into; it must have become that agent's role
      file.notes = [`one agent with ${main.key ? `${main.path} ${main.key.join(".")}` : main.path} (checked there)`];
      file.problems = f.role === main.role ? [] : [`${f.host} reads it and ${main.path} as one agent; the import made two roles (${main.role}, ${f.role})`];
    } else if (out && fs.existsSync(path.join(root, out)) && build.status === 0) {
      const emitted = fs.readFileSync(path.join(root, out), "utf8");
      if (f.host === "claude-code") Object.assign(file, checkClaude(fs.readFileSync(path.join(root, f.path), "utf8"), emitted, lost));
      else {
        const layers = group.map((x) => (x.key ? configAgent(root, x.path, readEntry(x)) : frontMatter(fs.readFileSync(path.join(root, x.path), "utf8"))));
        const orig = group.length === 1 && !f.key ? fs.readFileSync(path.join(root, f.path), "utf8") : { data: layers.map((l) => l.data).reduce(mergeDeep, {}), body: [...layers].reverse().find((l) => l.body.trim())?.body ?? "", ok: true };
        Object.assign(file, checkOpenCode(orig, emitted, lost, f.role));
        if (group.some((x) => x.key && readEntry(x) === undefined)) file.problems.push("a config entry could not be read back");
        if (group.length > 1) file.notes.push(`merged with ${group.filter((x) => x !== f).map((x) => (x.key ? `${x.path} ${x.key.join(".")}` : x.path)).join(", ")}`);
      }
    } else if (out) file.problems = [`no emitted agent at ${out}`];
    if (file.problems?.length) failed++;
    r.files.push(file);
  }
  // what the import left (settings of the host's own agents) is still there, unchanged
  const readKey = (l) => {
    try {
      return JSON.stringify(l.key.reduce((o, k) => o?.[k], parseJsonc(fs.readFileSync(path.join(root, l.path), "utf8"))));
    } catch {
      return undefined;
    }
  };
  const leftBefore = new Map((record.left ?? []).map((l) => [l, readKey(l)]));
  step.left = record.left?.length ?? 0;
  const install = harness(root, "install", "-q");
  step.install = install.status;
  if (install.status !== 0) r.installError = (install.stderr || install.stdout).trim().split("\n").slice(0, 3).join(" | ");
  const checked = harness(root, "check", "--installed", "-q");
  step.checkInstalled = checked.status;
  if (checked.status !== 0) r.checkError = (checked.stderr || checked.stdout).trim().split("\n").slice(0, 3).join(" | ");
  const installed = snapshot(root);
  const moved = [...leftBefore].filter(([l, v]) => v === undefined || readKey(l) !== v).map(([l]) => `${l.path} ${l.key.join(".")}`);
  if (moved.length) (r.leftError = `install changed what the import left: ${moved.join(", ")}`), failed++;

  // every original is replaced by its generated agent, or taken away when that lives at another path
  const taken = (f) => {
    try {
      const data = parseJsonc(fs.readFileSync(path.join(root, f.path), "utf8"));
      return f.key.reduce((o, k) => o?.[k], data) === undefined;
    } catch {
      return false;
    }
  };
  const adopted = record.files.filter((f) => (f.key ? taken(f) : installed.get(f.path) !== before.get(f.path))).length;
  step.adopted = `${adopted}/${record.files.length}`;
  if (adopted < record.files.length) failed++;
  const uninstall = harness(root, "uninstall", "-q");
  step.uninstall = uninstall.status;
  const after = snapshot(root);
  const changed = [...before].filter(([p, h]) => after.get(p) !== h).map(([p]) => p);
  const left = [...after.keys()].filter((p) => !before.has(p));
  step.roundTrip = changed.length || left.length ? `changed ${changed.length}, left ${left.length}` : "byte for byte";
  if (changed.length || left.length) r.roundTrip = { changed, left };
  if ([step.build, step.install, step.uninstall].some((s) => s !== 0) || changed.length || left.length) failed++;
}

if (json) process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
else
  for (const r of results) {
    console.log(`${r.repo}: ${Object.entries(r.steps).map(([k, v]) => `${k} ${v}`).join(", ")}${r.error ? `\n  error: ${r.error}` : ""}${r.installError ? `\n  install: ${r.installError}` : ""}${r.checkError ? `\n  check --installed: ${r.checkError}` : ""}${r.leftError ? `\n  ${r.leftError}` : ""}`);
    if (r.roundTrip) console.log(`  round trip: changed [${r.roundTrip.changed.join(", ")}], left [${r.roundTrip.left.join(", ")}]`);
    for (const f of r.files) {
      const verdict = f.problems === undefined ? "(not compared)" : f.problems.length ? `FAIL ${f.problems.join("; ")}` : "kept";
      console.log(`  ${f.path} [${f.host}] → ${f.role}: ${verdict}${f.notes?.length ? ` (${f.notes.join("; ")})` : ""}`);
    }
  }
const all = results.flatMap((r) => r.files);
const perHost = Object.entries(all.reduce((m, f) => ({ ...m, [f.host]: (m[f.host] ?? 0) + 1 }), {})).map(([h, n]) => `${h} ${n}`).join(", ");
console.error(`${results.length} repositories, ${all.length} agents (${perHost}; ${all.filter((f) => f.path.includes(" ")).length} in config files); ${all.filter((f) => f.problems && !f.problems.length).length} kept, ${all.filter((f) => f.problems?.length).length} failing, ${all.filter((f) => !f.problems).length} not compared; ${all.reduce((n, f) => n + f.lost.length, 0)} losses listed; ${failed} failing check(s); scratch: ${work}`);
process.exit(failed ? 1 : 0);
