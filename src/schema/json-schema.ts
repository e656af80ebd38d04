// JSON Schemas for editors, generated from the zod schemas (the single source of the format), with
// each field's description from descriptions.ts; committed under schema/ (npm run schemas).
import * as z from "zod";
import { fieldDescription, PIPELINE_FIELDS, ROLE_FIELDS } from "./descriptions.js";
import { pipelineSchema } from "./pipeline.js";
import { roleSchema } from "./role.js";

export const SCHEMA_FILES = {
  "schema/pipeline.schema.json": { schema: pipelineSchema, title: "harness pipeline.yaml", fields: PIPELINE_FIELDS },
  "schema/role.schema.json": { schema: roleSchema, title: "harness role front matter (roles/<id>.md)", fields: ROLE_FIELDS },
} as const;

type Node = { [key: string]: unknown };

/** Every object property under node, with its path (`*` map values, `[]` list items). `prefix` is "" or ends with ".". */
export function schemaFields(node: unknown, prefix = ""): { path: string; node: Node; required: boolean }[] {
  if (!node || typeof node !== "object") return [];
  const n = node as Node;
  const found: { path: string; node: Node; required: boolean }[] = [];
  if (n.properties && typeof n.properties === "object")
    for (const [key, value] of Object.entries(n.properties as Record<string, Node>)) {
      found.push({ path: `${prefix}${key}`, node: value, required: Array.isArray(n.required) && n.required.includes(key) });
      found.push(...schemaFields(value, `${prefix}${key}.`));
    }
  if (n.additionalProperties && typeof n.additionalProperties === "object") found.push(...schemaFields(n.additionalProperties, `${prefix}*.`));
  if (n.items) found.push(...schemaFields(n.items, `${prefix.replace(/\.$/, "")}[].`));
  for (const k of ["anyOf", "oneOf", "allOf"]) if (Array.isArray(n[k])) for (const alt of n[k] as unknown[]) found.push(...schemaFields(alt, prefix));
  return found;
}

export function jsonSchemas(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [file, { schema, title, fields }] of Object.entries(SCHEMA_FILES)) {
    const json = { title, ...z.toJSONSchema(schema(), { io: "input", unrepresentable: "any" }) };
    for (const f of schemaFields(json)) {
      const text = fieldDescription(fields, f.path);
      if (text && f.node.description === undefined) f.node.description = text;
    }
    out[file] = `${JSON.stringify(json, null, 2)}\n`;
  }
  return out;
}
