// The CLI bundled like scripts/bundle.mjs (CommonJS behind the code-cache loader) but unminified,
// with a source map and its own trained code cache, for profiling:
//   node bench/profile-bundle.mjs /tmp/hp && node --cpu-prof --cpu-prof-dir=/tmp/prof /tmp/hp/cli.js build -q
import { build } from "esbuild";
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { lazyBuiltins } from "../scripts/lazy-builtins.mjs";

const out = process.argv[2] && path.resolve(process.argv[2]);
if (!out) throw new Error("usage: node bench/profile-bundle.mjs OUTDIR");
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
mkdirSync(out, { recursive: true });
await build({
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  sourcemap: true,
  define: { "import.meta.url": "__harness_url" },
  banner: { js: "var __harness_url=require('node:url').pathToFileURL(__filename).href;" },
  alias: { process: "node:process", buffer: "node:buffer" },
  entryPoints: { main: "src/bin.ts" },
  outExtension: { ".js": ".cjs" },
  outdir: out,
  logLevel: "warning",
  plugins: [lazyBuiltins({ child_process: ["execFile", "spawn", "spawnSync"], tty: ["isatty"], module: ["createRequire"] })],
});
writeFileSync(path.join(out, "package.json"), '{ "type": "commonjs" }\n');
copyFileSync(path.join(root, "src/loader.cjs"), path.join(out, "cli.js"));
const scratch = mkdtempSync(path.join(tmpdir(), "harness-prof-"));
const next = path.join(scratch, "main.cache");
for (const args of [["build", "-q"], ["check", "-q"], ["build", "-q"]]) {
  execFileSync(process.execPath, [path.join(out, "cli.js"), ...args, "--roles", path.join(root, "roles"), "--out", path.join(scratch, "out")], { cwd: scratch, env: { ...process.env, HARNESS_WRITE_CODE_CACHE: next }, stdio: "ignore" });
  renameSync(next, path.join(out, "main.cache"));
}
rmSync(scratch, { recursive: true, force: true });
