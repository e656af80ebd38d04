import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: ["test/hosts/**", "node_modules/**"],
    testTimeout: 30_000,
    // One module graph per worker, not one per test file: importing the compiler (and transforming
    // it) for each of ~50 files was a large part of the suite's time. Test files restore what they
    // change (cwd, spies, env).
    isolate: false,
    // Vitest's default is one worker fewer than the CPUs: one worker on a 2-core machine, so the
    // suite ran serially. Most files wait on child processes and the disk; two workers use both cores.
    maxWorkers: 2,
    reporters: ["default", ["json", { outputFile: "test-results.json" }]],
  },
});
