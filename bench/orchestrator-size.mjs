// Bytes of each host's orchestrator prompt in out/ (the file the pipeline command loads), and the
// deterministic steps the prompt leaves to the model: `node bench/orchestrator-size.mjs` after a build.
import fs from "node:fs";
const files = {
  "claude-code": "out/claude-code/.claude/commands/pebble.md",
  codex: "out/codex/.agents/skills/pebble/SKILL.md",
  copilot: "out/copilot/.github/agents/pebble.agent.md",
  "gemini-cli": "out/gemini-cli/.gemini/commands/pebble.toml",
};
for (const [host, f] of Object.entries(files)) {
  if (!fs.existsSync(f)) continue;
  const text = fs.readFileSync(f, "utf8");
  const steps = (text.match(/yourself, with no agent/g) ?? []).length;
  console.log(`${host.padEnd(12)} ${String(Buffer.byteLength(text)).padStart(6)} bytes  ${steps} deterministic steps the model runs  ${f}`);
}
