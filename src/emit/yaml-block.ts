// A small block-style YAML writer for the shapes harness emits (maps, lists of scalars, strings,
// numbers, booleans, null), byte for byte what `yaml.stringify` writes with render.ts's options.
// Anything else returns null and the caller uses `yaml` itself: this only saves its cold start.

const INDICATOR = /^[\n\t ,[\]{}#&*!|>'"%@`]|^[?-]$|^[?-][ \t]|[\n:][ \t]|[ \t]\n|[\n\t ]#|[\n\t :]$/;
// yaml 1.2 core scalars other than strings: a plain string that reads as one of these is quoted
const NOT_A_STRING = [
  /^(?:~|[Nn]ull|NULL)?$/,
  /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/,
  /^0o[0-7]+$/,
  /^[-+]?[0-9]+$/,
  /^0x[0-9a-fA-F]+$/,
  /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/,
  /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/,
  /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/,
];
// Each of those starts with one of these characters (or is empty): most strings skip the eight tests.
const mayReadAsNonString = (value: string) => value === "" || "~NnTtFf0123456789+-.".includes(value[0]!);
// control characters and lone surrogates (yaml escapes them its own way), line breaks (folding
// rules), document markers, very long keys: left to yaml
const HARD = /[\x00-\x1f\x7f-\x9f\u2028\u2029]|[\uD800-\uDFFF]|^(?:%|---|\.\.\.)/u;

class Unsupported extends Error {}

// Each string's form, worked out once: every role's front matter repeats the same keys and patterns.
// null: left to yaml.
const memo = { key: new Map<string, string | null>(), value: new Map<string, string | null>() };

function scalarText(value: string, key = false): string {
  const known = key ? memo.key : memo.value;
  let text = known.get(value);
  if (text === undefined) known.set(value, (text = formOf(value, key)));
  if (text === null) throw new Unsupported();
  return text;
}

function formOf(value: string, key: boolean): string | null {
  // yaml writes a key over 1024 characters as an explicit "? " key
  if (HARD.test(value) || (key && value.length > 1000)) return null;
  if (!INDICATOR.test(value) && !(mayReadAsNonString(value) && NOT_A_STRING.some((re) => re.test(value)))) return value;
  const hasDouble = value.includes('"');
  const hasSingle = value.includes("'");
  if (hasDouble && !hasSingle) return `'${value}'`;
  return JSON.stringify(value); // yaml's double quotes are JSON's when nothing needs a \u escape
}

function leaf(value: unknown): string | undefined {
  if (typeof value === "string") return scalarText(value);
  if (typeof value === "boolean") return value ? "true" : "false";
  if (value === null) return "null";
  if (typeof value === "number") {
    if (!Number.isFinite(value) || Object.is(value, -0)) throw new Unsupported();
    return JSON.stringify(value);
  }
  return undefined;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;

// No object holds nothing but undefined (written as {} or not at all); a loop, not Object.values(…).every.
function allUndefined(map: Record<string, unknown>): boolean {
  for (const key of Object.keys(map)) if (map[key] !== undefined) return false;
  return true;
}

/**
 * Appends the map's lines to `out` in pieces (joined once at the end: no string per line). `first`
 * replaces the indent of the first line: a map in a list (hooks in Claude Code front matter) has its
 * first key on the "- " line.
 */
function writeMap(map: Record<string, unknown>, indent: string, out: string[], first = indent): void {
  let lead = first;
  for (const key of Object.keys(map)) {
    const value = map[key];
    if (value === undefined) continue;
    out.push(lead, scalarText(key, true), ":");
    lead = indent;
    const text = leaf(value);
    if (text !== undefined) out.push(" ", text, "\n");
    else if (Array.isArray(value)) {
      if (value.length === 0) out.push(" []\n");
      else {
        out.push("\n");
        for (const item of value) {
          const t = leaf(item);
          if (t !== undefined) {
            out.push(indent, "  - ", t, "\n");
            continue;
          }
          if (!isPlainObject(item) || allUndefined(item)) throw new Unsupported();
          writeMap(item, `${indent}    `, out, `${indent}  - `);
        }
      }
    } else if (isPlainObject(value)) {
      if (allUndefined(value)) out.push(" {}\n");
      else {
        out.push("\n");
        writeMap(value, `${indent}  `, out);
      }
    } else throw new Unsupported();
  }
}

/** The YAML text of a plain object, or null when this writer does not cover it. */
export function writeBlockYaml(data: unknown): string | null {
  if (!isPlainObject(data) || allUndefined(data)) return null;
  const out: string[] = [];
  try {
    writeMap(data, "", out);
  } catch (error) {
    if (error instanceof Unsupported) return null;
    throw error;
  }
  return out.join("");
}
