// Folders Claude Code 2.1.332 treats as sensitive: a write there asks the human even in acceptEdits
// or bypassPermissions, after a PreToolUse hook's allow and with an allow rule (the binary's
// protected-folder list). .claude/agents, commands, skills and worktrees are not asked about; harness
// protects those itself. A PermissionRequest hook can answer the question (real-host test:
// test/hosts/role-features.test.ts), and the guard does, for the writes it allows.
export const CLAUDE_PROTECTED_FOLDERS = [".git", ".vscode", ".idea", ".claude", ".husky", ".cargo", ".devcontainer", ".yarn", ".mvn"];
export const CLAUDE_UNASKED_SUBFOLDERS = ["agents", "commands", "skills", "worktrees"];

/** Does Claude Code ask before a write to a path this glob matches. */
export function claudeAsksBeforeWriting(glob: string): boolean {
  const parts = glob.split("/");
  return parts.some((p, i) => CLAUDE_PROTECTED_FOLDERS.includes(p) && !(p === ".claude" && CLAUDE_UNASKED_SUBFOLDERS.includes(parts[i + 1] ?? "")));
}
