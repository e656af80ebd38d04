// Bytes of each host's orchestrator prompt in out/ (the file the pipeline command loads), and the
// deterministic steps the prompt leaves to the model: `node bench/orchestrator-size.mjs` after a build,
// or `node bench/orchestrator-size.mjs --rev <git-rev>` for the committed out/ of another revision
// (e.g. the one before a host's run controller landed).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
const files = {
  "claude-code": "out/claude-code/.claude/commands/pebble.md",
  codex: "out/codex/.codex/skills/pebble/SKILL.md",
  copilot: "out/copilot/.github/agents/pebble.agent.md",
  "gemini-cli": "out/gemini-cli/.gemini/commands/pebble.toml",
};
const at = process.argv.indexOf("--rev");
const rev = at > 0 ? process.argv[at + 1] : null;
const read = (f) => {
  if (!rev) return fs.existsSync(f) ? fs.readFileSync(f, "utf8") : null;
  try {
    return execFileSync("git", ["show", `${rev}:${f}`], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  } catch {
    return null;
  }
};
for (const [host, f] of Object.entries(files)) {
  const text = read(f);
  if (text === null) continue;
  const steps = (text.match(/yourself, with no agent/g) ?? []).length;
  console.log(`${host.padEnd(12)} ${String(Buffer.byteLength(text)).padStart(6)} bytes  ${steps} deterministic steps the model runs  ${rev ? `${rev}:` : ""}${f}`);
}
