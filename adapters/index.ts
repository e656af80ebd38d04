// The host registry: one line per host. Adapters load lazily, so a build of one host imports only it.
import type { Adapter } from "../src/adapter/types.js";

export const HOSTS: Readonly<Record<string, () => Promise<Adapter>>> = {
  "claude-code": async () => (await import("./claude-code/index.js")).ClaudeCodeAdapter,
  codex: async () => (await import("./codex/index.js")).CodexAdapter,
  opencode: async () => (await import("./opencode/index.js")).OpenCodeAdapter,
};

export const HOST_IDS: readonly string[] = Object.keys(HOSTS);
