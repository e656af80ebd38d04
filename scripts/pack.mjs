// Packs the publishable tarball: the built CLI (every dependency is bundled into dist/cli), the
// bundled roles, the schemas and the init templates, with a package.json that has no scripts and no
// dependencies. So installing the tarball runs nothing and fetches nothing (npm 11 warns about any
// install script, and `prepare` is only for git dependencies, which must build dist/ themselves).
// Usage: node scripts/pack.mjs [DEST]  → DEST/agent-harness-<version>.tgz (DEST defaults to .)
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const dest = path.resolve(process.argv[2] ?? ".");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
execFileSync(npm, ["run", "--silent", "build"], { cwd: root, stdio: "inherit" });

const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
const stage = mkdtempSync(path.join(tmpdir(), "harness-pack-"));
try {
  for (const entry of [...pkg.files, "README.md"]) cpSync(path.join(root, entry), path.join(stage, entry), { recursive: true });
  const { scripts, devDependencies, overrides, allowScripts, ...published } = pkg;
  void scripts, devDependencies, overrides, allowScripts;
  writeFileSync(path.join(stage, "package.json"), `${JSON.stringify(published, null, 2)}\n`);
  const out = execFileSync(npm, ["pack", "--json", "--pack-destination", dest], { cwd: stage, encoding: "utf8" });
  const [info] = JSON.parse(out);
  process.stdout.write(`${path.join(dest, info.filename)} (${info.size} bytes, ${info.entryCount} files)\n`);
} finally {
  rmSync(stage, { recursive: true, force: true });
}
