// JSON with comments and trailing commas (JSONC), as OpenCode and Kilo read their config. Comments
// and trailing commas are blanked to spaces (newlines stay), so offsets, lines and columns of the
// blanked text are the original's and JSON.parse reads it.

/** The text with every comment and trailing comma replaced by spaces; strings are left alone. */
export function blankJsonc(text: string): string {
  const out = text.split("");
  let i = 0;
  let lastComma = -1; // a comma not yet followed by a value
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (out[k] !== "\n" && out[k] !== "\r") out[k] = " ";
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') {
      lastComma = -1;
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
      i++;
    } else if (c === "/" && text[i + 1] === "/") {
      const end = text.indexOf("\n", i);
      blank(i, end < 0 ? text.length : end);
      i = end < 0 ? text.length : end;
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      if (end < 0) return out.join(""); // unclosed: JSON.parse reports it where it starts
      blank(i, end + 2);
      i = end + 2;
    } else if (c === ",") {
      lastComma = i++;
    } else if (c === "}" || c === "]") {
      if (lastComma >= 0) blank(lastComma, lastComma + 1);
      lastComma = -1;
      i++;
    } else {
      if (!" \t\r\n".includes(c)) lastComma = -1;
      i++;
    }
  }
  return out.join("");
}

export const parseJsonc = (text: string): unknown => JSON.parse(blankJsonc(text));

/** The text holds a comment (a trailing comma alone is lost by no serializer that matters here). */
export const hasComments = (text: string): boolean => {
  const blanked = blankJsonc(text);
  for (let i = 0; i < text.length; i++) if (text[i] === "/" && blanked[i] === " ") return true;
  return false;
};
