// Every registered adapter declares how install shares the files a project may already have, and
// hosts emitting the same path agree, so `harness install` of all hosts at once composes them.
// Iterates the registry: a new host is checked here without being listed.
import { describe, expect, it } from "vitest";
import { HOST_IDS } from "../../adapters/index.js";
import { MAPPING_FILE } from "../../src/compile.js";
import type { RenderedFile } from "../../src/emit/render.js";
import { compose } from "../../src/install/block.js";
import { compileAll } from "../helpers/compile.js";
import { MINI_ROLES, PEBBLE_ROLES } from "../helpers/cli.js";

/** Config files other tools and people write too: never installed whole. */
const SHARED = new Set([
  ".claude/settings.json",
  ".codex/config.toml",
  ".codex/hooks.json",
  ".gemini/settings.json",
  ".cursor/cli.json",
  ".cursor/hooks.json",
  ".cursor/mcp.json",
  ".github/copilot-instructions.md",
  ".vscode/settings.json",
  ".agents/hooks.json",
]);

describe.each([["pebble", PEBBLE_ROLES], ["mini", MINI_ROLES]])("install declarations (%s)", (_name, roles) => {
  it("every root file and known shared config is merged or a block, never whole", async () => {
    const { outputs } = await compileAll(roles);
    const whole = outputs.flatMap((o) => o.files.filter((f) => f.path !== MAPPING_FILE && (!f.path.includes("/") || SHARED.has(f.path)) && (f.install?.mode ?? "whole") === "whole").map((f) => `${o.adapter.id}: ${f.path}`));
    expect(whole, "declare install: { mode: \"merge\" } or { mode: \"block\", entry } on these files").toEqual([]);
  });

  it("hosts that emit the same path agree on how, and their blocks compose", async () => {
    const { outputs } = await compileAll(roles);
    const byPath = new Map<string, { host: string; file: RenderedFile }[]>();
    for (const o of outputs) for (const file of o.files) if (file.path !== MAPPING_FILE) byPath.set(file.path, [...(byPath.get(file.path) ?? []), { host: o.adapter.id, file }]);
    for (const [path, list] of byPath) {
      if (list.length < 2) continue;
      const modes = new Set(list.map((x) => x.file.install?.mode ?? "whole"));
      expect([...modes], `${path}: ${list.map((x) => x.host).join(", ")}`).toHaveLength(1);
      const mode = [...modes][0];
      if (mode === "whole") expect(new Set(list.map((x) => x.file.content)).size, `${path}: whole files shared by hosts must be identical`).toBe(1);
      if (mode === "block") {
        const composed = compose(path, list.map((x) => ({ host: x.host, content: x.file.content, ...(x.file.install?.mode === "block" && x.file.install.entry ? { entry: x.file.install.entry } : {}) })));
        for (const x of list) if (x.file.install?.mode === "block" && x.file.install.entry) expect(composed.content).toContain(x.file.install.entry);
      }
    }
    expect(HOST_IDS.length).toBe(outputs.length);
  });
});
