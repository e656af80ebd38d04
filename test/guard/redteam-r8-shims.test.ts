// Eighth red team of the guards (r8g): the host shims, how each host's tool input reaches the guard.
// Claude Code's Bash shim passed tool_input.command on whatever its type: an array was read by its
// String() form ("git,push" — one word, a program no rule names), so a default-allow role's deny and
// ask rules never saw it, and jade got "ask" where every other host's shim refuses (fail closed).
import { describe, expect, it } from "vitest";
import { ORCHESTRATOR } from "../../adapters/claude-code/guard.js";
import { PEBBLE_ROLES } from "../helpers/cli.js";
import { readRoles } from "../helpers/compile.js";
import { bashScene, inProcess, payload } from "./helpers.js";

const pipeline = readRoles(PEBBLE_ROLES);
const { P } = bashScene(pipeline);
const decide = inProcess(pipeline);

describe("Claude Code Bash: a command that is not a string is refused (r8g)", () => {
  const bad: unknown[] = [["git", "push"], { 0: "rm" }, 7, null, true];
  for (const as of ["jade", "onyx", ORCHESTRATOR]) {
    it.each(bad.map((b) => [JSON.stringify(b)]))(`for ${as}: %s`, (b) => {
      const input = { command: JSON.parse(b) };
      const d = decide(JSON.stringify(payload({ tool: "Bash", input, cwd: P, role: as === ORCHESTRATOR ? undefined : as })), { CLAUDE_PROJECT_DIR: P }, as);
      expect(d.kind).toBe("deny");
      expect(d.reason).toContain("without a command string");
    });
  }
  it("while a plain string command is still decided by the shell rules", () => {
    const d = decide(JSON.stringify(payload({ tool: "Bash", input: { command: "git status" }, cwd: P, role: "jade" })), { CLAUDE_PROJECT_DIR: P }, "jade");
    expect(d.kind).toBe("allow");
  });
});
