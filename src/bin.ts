// The `harness` executable's entry (bundled to dist/cli/main.cjs, loaded by src/loader.cjs): one command
// line on this process's arguments and streams. The only place that sets the exit code.
import { main } from "./cli.js";

// `harness diff | head` closes the pipe early: stop writing, quietly.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw error;
});

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
