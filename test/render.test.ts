// Serializers: whatever an author writes, the emitted file parses back to exactly the same values.
import fc from "fast-check";
import { parse as parseToml } from "smol-toml";
import { describe, expect, it } from "vitest";
import { splitFrontMatter } from "./helpers/markdown.js";
import { renderFile, renderJson, renderMarkdown, renderToml, sortKeys } from "../src/emit/render.js";

const nasty = fc.oneof(
  fc.string({ unit: "grapheme" }),
  fc.constantFrom("---", "\n---\n", "key: value", "# comment", "'single'", '"double"', "{{ handlebars }}", "a\nb\nc", "ünïcødé ✓ 🪨", "- list", "[x]", "*alias", "&anchor", "!tag", "@at", "|", ">", '"""', "'''", "\\", "\t", "null", "true", "0x1F", "1e3", "~", " leading", "trailing ", "\r\n", "__proto__", "constructor"),
  fc.string({ unit: fc.constantFrom("-", ":", "#", "\n", "'", '"', "{", "}", " ", "a", "\\", "`", "$") }),
);

describe("serializers round-trip hostile strings", () => {
  it("YAML front matter: values come back unchanged and cannot close the block or add keys", () => {
    fc.assert(
      fc.property(nasty, nasty, nasty, (name, description, body) => {
        const text = renderMarkdown({ name, description }, body.length ? body : "x");
        const back = splitFrontMatter(text);
        expect(back.data).toEqual({ name, description });
      }),
      { numRuns: 400 },
    );
  });

  it("JSON: values round-trip and keys are sorted at every depth", () => {
    fc.assert(
      fc.property(fc.dictionary(nasty, nasty), (dict) => {
        const text = renderJson({ z: dict, a: [dict] });
        expect(JSON.parse(text)).toEqual({ a: [dict], z: dict });
        expect(Object.keys(JSON.parse(text) as object)).toEqual(["a", "z"]);
      }),
    );
  });

  it("TOML: strings round-trip, including triple quotes and newlines", () => {
    fc.assert(
      fc.property(nasty, nasty, (key, value) => {
        const data = { agent: { [key.length ? key : "k"]: value, instructions: `${value}\n"""\n${value}` } };
        expect(parseToml(renderToml(data))).toEqual(data);
      }),
      { numRuns: 300 },
    );
  });

  it("markdown bodies keep template syntax literal and end in exactly one newline", () => {
    const file = renderFile({ path: "a.md", kind: "markdown", frontmatter: { a: 1 }, body: "{{x}} $ARGUMENTS\n\n\n" });
    expect(file.content).toBe("---\na: 1\n---\n\n{{x}} $ARGUMENTS\n");
  });

  it('a "__proto__" key is kept as a key (found by the property test above)', () => {
    const data = JSON.parse('{"__proto__": "x", "b": {"__proto__": {"c": 1}}}');
    expect(JSON.parse(renderJson(data))).toEqual(data);
    expect(renderJson(data)).toBe('{\n  "__proto__": "x",\n  "b": {\n    "__proto__": {\n      "c": 1\n    }\n  }\n}\n');
  });

  it("sortKeys drops undefined and keeps arrays in order", () => {
    expect(sortKeys({ b: 1, a: undefined, c: [3, 1] })).toEqual({ b: 1, c: [3, 1] });
  });
});
