// The published package: its name is free of the unrelated `harness` on the registry, the bin stays
// `harness`, and the packed files run with nothing installed beside them (the CLI bundle imports
// only node: built-ins; scripts/pack-smoke.sh proves the tarball end to end in CI).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./helpers/cli.js";

const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8"));

describe("package.json", () => {
  it("is agent-harness with the harness bin, Node 20, and the files init and build need", () => {
    expect(pkg.name).toBe("agent-harness");
    expect(pkg.bin).toEqual({ harness: "dist/cli/cli.js" });
    expect(pkg.engines.node).toBe(">=20");
    expect(pkg.files).toEqual(expect.arrayContaining(["dist/cli", "roles", "schema", "templates"]));
  });

  it("has no runtime dependencies: everything is bundled into dist/cli", () => {
    expect(pkg.dependencies ?? {}).toEqual({});
    const imports = new Set<string>();
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (/\.c?js$/.test(p)) for (const m of readFileSync(p, "utf8").matchAll(/(?:from\s*|import\(\s*|require\(\s*)["'`]([^"'`]+)["'`]/g)) if (/^[@a-z][\w@/.:-]*$/.test(m[1]!)) imports.add(m[1]!);
      }
    };
    walk(path.join(ROOT, "dist/cli"));
    expect([...imports].filter((i) => !i.startsWith("node:") && !i.startsWith("."))).toEqual([]);
  });
});
