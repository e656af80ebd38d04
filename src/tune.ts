// Imported first by cli.ts. A build or check of a small pipeline is over before V8's optimising
// compiler (TurboFan) pays back its compile time: turning it off saves ~15% CPU and ~7 MiB at 8
// roles. Large pipelines run long enough to profit from it, so they keep it. Output is unaffected.
import { readdirSync } from "node:fs";
import { setFlagsFromString } from "node:v8";

const SMALL_PIPELINE = 64; // role files

function rolesDir(argv: readonly string[]): string {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--roles" && argv[i + 1]) return argv[i + 1]!;
    if (argv[i]!.startsWith("--roles=")) return argv[i]!.slice(8);
  }
  return "roles";
}

try {
  if (readdirSync(rolesDir(process.argv.slice(2))).filter((f) => f.endsWith(".md")).length <= SMALL_PIPELINE) setFlagsFromString("--no-opt");
} catch {
  // no readable roles folder: the command reports it; nothing to tune
}
