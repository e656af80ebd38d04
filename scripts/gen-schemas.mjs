// Writes schema/*.schema.json from the compiled zod schemas. test/schema-files.test.ts fails when they are stale.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const { jsonSchemas } = await import(path.join(root, "dist/tools/json-schema.js"));
for (const [file, text] of Object.entries(jsonSchemas())) {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), text);
  console.log(`wrote ${file}`);
}
