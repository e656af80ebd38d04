// A generated hook script (the run controller, CommonJS; the stage-end audit, an ES module) run in
// this process, as test/guard/script-vm.ts runs the guard: the script's own bytes, read from the file
// the host would run, with its hook input on fd 0, its fds 1 and 2 captured, and its argv,
// environment, working folder, exit code and exit handlers its own. The processes the script itself
// starts (git, the checks' shell) are real, with the script's environment and folder. A Node start
// is ~60 ms of CPU and most of a controller or audit test's time; what only a process shows (Node's
// start, the hook's real parent, a hang that a time limit stops) stays with the tests that still run
// `node`, and each suite runs a sample both ways and compares the answers.
import cp from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import url from "node:url";
import zlib from "node:zlib";

/** HARNESS_TEST_HOOKS=node: every hook through node, as before this runner (the whole suite both ways) */
export const HOOKS_VIA_NODE = process.env.HARNESS_TEST_HOOKS === "node";

export interface VmResult {
  code: number;
  stdout: string;
  stderr: string;
}

type Factory = (require: (id: string) => unknown, process: unknown, __filename: string, __dirname: string, module: unknown, exports: unknown, importMetaUrl: string) => void;
const compiled = new Map<string, Factory>();

class Exit {
  constructor(readonly code: number) {}
}

// An ES module's imports of Node's built-ins, as the CommonJS requires they name; anything else is
// refused, so a script that grows an import this runner does not model fails loudly, not silently.
const IMPORT = /^import\s+(?:(\w+)|\{\s*([\w\s,]+?)\s*\})\s+from\s+"(node:[\w/]+)";$/gm;

function factory(script: string): Factory {
  let text = fs.readFileSync(script, "utf8");
  const key = `${script.endsWith(".mjs") ? "m" : "c"}:${text}`;
  let f = compiled.get(key);
  if (f) return f;
  if (script.endsWith(".mjs")) {
    text = `"use strict";\n${text.replace(IMPORT, (_, def: string | undefined, named: string | undefined, id: string) => (def ? `const ${def} = require("${id}");` : `const { ${named} } = require("${id}");`))}`;
    if (/^\s*(import|export)\s/m.test(text)) throw new Error(`hook-vm: ${script} has an import or export this runner does not rewrite`);
    text = text.replace(/\bimport\.meta\.url\b/g, "importMetaUrl");
  }
  // the wrapper Node's CommonJS loader puts around a module's text, plus the module's URL
  f = new Function("require", "process", "__filename", "__dirname", "module", "exports", "importMetaUrl", text) as Factory;
  compiled.set(key, f);
  return f;
}

/** `node script ...args` started in `cwd` with `input` on stdin and exactly `env` as its environment, in this process. */
export function runHook(script: string, args: readonly string[], input: string, env: NodeJS.ProcessEnv, cwd: string): VmResult {
  // what Node itself reads from the environment changes the process, which no evaluation here models
  for (const k of ["NODE_OPTIONS", "NODE_PATH"]) if (env[k] !== undefined) throw new Error(`hook-vm: ${k} is set: run this hook through node`);
  const stdin = Buffer.from(input, "utf8");
  let read = 0;
  let stdout = "";
  let stderr = "";
  const ownEnv: NodeJS.ProcessEnv = { ...env };
  const handlers = new Map<string, ((e?: unknown) => void)[]>();
  const io = {
    ...fs,
    readFileSync(file: fs.PathOrFileDescriptor, opts?: unknown): string | Buffer {
      if (file !== 0) return (fs.readFileSync as (...a: unknown[]) => string | Buffer)(file, opts);
      const rest = stdin.subarray(read);
      read = stdin.length;
      const encoding = typeof opts === "string" ? opts : (opts as { encoding?: BufferEncoding } | undefined)?.encoding;
      return encoding ? rest.toString(encoding) : Buffer.from(rest);
    },
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
  // a process the script starts inherits its folder and environment, as from a real `node script`
  const withDefaults = (o: cp.SpawnSyncOptions | undefined): cp.SpawnSyncOptions => ({ ...o, cwd: o?.cwd ?? cwd, env: o?.env ?? ownEnv });
  const children = {
    ...cp,
    spawnSync: (file: string, a?: readonly string[], o?: cp.SpawnSyncOptions) => cp.spawnSync(file, a ?? [], withDefaults(o)),
    execFileSync: (file: string, a?: readonly string[], o?: cp.ExecFileSyncOptions) => cp.execFileSync(file, a ?? [], withDefaults(o) as cp.ExecFileSyncOptions),
  };
  const system = { ...os, homedir: () => ownEnv.HOME || os.homedir() };
  const proc = {
    argv: [process.execPath, script, ...args],
    env: ownEnv,
    platform: process.platform,
    execPath: process.execPath,
    // the hook's parent is the process that started it: this one
    ppid: process.pid,
    pid: process.pid,
    getuid: () => process.getuid!(),
    cwd: () => cwd,
    exit(code?: number): never {
      throw new Exit(code ?? 0);
    },
    on(event: string, h: (e?: unknown) => void) {
      handlers.set(event, [...(handlers.get(event) ?? []), h]);
      return proc;
    },
  };
  const modules: Record<string, unknown> = { fs: io, path, crypto, os: system, child_process: children, url, zlib };
  const req = (id: string): unknown => {
    const m = modules[id.replace(/^node:/, "")];
    if (!m) throw new Error(`hook-vm: the script requires ${id}, which this runner does not provide`);
    return m;
  };
  const module = { exports: {} };
  let code = 0;
  try {
    try {
      factory(script)(req, proc, script, path.dirname(script), module, module.exports, url.pathToFileURL(script).href);
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
  for (const f of handlers.get("exit") ?? []) f(code);
  return { code, stdout, stderr };
}
