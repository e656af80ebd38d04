// A team's project that already has its own agent-host config, for install tests (unit and real-host).
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { listFiles } from "../../src/fileset.js";

/** Each file as the team wrote it: other tools' hooks and permissions, a model, an MCP server, prose. */
export const TEAM_FILES: Record<string, string> = {
  ".claude/settings.json": `{
  "model": "opus",
  "permissions": {
    "allow": ["Bash(npm run lint)", "Read(docs/**)"],
    "deny": ["Bash(rm -rf *)", "Bash(git push)"]
  },
  "env": { "TEAM_TOKEN_FILE": ".secrets/token" },
  "hooks": {
    "PreToolUse": [
      { "matcher": "Bash", "hooks": [{ "type": "command", "command": "echo audit >/dev/null" }] }
    ],
    "PostToolUse": [
      { "matcher": "Edit", "hooks": [{ "type": "command", "command": "true" }] }
    ]
  }
}
`,
  ".claude/agents/docs-bot.md": "---\nname: docs-bot\ndescription: Writes the team's docs.\ntools: Read, Edit\n---\n\nWrite docs in docs/.\n",
  "opencode.json": `{
  "$schema": "https://opencode.ai/config.json",
  "mcp": { "docs": { "type": "local", "command": ["true"], "enabled": false } },
  "permission": { "edit": "ask" },
  "agent": { "helper": { "description": "The team's helper", "mode": "subagent", "prompt": "Help." } }
}
`,
  ".opencode/agents/reviewer.md": "---\ndescription: The team's reviewer.\nmode: subagent\n---\n\nReview.\n",
  ".codex/config.toml": `# The team's Codex settings
model_reasoning_effort = "high" # deep by default

[mcp_servers.docs]
command = "true"
enabled = false
`,
  "AGENTS.md": "# Team conventions\n\nUse pnpm. Keep functions small.\n",
  "src/index.ts": "export const answer = 42;\n",
};

/** The project in a git repository (as a team's is; install warns outside one), unless `git: false`. */
export function teamProject(rolesDir: string, files: Record<string, string> = TEAM_FILES, { git = true } = {}): string {
  const dir = mkdtempSync(path.join(tmpdir(), "harness-install-"));
  if (git) {
    const r = spawnSync("git", ["init", "-q", dir], { encoding: "utf8", timeout: 10_000 });
    if (r.status !== 0) throw new Error(`git init failed: ${r.stderr}`);
  }
  cpSync(rolesDir, path.join(dir, "roles"), { recursive: true });
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

/**
 * The project's roles switched to policies.scope: repository, where Claude Code's settings.json
 * carries harness's permissions, env and PreToolUse hook (with the default, scope pipeline, the
 * limits live in the agents' and commands' front matter and settings.json holds none of them).
 */
export function repositoryScope(dir: string): string {
  const yml = path.join(dir, "roles", "pipeline.yaml");
  writeFileSync(yml, readFileSync(yml, "utf8").replace(/^policies:\n/m, "policies:\n  scope: repository\n"));
  return dir;
}

/** Every file of the project (roles/ and .git/ excluded) with its bytes. */
export function snapshot(dir: string): Record<string, string> {
  return Object.fromEntries(listFiles(dir).filter((f) => !f.startsWith("roles/") && !f.startsWith(".git/")).map((f) => [f, readFileSync(path.join(dir, f), "utf8")]));
}
