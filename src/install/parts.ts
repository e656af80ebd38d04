// Per install mode: is harness's part of a file still as harness wrote it, and what is the file
// without harness's part (the project's own content)? Pure functions on text; no disk access.
import { findBlock, removeBlock } from "./block.js";
import { parseData, renderData } from "./formats.js";
import type { LockEntry } from "./lock.js";
import { sha256 } from "./lock.js";
import { problemAt, type Problem } from "./locate.js";
import { mapEntries } from "./entries.js";
import { clone, deepEqual, formatPath, isObject, modifiedItems, unmergeData, type Data, type OwnedItem } from "./merge.js";

/** What a hand edit changed in harness's part, located in the file; empty when nothing did. */
export function handEdits(path: string, current: string | null, entry: LockEntry, marks: readonly string[] = []): Problem[] {
  if (current === null) return [];
  if (entry.mode === "whole") return sha256(current) === entry.sha256 ? [] : [problemAt("W_HAND_EDIT", path, null, "the file was edited")];
  if (entry.mode === "block") {
    const found = findBlock(current, path, entry.link && path);
    if (!found) return [problemAt("W_HAND_EDIT", path, null, "the harness block was deleted")];
    return sha256(found.content) === entry.block ? [] : [problemAt("W_HAND_EDIT", path, current, "the harness block was edited")];
  }
  if (sha256(current) === entry.sha256) return [];
  const data = parseData(entry.format, current, path);
  const { found, strays } = mapEntries(data, entry.owned, marks);
  const edited = modifiedItems(data, entry.owned, marks).map((item) => problemAt("W_HAND_EDIT", path, current, describe(item, item.kind === "add" && found.get(item)?.edited === true), item.path));
  const extra = strays.map((s) =>
    problemAt(
      s.duplicate ? "W_DUPLICATE_ENTRY" : "W_ORPHANED_ENTRY",
      path,
      current,
      `${formatPath(s.path)}[${s.index}] ${s.duplicate ? "is a second copy of harness's entry" : "names a harness file, but harness.lock.json records no such entry (orphaned)"}: ${brief(s.value)}`,
      s.path,
    ),
  );
  return [...edited, ...extra];
}

// A hook entry's command starts with the same environment cleaning in every hook line, so a cut
// entry also names the harness script it runs (and the script's first word: the mode or event).
const brief = (v: unknown) => {
  const s = JSON.stringify(v);
  if (s.length <= 80) return s;
  const script = /(harness-[a-z]+\.(?:cjs|mjs|js))(?:\\")?(?: ([A-Za-z@][\w@-]*))?/.exec(s);
  return `${s.slice(0, 77)}…${script ? ` (runs ${script[1]}${script[2] ? ` ${script[2]}` : ""})` : ""}`;
};

function describe(item: OwnedItem, edited: boolean): string {
  const where = formatPath(item.path);
  if (item.kind === "take") return `${where} was taken away by install (an agent harness import adopted into roles/) and is there again`;
  if (item.kind === "add") return edited ? `harness's entry in ${where} was edited: harness wrote ${brief(item.value)}` : `harness's entry ${brief(item.value)} in ${where} was removed or changed`;
  return `${where} was changed or removed${item.kind === "set" ? ` (harness wrote ${JSON.stringify(item.value)})` : ""}`;
}

export interface Stripped {
  /** The project's own text, or null when nothing of the project's is left (remove the file). */
  text: string | null;
  /** Items kept because they were edited by hand (merge only, without force). */
  kept: OwnedItem[];
}

/**
 * The file without the parts of `entry` owned only by hosts in `drop` (all of them by default).
 * Unchanged since harness wrote it and fully stripped: the recorded original bytes come back.
 */
export function strip(path: string, current: string | null, entry: LockEntry, force: boolean, drop: readonly string[] = entry.hosts, marks: readonly string[] = []): Stripped {
  if (current === null) return { text: null, kept: [] };
  const all = entry.hosts.every((h) => drop.includes(h));
  const untouched = sha256(current) === entry.sha256;
  if (all && untouched && entry.original !== undefined) return { text: entry.original, kept: [] };
  if (entry.mode === "whole") return { text: all ? null : current, kept: [] };
  if (entry.mode === "block") {
    if (all) {
      const text = removeBlock(current, entry.separator, path, entry.link && path);
      return { text: entry.created && text === "" ? null : text, kept: [] };
    }
    return { text: current, kept: [] }; // one host of several: the caller recomposes the block
  }
  const data = parseData(entry.format, current, path);
  const before = clone(data);
  const items = entry.owned.filter((o) => o.hosts.every((h) => drop.includes(h)));
  const kept = unmergeData(data, items, force, marks);
  if (entry.created && isObject(data) && Object.keys(data).length === 0) return { text: null, kept };
  // Only harness's part changed since install: the project's own bytes come back exactly.
  if (all && entry.original !== undefined && deepEqual(data, parseData(entry.format, entry.original, path))) return { text: entry.original, kept };
  return { text: renderData(entry.format, data, current, before, path), kept };
}
