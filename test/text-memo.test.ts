// Watch mode's text memo (src/text-memo.ts): a guard script is reused only for the same input. A
// rebuild after a permission change writes what a fresh build of the same roles writes.
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { HOSTS } from "../adapters/index.js";
import { buildOnce } from "../src/commands/build.js";
import { useCompileMemo } from "../src/compile.js";
import { listFiles } from "../src/fileset.js";
import { useTextMemo } from "../src/text-memo.js";
import { Staging } from "../src/stage.js";
import { MINI_ROLES, tempDir } from "./helpers/cli.js";

const tree = (dir: string) => Object.fromEntries(listFiles(dir).map((f) => [f, readFileSync(path.join(dir, f), "utf8")]));
const hosts = ["claude-code", "copilot", "cursor", "qwen-code"]; // hosts with a guard script

describe("text memo (watch mode)", () => {
  afterEach(() => {
    useTextMemo(false);
    useCompileMemo(false);
  });

  it("a rebuild after a permission change writes what a fresh build writes", async () => {
    const dir = tempDir();
    cpSync(MINI_ROLES, path.join(dir, "roles"), { recursive: true });
    const run = (roles: string, out: string, staging?: Staging) => buildOnce({ registry: HOSTS, roles, out, host: hosts, quiet: true, staging, argv: [] });
    useTextMemo(true);
    useCompileMemo(true);
    const staging = new Staging(path.join(dir, "out"));
    await run(path.join(dir, "roles"), path.join(dir, "out"), staging);
    const guardBefore = readFileSync(path.join(dir, "out/claude-code/.claude/hooks/harness-guard.cjs"), "utf8");
    const writer = path.join(dir, "roles/writer.md");
    writeFileSync(writer, readFileSync(writer, "utf8").replace('deny: ["curl *"]', 'deny: ["curl *", "wget *"]'));
    await run(path.join(dir, "roles"), path.join(dir, "out"), staging);
    staging.discard();
    useTextMemo(false);
    useCompileMemo(false);
    const fresh = tempDir();
    await run(path.join(dir, "roles"), fresh);
    for (const host of hosts) expect(tree(path.join(dir, "out", host)), host).toEqual(tree(path.join(fresh, host)));
    expect(readFileSync(path.join(dir, "out/claude-code/.claude/hooks/harness-guard.cjs"), "utf8")).not.toBe(guardBefore);
  });
});
