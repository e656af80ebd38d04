#!/usr/bin/env node
// The `harness` executable (copied to dist/cli/cli.js by scripts/bundle.mjs). It loads the bundled
// CLI (main.cjs) through V8's code cache (main.cache, written at build time by a training run), so a
// short command does not re-parse and re-compile ~700 KB of JavaScript: about a fifth of a build's
// CPU at 8 roles. The cache is only an accelerator: V8 checks it against the source, its own version
// and the flags, and when it is missing or rejected the CLI compiles from source as usual. Nothing is
// written at run time unless HARNESS_WRITE_CODE_CACHE names a file (the build's training run).
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const vm = require("node:vm");

const file = path.join(__dirname, "main.cjs");
const bytes = fs.readFileSync(file);
// A build or check that a full run already answered for, in the same state: replay.cjs re-hashes
// the inputs and outputs and prints what that run printed, without loading the compiler.
const replayFile = path.join(__dirname, "replay.cjs");
if (fs.existsSync(replayFile) && require(replayFile).replay(process.argv.slice(2), bytes, replayFile)) return;

// the CommonJS loader itself; require("node:module") would also load the ES module loader (~0.5 ms)
const Module = module.constructor;
const v8 = require("node:v8");

// A build or check of a small pipeline is over before V8's optimising compiler pays back its
// compile time: turning it off saves ~15% CPU. Nor does it need incremental marking: the heap
// reaches V8's first old-space limit near the end of a run, and the process then waits ~10 ms for
// that marking cycle to finish before it can exit. Large pipelines keep both. They must be set
// before the script is compiled, because the code cache is only accepted under the flags it was
// made with.
const SMALL_PIPELINE = 64; // role files
function rolesDir(argv) {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--roles" && argv[i + 1]) return argv[i + 1];
    if (argv[i].startsWith("--roles=")) return argv[i].slice(8);
  }
  return "roles";
}
function roleFiles(dir) {
  try {
    return fs.readdirSync(dir).filter((f) => f.endsWith(".md")).length;
  } catch {
    return 0; // no readable roles folder (init, --version, a typo the command reports): nothing large to run
  }
}
// Watch mode rebuilds again and again in one process: there the optimising compiler pays back.
if (!process.argv.includes("--watch") && roleFiles(rolesDir(process.argv.slice(2))) <= SMALL_PIPELINE) {
  v8.setFlagsFromString("--no-opt");
  v8.setFlagsFromString("--no-incremental-marking");
}

const source = bytes.toString("utf8");
let cachedData;
try {
  cachedData = fs.readFileSync(path.join(__dirname, "main.cache"));
} catch {
  // no cache (a development build): compile from source
}
const script = new vm.Script(Module.wrap(source), { filename: file, cachedData });
// For the tests and for anyone wondering why a run is slow: was the cache used?
if (process.env.HARNESS_CODE_CACHE_REPORT) process.stderr.write(`harness: code cache ${cachedData === undefined ? "missing" : script.cachedDataRejected ? "rejected" : "accepted"}\n`);
const main = new Module(file, module);
main.filename = file;
main.paths = Module._nodeModulePaths(__dirname);
script.runInThisContext().call(main.exports, main.exports, Module.createRequire(file), main, file, __dirname);

const target = process.env.HARNESS_WRITE_CODE_CACHE;
if (target) process.on("exit", () => fs.writeFileSync(target, script.createCachedData()));
