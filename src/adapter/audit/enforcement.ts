// The files that control enforcement, wherever they live: the hosts' settings in the project and in
// the user's home, the git configuration the audit and the human's git run with, and the shell start-up
// files. Code a role's allowed commands run can write any of them (no command filter sees that), so
// the audit snapshots them at a stage's start and, at its end, restores any change and fails the stage:
// a `disableAllHooks`, an `env.NODE_OPTIONS` or a planted `.git/hooks/pre-commit` never survives the
// stage that wrote it. The list is the same for every host: a team may have several installed, and
// each host's settings can switch off another host's hooks only through files listed here.
//
// `base`: "home" (the user's home; `env` names the variable that moves the folder, `envPath` the path
// below it), "system" (an absolute path: managed settings a process running as root can write),
// "project" (the project root; audited even where the ignore rules hide it, such as
// .claude/settings.local.json), "git" (the repository's common git folder). `tree`: a folder, every
// file below it. `volatile`: JSON keys the host itself rewrites while a session runs (dotted, `*` for
// any key), compared as absent; everything else in the file must stay as it was. `skip`: names in a
// tree the host itself writes while a session runs (markers), neither compared nor removed.
import { HOST_SETTINGS_FILES } from "../guard/policy.js";

export interface GuardedFile {
  base: "home" | "project" | "git" | "system";
  path: string;
  env?: string;
  envPath?: string;
  tree?: boolean;
  volatile?: string[];
  skip?: string[];
  /** a git configuration file: the files its include.path and includeIf.*.path name are guarded too */
  gitConfig?: boolean;
}

const home = (p: string, env?: string, envPath?: string, extra: Partial<GuardedFile> = {}): GuardedFile => ({
  base: "home",
  path: p,
  ...(env ? { env, envPath: envPath ?? p.split("/").slice(1).join("/") } : {}),
  ...extra,
});
const project = (p: string, extra: Partial<GuardedFile> = {}): GuardedFile => ({ base: "project", path: p, ...extra });
const git = (p: string, extra: Partial<GuardedFile> = {}): GuardedFile => ({ base: "git", path: p, ...extra });
const system = (p: string, extra: Partial<GuardedFile> = {}): GuardedFile => ({ base: "system", path: p, ...extra });
const gitConfig = { gitConfig: true };

/**
 * What Claude Code writes into ~/.claude.json by itself during a session (counters, caches, the
 * last session's statistics). Anything else there (mcpServers, a project's allowedTools, trust) is
 * enforcement and must not change during a stage.
 */
const CLAUDE_JSON_VOLATILE = [
  "numStartups",
  "tipsHistory",
  "tipsHistory.*",
  "promptQueueUseCount",
  "memoryUsageCount",
  "cachedStatsigGates",
  "cachedDynamicConfigs",
  "cachedGrowthBookFeatures",
  "cachedChangelog",
  "changelogLastFetched",
  "lastReleaseNotesSeen",
  "lastOnboardingVersion",
  "firstStartTime",
  "userID",
  "feedbackSurveyState",
  "subscriptionNoticeCount",
  "hasAvailableSubscription",
  "s1mAccessCache",
  "lastPlanModeUse",
  "claudeCodeFirstTokenDate",
  "projects.*.lastCost",
  "projects.*.lastAPIDuration",
  "projects.*.lastAPIDurationWithoutRetries",
  "projects.*.lastToolDuration",
  "projects.*.lastDuration",
  "projects.*.lastLinesAdded",
  "projects.*.lastLinesRemoved",
  "projects.*.lastTotalInputTokens",
  "projects.*.lastTotalOutputTokens",
  "projects.*.lastTotalCacheCreationInputTokens",
  "projects.*.lastTotalCacheReadInputTokens",
  "projects.*.lastTotalWebSearchRequests",
  "projects.*.lastModelUsage",
  "projects.*.lastSessionId",
  "projects.*.lastSessionMetrics",
  "projects.*.exampleFiles",
  "projects.*.exampleFilesGeneratedAt",
  "projects.*.hasCompletedProjectOnboarding",
  "projects.*.projectOnboardingSeenCount",
  "projects.*.reactVulnerabilityCache",
];

/** What Claude Code 2.1.332 writes into an installed plugin's cache folder itself (the binary's names). */
const CLAUDE_PLUGIN_MARKERS = [".in_use", ".orphaned_at", ".gcs-sha", ".links_materialized"];

/** The folders OpenCode and Kilo load code and agents from in each of their config folders (r9). */
const OPENCODE_FOLDERS = ["plugin", "plugins", "tool", "tools", "agent", "agents", "mode", "modes"];

