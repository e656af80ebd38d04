// The slow unit tests (`npm run test:slow`): the ones whose worth is a real program's answer, not the
// fast loop: headless Chromium rendering the report, the real parsers of sort/uniq/xxd/file/tree/tsc/npm
// against the guard's option lists (a process per spelling), the audit's timing on a 5000-file
// repository, its waits for processes a stage left running and for git's whole-second timestamps,
// and the runner's process groups (helpers that outlive their step by seconds). Files named
// *.slow.test.ts; the default `npm test` excludes them, CI runs both (.ci/run).
import { defineConfig } from "vitest/config";
import { PathSequencer } from "./test/helpers/sequencer.ts";

export default defineConfig({
  test: {
    include: ["test/**/*.slow.test.ts"],
    exclude: ["test/hosts/**", "node_modules/**"],
    testTimeout: 120_000,
    isolate: false,
    sequence: { sequencer: PathSequencer },
    reporters: ["default", ["json", { outputFile: "test-results-slow.json" }]],
  },
});
