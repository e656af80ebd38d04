// JSON Schemas for editors, generated from the zod schemas (the single source), committed under schema/.
import * as z from "zod";
import { PipelineFile } from "./pipeline.js";
import { RoleFrontMatter } from "./role.js";

export const SCHEMA_FILES = {
  "schema/pipeline.schema.json": { schema: PipelineFile, title: "harness pipeline.yaml" },
  "schema/role.schema.json": { schema: RoleFrontMatter, title: "harness role front matter (roles/<id>.md)" },
} as const;

export function jsonSchemas(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [file, { schema, title }] of Object.entries(SCHEMA_FILES)) {
    const json = { title, ...z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) };
    out[file] = `${JSON.stringify(json, null, 2)}\n`;
  }
  return out;
}
