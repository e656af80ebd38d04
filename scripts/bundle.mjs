// Bundles the CLI into dist/cli/ with esbuild: one module graph, minified, with lazy chunks for each
// command and host (dynamic imports stay lazy). Loading one bundle instead of ~150 files is most of
// harness's start-up time. Type checking is `npm run typecheck` (tsc --noEmit).
import { build } from "esbuild";
import { chmodSync, rmSync } from "node:fs";

rmSync(new URL("../dist", import.meta.url), { recursive: true, force: true });
const common = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  minify: true,
  legalComments: "linked",
  // Some dependencies are CommonJS and call require(); give the ESM bundle one.
  banner: { js: "import{createRequire as __harnessRequire}from'node:module';const require=__harnessRequire(import.meta.url);" },
  logLevel: "warning",
};
await build({ ...common, entryPoints: { cli: "src/cli.ts" }, outdir: "dist/cli", splitting: true, chunkNames: "chunks/[name]-[hash]" });
await build({ ...common, entryPoints: { "json-schema": "src/schema/json-schema.ts" }, outdir: "dist/tools" });
chmodSync(new URL("../dist/cli/cli.js", import.meta.url), 0o755);
