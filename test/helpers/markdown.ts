import { parse as parseYaml } from "yaml";

/** Split a rendered Markdown file the way hosts do: the first `---` line after the opening one closes it. */
export function splitFrontMatter(text: string): { data: unknown; body: string } {
  const m = /^---\n([\s\S]*?)\n---\n\n?([\s\S]*)$/.exec(text);
  if (!m) throw new Error("no front matter");
  return { data: parseYaml(m[1]!), body: m[2]! };
}

