// The host registry: one line per host. Adapters load lazily, so a build of one host imports only it.
import type { AdapterRegistry } from "../src/adapter/types.js";

export const HOSTS: AdapterRegistry = {
  antigravity: async () => (await import("./antigravity/index.js")).AntigravityAdapter,
  "claude-code": async () => (await import("./claude-code/index.js")).ClaudeCodeAdapter,
  codex: async () => (await import("./codex/index.js")).CodexAdapter,
  copilot: async () => (await import("./copilot/index.js")).CopilotAdapter,
  cursor: async () => (await import("./cursor/index.js")).CursorAdapter,
  "factory-droid": async () => (await import("./factory-droid/index.js")).FactoryDroidAdapter,
  "gemini-cli": async () => (await import("./gemini-cli/index.js")).GeminiCliAdapter,
  kilo: async () => (await import("./kilo/index.js")).KiloAdapter,
  opencode: async () => (await import("./opencode/index.js")).OpenCodeAdapter,
  pi: async () => (await import("./pi/index.js")).PiAdapter,
  "qwen-code": async () => (await import("./qwen-code/index.js")).QwenCodeAdapter,
};

export const HOST_IDS: readonly string[] = Object.keys(HOSTS);