const LISTED: readonly GuardedFile[] = [
  // Claude Code
  home(".claude/settings.json", "CLAUDE_CONFIG_DIR"),
  home(".claude/settings.local.json", "CLAUDE_CONFIG_DIR"),
  home(".claude.json", "CLAUDE_CONFIG_DIR", ".claude.json", { volatile: CLAUDE_JSON_VOLATILE }),
  // what a user's sessions load besides settings: installed plugins (their hooks, MCP servers and the
  // scripts those run; Claude Code marks a version in use or orphaned there itself, and keeps a
  // plugin's own data in plugins/data), and user agents, commands and skills (their front matter can
  // carry hooks and MCP servers); code planted there runs in the next session, also after the last
  // stage's audit. The marketplaces' clones (plugins/marketplaces, refreshed in the background) run
  // nothing until a plugin is installed or updated from them, which changes what is guarded here.
  home(".claude/plugins/cache", "CLAUDE_CONFIG_DIR", undefined, { tree: true, skip: CLAUDE_PLUGIN_MARKERS }),
  home(".claude/plugins/cache", "CLAUDE_CODE_PLUGIN_CACHE_DIR", "", { tree: true, skip: CLAUDE_PLUGIN_MARKERS }),
  home(".claude/plugins/installed_plugins.json", "CLAUDE_CONFIG_DIR"),
  home(".claude/agents", "CLAUDE_CONFIG_DIR", undefined, { tree: true }),
  home(".claude/commands", "CLAUDE_CONFIG_DIR", undefined, { tree: true }),
  home(".claude/skills", "CLAUDE_CONFIG_DIR", undefined, { tree: true }),
  // where user hook scripts live by convention (a script a settings file names is followed anyway)
  home(".claude/hooks", "CLAUDE_CONFIG_DIR", undefined, { tree: true }),
  project(".claude/settings.json"),
  project(".claude/settings.local.json"),
  project(".mcp.json"),
  system("/etc/claude-code/managed-settings.json"),
  system("/etc/claude-code/managed-mcp.json"),
  system("/Library/Application Support/ClaudeCode/managed-settings.json"),
  system("/etc/claude-code/managed-settings.d", { tree: true }),
  // Codex
  home(".codex/config.toml", "CODEX_HOME"),
  home(".codex/hooks.json", "CODEX_HOME"),
  home(".codex/rules", "CODEX_HOME", "rules", { tree: true }),
  project(".codex/config.toml"),
  project(".codex/hooks.json"),
  system("/etc/codex/config.toml"),
  system("/etc/codex/requirements.toml"),
  system("/etc/codex/managed_config.toml"),
  // GitHub Copilot CLI
  home(".copilot/config.json", "COPILOT_HOME"),
  home(".copilot/settings.json", "COPILOT_HOME"),
  project(".github/copilot/settings.json"),
  project(".github/copilot/settings.local.json"),
  home(".copilot/hooks", "COPILOT_HOME", "hooks", { tree: true }),
  home(".copilot/mcp-config.json", "COPILOT_HOME"),
  home(".copilot/lsp-config.json", "COPILOT_HOME"),
  home(".copilot/permissions-config.json", "COPILOT_HOME"),
  home(".copilot/installed-plugins", "COPILOT_HOME", "installed-plugins", { tree: true }),
  project(".github/hooks", { tree: true }),
  // Gemini CLI
  home(".gemini/settings.json"),
  home(".gemini/trustedFolders.json"),
  home(".gemini/policies", undefined, undefined, { tree: true }),
  // extensions: their hooks and MCP servers load in every session
  home(".gemini/extensions", undefined, undefined, { tree: true }),
  // Gemini CLI reads .env files for its environment: ~/.gemini/.env, then ~/.env (and the project's;
  // its .env at the root is the team's, which a role may write: only .gemini/.env is guarded there)
  home(".gemini/.env"),
  home(".env"),
  project(".gemini/.env"),
  // r9: Gemini CLI and Qwen Code load the workspace's .env (after .gemini/.env, .qwen/.env) into their
  // own environment when the folder is trusted, which every hook and shell command they start inherits:
  // a role's code that wrote NODE_OPTIONS=--require=<its file> into an ignored .env ran that file inside
  // every later guard hook. Often ignored, so the tree audit never saw it.
  project(".env"),
  project(".qwen/.env"),
  // GEMINI_CLI_HOME moves the folder that holds .gemini/
  home(".gemini/settings.json", "GEMINI_CLI_HOME", ".gemini/settings.json"),
  home(".gemini/extensions", "GEMINI_CLI_HOME", ".gemini/extensions", { tree: true }),
  home(".gemini/policies", "GEMINI_CLI_HOME", ".gemini/policies", { tree: true }),
  home(".gemini/.env", "GEMINI_CLI_HOME", ".gemini/.env"),
  // Antigravity (it keeps its user configuration below ~/.gemini)
  home(".gemini/config/hooks.json"),
  home(".gemini/antigravity-cli/settings.json"),
  home(".gemini/config/projects", undefined, undefined, { tree: true }),
  project(".gemini/settings.json"),
  // Qwen Code
  home(".qwen/settings.json", "QWEN_HOME"),
  home(".qwen/.env", "QWEN_HOME"),
  home(".qwen/extensions", "QWEN_HOME", "extensions", { tree: true }),
  project(".qwen/settings.json"),
  system("/etc/qwen-code/settings.json"),
  // OpenCode, Kilo, Cursor
  home(".config/opencode/opencode.json", "XDG_CONFIG_HOME"),
  home(".config/opencode/opencode.jsonc", "XDG_CONFIG_HOME"),
  home(".config/kilo/kilo.json", "XDG_CONFIG_HOME"),
  home(".config/kilo/kilo.jsonc", "XDG_CONFIG_HOME"),
  // OpenCode and Kilo plugins are JavaScript loaded into every session (both folder spellings load)
  home(".config/opencode/plugin", "XDG_CONFIG_HOME", undefined, { tree: true }),
  home(".config/opencode/plugins", "XDG_CONFIG_HOME", undefined, { tree: true }),
  home(".config/kilo/plugin", "XDG_CONFIG_HOME", undefined, { tree: true }),
  home(".config/kilo/plugins", "XDG_CONFIG_HOME", undefined, { tree: true }),
  // custom tools are code too; OPENCODE_CONFIG_DIR is one more folder OpenCode loads all of it from
  home(".config/opencode/tool", "XDG_CONFIG_HOME", undefined, { tree: true }),
  home(".config/opencode/tools", "XDG_CONFIG_HOME", undefined, { tree: true }),
  home(".config/opencode/config.json", "XDG_CONFIG_HOME"),
  home(".config/kilo/tool", "XDG_CONFIG_HOME", undefined, { tree: true }),
  home(".config/kilo/tools", "XDG_CONFIG_HOME", undefined, { tree: true }),
  home(".config/kilo/config.json", "XDG_CONFIG_HOME"),
  home(".config/opencode/plugin", "OPENCODE_CONFIG_DIR", "plugin", { tree: true }),
  home(".config/opencode/plugins", "OPENCODE_CONFIG_DIR", "plugins", { tree: true }),
  home(".config/opencode/tool", "OPENCODE_CONFIG_DIR", "tool", { tree: true }),
  home(".config/opencode/opencode.json", "OPENCODE_CONFIG_DIR", "opencode.json"),
  home(".config/opencode/opencode.jsonc", "OPENCODE_CONFIG_DIR", "opencode.jsonc"),
  home(".cursor/cli-config.json"),
  home(".cursor/hooks.json"),
  home(".cursor/mcp.json"),
  home(".cursor/permissions.json"),
  // Pi: user settings (the extensions and packages it loads) and user extensions (code run in every session)
  home(".pi/agent/settings.json"),
  home(".pi/agent/extensions", undefined, undefined, { tree: true }),
  // Factory Droid: user settings hold its hooks
  home(".factory/settings.json"),
  home(".factory/settings.local.json"),
  home(".factory/hooks", undefined, undefined, { tree: true }),
  home(".factory/mcp.json"),
  // r9: Factory Droid 0.225.2 reads settings.json, hooks.json, mcp.json and update-policy.json in its
  // folder, and the project's .factory/mcp.json (an MCP server is a program it starts with the session)
  home(".factory/hooks.json"),
  project(".factory/mcp.json"),
  project(".factory/hooks.json"),
  project("opencode.json"),
  project("opencode.jsonc"),
  project(".cursor/hooks.json"),
  project(".cursor/cli.json"),
  // git: what the audit, the guard's git and the human's next commit run with
  system("/etc/gitconfig", gitConfig),
  home(".gitconfig", undefined, undefined, gitConfig),
  home(".config/git/config", "XDG_CONFIG_HOME", undefined, gitConfig),
  home(".config/git/attributes", "XDG_CONFIG_HOME"),
  // git's default core.excludesFile: which paths the next stage's audit ignores (the file a
  // core.excludesFile setting names instead is added at run time, runtime-boundary.ts)
  home(".config/git/ignore", "XDG_CONFIG_HOME"),
  git("config", gitConfig),
  git("config.worktree", gitConfig),
  git("info/exclude"),
  git("info/attributes"),
  git("info/sparse-checkout"),
  // r7: what git reads in place of history (grafts) and beside its own objects (alternates, whose
  // objects every later git reads as the repository's)
  git("info/grafts"),
  git("objects/info/alternates"),
  // a rebase, cherry-pick or am left in progress: its todo's exec lines run at the human's next
  // git rebase --continue (a stage that rebases already fails: it moves HEAD)
  git("rebase-merge", { tree: true }),
  git("rebase-apply", { tree: true }),
  git("sequencer", { tree: true }),
  git("hooks", { tree: true }),
  // npm and the shells: start-up files every later command (and some hooks) read; the project's
  // package-manager configuration too, which is often ignored (it can hold a token) and which sets
  // what every later npm, yarn or pnpm run loads (node-options, script-shell, a pnpmfile's hooks)
  home(".npmrc"),
  home(".yarnrc"),
  home(".yarnrc.yml"),
  project(".npmrc"),
  project(".yarnrc"),
  project(".yarnrc.yml"),
  project(".pnpmfile.cjs"),
  // pnpm's user configuration: the same node-options and script-shell as an .npmrc
  home(".config/pnpm/rc", "XDG_CONFIG_HOME"),
  // what the allowed build and test tools read from the home: cargo's runner and rustflags, go's
  // GOFLAGS (-toolexec), pip's index and options
  home(".cargo/config.toml", "CARGO_HOME", "config.toml"),
  home(".cargo/config", "CARGO_HOME", "config"),
  home(".config/go/env", "XDG_CONFIG_HOME"),
  home(".config/pip/pip.conf", "XDG_CONFIG_HOME"),
  home(".pip/pip.conf"),
  // every file a bash, zsh or fish start or end reads, login shells included (the human's terminal;
  // bash reads ~/.bash_login where there is no ~/.bash_profile); zsh's where ZDOTDIR moves them too
  home(".bashrc"),
  home(".bash_profile"),
  home(".bash_login"),
  home(".bash_logout"),
  home(".profile"),
  home(".zshenv", "ZDOTDIR", ".zshenv"),
  home(".zprofile", "ZDOTDIR", ".zprofile"),
  home(".zshrc", "ZDOTDIR", ".zshrc"),
  home(".zlogin", "ZDOTDIR", ".zlogin"),
  home(".zlogout", "ZDOTDIR", ".zlogout"),
  home(".config/fish/config.fish", "XDG_CONFIG_HOME"),
  // and what those files load by the distributions' defaults (Debian's .bashrc sources .bash_aliases),
  // fish's start-up and autoloaded functions (a git.fish there replaces git), oh-my-zsh's custom folder;
  // the session's environment, the desktop's autostart and the user's services; ssh's ProxyCommand,
  // which the human's next push runs
  home(".bash_aliases"),
  home(".bashrc.d", undefined, undefined, { tree: true }),
  home(".config/fish/conf.d", "XDG_CONFIG_HOME", undefined, { tree: true }),
  home(".config/fish/functions", "XDG_CONFIG_HOME", undefined, { tree: true }),
  home(".oh-my-zsh/custom", "ZSH_CUSTOM", "", { tree: true }),
  home(".config/environment.d", "XDG_CONFIG_HOME", undefined, { tree: true }),
  home(".pam_environment"),
  home(".config/autostart", "XDG_CONFIG_HOME", undefined, { tree: true }),
  home(".config/systemd/user", "XDG_CONFIG_HOME", undefined, { tree: true }),
  home(".ssh/config"),
  // r7: what the human's next git commit starts: the editor (vi, vim, nvim, emacs read their start-up
  // files and plugins as code), gpg's agent for a signed commit (pinentry-program), gitk's Tcl settings
  home(".vimrc"),
  home(".exrc"),
  home(".vim/vimrc"),
  home(".vim/plugin", undefined, undefined, { tree: true }),
  home(".config/nvim", "XDG_CONFIG_HOME", undefined, { tree: true }),
  home(".emacs"),
  home(".emacs.d/init.el"),
  home(".config/emacs/init.el", "XDG_CONFIG_HOME"),
  home(".gnupg/gpg-agent.conf", "GNUPGHOME", "gpg-agent.conf"),
  home(".gnupg/gpg.conf", "GNUPGHOME", "gpg.conf"),
  home(".config/git/gitk", "XDG_CONFIG_HOME"),
  home(".gitk"),
  // and what other build and test tools run as code from the home: gradle's init scripts and
  // properties (org.gradle.jvmargs with a -javaagent), bun's preload (bunfig.toml)
  home(".gradle/init.d", "GRADLE_USER_HOME", "init.d", { tree: true }),
  home(".gradle/init.gradle", "GRADLE_USER_HOME", "init.gradle"),
  home(".gradle/init.gradle.kts", "GRADLE_USER_HOME", "init.gradle.kts"),
  home(".gradle/gradle.properties", "GRADLE_USER_HOME", "gradle.properties"),
  home(".bunfig.toml"),
  // r9: the hosts' user-level agent definitions: each carries its own tools, permissions and hooks, and
  // Copilot CLI loads ~/.copilot/agents/<name>.agent.md in place of the project's agent of that name
  // (W_HOST_HOME_OVERRIDE): a role's code that planted mica.agent.md there ran the next mica with every
  // tool and no guard hook. OpenCode and Kilo merge a global agent into the project's of the same name.
  home(".copilot/agents", "COPILOT_HOME", "agents", { tree: true }),
  home(".codex/agents", "CODEX_HOME", "agents", { tree: true }),
  home(".gemini/agents", undefined, undefined, { tree: true }),
  home(".gemini/agents", "GEMINI_CLI_HOME", ".gemini/agents", { tree: true }),
  home(".qwen/agents", "QWEN_HOME", "agents", { tree: true }),
  home(".config/opencode/agent", "XDG_CONFIG_HOME", undefined, { tree: true }),
  home(".config/opencode/agents", "XDG_CONFIG_HOME", undefined, { tree: true }),
  home(".config/opencode/agent", "OPENCODE_CONFIG_DIR", "agent", { tree: true }),
  home(".config/opencode/agents", "OPENCODE_CONFIG_DIR", "agents", { tree: true }),
  home(".config/kilo/agent", "XDG_CONFIG_HOME", undefined, { tree: true }),
  home(".config/kilo/agents", "XDG_CONFIG_HOME", undefined, { tree: true }),
  home(".factory/droids", undefined, undefined, { tree: true }),
  home(".cursor/agents", undefined, undefined, { tree: true }),
  // r9: OpenCode and Kilo load {plugin,plugins}/*.{ts,js} (code in the host's own process, before any
  // permission), {tool,tools}, {agent,agents}/**/*.md and {mode,modes}/*.md from every config folder:
  // the global one, the one OPENCODE_CONFIG_DIR or KILO_CONFIG_DIR names, and the project's .opencode,
  // .kilo and .kilocode (a project that ignores .opencode/ hid a planted plugin from the tree audit)
  ...["mode", "modes"].flatMap((d) => [home(".config/opencode/" + d, "XDG_CONFIG_HOME", undefined, { tree: true }), home(".config/opencode/" + d, "OPENCODE_CONFIG_DIR", d, { tree: true }), home(".config/kilo/" + d, "XDG_CONFIG_HOME", undefined, { tree: true })]),
  home(".config/opencode/tools", "OPENCODE_CONFIG_DIR", "tools", { tree: true }),
  ...["kilo.json", "kilo.jsonc", "opencode.json", "opencode.jsonc"].map((f) => home(".config/kilo/" + f, "KILO_CONFIG_DIR", f)),
  ...OPENCODE_FOLDERS.map((d) => home(".config/kilo/" + d, "KILO_CONFIG_DIR", d, { tree: true })),
  ...[".opencode", ".kilo", ".kilocode"].flatMap((p) => OPENCODE_FOLDERS.map((d) => project(p + "/" + d, { tree: true }))),
];

// Every host settings and hook file the guard refuses in the project (HOST_SETTINGS_FILES) is guarded
// at the root too, wherever the ignore rules hide it (r4: .vscode/ is often ignored, and the tree audit
// never saw .vscode/settings.json or .cursor/mcp.json there).
const fromGuard = HOST_SETTINGS_FILES.map((g) => (g.endsWith("/**") ? project(g.slice(0, -3), { tree: true }) : project(g)));
const key = (g: GuardedFile) => g.base + ":" + g.path;
const listed = new Set(LISTED.map(key));
export const GUARDED_FILES: readonly GuardedFile[] = [...LISTED, ...fromGuard.filter((g) => !listed.has(key(g)))];
