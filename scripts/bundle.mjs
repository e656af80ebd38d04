// Bundles the CLI into one file, dist/cli/cli.js, with esbuild: minified; dynamic imports (each
// command and host) become lazy initialisers inside it, so nothing unused runs, and there is one
// module to load instead of ~150 files or a dozen chunks. Type checking is `npm run typecheck`.
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
await build({ ...common, entryPoints: { cli: "src/cli.ts" }, outdir: "dist/cli" });
await build({ ...common, entryPoints: { "json-schema": "src/schema/json-schema.ts" }, outdir: "dist/tools" });
chmodSync(new URL("../dist/cli/cli.js", import.meta.url), 0o755);
