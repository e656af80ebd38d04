// A generated CommonJS hook script (the Claude Code guard) run in this process: the script's own
// bytes, read from the file the host would run, evaluated as Node evaluates a CommonJS module, with
// its hook input on fd 0, its fds 1 and 2 captured, its argv, environment and exit code its own. It
// answers what `node script` answers without starting a process (~60 ms of CPU each, most of a guard
// test table's time). What only a process shows (Node's start, a real pipe, process.exit's code,
// an uncaught exception's handler) is checked by the tests that still run `node`, and by
// `sameAsProcess`, which runs a sample of the table both ways and compares the bytes.
import fs from "node:fs";
import path from "node:path";
import type { RunResult } from "./helpers.js";

type Factory = (require: (id: string) => unknown, process: unknown, __filename: string, __dirname: string, module: unknown, exports: unknown) => void;
const compiled = new Map<string, Factory>();

class Exit {
  constructor(readonly code: number) {}
}

function factory(script: string): Factory {
  const text = fs.readFileSync(script, "utf8");
  let f = compiled.get(text);
  if (!f) {
    // the wrapper Node's CommonJS loader puts around a module's text
    f = new Function("require", "process", "__filename", "__dirname", "module", "exports", text) as Factory;
    compiled.set(text, f);
  }
  return f;
}

/** `node script [as]` with `input` on stdin and `env` as its environment, in this process. */
export function runScriptInProcess(script: string, input: unknown, env: NodeJS.ProcessEnv, as?: string | null): RunResult {
  return runScript(script, as ? [as] : [], input, env, env.CLAUDE_PROJECT_DIR ?? process.cwd());
}

/** `node script ...args` started in `cwd`, with `input` on stdin and `env` as its environment, in this process. */
export function runScript(script: string, args: readonly string[], input: unknown, env: NodeJS.ProcessEnv, cwd: string): RunResult {
  const stdin = Buffer.from(typeof input === "string" ? input : JSON.stringify(input), "utf8");
  let read = 0;
  let stdout = "";
  let stderr = "";
  const handlers = new Map<string, ((e: unknown) => void)[]>();
  const io = {
    ...fs,
    readSync(fd: number, buf: Buffer, off: number, len: number, pos: number | null): number {
      if (fd !== 0) return fs.readSync(fd, buf, off, len, pos);
      const n = stdin.copy(buf, off, read, Math.min(stdin.length, read + len));
      read += n;
      return n;
    },
    writeSync(fd: number, data: string | Buffer, ...rest: unknown[]): number {
      if (fd !== 1 && fd !== 2) return (fs.writeSync as (...a: unknown[]) => number)(fd, data, ...rest);
      const s = typeof data === "string" ? data : data.toString("utf8");
      if (fd === 1) stdout += s;
      else stderr += s;
      return Buffer.byteLength(s);
    },
  };
  const proc = {
    argv: [process.execPath, script, ...args],
    env: { ...env },
    platform: process.platform,
    // the hook's parent is the process that started it: this one
    ppid: process.pid,
    pid: process.pid,
    getuid: () => process.getuid!(),
    cwd: () => cwd,
    exit(code?: number): never {
      throw new Exit(code ?? 0);
    },
    on(event: string, h: (e: unknown) => void) {
      handlers.set(event, [...(handlers.get(event) ?? []), h]);
      return proc;
    },
  };
  const req = (id: string): unknown => {
    if (id === "node:fs" || id === "fs") return io;
    if (id === "node:path" || id === "path") return path;
    throw new Error(`runScriptInProcess: the script requires ${id}, which this runner does not provide`);
  };
  const module = { exports: {} };
  let code = 0;
  try {
    try {
      factory(script)(req, proc, script, path.dirname(script), module, module.exports);
    } catch (e) {
      if (e instanceof Exit) throw e;
      const h = handlers.get("uncaughtException");
      if (!h?.length) throw e;
      for (const f of h) f(e);
    }
  } catch (e) {
    if (!(e instanceof Exit)) throw e;
    code = e.code;
  }
  return { code, stdout, stderr };
}
