// A generated CommonJS hook script (the Claude Code and Cursor guards) run in this process, by the
// tests' hook runner (test/helpers/hook-vm.ts): the script's own bytes, read from the file the host
// would run, with its hook input on fd 0, its fds 1 and 2 captured, its argv, environment and exit
// code its own. It answers what `node script` answers without starting a process (~60 ms of CPU each,
// most of a guard test table's time). What only a process shows (Node's start, a real pipe,
// process.exit's code, an uncaught exception's handler) is checked by the tests that still run
// `node`, and by `sameAsProcess`, which runs a sample of the table both ways and compares the bytes.
import { runHook } from "../helpers/hook-vm.js";
import type { RunResult } from "./helpers.js";

/** `node script [as]` with `input` on stdin and `env` as its environment, in this process. */
export function runScriptInProcess(script: string, input: unknown, env: NodeJS.ProcessEnv, as?: string | null): RunResult {
  return runScript(script, as ? [as] : [], input, env, env.CLAUDE_PROJECT_DIR ?? process.cwd());
}

/** `node script ...args` started in `cwd`, with `input` on stdin and `env` as its environment, in this process. */
export function runScript(script: string, args: readonly string[], input: unknown, env: NodeJS.ProcessEnv, cwd: string): RunResult {
  return runHook(script, args, typeof input === "string" ? input : JSON.stringify(input), env, cwd);
}
