/** What `harness import` read, in the roles folder: install adopts exactly these originals. */
export const IMPORT_RECORD = ".harness-import.json";
