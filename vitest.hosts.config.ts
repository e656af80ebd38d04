// Real-host test suite: loads generated trees (and fixtures) with the real, pinned host CLIs,
// offline. Run with `npm run test:hosts` (= vitest run --config vitest.hosts.config.ts).
// The global setup installs the pinned CLIs into .cache/hosts/ when missing (npm registry only).
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/hosts/**/*.test.ts"],
    globalSetup: ["test/hosts/global-setup.ts"],
    // host CLIs are real processes: generous limits, one file at a time
    testTimeout: 240_000,
    hookTimeout: 900_000,
    teardownTimeout: 60_000,
    fileParallelism: false,
    maxConcurrency: 2,
    pool: "forks",
    reporters: ["default"],
  },
});
