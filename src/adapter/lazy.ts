// Files whose text is made when compileHost renders them rather than when the adapter lowers the
// host. A role's prompt or launcher then lives for one file, not for the whole host: at 1,000 roles
// the text an adapter held until rendering was most of what the garbage collector copied.
// `make` must be pure: a test that reads the field twice gets it made twice.
import type { HostFile } from "./types.js";

/** A text file made on render. */
export function lazyTextFile(path: string, make: () => string, executable = false): HostFile {
  return {
    path,
    kind: "text",
    ...(executable ? { executable: true } : {}),
    get text() {
      return make();
    },
  };
}

/** A Markdown file whose body (a role's prompt) is made on render; its front matter is data already. */
export function lazyMarkdownFile(path: string, frontmatter: Record<string, unknown> | undefined, body: () => string): HostFile {
  return {
    path,
    kind: "markdown",
    ...(frontmatter ? { frontmatter } : {}),
    get body() {
      return body();
    },
  };
}

/** The same, its front matter made on render too (an agent's hooks: a few KB a role). Nothing may edit it in place. */
export function lazyAgentFile(path: string, frontmatter: () => Record<string, unknown>, body: () => string): HostFile {
  return {
    path,
    kind: "markdown",
    get frontmatter() {
      return frontmatter();
    },
    get body() {
      return body();
    },
  };
}

/** A TOML file whose data holds a role's prompt, made on render. */
export function lazyTomlFile(path: string, data: () => Record<string, unknown>): HostFile {
  return {
    path,
    kind: "toml",
    get data() {
      return data();
    },
  };
}
