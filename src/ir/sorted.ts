// Sorted, duplicate-free string lists in UTF-16 code-unit order (what Array.prototype.sort() does
// with strings), for the IR's lists of globs and command patterns.

export const uniqSorted = (list: Iterable<string>): string[] => [...new Set(list)].sort();

/**
 * uniqSorted([...extra, ...base]) for a `base` that is already sorted and duplicate-free: the few
 * extra items are sorted and merged in, instead of sorting the whole list again. Every role adds its
 * own entries to the pipeline-wide lists, so this runs once per role.
 */
export function mergeSorted(base: readonly string[], extra: Iterable<string>): string[] {
  const add = uniqSorted(extra);
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < base.length && j < add.length) {
    const a = base[i]!;
    const b = add[j]!;
    if (a < b) (out.push(a), i++);
    else if (b < a) (out.push(b), j++);
    else (out.push(a), i++, j++);
  }
  while (i < base.length) out.push(base[i++]!);
  while (j < add.length) out.push(add[j++]!);
  return out;
}
