// The CLI bundled like scripts/bundle.mjs but unminified, with a source map, for profiling:
//   node bench/profile-bundle.mjs /tmp/hp && node --cpu-prof --cpu-prof-dir=/tmp/prof /tmp/hp/cli.js build -q
import { build } from "esbuild";

const out = process.argv[2];
if (!out) throw new Error("usage: node bench/profile-bundle.mjs OUTDIR");
await build({
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: true,
  banner: { js: "import{createRequire as __harnessRequire}from'node:module';const require=__harnessRequire(import.meta.url);" },
  entryPoints: { cli: "src/cli.ts" },
  outdir: out,
  logLevel: "warning",
});
