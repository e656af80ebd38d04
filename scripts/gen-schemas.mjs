// Writes schema/*.schema.json from the compiled zod schemas, and docs/reference/*.md from those.
// test/schema-files.test.ts and test/docs-reference.test.ts fail when they are stale.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const { jsonSchemas } = await import(path.join(root, "dist/tools/json-schema.js"));
const { referencePages } = await import(path.join(root, "dist/tools/reference.js"));
for (const [file, text] of Object.entries({ ...jsonSchemas(), ...referencePages() })) {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), text);
  console.log(`wrote ${file}`);
}
