// Watch mode's stage memo (src/stage-memo.ts): a rebuild skips reading a file it rendered the same
// and found untouched last time, but a hand edit, a chmod or a replaced file is still found, also one
// that keeps the size and comes right after the build.
import { chmodSync, cpSync, readFileSync, renameSync, statSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HOSTS } from "../adapters/index.js";
import { buildOnce } from "../src/commands/build.js";
import { useCompileMemo } from "../src/compile.js";
import { UsageError } from "../src/errors.js";
import { useStageMemo } from "../src/stage-memo.js";
import { Staging } from "../src/stage.js";
import { MINI_ROLES, tempDir } from "./helpers/cli.js";

const settle = () => new Promise((r) => setTimeout(r, 40)); // past the memo's racy window

describe("stage memo (watch mode)", () => {
  let dir: string;
  let staging: Staging;
  const build = (force = false) => buildOnce({ registry: HOSTS, roles: path.join(dir, "roles"), out: path.join(dir, "out"), host: ["claude-code"], quiet: true, staging, force, argv: [] });
  const agent = () => path.join(dir, "out/claude-code/.claude/agents/writer.md");
  const written = (r: Awaited<ReturnType<typeof build>>) => r.plans.reduce((n, p) => n + p.write.length, 0);

  beforeEach(async () => {
    dir = tempDir();
    cpSync(MINI_ROLES, path.join(dir, "roles"), { recursive: true });
    useStageMemo(true);
    useCompileMemo(true);
    staging = new Staging(path.join(dir, "out"));
    await build();
    await settle();
    await build(); // reads every file and remembers it
    await settle();
  });
  afterEach(() => {
    staging.discard();
    useStageMemo(false);
    useCompileMemo(false);
  });

  it("a same-size hand edit is refused as without the memo", async () => {
    const text = readFileSync(agent(), "utf8");
    const edited = text.replace("article", "ARTICLE");
    expect(edited.length).toBe(text.length);
    const { mtime } = statSync(agent());
    writeFileSync(agent(), edited);
    utimesSync(agent(), mtime, mtime); // the same modification time too: the change time still moves
    await expect(build()).rejects.toThrow(UsageError);
    await expect(build()).rejects.toThrow(/writer\.md was edited by hand/);
    expect(readFileSync(agent(), "utf8")).toBe(edited);
  });

  it("an edit right after a rebuild is refused", async () => {
    await build();
    writeFileSync(agent(), readFileSync(agent(), "utf8").replace("article", "ARTICLE"));
    await expect(build()).rejects.toThrow(/writer\.md was edited by hand/);
  });

  it("a chmod and a file replaced by a copy of itself are rewritten or kept as without the memo", async () => {
    chmodSync(agent(), 0o755);
    expect(written(await build())).toBe(1); // the mode is put back
    expect(statSync(agent()).mode & 0o111).toBe(0);
    await settle();
    await build();
    await settle();
    const copy = `${agent()}.copy`;
    writeFileSync(copy, readFileSync(agent()));
    renameSync(copy, agent());
    expect(written(await build())).toBe(0); // same bytes: nothing to write
  });
});
