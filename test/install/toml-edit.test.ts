// TOML edited in place: the project's comments and layout survive harness's additions and removals.
import { readFileSync } from "node:fs";
import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import { tomlEdit } from "../../src/install/toml-edit.js";
import type { Data } from "../../src/install/merge.js";

const ours = parse(readFileSync("out/codex/.codex/config.toml", "utf8")) as Data;

describe("tomlEdit", () => {
  it("adds a root key under the project's root keys and appends tables, then cuts them out exactly", () => {
    const user = `# team config\nmodel = "o3" # fast\n\n[mcp_servers.docs]\ncommand = "npx"\nargs = ["-y", "docs"]\n`;
    const u = parse(user) as Data;
    const merged = { ...u, ...ours };
    const t = tomlEdit(user, u, merged)!;
    expect(t).not.toBeNull();
    expect(t.startsWith(`# team config\nmodel = "o3" # fast\ndefault_permissions = ":workspace"\n\n[mcp_servers.docs]\ncommand = "npx"\nargs = ["-y", "docs"]\n\n[agents]\nmax_depth = 1\n`)).toBe(true);
    expect(tomlEdit(t, merged, u)).toBe(user);
  });

  it("adds a key inside the project's own table", () => {
    const user = `[agents]\n# ours\nmax_threads = 4\n\n[x]\ny = 1\n`;
    const u = parse(user) as Data;
    const after = { agents: { max_threads: 4, max_depth: 1 }, x: { y: 1 } };
    const t = tomlEdit(user, u, after)!;
    expect(t).toBe(`[agents]\n# ours\nmax_threads = 4\nmax_depth = 1\n\n[x]\ny = 1\n`);
    expect(tomlEdit(t, after, u)).toBe(user);
  });

  it("returns null where it cannot place a change exactly (dotted-key table)", () => {
    const user = `agents.max_threads = 4\n`;
    const u = parse(user) as Data;
    expect(tomlEdit(user, u, { agents: { max_threads: 4, max_depth: 1 } })).toBeNull();
  });

  it("writes a new file from nothing", () => {
    const t = tomlEdit("", {}, ours)!;
    expect(parse(t)).toEqual(ours);
  });
});
