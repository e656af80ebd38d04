// JSON Schemas for editors, generated from the zod schemas (the single source), committed under schema/.
import * as z from "zod";
import { pipelineSchema } from "./pipeline.js";
import { roleSchema } from "./role.js";

export const SCHEMA_FILES = {
  "schema/pipeline.schema.json": { schema: pipelineSchema, title: "harness pipeline.yaml" },
  "schema/role.schema.json": { schema: roleSchema, title: "harness role front matter (roles/<id>.md)" },
} as const;

export function jsonSchemas(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [file, { schema, title }] of Object.entries(SCHEMA_FILES)) {
    const json = { title, ...z.toJSONSchema(schema(), { io: "input", unrepresentable: "any" }) };
    out[file] = `${JSON.stringify(json, null, 2)}\n`;
  }
  return out;
}
