// Scratch environment for running a real host CLI against a generated tree, offline.
//
// Layout (all under <repo>/.cache/hosts-scratch/, git-ignored via .cache/; NOT under /tmp,
// because Codex's sandbox refuses to run helper binaries from there):
//
//   <root>/project   copy of the tree, `git init`ed (the hosts write into projects)
//   <root>/home      HOME; also XDG_* dirs, CODEX_HOME=<home>/.codex
//   <root>/tmp       TMPDIR (Claude Code puts sockets there, OpenCode its temp files)
//   <root>/logs      debug logs written by the loaders
//
// The environment is built from nothing (env -i style): no credentials, no proxies of the
// caller, loopback API URLs, the hosts' "no update / no telemetry / no traffic" switches, and
// an HTTP(S) proxy pointing at a closed loopback port so any request we did not foresee fails
// fast instead of leaving the machine.
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
export const SCRATCH_ROOT = path.join(REPO_ROOT, ".cache", "hosts-scratch");
/** A loopback port nothing listens on (discard). */
export const DEAD_URL = "http://127.0.0.1:9";

export interface HostEnvOptions {
  /** generated tree to copy into the scratch project; omit for an empty project */
  tree?: string;
  /** short label used in the scratch folder name */
  label?: string;
  /** Anthropic API base URL (default: dead loopback port) */
  anthropicBaseUrl?: string;
  /** OpenAI API base URL incl. /v1 (default: dead loopback port) */
  openaiBaseUrl?: string;
  /** record Claude Code trust for the project in ~/.claude.json (default true) */
  trustClaude?: boolean;
  /** record Codex trust for the project in $CODEX_HOME/config.toml (default true) */
  trustCodex?: boolean;
  /** extra TOML appended to $CODEX_HOME/config.toml (after the trust entry) */
  codexUserConfig?: string;
  /** folder whose contents are copied into $CODEX_HOME (user-scope Codex output: profiles, agents/, rules/) */
  codexHomeTree?: string;
  /** extra environment variables (override the defaults) */
  extraEnv?: Record<string, string>;
  /** keep the scratch folder on dispose() (also: HARNESS_KEEP_SCRATCH=1) */
  keep?: boolean;
}

export interface HostEnv {
  root: string;
  project: string;
  home: string;
  tmp: string;
  logs: string;
  codexHome: string;
  env: Record<string, string>;
  /** remove the scratch folder (unless kept) */
  dispose(): void;
}

const COPY_EXCLUDES = new Set([".git", "node_modules"]);

