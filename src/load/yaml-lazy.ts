// `yaml`, loaded on first use: the happy path reads with js-yaml and writes front matter with
// writeBlockYaml, so most runs never pay for yaml's start-up.
import { createRequire } from "node:module";
import type * as Yaml from "yaml";

let loaded: typeof Yaml | undefined;

export function yaml(): typeof Yaml {
  // In the bundle, `require("yaml")` is esbuild's lazy initialiser for the inlined copy; the ES
  // module source (tests) has no `require`, so it resolves the package itself.
  return (loaded ??= typeof require === "function" ? (require("yaml") as typeof Yaml) : (createRequire(import.meta.url)("yaml") as typeof Yaml));
}
