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
    // Workers: vitest's default, one fewer than the CPUs (one on a 2-core machine). Two workers were
    // measured on the shared machine and gained nothing there (each file ran ~2.5x slower), and the
    // disk-bound install property test then ran out of its 30 s.
    reporters: ["default", ["json", { outputFile: "test-results.json" }]],
  },
});
