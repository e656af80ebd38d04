// What `harness run` needs from a host (an adapter's optional `runner`, in adapters/<host>/runner.ts):
// start one headless session as a role (or resume one), and read back the session id, the final
// reply and the usage. Everything else is the runner's. A driver refuses a session the host would
// run as another agent than the role.
import type { Tokens } from "../runs/record.js";

export interface SessionRequest {
  /** the role's agent id; null: the host's default agent (the classifying session) */
  role: string | null;
  prompt: string;
  /** resume this host session with `prompt` as the next user message */
  resume: string | null;
  cwd: string;
  /** the role's write globs (empty for the classifying session) */
  write: readonly string[];
  /** the role's never-write globs (for the classifying session: the pipeline's); a sandboxed driver denies their folder prefixes */
  neverWrite: readonly string[];
  signal: AbortSignal;
}

export interface SessionResult {
  /** the host's exit code (null: killed) */
  exit: number | null;
  session: string | null;
  /** the final reply: the stage's short report */
  text: string;
  tokens: Tokens | null;
  /** what went wrong, when the host says the session failed */
  error: string | null;
  interrupted: boolean;
}

export interface HostDriver {
  host: string;
  /** the program the driver runs, for the "not installed" message */
  program: string;
  run(request: SessionRequest): Promise<SessionResult>;
  /**
   * `harness run --sandbox`: the same driver with every session in the host's own OS sandbox, so
   * that the code a role's commands run (its `npm test`'s test code) is held to the role's
   * never-write folders too. Absent on hosts whose sandbox harness does not drive.
   */
  sandboxed?(): HostDriver;
  /** why the sandbox cannot start on this machine, with the fix; null when it can */
  sandboxProblem?(): string | null;
}
