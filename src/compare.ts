// Sorting that does not depend on the machine. `localeCompare` follows the user's locale (under
// LANG=cs_CZ "chalk" sorts after "coral", since "ch" is a letter after "h"), which would make a
// build's bytes differ between a developer and CI; its first call also loads ICU collation (~6 ms).
/** Orders strings by UTF-16 code units, like `Array.prototype.sort()` without a comparator. */
export const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
