// Writes a synthetic pipeline of N roles for the scaling benchmark: the bundled roles/ plus copies of
// jade.md (jade0001.md, …), each run by one new stage inserted before `commands:` in pipeline.yaml.
// Usage: node bench/gen-roles.mjs N DIR   (N ≥ 8; DIR is replaced)
import { cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export function generateRoles(n, dir) {
  rmSync(dir, { recursive: true, force: true });
  cpSync(path.join(root, "roles"), dir, { recursive: true });
  const jade = readFileSync(path.join(dir, "jade.md"), "utf8");
  const stages = [];
  for (let i = 1; i <= n - 8; i++) {
    const id = `jade${String(i).padStart(4, "0")}`;
    writeFileSync(path.join(dir, `${id}.md`), jade.replace(/^title: .*$/m, `title: Jade ${i} (implementation)`));
    stages.push(`  - {id: implement-${String(i).padStart(4, "0")}, role: ${id}, description: Implementation pass ${i}.}\n`);
  }
  const pipelineFile = path.join(dir, "pipeline.yaml");
  const pipeline = readFileSync(pipelineFile, "utf8");
  const at = pipeline.indexOf("\ncommands:");
  if (at < 0) throw new Error("pipeline.yaml has no top-level commands:");
  writeFileSync(pipelineFile, `${pipeline.slice(0, at).replace(/\n+$/, "\n")}${stages.join("")}${pipeline.slice(at)}`);
  return dir;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [n, dir] = process.argv.slice(2);
  if (!n || !dir || Number(n) < 8) throw new Error("usage: node bench/gen-roles.mjs N DIR (N >= 8)");
  generateRoles(Number(n), path.resolve(dir));
}
