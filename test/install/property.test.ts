// Property: for any project's own JSON, TOML and Markdown, install then uninstall gives back the same
// bytes, and the installed files still hold every one of the project's keys and entries.
import fc from "fast-check";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { stringify as tomlStringify, parse as tomlParse } from "smol-toml";
import { beforeAll, describe, expect, it } from "vitest";
import { MAPPING_FILE } from "../../src/compile.js";
import { applyWrites } from "../../src/install/apply.js";
import { LOCK_FILE, readLock, type Lock } from "../../src/install/lock.js";
import { deepEqual, isObject } from "../../src/install/merge.js";
import { pending, planInstall, planUninstall, type HostFiles } from "../../src/install/plan.js";
import { compileAll } from "../helpers/compile.js";
import { PEBBLE_ROLES } from "../helpers/cli.js";
import { snapshot } from "../helpers/project.js";
import { SCRATCH } from "../helpers/scratch.js";

let outputs: HostFiles[];
beforeAll(async () => {
  const compiled = await compileAll(PEBBLE_ROLES);
  outputs = compiled.outputs.map((o) => ({ host: o.adapter.id, files: o.files.filter((f) => f.path !== MAPPING_FILE) }));
});

const header: Omit<Lock, "files" | "hosts"> = { lockVersion: 1, generator: "harness", version: "test", source: { roles: "roles", digest: "x" } };

function run(root: string, plan: ReturnType<typeof planInstall>): void {
  const writes = pending(plan).map((c) => ({ path: c.path, content: c.after, executable: c.executable }));
  writes.push({ path: LOCK_FILE, content: plan.lockAfter, executable: false });
  applyWrites(root, writes);
}

// Keys a project really uses next to harness's, plus awkward ones.
const key = fc.oneof(fc.constantFrom("permissions", "allow", "deny", "hooks", "PreToolUse", "env", "model", "permission", "edit", "bash", "agent", "mcp", "__proto__", "constructor", "$schema", "*"), fc.string({ maxLength: 6 }));
const harnessRule = fc.constantFrom("Bash(git push)", "Bash(git commit *)", "Edit(.env)", "Bash(npm test)");
const leaf = fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean(), fc.constant(null), harnessRule);
const jsonTree: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: "small" }, leaf, fc.array(tie("node"), { maxLength: 4 }), fc.dictionary(key, tie("node"), { maxKeys: 4 })),
})).node;
const settings = fc.record(
  {
    model: fc.string({ maxLength: 6 }),
    permissions: fc.record({ allow: fc.array(fc.oneof(harnessRule, fc.string({ maxLength: 8 })), { maxLength: 4 }), deny: fc.array(fc.oneof(harnessRule, fc.string({ maxLength: 8 })), { maxLength: 4 }) }, { requiredKeys: [] }),
    hooks: fc.record({ PreToolUse: fc.array(jsonTree, { maxLength: 2 }) }, { requiredKeys: [] }),
    env: fc.dictionary(fc.string({ maxLength: 6 }), fc.string({ maxLength: 6 }), { maxKeys: 3 }),
    extra: jsonTree,
  },
  { requiredKeys: [] },
);
const opencode = fc.record({ model: fc.string({ maxLength: 6 }), permission: fc.dictionary(fc.constantFrom("edit", "bash", "webfetch", "task"), fc.oneof(fc.constantFrom("ask", "allow", "deny"), fc.dictionary(fc.string({ maxLength: 5 }), fc.constantFrom("ask", "allow", "deny"), { maxKeys: 3 })), { maxKeys: 3 }), mcp: jsonTree }, { requiredKeys: [] });
const indent = fc.constantFrom(0, 2, 4, "\t");
const jsonText = (data: fc.Arbitrary<unknown>) => fc.tuple(data, indent, fc.boolean()).map(([d, i, nl]) => `${JSON.stringify(d, null, i)}${nl ? "\n" : ""}`);

