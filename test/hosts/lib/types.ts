import type { HostId } from "../versions.js";
import type { RunResult } from "./run.js";

export type { HostId };

export interface LoadOptions {
  /** absolute path of the host CLI binary (see scripts/install-hosts.mjs) */
  bin: string;
  /** per-command timeout, default 60 s */
  timeoutMs?: number;
  /** keep the scratch folder (also HARNESS_KEEP_SCRATCH=1) */
  keep?: boolean;
  /** Codex only: folder with user-scope output copied into $CODEX_HOME (profiles <name>.config.toml, agents/, rules/) */
  codexHomeTree?: string;
  /** run the loader's own lint checks in addition to the host's messages (default true) */
  lint?: boolean;
  /** OpenCode only: resolve just these agents one by one (`debug agent`, a full start each); default: every declared agent */
  agents?: string[];
}

export interface LoadResult {
  host: HostId;
  /** every agent the host reports as loaded (built-ins included) */
  agents: string[];
  /** every command / skill the host reports as loaded (built-ins included) */
  commands: string[];
  /** host complaints (and lint findings, prefixed "(lint)"); empty = clean */
  complaints: string[];
  /** what the tree declares (compare with agents/commands) */
  declared: { agents: string[]; commands: string[] };
  /** host version line */
  version: string;
  durationMs: number;
  /** raw runs, for debugging failures */
  runs: RunResult[];
  /** scratch folder (deleted unless kept) */
  scratch: string;
}
