// Serializers: whatever an author writes, the emitted file parses back to exactly the same values.
import fc from "fast-check";
import { parse as parseToml } from "smol-toml";
import { describe, expect, it } from "vitest";
import { splitFrontMatter } from "./helpers/markdown.js";
import { parse as parseYaml, stringify } from "yaml";
import { renderFile, renderJson, renderMarkdown, renderToml, sortKeys, YAML_OPTIONS } from "../src/emit/render.js";
import { writeBlockYaml } from "../src/emit/yaml-block.js";
import { PEBBLE_ROLES } from "./helpers/cli.js";
import { compileAll } from "./helpers/compile.js";

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

describe("block YAML writer", () => {
  it("writes exactly what yaml.stringify writes, or declines (generated data)", () => {
    const str = fc.oneof(
      fc.string(),
      fc.constantFrom("", " a", "a ", "-", "- a", "?", "? a", "a: b", "a:b", "a #b", "a#b", "#a", "*", "*.env", "src/**", "!x", "&x", "'q'", '"q"', "it's", 'say "hi"', `"'`,
        "1", "1.5", "1e3", ".inf", "-.INF", ".nan", "0x1F", "0o17", "+1", "~", "null", "NULL", "true", "False", "yes", "on", "1_000", "%x", "@x", "`x", "---", "...x", "a\nb", "é", "日本", "\u2028", "a\tb", "{a}", "[a]", "a,b", "|", ">"),
    );
    const leafArb = fc.oneof(str, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constant(undefined));
    const { node } = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: "small" }, leafArb, fc.array(fc.oneof(leafArb, tie("node")), { maxLength: 3 }), fc.dictionary(str, tie("node"), { maxKeys: 4 })),
    }));
    let written = 0;
    fc.assert(
      fc.property(fc.dictionary(str, node, { maxKeys: 6 }), (data) => {
        const mine = writeBlockYaml(data);
        if (mine === null) return;
        written++;
        expect(mine).toBe(stringify(data, YAML_OPTIONS));
      }),
      { numRuns: Number(process.env.BLOCK_YAML_RUNS ?? 3000) },
    );
    expect(written).toBeGreaterThan(100); // the property must exercise the writer, not only its refusals
  });

  it("quotes every string yaml 1.2 would read as another type, as a value and as a key", () => {
    // One per first character the writer's short cut lets through to its type tests.
    const scalars = ["", "~", "null", "Null", "NULL", "true", "True", "TRUE", "false", "False", "FALSE", "0o17", "0x1F", "12", "-3", "+4", ".inf", "-.Inf", "+.INF", ".nan", ".NaN", ".NAN", "1e3", "-1.5E-3", "+.5e2", "1.", ".5", "-2.5", "+.5", "9"];
    for (const s of scalars) {
      const data = { [s || "k"]: s, list: [s] };
      expect(writeBlockYaml(data), JSON.stringify(s)).toBe(stringify(data, YAML_OPTIONS));
      expect(stringify(data, YAML_OPTIONS)).toMatch(/["']/);
    }
  });

  it("covers every front matter of the bundled build (so yaml is not loaded to write it)", async () => {
    const { outputs } = await compileAll(PEBBLE_ROLES);
    let seen = 0;
    for (const f of outputs.flatMap((o) => o.files)) {
      const m = /^---\n([\s\S]*?\n)---\n/.exec(f.content);
      if (!f.path.endsWith(".md") || !m) continue;
      seen++;
      expect(writeBlockYaml(parseYaml(m[1]!)), f.path).toBe(m[1]);
    }
    expect(seen).toBeGreaterThan(10);
  });
});

describe("newline handling", () => {
  // renderMarkdown and text files trim and convert newlines without regexes over the whole file;
  // the result must be what the regexes gave.
  const reference = (body: string) => {
    const text = body.replace(/\r\n?/g, "\n").replace(/\n+$/, "");
    return text.endsWith("\n") ? text : `${text}\n`;
  };
  const lines = fc.string({ unit: fc.constantFrom("a", " ", "\n", "\r", "\r\n", "\n\n", "é", "\u2028") });
  it("markdown bodies: CRLF and CR become LF, trailing newlines become exactly one", () => {
    fc.assert(
      fc.property(lines, (body) => {
        expect(renderMarkdown(undefined, body)).toBe(reference(body));
        expect(renderMarkdown({ a: 1 }, body)).toBe(`---\na: 1\n---\n\n${reference(body)}`);
        // a body made of pieces (a rope), and front matter whose YAML holds a \r or ends the text
        expect(renderMarkdown({ a: 1 }, `${body}x`.slice(0, -1))).toBe(`---\na: 1\n---\n\n${reference(body)}`);
        expect(renderMarkdown({ a: "x\ry" }, body)).toBe(`---\na: "x\\ry"\n---\n\n${reference(body)}`);
      }),
      { numRuns: 2000 },
    );
  });
  it("text files: CRLF and CR become LF, one trailing newline added when missing", () => {
    fc.assert(
      fc.property(lines, (text) => {
        const converted = text.replace(/\r\n?/g, "\n");
        expect(renderFile({ kind: "text", path: "x.sh", text }).content).toBe(converted.endsWith("\n") ? converted : `${converted}\n`);
      }),
      { numRuns: 1000 },
    );
  });
});
