// Files whose text is made when compileHost renders them rather than when the adapter lowers the
// host. A role's launcher then lives for one file, not for the whole host: at 1,000 roles the text
// an adapter held until rendering was most of what the garbage collector copied.
import type { HostFile } from "./types.js";

/** A text file made on render. `make` must be pure: a test that reads `text` twice gets it made twice. */
export function lazyTextFile(path: string, make: () => string, executable = false): HostFile {
  return executable
    ? {
        path,
        kind: "text",
        executable: true,
        get text() {
          return make();
        },
      }
    : {
        path,
        kind: "text",
        get text() {
          return make();
        },
      };
}
