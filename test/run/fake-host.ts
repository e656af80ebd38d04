// A fake host driver for the runner's unit tests: each role is a function of its call (prompt, resumed
// session, how many times it ran) that writes files into the project and returns its final reply.
import fs from "node:fs";
import path from "node:path";
import type { HostDriver, SessionRequest, SessionResult } from "../../src/adapter/runner.js";

export interface FakeCall {
  role: string | null;
  prompt: string;
  resume: string | null;
  session: string;
  /** how many sessions this role had before (0 = first) */
  n: number;
}

export interface FakeReply {
  write?: Record<string, string>;
  text: string;
  /** wait until the run is interrupted (Ctrl-C), then end as killed */
  hang?: boolean;
}

export type FakeScript = Record<string, (c: FakeCall) => FakeReply>;

export function fakeHost(root: string, script: FakeScript): HostDriver & { calls: FakeCall[] } {
  const calls: FakeCall[] = [];
  let ids = 0;
  return {
    host: "fake",
    program: "fake-host",
    calls,
    async run(r: SessionRequest): Promise<SessionResult> {
      const key = r.role ?? "classify";
      const n = calls.filter((c) => (c.role ?? "classify") === key).length;
      const session = r.resume ?? `${key}-s${++ids}`;
      const call: FakeCall = { role: r.role, prompt: r.prompt, resume: r.resume, session, n };
      calls.push(call);
      const fn = script[key];
      if (!fn) return { exit: 1, session, text: "", tokens: null, error: `no script for ${key}`, interrupted: false };
      const reply = fn(call);
      if (reply.hang) {
        await new Promise<void>((resolve) => (r.signal.aborted ? resolve() : r.signal.addEventListener("abort", () => resolve(), { once: true })));
        return { exit: null, session, text: "", tokens: null, error: null, interrupted: true };
      }
      for (const [rel, content] of Object.entries(reply.write ?? {})) {
        fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
        fs.writeFileSync(path.join(root, rel), content);
      }
      return { exit: 0, session, text: reply.text, tokens: { input: 100, output: 10 }, error: null, interrupted: false };
    },
  };
}
