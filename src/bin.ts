// The `harness` executable's entry (bundled to dist/cli/main.cjs, loaded by src/loader.cjs): one command
// line on this process's arguments and streams. The only place that sets the exit code.
import { main } from "./cli.js";

// `harness diff | head` closes the pipe early: stop writing, quietly. The handler is added when
// stdout is first used, by whoever uses it: creating the stream loads net (a pipe) or tty (a
// terminal), ~5 ms that a run printing nothing (a quiet build) need not pay.
const stdout = Object.getOwnPropertyDescriptor(process, "stdout");
if (stdout?.get && stdout.configurable) {
  Object.defineProperty(process, "stdout", {
    configurable: true,
    enumerable: stdout.enumerable,
    get() {
      Object.defineProperty(process, "stdout", stdout);
      return onPipeClosed(process.stdout);
    },
  });
} else onPipeClosed(process.stdout);

function onPipeClosed(stream: NodeJS.WriteStream): NodeJS.WriteStream {
  return stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw error;
  });
}

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
