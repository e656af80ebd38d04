// W_HOST_LIMIT: a prompt or description longer than a host documents it takes is a warning at the
// role, not a silent cut (src/adapter/limits.ts cites each limit).
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { harness, scratchProject } from "./helpers/cli.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
function withRole(edit: (text: string) => string): string {
  const dir = scratchProject();
  dirs.push(dir);
  const file = path.join(dir, "roles/writer.md");
  fs.writeFileSync(file, edit(fs.readFileSync(file, "utf8")));
  return dir;
}

describe("host limits", () => {
  it("a prompt over Copilot's 30,000 characters warns at the role on copilot only", async () => {
    const dir = withRole((t) => `${t.trimEnd()}\n\n${"Write clearly. ".repeat(2100)}\n`);
    const copilot = await harness(["build", "--host", "copilot"], dir);
    expect(copilot.code, copilot.stderr).toBe(0);
    expect(copilot.stderr).toMatch(/roles\/writer\.md:1:1: warning W_HOST_LIMIT prompt: 3\d{4} characters \(with the limits harness adds\); copilot takes at most 30000/);
    const other = await harness(["build", "--host", "opencode"], dir);
    expect(other.stderr).not.toContain("W_HOST_LIMIT");
  });

  it("a prompt under the limit says nothing", async () => {
    const dir = withRole((t) => `${t.trimEnd()}\n\n${"Write clearly. ".repeat(1500)}\n`);
    expect((await harness(["build", "--host", "copilot"], dir)).stderr).not.toContain("W_HOST_LIMIT");
  });

  it("a description over Agent Skills' 1,024 characters warns where Codex writes the role as a skill, at the description", async () => {
    const dir = scratchProject();
    dirs.push(dir);
    const file = path.join(dir, "roles/planner.md");
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace(/^description: .*$/m, `description: ${"Plans the piece. ".repeat(70).trim()}`));
    const r = await harness(["build", "--host", "codex"], dir);
    expect(r.stderr).toMatch(/roles\/planner\.md:\d+:\d+: warning W_HOST_LIMIT description: 1189 characters; codex takes at most 1024 in a skill's description/);
    expect((await harness(["build", "--host", "claude-code"], dir)).stderr).not.toContain("W_HOST_LIMIT");
  });
});