const tomlScalar = fc.oneof(fc.string({ maxLength: 8 }), fc.integer({ min: -1000, max: 1000 }), fc.boolean());
const tomlTable = fc.dictionary(fc.oneof(fc.constantFrom("model", "max_threads", "max_depth", "enabled"), fc.stringMatching(/^[a-z_]{1,6}$/)), fc.oneof(tomlScalar, fc.array(tomlScalar, { maxLength: 3 })), { maxKeys: 3 });
const tomlDoc = fc.record({ root: tomlTable, agents: tomlTable, mcp: fc.dictionary(fc.stringMatching(/^[a-z]{1,5}$/), tomlTable, { maxKeys: 2 }), profiles: fc.dictionary(fc.constantFrom("mine", "jade", "ci"), tomlTable, { maxKeys: 2 }) }, { requiredKeys: [] });
const tomlText = fc.tuple(tomlDoc, fc.option(fc.string({ maxLength: 20 }).map((s) => `# ${s.replace(/[\n\r]/g, " ")}\n`))).map(([d, comment]) => {
  const data: Record<string, unknown> = { ...(d.root ?? {}) };
  if (d.agents) data.agents = d.agents;
  if (d.mcp && Object.keys(d.mcp).length) data.mcp_servers = d.mcp;
  if (d.profiles && Object.keys(d.profiles).length) data.permissions = d.profiles;
  return `${comment ?? ""}${tomlStringify(data)}`;
});
const markdown = fc.array(fc.string({ maxLength: 30 }), { maxLength: 5 }).map((lines) => lines.join("\n").replace(/harness:begin/g, "harness begin"));

/** Every key and array entry of `mine` is still in `installed` (OpenCode's "x": "ask" may read as {"*": "ask"}). */
function keeps(installed: unknown, mine: unknown): boolean {
  if (Array.isArray(mine)) return Array.isArray(installed) && mine.every((e) => installed.some((x) => deepEqual(x, e)));
  if (isObject(mine)) return isObject(installed) && Object.keys(mine).every((k) => Object.hasOwn(installed, k) && keeps(installed[k], mine[k]));
  return deepEqual(installed, mine) || (isObject(installed) && deepEqual(installed["*"], mine));
}

describe("install ∘ uninstall = identity", () => {
  it("on random project files next to every host's shared files", () => {
    fc.assert(
      fc.property(
        fc.record({ settings: fc.option(jsonText(settings)), opencode: fc.option(jsonText(opencode)), toml: fc.option(tomlText), agents: fc.option(markdown), claude: fc.option(markdown) }),
        (files) => {
          const root = mkdtempSync(path.join(SCRATCH, "harness-prop-"));
          try {
            const mine: Record<string, string | null> = { ".claude/settings.json": files.settings, "opencode.json": files.opencode, ".codex/config.toml": files.toml, "AGENTS.md": files.agents, "CLAUDE.md": files.claude };
            for (const [rel, text] of Object.entries(mine))
              if (text !== null) {
                mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
                writeFileSync(path.join(root, rel), text);
              }
            const before = snapshot(root);
            run(root, planInstall({ root, outputs, lock: null, force: false, header }));
            const lock = readLock(root)!;
            for (const rel of [".claude/settings.json", "opencode.json"]) {
              if (mine[rel] === null || !lock.files[rel]) continue;
              expect(keeps(JSON.parse(readFileSync(path.join(root, rel), "utf8")), JSON.parse(mine[rel]!)), rel).toBe(true);
            }
            if (mine[".codex/config.toml"] !== null && lock.files[".codex/config.toml"])
              expect(keeps(tomlParse(readFileSync(path.join(root, ".codex/config.toml"), "utf8")), tomlParse(mine[".codex/config.toml"]!))).toBe(true);
            if (mine["AGENTS.md"]) expect(readFileSync(path.join(root, "AGENTS.md"), "utf8").startsWith(mine["AGENTS.md"])).toBe(true);
            // Serializer-shaped files come back by taking harness's part out, not from a stored copy
            // (an empty file is the one exception: "" and "\n" both read as nothing).
            for (const [rel, entry] of Object.entries(lock.files)) if (mine[rel]) expect(entry.original, `${rel} needed a stored original`).toBeUndefined();
            run(root, planUninstall(root, lock, lock.hosts, false));
            expect(snapshot(root)).toEqual(before);
          } finally {
            rmSync(root, { recursive: true, force: true });
          }
        },
      ),
      { numRuns: 30 },
    );
    // ~2 s on a quiet machine; it writes every host's files 60 times, so on a loaded disk it can take
    // longer than the suite's 30 s default (a limit against hangs, not an assertion).
  }, 120_000);
});
