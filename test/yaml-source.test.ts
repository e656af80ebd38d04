// The fast YAML reader (js-yaml + a key scan) must agree with yaml's position-aware Document
// whenever it accepts a text: same data, same key positions, and no error or warning it would hide.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LineCounter, parseDocument, stringify } from "yaml";
import { normalizeText, splitFrontMatter } from "../src/load/load.js";
import { fieldPositions, readFast, type YamlSource } from "../src/load/yaml-source.js";

/** What the full reader makes of `text`: problems, data and key positions. */
function full(text: string, lineOffset: number) {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true, strict: true });
  const problems = doc.errors.length + doc.warnings.length;
  const source: YamlSource = { file: "x", text, data: undefined, lineOffset, doc, lineCounter };
  return { problems, data: problems ? undefined : doc.toJS({ maxAliasCount: 100 }), fields: problems ? {} : fieldPositions(source) };
}

function expectAgreement(text: string, lineOffset = 0): boolean {
  const fast = readFast(text, lineOffset);
  if (!fast) return false;
  const ref = full(text, lineOffset);
  expect(ref.problems, text).toBe(0);
  expect(fast.data, text).toStrictEqual(ref.data);
  expect(Object.entries(fast.fields), text).toEqual(Object.entries(ref.fields));
  return true;
}

const root = path.resolve(import.meta.dirname, "..");
function yamlTexts(): { file: string; text: string; offset: number }[] {
  const out: { file: string; text: string; offset: number }[] = [];
  const visit = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) visit(p);
      else if (e.name.endsWith(".yaml")) out.push({ file: p, text: normalizeText(readFileSync(p, "utf8")), offset: 0 });
      else if (e.name.endsWith(".md") && e.name !== "README.md") {
        const text = normalizeText(readFileSync(p, "utf8"));
        if (/^---[ \t]*\n/.test(text)) out.push({ file: p, text: splitFrontMatter(text).matter.replace(/^\n/, ""), offset: 1 });
      }
    }
  };
  for (const d of ["roles", "test/fixtures", "test/hosts/fixtures"]) visit(path.join(root, d));
  return out;
}

describe("fast YAML reader", () => {
  it("reads the bundled roles on the fast path, exactly as the full reader", () => {
    for (const name of readdirSync(path.join(root, "roles"))) {
      const text = normalizeText(readFileSync(path.join(root, "roles", name), "utf8"));
      const yaml = name.endsWith(".md") ? splitFrontMatter(text).matter.replace(/^\n/, "") : text;
      expect(expectAgreement(yaml, name.endsWith(".md") ? 1 : 0), name).toBe(true);
    }
  });

  it("agrees with the full reader on every YAML text in the repository's fixtures", () => {
    for (const { text, offset } of yamlTexts()) expectAgreement(text, offset);
  });

  // Lines from a small YAML vocabulary, many of them traps (js-yaml and yaml read some differently).
  const keys = ["a", "b", "tools", "x.y", "__proto__", "toString", "1", "true", '"q k"', "'s'", "k k", "-k", "? k", "a:b", "null"];
  const values = [
    "", " 1", " 1_000", " 0b11", " 0o17", " 0x1F", " +0x1", " -0x1", " 1e3", " 1.50", " .5", " -.INF", " .NaN", " +.inf", " 012", " -0",
    " yes", " No", " True", " FALSE", " ~", " null", " Null", " 2001-12-14", " a b", " a: b", " a #c", " a#c", " #c", ' "d\\"q"', ' "\\x41\\u00e9"',
    " 'it''s'", " [a, b]", " [a,\n  b]", " {a: 1}", " {a: 1, a: 2}", " &x v", " *x", " !!str 1", " !!int 1", " !t v", " |\n  l1\n  l2", " >-\n  f1\n\n  f2",
    " |+\n  k\n", " >2\n   i", " '\n  m'", " \"\n  m\"", " plain\n  cont", " @x", " `x", " %x", "\t1", " - a", " [a, b]: c",
  ];
  const lineArb = fc.record({
    indent: fc.constantFrom(0, 0, 2, 4, 1, 3),
    form: fc.constantFrom("pair", "pair", "pair", "item", "itempair", "comment", "blank", "raw"),
    key: fc.constantFrom(...keys),
    value: fc.constantFrom(...values),
    raw: fc.constantFrom("---", "...", "%YAML 1.2", "  continued", "]", "}", "- ", "-", "\tk: v", "k:\tv", "k: v ", "k : v"),
  });
  const render = (l: { indent: number; form: string; key: string; value: string; raw: string }) => {
    const pad = " ".repeat(l.indent);
    switch (l.form) {
      case "pair":
        return `${pad}${l.key}:${l.value}`;
      case "item":
        return `${pad}-${l.value || " v"}`;
      case "itempair":
        return `${pad}- ${l.key}:${l.value}`;
      case "comment":
        return `${pad}# c: d`;
      case "blank":
        return pad;
      default:
        return `${pad}${l.raw}`;
    }
  };

  it("never accepts a text the full reader would read differently or complain about (generated lines)", () => {
    let accepted = 0;
    fc.assert(
      fc.property(fc.array(lineArb, { minLength: 1, maxLength: 12 }), fc.constantFrom(0, 1), (lines, offset) => {
        if (expectAgreement(lines.map(render).join("\n"), offset)) accepted++;
      }),
      {
        numRuns: Number(process.env.FAST_YAML_RUNS ?? 3000),
        // found on seed -2010246511: "-", a deeper "- ", then "- v" (js-yaml nests the last item)
        examples: [[[{ indent: 3, form: "raw", key: "a", value: "", raw: "-" }, { indent: 4, form: "raw", key: "a", value: "", raw: "- " }, { indent: 3, form: "item", key: "a", value: "", raw: "---" }], 0]],
      },
    );
    expect(accepted).toBeGreaterThan(100); // the property must exercise the fast path, not only its refusals
  });

  it("reads what yaml itself writes, exactly as the full reader (generated documents)", () => {
    const scalar = fc.oneof(fc.string(), fc.constantFrom("1_000", "0b1", "+0x1", "-.INF", "yes", "~", "", " a", "a: b", "#", "- x"), fc.integer(), fc.double({ noNaN: true }), fc.boolean(), fc.constant(null));
    const { value } = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: "small" }, scalar, fc.array(tie("value"), { maxLength: 3 }), fc.dictionary(fc.constantFrom("a", "b", "c-d", "e_f", "g.h", "1", "yes", "k k", "é"), tie("value"), { maxKeys: 3 })),
    }));
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom("a", "b", "tools", "x", "permissions"), value, { minKeys: 1, maxKeys: 4 }), fc.boolean(), (data, flow) => {
        const text = stringify(data, { lineWidth: 0, minContentWidth: 0, collectionStyle: flow ? "flow" : "any" });
        expectAgreement(text);
      }),
      { numRuns: 1000 },
    );
  });
});

describe("front matter split", () => {
  it("splits exactly as gray-matter did (generated role files)", async () => {
    const matter = (await import("gray-matter")).default;
    const piece = fc.constantFrom("---", "----", "--- x", "---\t", "a: 1", "", "\r", "b", "# c", "  ---", "x---");
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), fc.constantFrom("", " ", "\t"), (lines, pad) => {
        const text = `---${pad}\n${lines.join("\n")}`;
        const ref = matter(text, { engines: { yaml: () => ({}) } }) as unknown as { matter: string; content: string };
        expect(splitFrontMatter(text)).toEqual({ matter: ref.matter, content: ref.content });
      }),
      { numRuns: 2000 },
    );
  });
});
