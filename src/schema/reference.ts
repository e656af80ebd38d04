// docs/reference/*.md, generated from the JSON Schemas (which are generated from the zod schemas and
// descriptions.ts), so the reference cannot drift from the format. `npm run schemas` writes them;
// test/docs-reference.test.ts fails when the committed pages are stale.
import { jsonSchemas, schemaFields } from "./json-schema.js";

type Node = { [key: string]: unknown };

const PAGES: Record<string, { file: string; title: string; intro: string }> = {
  "schema/pipeline.schema.json": {
    file: "docs/reference/pipeline.md",
    title: "`roles/pipeline.yaml` reference",
    intro:
      "The pipeline: artifacts, stages, gates, checks, the loop, policies and hosts. Nothing in harness knows the bundled pipeline's names: any pipeline compiles. Every role file must be the role of some stage. A stage inside `parallel` takes the same fields as a stage.",
  },
  "schema/role.schema.json": {
    file: "docs/reference/role.md",
    title: "Role front matter (`roles/<id>.md`) reference",
    intro:
      "YAML front matter, then the role's host-neutral prompt. The file name is the role id (lowercase letters, digits, single hyphens). Globs use one dialect (picomatch, dot files matchable; paths relative to the repository root); command patterns are words where `*` matches any run of characters.",
  },
};

const ID = "^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$";
const code = (v: unknown) => `\`${typeof v === "string" ? v : JSON.stringify(v)}\``;

function typeOf(n: Node): string {
  if (Array.isArray(n.enum)) return (n.enum as unknown[]).map(code).join(" \\| ");
  if (Array.isArray(n.anyOf)) return (n.anyOf as Node[]).map(typeOf).join(" or ");
  if (n.const !== undefined) return code(n.const);
  switch (n.type) {
    case "string":
      return n.pattern === ID ? "id" : "text";
    case "integer":
    case "number":
      return `${n.type}${typeof n.minimum === "number" ? ` ≥ ${n.minimum}` : typeof n.exclusiveMinimum === "number" ? ` > ${n.exclusiveMinimum}` : ""}`;
    case "boolean":
      return "bool";
    case "array":
      return `list of ${n.items ? typeOf(n.items as Node) : "values"}`;
    case "object":
      return n.additionalProperties && typeof n.additionalProperties === "object" ? `map of ${typeOf(n.additionalProperties as Node)}` : "mapping";
    default:
      return "any";
  }
}

export function referencePages(): Record<string, string> {
  const pages: Record<string, string> = {};
  for (const [schemaFile, text] of Object.entries(jsonSchemas())) {
    const page = PAGES[schemaFile]!;
    const schema = JSON.parse(text) as Node;
    const lines = [
      `# ${page.title}`,
      "",
      `<!-- Generated from ${schemaFile} by \`npm run schemas\`. Do not edit: change src/schema/ and regenerate. -->`,
      "",
      page.intro,
      "",
      `JSON Schema: [\`${schemaFile}\`](../../${schemaFile}).`,
      "",
      "| field | type | required | default | meaning |",
      "| --- | --- | --- | --- | --- |",
    ];
    const seen = new Set<string>();
    for (const f of schemaFields(schema)) {
      if (f.path.includes("parallel[].") || seen.has(f.path)) continue;
      seen.add(f.path);
      const fallback = f.node.default === undefined ? "" : code(f.node.default);
      const meaning = String(f.node.description ?? "").replace(/\|/g, "\\|");
      lines.push(`| \`${f.path}\` | ${typeOf(f.node)} | ${f.required ? "yes" : ""} | ${fallback} | ${meaning} |`);
    }
    pages[page.file] = `${lines.join("\n")}\n`;
  }
  return pages;
}
