// harness.lock.json: what harness owns in an installed project, per path, with the SHA-256 of what it
// wrote. Committed with the project; `check --installed` and `uninstall` work from it.
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { renderJson } from "../emit/render.js";
import { listFiles } from "../fileset.js";
import { InstallError } from "./errors.js";
import type { MergeFormat } from "./formats.js";
import type { OwnedItem } from "./merge.js";

export const LOCK_FILE = "harness.lock.json";
export const LOCK_VERSION = 1;

export const sha256 = (text: string | Buffer) => createHash("sha256").update(text).digest("hex");

interface EntryBase {
  hosts: string[];
  /** SHA-256 of the whole file as harness left it. */
  sha256: string;
  /** The file did not exist before harness created it. */
  created?: true;
  /** Bytes before the first install, kept only when taking harness's parts out would not give them back. */
  original?: string;
  /** A whole file that was the team's own agent, read by `harness import` (roles/.harness-import.json) and replaced: `original` holds it. */
  adopted?: true;
  /** An adopted original that the host reads beside the generated agent at another path (OpenCode's
   * `.opencode/agent/x.md` and `.opencode/agents/x.md`): install took it away; `original` holds it. */
  removed?: true;
}

export type LockEntry =
  | (EntryBase & { mode: "whole"; executable?: true })
  | (EntryBase & { mode: "merge"; format: MergeFormat; owned: OwnedItem[] })
  /** `link`: the path is a link to another file (CLAUDE.md -> AGENTS.md); its block there is named after it. */
  | (EntryBase & { mode: "block"; block: string; entries?: Record<string, string>; separator: string; link?: true });

export interface Lock {
  lockVersion: number;
  generator: "harness";
  version: string; // harness version that wrote it
  source: { roles: string; digest: string };
  hosts: string[];
  files: Record<string, LockEntry>;
}

export function renderLock(lock: Lock): string {
  // Owned items keep their order (containers before their contents); renderJson sorts object keys only.
  return renderJson(lock);
}

/** One entry as the lock stores it (object keys sorted): what uninstall will read back. */
export const renderLockValue = (entry: LockEntry): string => renderJson(entry);

export function readLock(root: string): Lock | null {
  const file = path.join(root, LOCK_FILE);
  if (!existsSync(file)) return null;
  const text = readFileSync(file, "utf8");
  let data: Lock;
  try {
    data = JSON.parse(text) as Lock;
  } catch (error) {
    throw new InstallError(LOCK_FILE, 1, 1, "E_LOCK", `is not valid JSON (${(error as Error).message})`, "Restore it from git; harness cannot tell what it owns without it");
  }
  if (data?.generator !== "harness" || typeof data.files !== "object" || !Array.isArray(data.hosts))
    throw new InstallError(LOCK_FILE, 1, 1, "E_LOCK", "is not a harness lock", "Restore it from git, or move it away if it belongs to another tool");
  if (data.lockVersion !== LOCK_VERSION)
    throw new InstallError(LOCK_FILE, 1, 1, "E_LOCK", `has lock version ${String(data.lockVersion)}, this harness reads ${LOCK_VERSION}`, "Use the harness version that wrote it");
  return data;
}

/** Digest of the source folder (every file, path and bytes), so a lock says what it was built from. */
export function sourceDigest(rolesDir: string): string {
  const hash = createHash("sha256");
  for (const rel of listFiles(rolesDir)) hash.update(`${rel}\0`).update(readFileSync(path.join(rolesDir, rel))).update("\0");
  return hash.digest("hex");
}
