// `harness run --sandbox` on the real Claude Code: each stage's session runs in Claude Code's own
// sandbox (bubblewrap + socat) with a settings file harness writes for that role. Proven here with
// the scripted loopback model: the test code that Jade's allowed `npm test` runs cannot write
// Jade's never-write folders (test/, tests/), .harness/, the audit's inputs in .git/, the installed
// .claude/ files, or anything outside the project; Jade's ordinary work (src/ through the Write tool,
// and a passing `npm test`) still goes through, and so does a write the sandbox permits to test code.
//
// bwrap and socat are not installed system-wide on purpose (Codex prefers a bwrap on PATH over its
// bundled one): scripts/sandbox-tools.sh unpacks the Debian packages into .cache/sandbox-tools/bin,
// and only these sessions get that folder on PATH. Without it the test skips, unless
// HARNESS_REQUIRE_SANDBOX=1 (CI), where it fails.
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { hostBin } from "./helpers.js";
import { classifier, CLI, events, harnessRun, role, sessionsServed, type RunProject } from "./lib/harness-run.js";
import { REPO_ROOT } from "./lib/env.js";
import { RUN_HOSTS } from "./lib/run-hosts.js";
import type { Conversation, Step, Stub } from "./lib/stubs.js";
import { PROBE_TARGETS, probeTest } from "./lib/sandbox-probe.js";

const TOOLS = path.join(REPO_ROOT, ".cache", "sandbox-tools", "bin");
const haveTools = ["bwrap", "socat"].every((t) => fs.existsSync(path.join(TOOLS, t)));
const REQUIRED = process.env.HARNESS_REQUIRE_SANDBOX === "1";
const systemTools = (process.env.PATH ?? "").split(":").some((d) => d && ["bwrap", "socat"].some((t) => fs.existsSync(path.join(d, t))));

const open: { rp: RunProject; stub?: Stub }[] = [];
beforeAll(() => {
  if (!fs.existsSync(CLI)) throw new Error("run `npm run build` first: these tests run the built CLI");
  if (REQUIRED && !haveTools) throw new Error(`HARNESS_REQUIRE_SANDBOX=1 but ${TOOLS} has no bwrap and socat: run scripts/sandbox-tools.sh first`);
  hostBin("claude-code");
});
afterEach(async () => {
  for (const o of open.splice(0)) {
    await o.stub?.close();
    o.rp.dispose();
  }
});

const write = (p: string, rel: string, content: string): Step => ({ tool: "Write", input: { file_path: path.join(p, rel), content } });
const bash = (command: string): Step => ({ tool: "Bash", input: { command, description: "run the suite" } });

/** Pebble's bug-fix stages: Mica writes the probing test, Jade writes src/ and runs npm test. */
function script(p: string): Conversation[] {
  return [
    classifier("bug-fix"),
    role("mica", [write(p, "test/value.test.mjs", probeTest)], "Status: done\nFailing: test/value.test.mjs"),
    role("jade", [write(p, "src/value.mjs", "export const value = () => 42;\n"), bash("npm test")], "Status: done"),
    role("onyx", [write(p, ".pebble/review.md", "# Review\nNo findings.\nVerdict: approve\n")], "Status: done\nVerdict: approve"),
    role("quartz", [write(p, ".pebble/verification.md", "# Verification\nVerdict: pass\n")], "Status: done\nVerdict: pass"),
    role("chalk", [write(p, "docs/value.md", "# value()\nReturns 42.\n")], "Status: done"),
  ];
}

async function scene(label: string, sandboxTools: boolean) {
  const s = await RUN_HOSTS["claude-code"]!.scene(label, script);
  open.push(s);
  if (sandboxTools) s.rp.env.env.PATH = `${TOOLS}:${s.rp.env.env.PATH}`;
  return s;
}

/** `PROBE <target> OK|ERR <code>` lines the test code printed inside Jade's `npm test` (its Bash tool result). */
function probes(stub: Stub): Record<string, string> {
  const out: Record<string, string> = {};
  for (const t of stub.toolResultTexts()) for (const m of t.matchAll(/^PROBE (\S+) (OK|ERR \S+)$/gm)) out[m[1]!] = m[2]!;
  return out;
}

/** Remove what the probe may have written outside the scratch folder; true where it was there. */
function sweep(rp: RunProject): Record<string, boolean> {
  const landed: Record<string, boolean> = {};
  for (const t of PROBE_TARGETS.filter((x) => x.outside)) {
    const f = t.outside!.at(rp.env.home, rp.env.env.TMPDIR!);
    landed[t.name] = fs.existsSync(f);
    fs.rmSync(f, { force: true });
  }
  fs.rmSync(`/tmp/harness-sandbox-probe-${path.basename(path.dirname(rp.project))}`, { force: true });
  return landed;
}

