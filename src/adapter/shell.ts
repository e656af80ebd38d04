// Quoting for generated POSIX shell scripts (launchers), shared by the hosts that emit them.

/** One POSIX shell word holding exactly `s` (single quotes; `'` becomes `'\''`). */
export function shellQuote(s: string): string {
  if (s.includes("\0")) throw new Error("a shell word cannot hold a NUL character");
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Text for a `#` comment line: no line breaks or other control characters can end the comment. */
export function commentText(s: string): string {
  return s.replace(/[\u0000-\u001f\u007f\u0085\u2028\u2029]/g, " ");
}
