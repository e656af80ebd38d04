// Several hosts sharing files (as Codex, Copilot, Gemini CLI and others share AGENTS.md and
// .agents/skills/): one composed copy, ownership per host, uninstalling one host keeps the rest.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { RenderedFile } from "../../src/emit/render.js";
import { applyWrites } from "../../src/install/apply.js";
import { LOCK_FILE, readLock, type Lock } from "../../src/install/lock.js";
import { pending, planInstall, planUninstall, type HostFiles, type Plan } from "../../src/install/plan.js";
import { snapshot } from "../helpers/project.js";

const header: Omit<Lock, "files" | "hosts"> = { lockVersion: 1, generator: "harness", version: "test", source: { roles: "roles", digest: "x" } };
const agents = (entry: string) => `# Process\n\nShared intro.\n\n${entry}\n\n| stage | role |\n`;

function host(id: string, cfg: unknown, entry: string, skill = "---\nname: run\n---\n\nRun it.\n"): HostFiles {
  const files: RenderedFile[] = [
    { path: ".agents/skills/run/SKILL.md", content: skill, executable: false },
    { path: "cfg.json", content: `${JSON.stringify(cfg, null, 2)}\n`, executable: false, install: { mode: "merge" } },
    { path: "AGENTS.md", content: agents(entry), executable: false, install: { mode: "block", entry } },
  ];
  return { host: id, files };
}

const A = host("alpha", { a: { x: 1 }, list: ["p"] }, "**Alpha:** run `/run`.");
const B = host("beta", { a: { y: 2 }, list: ["p", "q"] }, "**Beta:** run `$run`.");

function apply(root: string, plan: Plan): void {
  applyWrites(root, [...pending(plan).map((c) => ({ path: c.path, content: c.after, executable: c.executable })), { path: LOCK_FILE, content: plan.lockAfter, executable: false }]);
}

function project(): string {
  const root = mkdtempSync(path.join(tmpdir(), "harness-compose-"));
  writeFileSync(path.join(root, "cfg.json"), '{\n  "mine": true,\n  "list": [\n    "u"\n  ]\n}\n');
  writeFileSync(path.join(root, "AGENTS.md"), "# Ours\n");
  return root;
}

describe("hosts that share files", () => {
  it("compose one copy, own each part per host, and come out one host at a time", () => {
    const root = project();
    const before = snapshot(root);
    apply(root, planInstall({ root, outputs: [A, B], lock: null, force: false, header }));
    const md = readFileSync(path.join(root, "AGENTS.md"), "utf8");
    expect(md.startsWith("# Ours\n\n<!-- harness:begin")).toBe(true);
    expect(md).toContain("Shared intro.\n\n**Alpha:** run `/run`.\n\n**Beta:** run `$run`.\n\n| stage | role |\n<!-- harness:end -->\n");
    expect(JSON.parse(readFileSync(path.join(root, "cfg.json"), "utf8"))).toEqual({ mine: true, list: ["u", "p", "q"], a: { x: 1, y: 2 } });
    const lock = readLock(root)!;
    expect(lock.files[".agents/skills/run/SKILL.md"]!.hosts).toEqual(["alpha", "beta"]);
    const cfg = lock.files["cfg.json"]!;
    expect(cfg.mode === "merge" && cfg.owned.find((o) => o.kind === "add" && o.value === "p")!.hosts).toEqual(["alpha", "beta"]);

    apply(root, planUninstall(root, readLock(root)!, ["alpha"], false));
    expect(readFileSync(path.join(root, ".agents/skills/run/SKILL.md"), "utf8")).toContain("Run it.");
    expect(JSON.parse(readFileSync(path.join(root, "cfg.json"), "utf8"))).toEqual({ mine: true, list: ["u", "p", "q"], a: { y: 2 } });
    const after = readFileSync(path.join(root, "AGENTS.md"), "utf8");
    expect(after).not.toContain("Alpha");
    expect(after).toContain("Shared intro.\n\n**Beta:** run `$run`.\n\n| stage | role |");
    expect(readLock(root)!.hosts).toEqual(["beta"]);
    // What is left is exactly a fresh install of beta alone.
    const fresh = project();
    apply(fresh, planInstall({ root: fresh, outputs: [B], lock: null, force: false, header }));
    for (const f of [".agents/skills/run/SKILL.md", "AGENTS.md", "cfg.json"]) expect(readFileSync(path.join(root, f), "utf8"), f).toBe(readFileSync(path.join(fresh, f), "utf8"));

    apply(root, planUninstall(root, readLock(root)!, ["beta"], false));
    expect(snapshot(root)).toEqual(before);
  });

  it("an adapter bug (two hosts, different bytes for one whole file) stops the plan before anything is written", () => {
    const root = project();
    const C = host("gamma", { a: { z: 3 } }, "**Gamma**", "other bytes\n");
    expect(() => planInstall({ root, outputs: [A, C], lock: null, force: false, header })).toThrow(".agents/skills/run/SKILL.md: hosts alpha, gamma emit different bytes for a whole file");
  });

  it("two hosts needing different values for one key is a conflict, never last-host-wins", () => {
    const root = project();
    const C = host("gamma", { a: { x: 2 } }, "**Gamma**");
    const plan = planInstall({ root, outputs: [A, C], lock: null, force: true, header });
    const cfg = plan.changes.find((c) => c.path === "cfg.json")!;
    expect(cfg.problems).toEqual([{ code: "W_CONFLICT", line: 1, column: 1, message: expect.stringContaining("a.x is 1 here; gamma needs 2") }]);
    expect(cfg.after).toBe(cfg.before);
  });
});
