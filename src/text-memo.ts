// Watch mode keeps texts that are costly to assemble and mostly the same from one rebuild to the next
// (a guard script changes only when some role's permissions do), by their whole input. The same
// string then reaches staging, whose comparison with the text it last saw is a pointer test
// (src/stage-memo.ts). Off (and empty) outside watch mode; a rebuild keeps only the entries it used.
let memo: { last: Map<string, string>; next: Map<string, string> } | null = null;

export function useTextMemo(on: boolean): void {
  memo = on ? { last: new Map(), next: new Map() } : null;
}

/** A rebuild begins (src/load/load.ts): what the previous one used stays, the rest goes. */
export function nextTextRound(): void {
  if (!memo) return;
  memo.last = memo.next.size ? memo.next : memo.last;
  memo.next = new Map();
}

/** `make()`, or the text it made for the same `key()` in this or the previous rebuild. */
export function memoText(key: () => string, make: () => string): string {
  if (!memo) return make();
  const k = key();
  const text = memo.last.get(k) ?? memo.next.get(k) ?? make();
  memo.next.set(k, text);
  return text;
}
