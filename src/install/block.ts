// One marked harness block in a Markdown/text file the project shares (AGENTS.md, CLAUDE.md, GEMINI.md).
// The text around the block is the project's and is never touched.

export const BLOCK_BEGIN = "<!-- harness:begin (generated from roles/ by harness install; edit roles/, not this block) -->";
export const BLOCK_END = "<!-- harness:end -->";

// A file reached through a link (CLAUDE.md -> AGENTS.md) gets its own block in the target, named
// after the link, beside the target's own unnamed one.
const begin = (name?: string) => (name ? BLOCK_BEGIN.replace("begin (", `begin ${name} (`) : BLOCK_BEGIN);
const end = (name?: string) => (name ? BLOCK_END.replace("end -->", `end ${name} -->`) : BLOCK_END);
const beginPrefix = (name?: string) => begin(name).slice(0, begin(name).indexOf("(") + 1);

export interface Contribution {
  host: string;
  content: string;
  entry?: string;
}

/**
 * The block body for every host that emits this file: identical texts give one copy; otherwise each
 * host's `entry` is cut out, the rest must agree, and the entries are listed in host-id order.
 */
export function compose(path: string, contributions: readonly Contribution[]): { content: string; entries: Record<string, string> } {
  const sorted = [...contributions].sort((a, b) => (a.host < b.host ? -1 : 1));
  const entries = Object.fromEntries(sorted.filter((c) => c.entry !== undefined).map((c) => [c.host, c.entry!]));
  if (sorted.every((c) => c.content === sorted[0]!.content)) return { content: sorted[0]!.content, entries };
  const HOLE = "\u0000";
  const bases = sorted.map((c) => {
    if (c.entry === undefined) throw new Error(`${path}: hosts ${sorted.map((x) => x.host).join(", ")} emit different texts and ${c.host} declares no install entry to compose them by`);
    return c.content.replace(c.entry, HOLE);
  });
  if (!bases.every((b) => b === bases[0])) throw new Error(`${path}: hosts ${sorted.map((x) => x.host).join(", ")} emit texts that differ outside their entry lines`);
  return { content: bases[0]!.replace(HOLE, () => sorted.map((c) => c.entry!).join("\n\n")), entries };
}

/** Drop one host's entry from a composed block body (uninstall of one host among several). */
export function dropEntry(content: string, entry: string): string {
  if (content.includes(`${entry}\n\n`)) return content.replace(`${entry}\n\n`, "");
  if (content.includes(`\n\n${entry}`)) return content.replace(`\n\n${entry}`, "");
  return content;
}

export const renderBlock = (content: string, name?: string) => `${begin(name)}\n${content.endsWith("\n") ? content : `${content}\n`}${end(name)}\n`;

export interface Found {
  start: number; // offset of the begin marker
  end: number; // offset after the end marker's line
  content: string; // between the markers
}

/** The block in `text`, null when absent; throws on a broken or doubled block. */
export function findBlock(text: string, file: string, name?: string): Found | null {
  const prefix = beginPrefix(name);
  const start = text.indexOf(prefix);
  if (start < 0) return null;
  if (start > 0 && text[start - 1] !== "\n") throw new Error(`${file}: the harness begin marker must start a line`);
  if (text.indexOf(prefix, start + 1) >= 0) throw new Error(`${file}: holds two harness blocks; delete one`);
  const headerEnd = text.indexOf("\n", start);
  const endAt = text.indexOf(`\n${end(name)}`, start);
  if (headerEnd < 0 || endAt < 0) throw new Error(`${file}: has a harness begin marker but no "${end(name)}" line; restore it or delete the block`);
  const afterEnd = endAt + 1 + end(name).length;
  const after = text[afterEnd] === "\n" ? afterEnd + 1 : afterEnd;
  return { start, end: after, content: text.slice(headerEnd + 1, endAt + 1) };
}

/** Put the block into `text` (replacing an existing one in place); returns the separator it added. */
export function insertBlock(text: string | null, block: string, file: string, name?: string): { text: string; separator: string } {
  const current = text ?? "";
  const found = findBlock(current, file, name);
  if (found) return { text: current.slice(0, found.start) + block + current.slice(found.end), separator: "" };
  if (current === "") return { text: block, separator: "" };
  const separator = current.endsWith("\n") ? "\n" : "\n\n";
  return { text: current + separator + block, separator };
}

/**
 * Take the block out, with the separator install added before it, so text the team wrote below
 * the block follows their own text as it did before (and a file with nothing added is as it was).
 */
export function removeBlock(text: string, separator: string, file: string, name?: string): string {
  const found = findBlock(text, file, name);
  if (!found) return text;
  let before = text.slice(0, found.start);
  const after = text.slice(found.end);
  if (separator && before.endsWith(separator)) before = before.slice(0, before.length - separator.length);
  return before + after;
}
