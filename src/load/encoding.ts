// A role or pipeline file must be UTF-8 text: an invalid byte would be replaced by U+FFFD and a NUL
// copied into every host's prompt, silently. Both are errors at their position.
import type { Diagnostic } from "../errors.js";

const decoder = new TextDecoder("utf-8", { fatal: true });

/** The file's text, or a diagnostic at the first invalid byte or NUL (1-based line and column). */
export function decodeText(file: string, bytes: Buffer): { text: string } | { diagnostic: Diagnostic } {
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    const at = firstInvalid(bytes);
    return { diagnostic: { code: "E_ENCODING", severity: "error", position: { file, ...lineColumn(bytes, at) }, message: `byte 0x${bytes[at]!.toString(16).padStart(2, "0")} is not UTF-8. Save the file as UTF-8 (it looks like Latin-1 or another legacy encoding).` } };
  }
  const nul = text.indexOf("\u0000");
  if (nul >= 0) {
    const before = text.slice(0, nul);
    const line = before.split("\n").length;
    return { diagnostic: { code: "E_ENCODING", severity: "error", position: { file, line, column: nul - before.lastIndexOf("\n") }, message: "a NUL byte; a role is text. Remove it (every host would get it in the prompt)." } };
  }
  return { text };
}

function firstInvalid(b: Buffer): number {
  for (let i = 0; i < b.length; ) {
    const c = b[i]!;
    const n = c < 0x80 ? 0 : c >= 0xc2 && c < 0xe0 ? 1 : c >= 0xe0 && c < 0xf0 ? 2 : c >= 0xf0 && c < 0xf5 ? 3 : -1;
    if (n < 0) return i;
    for (let k = 1; k <= n; k++) if (((b[i + k] ?? 0) & 0xc0) !== 0x80) return i;
    i += n + 1;
  }
  return 0;
}

function lineColumn(b: Buffer, at: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < at; i++) if (b[i] === 0x0a) (line++, (start = i + 1));
  return { line, column: Buffer.from(b.subarray(start, at)).toString("utf8").length + 1 };
}