export function createHostEnv(opts: HostEnvOptions = {}): HostEnv {
  fs.mkdirSync(SCRATCH_ROOT, { recursive: true });
  // short names: Claude Code binds unix sockets under TMPDIR (108-byte path limit)
  const label = (opts.label ?? "h").replace(/[^A-Za-z0-9_-]/g, "").slice(0, 12) || "h";
  const root = fs.realpathSync(fs.mkdtempSync(path.join(SCRATCH_ROOT, `${label}-`)));
  const project = path.join(root, "project");
  const home = path.join(root, "home");
  const tmp = path.join(root, "tmp");
  const logs = path.join(root, "logs");
  const codexHome = path.join(home, ".codex");
  for (const d of [project, home, tmp, logs, codexHome]) fs.mkdirSync(d, { recursive: true });
  for (const d of [".config", ".cache", ".local/share", ".local/state"]) fs.mkdirSync(path.join(home, d), { recursive: true });

  if (opts.tree) {
    if (!fs.existsSync(opts.tree) || !fs.statSync(opts.tree).isDirectory()) throw new Error(`tree ${opts.tree} is not a directory`);
    fs.cpSync(opts.tree, project, {
      recursive: true,
      filter: (src) => !COPY_EXCLUDES.has(path.basename(src)) || path.resolve(src) === path.resolve(opts.tree!),
    });
  }
  const git = (...args: string[]) => execFileSync("git", args, { cwd: project, stdio: "ignore", env: gitEnv(home) });
  git("init", "-q");
  git("config", "user.email", "harness-tests@example.invalid");
  git("config", "user.name", "harness host tests");
  git("config", "commit.gpgsign", "false");

  if (opts.trustClaude !== false) {
    const claudeJson = {
      hasCompletedOnboarding: true,
      projects: { [project]: { hasTrustDialogAccepted: true, allowedTools: [] } },
    };
    fs.writeFileSync(path.join(home, ".claude.json"), JSON.stringify(claudeJson, null, 2));
  }
  if (opts.codexHomeTree) fs.cpSync(opts.codexHomeTree, codexHome, { recursive: true });
  {
    const cfg = path.join(codexHome, "config.toml");
    let text = fs.existsSync(cfg) ? fs.readFileSync(cfg, "utf8") : "";
    if (opts.codexUserConfig) text = `${opts.codexUserConfig.trimEnd()}\n\n${text}`;
    if (opts.trustCodex !== false) text += `\n[projects.${JSON.stringify(project)}]\ntrust_level = "trusted"\n`;
    fs.writeFileSync(cfg, text);
  }

  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    HOME: home,
    USER: "harness",
    LOGNAME: "harness",
    SHELL: "/bin/bash",
    TMPDIR: tmp,
    TERM: "dumb",
    LANG: "C.UTF-8",
    NO_COLOR: "1",
    CI: "1",
    XDG_CONFIG_HOME: path.join(home, ".config"),
    XDG_CACHE_HOME: path.join(home, ".cache"),
    XDG_DATA_HOME: path.join(home, ".local", "share"),
    XDG_STATE_HOME: path.join(home, ".local", "state"),
    CODEX_HOME: codexHome,
    // anything not loopback goes to a closed port
    HTTP_PROXY: DEAD_URL,
    HTTPS_PROXY: DEAD_URL,
    http_proxy: DEAD_URL,
    https_proxy: DEAD_URL,
    NO_PROXY: "127.0.0.1,localhost",
    no_proxy: "127.0.0.1,localhost",
    // Claude Code
    ANTHROPIC_BASE_URL: opts.anthropicBaseUrl ?? DEAD_URL,
    DISABLE_AUTOUPDATER: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_ERROR_REPORTING: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    // OpenCode
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    OPENCODE_DISABLE_MODELS_FETCH: "1",
    OPENCODE_DISABLE_SHARE: "1",
    OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
    OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
    // Kilo (an OpenCode fork with its own switches; no Claude Code compatibility reads)
    KILO_DISABLE_AUTOUPDATE: "1",
    KILO_DISABLE_MODELS_FETCH: "1",
    KILO_DISABLE_SHARE: "1",
    KILO_DISABLE_LSP_DOWNLOAD: "1",
    KILO_DISABLE_DEFAULT_PLUGINS: "1",
    KILO_DISABLE_CLAUDE_CODE: "1",
    KILO_DISABLE_SESSION_INGEST: "1",
    KILO_DISABLE_CODEBASE_INDEXING: "1",
    KILO_TELEMETRY_LEVEL: "off",
    // Codex (the loaders also pass an explicit loopback provider)
    OPENAI_BASE_URL: opts.openaiBaseUrl ?? `${DEAD_URL}/v1`,
    ...opts.extraEnv,
  };

  const keep = opts.keep ?? process.env.HARNESS_KEEP_SCRATCH === "1";
  return {
    root,
    project,
    home,
    tmp,
    logs,
    codexHome,
    env,
    dispose() {
      if (!keep) fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

function gitEnv(home: string): Record<string, string> {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, GIT_CONFIG_NOSYSTEM: "1", LANG: "C.UTF-8" };
}

/** Short random id (for markers, file names). */
export function randomId(n = 6): string {
  return crypto.randomBytes(n).toString("hex").slice(0, n);
}
