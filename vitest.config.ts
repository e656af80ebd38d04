import { defineConfig } from "vitest/config";
import { PathSequencer } from "./test/helpers/sequencer.ts";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // *.slow.test.ts: the tests whose worth is a real program's answer or a wait of seconds, not the
    // fast loop (vitest.slow.config.ts, `npm run test:slow`; CI runs both).
    exclude: ["test/hosts/**", "node_modules/**", "test/**/*.slow.test.ts"],
    testTimeout: 30_000,
    // Set-up and clean-up write and remove scratch projects: on a loaded 2-core machine the default
    // 10 s ran out removing one (test/adapters/pi.test.ts, while the real-host suite ran beside it).
    hookTimeout: 60_000,
    // One module graph per worker, not one per test file: importing the compiler (and transforming
    // it) for each of ~50 files was a large part of the suite's time. Test files restore what they
    // change (cwd, spies, env).
    isolate: false,
    // Child processes, not threads: the CLI tests run src/cli.ts main in the worker (test/helpers/cli.ts),
    // and a project command moves to the project root with process.chdir, which threads cannot call.
    pool: "forks",
    // The worker's synchronous process starts through a small fork server (test/helpers/spawn-setup.ts).
    setupFiles: ["test/helpers/spawn-setup.ts"],
    // Files in path order, and shards of fixed files (test/helpers/sequencer.ts): a leak across files
    // under isolate: false fails the same way every run.
    sequence: { sequencer: PathSequencer },
    // Workers: vitest's default, one fewer than the CPUs (one on a 2-core machine). `npm test` runs
    // two shards at once instead (scripts/test.mjs): the same use of both cores, with each shard's
    // files fixed, so which files share a module graph never depends on timing.
    reporters: ["default", ["json", { outputFile: "test-results.json" }]],
    // Transformed modules kept on disk between runs (node_modules/.experimental-vitest-cache, keyed by
    // each file's content): a run after the first skips most of the TypeScript transform.
    experimental: { fsModuleCache: true },
  },
});
