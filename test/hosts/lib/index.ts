// Real-host loaders: load a generated tree with the real host CLI, offline, and report what
// loaded and every complaint. See claude-code.ts, opencode.ts, codex.ts.
import { loadClaudeCode } from "./claude-code.js";
import { loadCodex } from "./codex.js";
import { loadKilo } from "./kilo.js";
import { loadOpenCode } from "./opencode.js";
import { loadGeminiCli } from "./gemini-cli.js";
import { loadCopilot } from "./copilot.js";
import { loadQwenCode } from "./qwen-code.js";
import { loadPi } from "./pi.js";
import { loadFactoryDroid } from "./factory-droid.js";
import type { HostId, LoadOptions, LoadResult } from "./types.js";

export * from "./types.js";
export { loadClaudeCode, loadCodex, loadCopilot, loadGeminiCli, loadKilo, loadOpenCode, loadPi, loadQwenCode, loadFactoryDroid };
export { createHostEnv, REPO_ROOT, SCRATCH_ROOT, DEAD_URL, type HostEnv, type HostEnvOptions } from "./env.js";
export { run, stripAnsi, describeRun, type RunResult, type RunOptions } from "./run.js";
export { ensureHosts, type HostInstallMap, type HostInstall } from "./install.js";

export const LOADERS: Partial<Record<HostId, (tree: string, opts: LoadOptions) => Promise<LoadResult>>> = {
  "claude-code": loadClaudeCode,
  opencode: loadOpenCode,
  codex: loadCodex,
  "gemini-cli": loadGeminiCli,
  kilo: loadKilo,
  copilot: loadCopilot,
  "qwen-code": loadQwenCode,
  pi: loadPi,
  "factory-droid": loadFactoryDroid,
};

export function loadTree(host: HostId, tree: string, opts: LoadOptions): Promise<LoadResult> {
  const load = LOADERS[host];
  if (!load) throw new Error(`no real-host loader for ${host} in test/hosts/lib/index.ts`);
  return load(tree, opts);
}

/** Multi-line summary for assertion messages. */
export function formatLoad(r: LoadResult): string {
  const lines = [
    `${r.host} ${r.version}: ${r.complaints.length} complaint(s) in ${r.durationMs} ms`,
    `  declared agents: ${r.declared.agents.join(", ") || "-"}`,
    `  loaded agents:   ${r.agents.join(", ") || "-"}`,
    `  declared commands: ${r.declared.commands.join(", ") || "-"}`,
    ...r.complaints.map((c) => `  ✘ ${c}`),
  ];
  return lines.join("\n");
}
