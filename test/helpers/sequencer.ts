// Test files in path order, every run and on every machine. With isolate: false a worker keeps one
// module graph across files, so a file that leaks state (a memoised IR, an env variable) would reach
// different files depending on the order; vitest's default order depends on the last run's cache
// (failed first, then longest) and on the order the file system lists files. A fixed order makes a
// leak fail the same way locally and in CI.
import { BaseSequencer, type TestSpecification } from "vitest/node";

export class PathSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort((a, b) => (a.moduleId < b.moduleId ? -1 : a.moduleId > b.moduleId ? 1 : 0));
  }
}
