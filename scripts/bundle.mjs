// Bundles the CLI with esbuild into dist/cli/: main.cjs (minified; dynamic imports of each command
// and host become lazy initialisers inside it, so nothing unused runs and there is one script to
// load), cli.js (src/loader.cjs: the executable, which loads main.cjs through V8's code cache) and
// main.cache, that cache, made by a training run of the bundled roles (build, check, diff). CommonJS
// because V8's code cache is reachable from vm.Script, not from ES modules, on Node 20.
// Type checking is `npm run typecheck`.
import { build } from "esbuild";
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { lazyBuiltins } from "./lazy-builtins.mjs";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const dist = path.join(root, "dist");
rmSync(dist, { recursive: true, force: true });
const common = { bundle: true, platform: "node", target: "node20", minify: true, legalComments: "linked", logLevel: "warning" };
await build({
  ...common,
  format: "cjs",
  // Two modules read their own location through import.meta.url; CommonJS has __filename.
  define: { "import.meta.url": "__harness_url" },
  banner: { js: "var __harness_url=require('node:url').pathToFileURL(__filename).href;" },
  // Bundled dependencies name two builtins without the node: prefix; one spelling for every builtin.
  alias: { process: "node:process", buffer: "node:buffer" },
  entryPoints: { main: "src/bin.ts" },
  outExtension: { ".js": ".cjs" },
  outdir: "dist/cli",
  plugins: [lazyBuiltins({ child_process: ["execFile", "spawn", "spawnSync"], tty: ["isatty"], module: ["createRequire"] })],
});
// The cached no-op (src/cache/replay.ts), alone: the loader runs it before it loads main.cjs.
await build({ ...common, format: "cjs", entryPoints: { replay: "src/cache/replay.ts" }, outExtension: { ".js": ".cjs" }, outdir: "dist/cli", plugins: [lazyBuiltins({ child_process: ["spawnSync"], tty: ["isatty"] })] });
writeFileSync(path.join(dist, "cli/package.json"), `${JSON.stringify({ type: "commonjs" }, null, 2)}\n`);
copyFileSync(path.join(root, "src/loader.cjs"), path.join(dist, "cli/cli.js"));
chmodSync(path.join(dist, "cli/cli.js"), 0o755);
await build({
  ...common,
  format: "esm",
  banner: { js: "import{createRequire as __harnessRequire}from'node:module';const require=__harnessRequire(import.meta.url);" },
  entryPoints: { "json-schema": "src/schema/json-schema.ts", reference: "src/schema/reference.ts" },
  outdir: "dist/tools",
});

// The training run: each command loads the previous cache and writes a fuller one (the functions it
// compiled are added). Its output goes to a temporary folder; a failure leaves no cache, never a bad one.
const scratch = mkdtempSync(path.join(tmpdir(), "harness-cache-"));
try {
  const cache = path.join(dist, "cli/main.cache");
  const next = path.join(scratch, "main.cache");
  const out = path.join(scratch, "out");
  const roles = path.join(root, "roles");
  for (const args of [["build", "-q"], ["check", "-q"], ["diff", "--all"], ["build", "-q"]]) {
    execFileSync(process.execPath, [path.join(dist, "cli/cli.js"), ...args, "--roles", roles, "--out", out], {
      cwd: scratch,
      env: { ...process.env, HARNESS_WRITE_CODE_CACHE: next, NO_COLOR: "1" },
      stdio: "ignore",
    });
    renameSync(next, cache);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
