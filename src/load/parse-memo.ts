// Watch mode keeps what it parsed: a file whose text did not change since the last rebuild is not
// parsed again. Off (and empty) outside watch mode. Each rebuild keeps only the entries it used, so
// the memo holds one parse per file.
import type { Diagnostic } from "../errors.js";
import type { YamlSource } from "./yaml-source.js";

type Parsed = { source: YamlSource; errors: Diagnostic[] };
let memo: { last: Map<string, Parsed>; next: Map<string, Parsed> } | null = null;

export function useParseMemo(on: boolean): void {
  memo = on ? { last: new Map(), next: new Map() } : null;
}

/** A rebuild begins: what the previous one used stays, the rest goes. */
export function nextParseRound(): void {
  if (!memo) return;
  memo.last = memo.next.size ? memo.next : memo.last;
  memo.next = new Map();
}

export function memoParse(file: string, text: string, lineOffset: number, parse: () => Parsed): Parsed {
  if (!memo) return parse();
  const key = `${file}\u0000${lineOffset}\u0000${text}`;
  const hit = memo.last.get(key) ?? memo.next.get(key) ?? parse();
  memo.next.set(key, hit);
  return hit;
}
