// The role and pipeline reference pages are generated from the JSON Schemas, which carry a
// description for every field: a new field without one, or a stale page, fails here (and so in CI).
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { jsonSchemas, schemaFields } from "../src/schema/json-schema.js";
import { referencePages } from "../src/schema/reference.js";
import { ROOT } from "./helpers/cli.js";

describe("docs/reference", () => {
  for (const [file, text] of Object.entries(referencePages()))
    it(`${file} is generated from the schemas (run \`npm run schemas\` to refresh)`, () => {
      expect(readFileSync(path.join(ROOT, file), "utf8")).toBe(text);
    });

  for (const [file, text] of Object.entries(jsonSchemas()))
    it(`every field of ${file} has a description`, () => {
      const fields = schemaFields(JSON.parse(text));
      expect(fields.length).toBeGreaterThan(20);
      expect(fields.filter((f) => typeof f.node.description !== "string" || f.node.description.length < 10).map((f) => f.path)).toEqual([]);
    });

  it("lists every field once, with its type", () => {
    const page = referencePages()["docs/reference/role.md"]!;
    expect(page).toMatch(/^\| `permissions\.shell\.default` \| `allow` \\\| `ask` \\\| `deny` \|/m);
    expect(page.match(/^\| `tools` /gm)).toHaveLength(1);
  });
});