describe("harness run without --sandbox", () => {
  it("the same test code writes every target, and the scope check sees only what git's view shows: .git/hooks, .git/config, .harness/ and the home pass unseen", { timeout: 300_000 }, async () => {
    const { rp, stub } = await scene("run-nosbx", false);
    let landed: Record<string, boolean> = {};
    try {
      const r = await harnessRun(rp, ["--kind", "bug-fix", "--json", "add value(), which returns 42"]);
      const rec = rp.record(events(r.stdout)[0]!.id);
      expect(r.code, r.stderr).toBe(1);
      // every write lands; the missing folders are simply missing
      expect(probes(stub)).toEqual(Object.fromEntries(PROBE_TARGETS.map((t) => [t.name, t.list ? "ERR ENOENT" : "OK"])));
      expect(rec.sandbox).toBeUndefined();
      expect(rec.stages.slice(0, 2).map((s: any) => `${s.stage}:${s.status}`)).toEqual(["tests:done", "implement:refused"]);
      expect(rec.ending).toBe("implement: changed .claude/hooks/evil.mjs, .claude/settings.local.json, test/evil.txt, test/value.test.mjs, tests/evil.txt outside jade's write scope");
      expect(fs.readFileSync(path.join(rp.project, ".git", "hooks", "pre-commit"), "utf8")).toBe("# harness probe\n");
      expect(fs.readFileSync(path.join(rp.project, ".git", "config"), "utf8")).toMatch(/# harness probe\n$/);
      expect(fs.existsSync(path.join(rp.project, ".harness", "evil.json"))).toBe(true);
      expect(fs.readFileSync(path.join(rp.env.home, ".claude", "settings.json"), "utf8")).toBe("# harness probe\n");
    } finally {
      landed = sweep(rp);
    }
    // unsandboxed, os.tmpdir() is the session's own TMPDIR, not the sandbox's folder under it
    expect(fs.existsSync(path.join(rp.env.env.TMPDIR!, "harness-probe"))).toBe(true);
    expect(landed).toEqual(Object.fromEntries(PROBE_TARGETS.filter((x) => x.outside).map((t) => [t.name, t.name !== "session-tmpdir"])));
  });
});

describe.skipIf(!haveTools && !REQUIRED)("harness run --sandbox", () => {
  it("Jade's npm test code cannot write test/, .harness/, .git/ hooks and config, .claude/, HOME or outside the project bar the sandbox's own folders; src/ and a passing npm test still work", { timeout: 400_000 }, async () => {
    const { rp, stub } = await scene("run-sbx", true);
    const r = await harnessRun(rp, ["--sandbox", "--kind", "bug-fix", "--json", "add value(), which returns 42"], 360_000);
    const rec = rp.record(events(r.stdout)[0]!.id);
    const seen = probes(stub);
    // the writes the sandbox lets out of the project: which of them reach the host (removed at once)
    const landed = sweep(rp);
    expect(landed).toEqual(Object.fromEntries(PROBE_TARGETS.filter((x) => x.outside).map((t) => [t.name, t.outside!.lands])));
    expect({ code: r.code, stages: rec.stages.map((s: any) => `${s.stage}:${s.status}`), seen }, r.stderr).toMatchObject({
      code: 0,
      stages: ["tests:done", "implement:done", "review:done", "verify:done", "docs:done"],
    });
    expect(rec.sandbox).toBe(true);
    // what the sandbox forbids: every one refused by the file system, nothing on disk
    for (const t of PROBE_TARGETS.filter((x) => !x.allowed)) {
      expect(seen[t.name], t.name).toMatch(/^ERR (EROFS|EEXIST|EACCES|EPERM|EBUSY|ENOENT)$/);
    }
    expect(fs.existsSync(path.join(rp.project, "test", "evil.txt"))).toBe(false);
    // the missing never-write folders made for the session are gone again
    for (const d of ["tests", "spec", "e2e"]) expect(fs.existsSync(path.join(rp.project, d)), d).toBe(false);
    expect(fs.existsSync(path.join(rp.project, ".harness", "evil.json"))).toBe(false);
    expect(fs.existsSync(path.join(rp.project, ".git", "hooks", "pre-commit"))).toBe(false);
    expect(fs.existsSync(path.join(rp.env.home, "evil.txt"))).toBe(false);
    expect(fs.existsSync(path.join(rp.project, "..", "sibling-evil.txt"))).toBe(false);
    // what it permits: the test code's own write in src/ (Jade's folder), the suite passing, Jade's Write tool
    for (const t of PROBE_TARGETS.filter((x) => x.allowed)) expect(seen[t.name], t.name).toBe("OK");
    expect(stub.toolResultTexts().join("\n")).toMatch(/ok value\.test\.mjs/);
    expect(fs.readFileSync(path.join(rp.project, "src", "value.mjs"), "utf8")).toBe("export const value = () => 42;\n");
    expect(rec.stages[1].files).toEqual(["src/from-test.txt", "src/value.mjs"]);
    expect(sessionsServed(stub).slice(0, 2)).toEqual(["mica", "jade"]);
  });

  // on a machine with bwrap and socat installed system-wide there is no PATH without them to show this
  it.skipIf(systemTools)("refuses to start when bwrap or socat is missing, and runs no session", { timeout: 120_000 }, async () => {
    const { rp, stub } = await scene("run-sbx-none", false);
    const r = await harnessRun(rp, ["--sandbox", "--kind", "bug-fix", "add value(), which returns 42"]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/--sandbox: Claude Code's sandbox needs bwrap and socat on PATH, and they are not there\. Install them \(`apt-get install bubblewrap socat`/);
    expect(stub.log.filter((l) => l.conversation)).toEqual([]);
    expect(fs.existsSync(path.join(rp.project, ".harness", "runs"))).toBe(false);
  });
});
