// What makes a record safe to resume from: the runner keeps the sha256 of every record it writes
// outside the project (a check's test code runs inside it), and `--resume` refuses a record whose
// bytes differ. The record in the project is output; this digest is the runner's memory across runs.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export const sha256 = (bytes: string | Buffer) => crypto.createHash("sha256").update(bytes).digest("hex");

/** $HARNESS_STATE_HOME, else $XDG_STATE_HOME/harness, else ~/.local/state/harness. */
export function stateHome(env: NodeJS.ProcessEnv = process.env): string {
  if (env.HARNESS_STATE_HOME) return path.resolve(env.HARNESS_STATE_HOME);
  return path.join(env.XDG_STATE_HOME ? path.resolve(env.XDG_STATE_HOME) : path.join(os.homedir(), ".local", "state"), "harness");
}

/** The runner's own folder for one project's runs (digests, locks). */
export const digestDir = (root: string, env?: NodeJS.ProcessEnv) => path.join(stateHome(env), "runs", sha256(path.resolve(root)).slice(0, 16));
const digestFile = (root: string, id: string, env?: NodeJS.ProcessEnv) => path.join(digestDir(root, env), `${id}.sha256`);

export function saveDigest(root: string, id: string, bytes: string, env?: NodeJS.ProcessEnv): void {
  const file = digestFile(root, id, env);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${sha256(bytes)}\n`, { mode: 0o600 });
  fs.renameSync(tmp, file);
}

/** null when the record is the one the runner wrote last; otherwise why it cannot be trusted. */
export function digestProblem(root: string, id: string, bytes: string, env?: NodeJS.ProcessEnv): string | null {
  const file = digestFile(root, id, env);
  let want: string;
  try {
    want = fs.readFileSync(file, "utf8").trim();
  } catch {
    return `harness has no digest of run ${id} (${file}): it was not started by \`harness run\` as this user on this machine`;
  }
  return want === sha256(bytes) ? null : `the record was changed after harness wrote it (sha256 ${sha256(bytes).slice(0, 12)}…, harness wrote ${want.slice(0, 12)}…): treated as tampered`;
}

/** sha256 of a project file, or null when it is missing. */
export function fileSha(root: string, rel: string): string | null {
  try {
    return sha256(fs.readFileSync(path.join(root, rel)));
  } catch {
    return null;
  }
}
