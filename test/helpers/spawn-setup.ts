// A vitest setup file: the worker's synchronous process starts (child_process.spawnSync,
// execFileSync, execSync: the tests' git, the audit's git when it runs in this process, the CLI's
// probes) go through a small fork server (test/helpers/spawn-server.cjs), which runs the same call
// with the same file, arguments, folder, environment, input, time limit and signal, and returns the
// same result. The suite runs with isolate: false, so a worker keeps every file's module graph and
// grows to hundreds of MB; each fork copies its page tables and makes all its pages copy-on-write
// (its own later writes fault), which cost the worker ~10x what the fork costs a 50 MB process, and
// the suite starts thousands of git processes. What the server cannot reproduce exactly (a shell
// option, a file descriptor or stream in stdio, uid/gid, detached, argv0, a URL for cwd) runs here,
// as before: an allow list of options, not a list of the ones to avoid. Asynchronous starts
// (spawn, execFile) are not touched. HARNESS_TEST_FORK_SERVER=0 turns it off.
import cp from "node:child_process";
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

// Under isolate: false vitest evaluates this file again for each test file; the server, its
// channel and Node's own functions belong to the worker, so they live on globalThis.
const KEY = Symbol.for("harness.test.forkServer");
interface Channel {
  req: number;
  res: number;
}
interface State {
  started?: boolean;
  channel: Channel | null;
  real: Pick<typeof cp, "spawnSync" | "execFileSync" | "execSync">;
}
const g = globalThis as typeof globalThis & { [KEY]?: State };
const state: State = (g[KEY] ??= { channel: null, real: { spawnSync: cp.spawnSync, execFileSync: cp.execFileSync, execSync: cp.execSync } });

/** Node's own functions (test/fork-server.test.ts compares the two) */
export const real = state.real;
const STDIO = new Set(["pipe", "ignore", "inherit"]);
const OPTIONS = new Set(["cwd", "env", "encoding", "input", "timeout", "killSignal", "maxBuffer", "stdio", "windowsHide"]);

/** whether calls go through the server in this worker */
export const serving = (): boolean => !!state.channel;

function open(): Channel | null {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "harness-forks-"));
  const [req, res] = [path.join(dir, "req"), path.join(dir, "res")];
  if (real.spawnSync("mkfifo", [req, res]).status !== 0) return null;
  const server = cp.spawn(process.execPath, [path.join(path.dirname(fileURLToPath(import.meta.url)), "spawn-server.cjs"), dir], { stdio: "inherit" });
  server.unref();
  // The server opens req, then res. A blocking open of req would wait for ever for a server that
  // never started, so it is opened without blocking (ENXIO: no reader yet) until a deadline; then
  // the worker spawns as before. Once the server reads req it opens res, which this open waits for.
  const until = Date.now() + 10_000;
  let w: number | null = null;
  while (w === null) {
    try {
      w = fs.openSync(req, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENXIO" || Date.now() > until || server.exitCode !== null) {
        fs.rmSync(dir, { recursive: true, force: true });
        return null;
      }
      pause();
    }
  }
  const ch = { req: w, res: fs.openSync(res, "r") };
  fs.rmSync(dir, { recursive: true, force: true });
  return ch;
}

const nap = new Int32Array(new SharedArrayBuffer(4));
const pause = () => Atomics.wait(nap, 0, 0, 2);

/** all of `msg` to the request FIFO (opened non-blocking: a full pipe answers EAGAIN until the server reads) */
function writeAll(fd: number, msg: Buffer): void {
  for (let off = 0; off < msg.length; ) {
    try {
      off += fs.writeSync(fd, msg, off, msg.length - off);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EAGAIN") throw e;
      pause();
    }
  }
}

function readExactly(fd: number, n: number): Buffer {
  const buf = Buffer.allocUnsafe(n);
  let got = 0;
  while (got < n) {
    const k = fs.readSync(fd, buf, got, n - got, null);
    if (k === 0) throw new Error("spawn-setup: the fork server exited");
    got += k;
  }
  return buf;
}

interface Answer {
  pid: number;
  status: number | null;
  signal: NodeJS.Signals | null;
  /** each output's length in bytes (-1: none), or null: no output at all (the start failed) */
  outs: number[] | null;
  error?: Record<string, unknown> & { message: string };
}

/** the call as the server would make it, or null: it must run here */
function forwardable(file: unknown, args: unknown, options: unknown): { file: string; args: string[]; options: Record<string, unknown> } | null {
  if (typeof file !== "string") return null;
  if (!Array.isArray(args)) {
    if (args != null && typeof args === "object" && options === undefined) [args, options] = [[], args];
    else if (args == null) args = [];
    else return null;
  }
  if (!(args as unknown[]).every((a) => typeof a === "string")) return null;
  const o = (options ?? {}) as Record<string, unknown>;
  if (typeof o !== "object") return null;
  for (const [k, v] of Object.entries(o)) if (v !== undefined && !OPTIONS.has(k)) return null;
  if (o.cwd !== undefined && typeof o.cwd !== "string") return null;
  const stdio = o.stdio;
  if (stdio !== undefined && !(typeof stdio === "string" && STDIO.has(stdio)) && !(Array.isArray(stdio) && stdio.length <= 3 && stdio.every((s) => s == null || STDIO.has(s as string)))) return null;
  const input = o.input;
  if (input != null && typeof input !== "string" && !ArrayBuffer.isView(input)) return null;
  if (o.env !== undefined && (o.env === null || typeof o.env !== "object")) return null;
  // the server returns bytes; viaServer applies the encoding, as Node's spawnSync does last
  const { input: _input, encoding: _encoding, ...rest } = o;
  return { file, args: args as string[], options: { ...rest, cwd: o.cwd ?? process.cwd(), env: { ...((o.env as NodeJS.ProcessEnv | undefined) ?? process.env) } } };
}

