// The real host programs load what harness emits for roles/ (lib/emitted.ts: the CLI's build(),
// or HARNESS_HOSTS_OUT=<dir> to check another build such as out/), with zero complaints, and list
// every emitted agent and command. REQUIRED for every host registered in adapters/index.ts: a host
// CLI that cannot run, or a registered host whose tree cannot be built, is a FAILURE, never a skip.
// The loaders have teeth on emitted trees too: a copy with one agent file corrupted must complain.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { formatLoad, loadTree, type LoadResult } from "./lib/index.js";
import { createHostEnv } from "./lib/env.js";
import { HOSTS } from "../../adapters/index.js";
import { emittedTree, hostBin, hostInstallMap, REAL_HOSTS, REGISTERED_HOSTS, UNPINNED_HOSTS } from "./helpers.js";
import { HOST_IDS, HOST_VERSIONS, type HostId } from "./versions.js";

describe("pinned host CLIs", () => {
  for (const host of HOST_IDS) {
    it(`${host} ${HOST_VERSIONS[host]} is installed and answers --version`, () => {
      hostBin(host); // fails (not skips) when unusable
      const r = hostInstallMap()[host];
      expect(r.version).toBe(HOST_VERSIONS[host]);
      expect(r.versionOutput).toContain(HOST_VERSIONS[host]);
    });
  }
  // A host with no installable CLI (Cursor, Antigravity) says so itself: checkedAgainst.basis "docs".
  it("every host registered in adapters/index.ts has a pinned CLI in versions.json, or is a docs-only adapter", async () => {
    expect(REAL_HOSTS.length).toBeGreaterThan(0);
    const unproven: string[] = [];
    for (const h of UNPINNED_HOSTS) if ((await HOSTS[h]!()).checkedAgainst.basis !== "docs") unproven.push(h);
    expect(unproven, "pin these hosts in test/hosts/versions.json").toEqual([]);
    expect(REGISTERED_HOSTS.filter((h) => !UNPINNED_HOSTS.includes(h))).toEqual(REAL_HOSTS);
  });
});

describe.concurrent("what harness emits loads in the real hosts", () => {
  for (const host of REAL_HOSTS) {
    it(`${host}: the emitted tree loads with zero complaints and lists every emitted agent and command`, async () => {
      const tree = await emittedTree(host);
      const r = await loadTree(host, tree, { bin: hostBin(host) });
      const msg = formatLoad(r);
      expect(r.declared.agents.length, `${host}: the emitted tree declares no agents\n${msg}`).toBeGreaterThan(0);
      expect(r.complaints, msg).toEqual([]);
      for (const a of r.declared.agents) expect(r.agents, msg).toContain(a);
      for (const c of r.declared.commands) expect(r.commands, msg).toContain(c);
    });
  }
});

// ---------------------------------------------------------------- a broken emitted file is caught

interface Corruption {
  /** what is broken, for the test name */
  name: string;
  /** file in the emitted tree (relative) that gets broken */
  file: string;
  /** the broken text */
  break(text: string): string;
  /** every pattern must match a complaint */
  expect: RegExp[];
  /** agent that must no longer load */
  notLoaded?: string;
}

