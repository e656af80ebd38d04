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
// The model reads the body: these hosts keep a Markdown file's front matter (its hook lines, its
// description) out of the prompt; Gemini's TOML command is all prompt.
const body = (text) => {
  const fm = /^---\n[\s\S]*?\n---\n/.exec(text);
  return fm ? text.slice(fm[0].length) : text;
};
for (const [host, f] of Object.entries(files)) {
  const text = read(f);
  if (text === null) continue;
  const steps = (text.match(/yourself, with no agent/g) ?? []).length;
  const size = (t) => String(Buffer.byteLength(t)).padStart(6);
  console.log(`${host.padEnd(12)} ${size(text)} bytes (${size(body(text))} the model reads)  ${steps} deterministic steps the model runs  ${rev ? `${rev}:` : ""}${f}`);
}
