// What `harness run` checks before it starts a Claude Code session: no settings file Claude Code
// reads switches the hooks off (disableAllHooks) or puts into the hooks' environment what reaches
// the node they run with (env PATH, NODE_OPTIONS and the rest the hook line unsets). Written outside
// any stage (by hand, or by code after the last boundary), no hook can notice them: the session never
// runs one. Claude Code has no launcher of its own, so a `claude` started by hand has no such check.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { HOOK_ENV_UNSET } from "../../src/adapter/guard/hook-command.js";

/** The keys of a settings file's env that reach the hooks' runtime: the ones the hook line unsets, and PATH (where node is found). */
const HOOK_ENV_KEYS = new Set(["PATH", ...HOOK_ENV_UNSET].map((k) => k.toUpperCase()));

/** The settings files Claude Code reads for a session in `project`, as the guard lists them (adapters/claude-code/guard-runtime.ts). */
export function claudeSettingsFiles(project: string, env: NodeJS.ProcessEnv = process.env, accountHome: string = os.userInfo().homedir): string[] {
  const homes = [...new Set([accountHome, env.HOME].filter((h): h is string => typeof h === "string" && h !== ""))];
  const dirs = homes.map((h) => path.join(h, ".claude"));
  if (env.CLAUDE_CONFIG_DIR) dirs.push(env.CLAUDE_CONFIG_DIR);
  const files = dirs.flatMap((d) => [path.join(d, "settings.json"), path.join(d, "settings.local.json")]);
  files.push(path.join(project, ".claude", "settings.json"), path.join(project, ".claude", "settings.local.json"));
  for (const d of ["/etc/claude-code", "/Library/Application Support/ClaudeCode"]) {
    files.push(path.join(d, "managed-settings.json"));
    try {
      for (const f of fs.readdirSync(path.join(d, "managed-settings.d")).sort()) files.push(path.join(d, "managed-settings.d", f));
    } catch {
      /* none */
    }
  }
  return [...new Set(files)];
}

/** A file's text when it is a regular file (never opened blocking: a FIFO would hold the run); undefined: none; null: something else. */
function regularText(file: string): string | undefined | null {
  let st: fs.Stats;
  try {
    st = fs.statSync(file);
  } catch {
    return undefined;
  }
  if (!st.isFile()) return null;
  const fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  try {
    return fs.fstatSync(fd).isFile() ? fs.readFileSync(fd, "utf8") : null;
  } finally {
    fs.closeSync(fd);
  }
}

/** Why a Claude Code session in `project` would run without harness's hooks as installed, or null. */
export function claudeHooksOffProblem(project: string, env: NodeJS.ProcessEnv = process.env, accountHome?: string): string | null {
  for (const file of claudeSettingsFiles(project, env, accountHome)) {
    const text = regularText(file);
    if (text === undefined) continue;
    let why = "";
    let data: unknown = null;
    if (text !== null)
      try {
        data = JSON.parse(text);
      } catch {
        data = null;
      }
    if (text === null) why = "it is not a regular file";
    else if (data === null || typeof data !== "object" || Array.isArray(data)) why = "it does not parse as a JSON object, so harness cannot tell whether it switches the hooks off";
    else {
      const s = data as { disableAllHooks?: unknown; env?: unknown };
      const envKeys = s.env && typeof s.env === "object" ? Object.keys(s.env).filter((k) => HOOK_ENV_KEYS.has(k.toUpperCase())) : [];
      if (s.disableAllHooks !== undefined && s.disableAllHooks !== false) why = "it sets disableAllHooks";
      else if (envKeys.length) why = `its env sets ${envKeys.sort().join(", ")}, which would reach the node the hooks run with`;
    }
    if (why)
      return `refusing to start Claude Code: ${file} would switch off or alter the guard and audit hooks (${why}). Remove that setting (a stage's code may have written it), then run again (harness run --resume).`;
  }
  return null;
}