/** Break jade's agent file in the form each host reads agents in (front matter / TOML). */
const CORRUPT: Partial<Record<HostId, Corruption[]>> = {
  "claude-code": [
    {
      name: "an unterminated quoted description",
      file: ".claude/agents/jade.md",
      break: (t) => t.replace(/^description: (.*)$/m, 'description: "$1'),
      expect: [/\[plugin validate\] .*jade\.md.*YAML frontmatter failed to parse/, /agent 'jade' is not among the loaded agents/],
      notLoaded: "jade",
    },
    {
      // Claude Code itself loads this one (lenient fallback parse): only the loader's lint sees it
      name: "an unclosed tools: list",
      file: ".claude/agents/jade.md",
      break: (t) => t.replace(/^tools: (.*)$/m, "tools: [$1"),
      expect: [/\[claude lint\] .*jade\.md: front matter is not valid YAML/],
    },
  ],
  opencode: [{ name: "front matter that is not YAML", file: ".opencode/agents/jade.md", break: (t) => t.replace(/^---\n/, "---\nbroken: [unclosed\n"), expect: [/jade\.md/] }],
  // Kilo 7.7.7 loads an agent whose front matter does not parse, silently, as a mode "all" agent with
  // default permissions (others.md §5.2): the loader sees it in `kilo agent list` (mode) and in its lint.
  kilo: [
    {
      name: "front matter that is not YAML",
      file: ".kilo/agents/jade.md",
      break: (t) => t.replace(/^---\n/, "---\nbroken: [unclosed\n"),
      expect: [/\[kilo agent jade\] listed as \(all\) but \.kilo\/agents\/jade\.md says mode subagent/, /\[kilo lint\] \.kilo\/agents\/jade\.md: front matter is not valid YAML/],
    },
    {
      name: "a mode Kilo does not know",
      file: ".kilo/agents/jade.md",
      break: (t) => t.replace(/^mode: subagent$/m, "mode: sidekick"),
      expect: [/\[kilo config check\] .*jade\.md is invalid: mode/, /agent 'jade' is not among the loaded agents/],
      notLoaded: "jade",
    },
  ],
  codex: [{ name: "an unterminated TOML string", file: ".codex/agents/jade.toml", break: (t) => t.replace(/^name = "jade"$/m, 'name = "jade'), expect: [/jade\.toml/] }],
  copilot: [
    {
      name: "no description (required by the CLI)",
      file: ".github/agents/jade.agent.md",
      break: (t) => t.replace(/^description: .*\n/m, ""),
      expect: [/jade\.agent\.md: custom agent markdown frontmatter is malformed: description: Required/, /agent 'jade' is not available/],
      notLoaded: "jade",
    },
  ],
  "qwen-code": [
    {
      // Qwen Code 0.24.4 still loads the agent through a lenient fallback parser, without its hooks
      name: "an unterminated quoted description",
      file: ".qwen/agents/jade.md",
      break: (t) => t.replace(/^description: (.*)$/m, 'description: "$1'),
      expect: [/Full YAML parser failed/, /jade\.md has invalid hooks/],
    },
  ],
  // Pi has no agent loader of its own: its project extension registers the roles, so a broken
  // extension is what a loader must notice (Pi reports it and starts without the extension)
  pi: [
    {
      name: "a syntax error in the project extension",
      file: ".pi/extensions/harness-guard.js",
      break: (t) => t.replace(/^export default function harnessPipeline\(pi\) \{$/m, "export default function harnessPipeline(pi) {{"),
      expect: [/Failed to load extension/, /role .jade. is not offered/],
    },
  ],
  "factory-droid": [
    {
      // a tool id Droid does not know in the role launcher's --only-tools
      name: "an unknown tool id in --only-tools",
      file: ".factory/bin/jade.sh",
      break: (t) => t.replace("--only-tools 'Read,", "--only-tools 'Reed,"),
      expect: [/\[droid jade\]/],
      notLoaded: "jade",
    },
  ],
  "gemini-cli": [
    {
      // the strict agent schema refuses an unknown key (a camelCase maxTurns instead of max_turns)
      name: "a key outside the strict schema",
      file: ".gemini/agents/jade.md",
      break: (t) => t.replace(/^max_turns: /m, "maxTurns: "),
      expect: [/Agent loading error.*jade\.md|Unrecognized key.*maxTurns/, /agent 'jade' is not offered/],
      notLoaded: "jade",
    },
  ],
};

describe.concurrent("a corrupted emitted agent file makes the loader complain", () => {
  for (const host of REAL_HOSTS) {
    const cases = CORRUPT[host] ?? [];
    it(`${host}: there is a corruption recipe`, () => expect(cases.length, `add one for ${host} to CORRUPT in load.test.ts`).toBeGreaterThan(0));
    for (const c of cases)
      it(`${host}: ${c.file} with ${c.name} yields a complaint`, async () => {
        const tree = await emittedTree(host);
        // a scratch copy of the emitted tree (a scratch env's project folder, minus its .git)
        const scratch = createHostEnv({ tree, label: "brk" });
        let r: LoadResult | undefined;
        try {
          fs.rmSync(path.join(scratch.project, ".git"), { recursive: true, force: true });
          const file = path.join(scratch.project, c.file);
          expect(fs.existsSync(file), `${host}: the emitted tree has no ${c.file}; update CORRUPT in load.test.ts`).toBe(true);
          const before = fs.readFileSync(file, "utf8");
          const after = c.break(before);
          expect(after, `${host}: the corruption recipe did not change ${c.file}`).not.toBe(before);
          fs.writeFileSync(file, after);
          r = await loadTree(host, scratch.project, { bin: hostBin(host), agents: ["jade"] }); // OpenCode: resolve only jade (one start per agent)
        } finally {
          scratch.dispose();
        }
        const msg = formatLoad(r);
        expect(r.complaints.length, `the loader did not notice the broken ${c.file}\n${msg}`).toBeGreaterThan(0);
        for (const re of c.expect) expect(r.complaints.some((x) => re.test(x)), `no complaint matches ${re}\n${msg}`).toBe(true);
        if (c.notLoaded) expect(r.agents, msg).not.toContain(c.notLoaded);
      });
  }
});