function viaServer(call: NonNullable<ReturnType<typeof forwardable>>, input: unknown, encoding: unknown): ReturnType<typeof cp.spawnSync> {
  const ch = state.channel!;
  // Node's spawnSync: an input (a falsy one is none) string is encoded with the call's encoding
  const bytes = !input ? null : typeof input === "string" ? Buffer.from(input, encoding as BufferEncoding) : Buffer.from((input as ArrayBufferView).buffer, (input as ArrayBufferView).byteOffset, (input as ArrayBufferView).byteLength);
  const body = Buffer.from(JSON.stringify({ ...call, input: bytes ? bytes.length : -1 }), "utf8");
  const head = Buffer.allocUnsafe(4);
  head.writeUInt32LE(body.length, 0);
  const msg = Buffer.concat([head, body, ...(bytes ? [bytes] : [])]);
  writeAll(ch.req, msg);
  const a = JSON.parse(readExactly(ch.res, readExactly(ch.res, 4).readUInt32LE(0)).toString("utf8")) as Answer;
  const decode = typeof encoding === "string" && encoding !== "buffer";
  // every byte read before any decoding, which can throw (an unknown encoding, as in Node's own)
  const raw = a.outs && a.outs.map((n) => (n < 0 ? null : readExactly(ch.res, n)));
  const output = raw && (decode ? raw.map((b) => b && b.toString(encoding as BufferEncoding)) : raw);
  const result = { status: a.status, signal: a.signal, output, pid: a.pid, stdout: output ? output[1] : null, stderr: output ? output[2] : null };
  if (!a.error) return result as unknown as ReturnType<typeof cp.spawnSync>;
  const { message, ...props } = a.error;
  return { error: Object.assign(new Error(message), props), ...result } as unknown as ReturnType<typeof cp.spawnSync>;
}

function spawnSync(file: string, args?: unknown, options?: unknown): ReturnType<typeof cp.spawnSync> {
  const call = state.channel ? forwardable(file, args, options) : null;
  if (!call) return (real.spawnSync as (...a: unknown[]) => ReturnType<typeof cp.spawnSync>)(file, args, options);
  const input = ((Array.isArray(args) ? options : args) as { input?: unknown } | undefined)?.input;
  return viaServer(call, input, ((Array.isArray(args) ? options : args) as { encoding?: unknown } | undefined)?.encoding);
}

// Node's checkExecSyncError (lib/child_process.js), which execFileSync and execSync end with
function checkExecSyncError(ret: Record<string, unknown>, args: string[] | undefined, cmd?: string): Error | undefined {
  if (ret.error) return Object.assign(ret.error as Error, ret);
  if (ret.status !== 0) {
    let msg = `Command failed: ${cmd || args!.join(" ")}`;
    const stderr = ret.stderr as string | Buffer | null;
    if (stderr && stderr.length > 0) msg += `\n${stderr.toString()}`;
    return Object.assign(new Error(msg), ret);
  }
  return undefined;
}

function execFileSync(file: string, args?: unknown, options?: unknown): string | Buffer {
  if (!Array.isArray(args) && args != null && typeof args === "object") [args, options] = [[], args];
  const o = (options ?? {}) as Record<string, unknown>;
  const call = state.channel ? forwardable(file, args ?? [], o) : null;
  if (!call) return (real.execFileSync as (...a: unknown[]) => string | Buffer)(file, args, options);
  const ret = viaServer(call, o.input, o.encoding) as unknown as Record<string, unknown>;
  if (!o.stdio && ret.stderr) process.stderr.write(ret.stderr as string | Buffer);
  const err = checkExecSyncError(ret, [file, ...(call.args ?? [])]);
  if (err) throw err;
  return ret.stdout as string | Buffer;
}

function execSync(command: string, options?: unknown): string | Buffer {
  const o = (options ?? {}) as Record<string, unknown>;
  // Node runs `/bin/sh -c command` for a shell of true (execSync's default)
  const { shell, ...rest } = o;
  const call = state.channel && typeof command === "string" && (shell === undefined || shell === true) ? forwardable("/bin/sh", ["-c", command], rest) : null;
  if (!call) return (real.execSync as (...a: unknown[]) => string | Buffer)(command, options);
  const ret = viaServer(call, o.input, o.encoding) as unknown as Record<string, unknown>;
  if (!o.stdio && ret.stderr) process.stderr.write(ret.stderr as string | Buffer);
  const err = checkExecSyncError(ret, undefined, command);
  if (err) throw err;
  return ret.stdout as string | Buffer;
}

if (!state.started && process.env.HARNESS_TEST_FORK_SERVER !== "0" && process.platform !== "win32") {
  state.started = true;
  try {
    state.channel = open();
  } catch {
    state.channel = null;
  }
  if (state.channel) {
    Object.assign(cp, { spawnSync, execFileSync, execSync });
    syncBuiltinESMExports();
  }
}
