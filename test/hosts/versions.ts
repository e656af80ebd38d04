// The ONE place where the host CLI versions we test against are pinned.
// Data lives in versions.json (read by scripts/install-hosts.mjs, which cannot import TS);
// this module re-exports it with types. Adapters' `checkedAgainst` must equal HOST_VERSIONS.
import pins from "./versions.json" with { type: "json" };

export type HostId = "claude-code" | "opencode" | "codex" | "copilot" | "gemini-cli" | "kilo" | "qwen-code" | "pi" | "factory-droid";

export interface HostPin {
  /** npm package that ships the CLI */
  readonly package: string;
  /** exact version, no ranges */
  readonly version: string;
  /** name of the executable in node_modules/.bin */
  readonly bin: string;
  /** the executable's path in the install prefix, for a package with no `bin` entry (Factory Droid's platform binary) */
  readonly path?: string;
}

export const HOST_PINS: Readonly<Record<HostId, HostPin>> = pins;

export const HOST_IDS = Object.keys(pins) as HostId[];

export const HOST_VERSIONS: Readonly<Record<HostId, string>> = {
  "claude-code": pins["claude-code"].version,
  opencode: pins.opencode.version,
  codex: pins.codex.version,
  copilot: pins.copilot.version,
  "gemini-cli": pins["gemini-cli"].version,
  kilo: pins.kilo.version,
  "qwen-code": pins["qwen-code"].version,
  pi: pins.pi.version,
  "factory-droid": pins["factory-droid"].version,
};
