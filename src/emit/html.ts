// A small HTML serializer: elements are built from a tag, attributes and children, and every text
// and attribute value is escaped, so no string from roles/, pipeline.yaml or a run record can open
// a tag, close an attribute or start a script. Deterministic: attributes in the order given.
export class Html {
  constructor(readonly html: string) {}
}

export type Child = Html | string | number | null | undefined | false | readonly Child[];

const TEXT: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => TEXT[c]!);

const VOID = new Set(["meta", "br", "hr", "img", "link", "col"]);
const NAME = /^[a-z][a-z0-9-]*$/;

function children(c: Child): string {
  if (c === null || c === undefined || c === false) return "";
  if (c instanceof Html) return c.html;
  if (Array.isArray(c)) return (c as readonly Child[]).map(children).join("");
  return escapeHtml(String(c));
}

/** `<tag a="v">children</tag>`. Attribute values false/null/undefined are left out, true is a bare attribute. */
export function h(tag: string, attrs: Record<string, string | number | boolean | null | undefined> = {}, ...content: Child[]): Html {
  if (!NAME.test(tag)) throw new Error(`not an element name: ${tag}`);
  let open = `<${tag}`;
  for (const [name, value] of Object.entries(attrs)) {
    if (!NAME.test(name)) throw new Error(`not an attribute name: ${name}`);
    if (value === false || value === null || value === undefined) continue;
    open += value === true ? ` ${name}` : ` ${name}="${escapeHtml(String(value))}"`;
  }
  if (VOID.has(tag)) return new Html(`${open}>`);
  return new Html(`${open}>${children(content)}</${tag}>`);
}

/** A whole document. The style sheet is written by the caller (a constant), never from input. */
export function page(title: string, style: string, body: Child): string {
  if (style.includes("</")) throw new Error("style must not close its element");
  return `<!doctype html>\n${h("html", { lang: "en" }, h("head", {}, h("meta", { charset: "utf-8" }), h("meta", { name: "viewport", content: "width=device-width, initial-scale=1" }), h("title", {}, title), new Html(`<style>${style}</style>`)), h("body", {}, body)).html}\n`;
}
