import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: ["test/hosts/**", "node_modules/**"],
    testTimeout: 30_000,
    reporters: ["default", ["json", { outputFile: "test-results.json" }]],
  },
});
