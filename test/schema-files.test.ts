import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { jsonSchemas } from "../src/schema/json-schema.js";
import { ROOT } from "./helpers/cli.js";

describe("published JSON Schemas", () => {
  for (const [file, text] of Object.entries(jsonSchemas())) {
    it(`${file} is in sync with the zod schema (run \`npm run schemas\` to refresh)`, () => {
      expect(readFileSync(path.join(ROOT, file), "utf8")).toBe(text);
    });
  }
  it("pipeline.yaml points editors at the schema", () => {
    expect(readFileSync(path.join(ROOT, "roles/pipeline.yaml"), "utf8").split("\n")[0]).toBe("# yaml-language-server: $schema=../schema/pipeline.schema.json");
  });
});
