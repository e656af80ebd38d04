// Which files run where, and in what order: the same on every run and every machine. With
// isolate: false a worker keeps one module graph across files, so a file that leaks state (a memoised
// IR, an env variable) would reach different files depending on the order; vitest's default order
// depends on the last run's cache (failed first, then longest) and on the order the file system lists
// files, and its shards on a hash of the path. Here a file runs after the files before it in path
// order, and `npm test`'s shards (scripts/test.mjs) split the files by their measured seconds
// (test/durations.json; a file not listed there weighs by its size), so a leak fails the same way
// locally and in CI, and the shards take about the same time.
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

const byPath = (a: TestSpecification, b: TestSpecification) => (a.moduleId < b.moduleId ? -1 : a.moduleId > b.moduleId ? 1 : 0);
const BYTES_PER_SECOND = 4000; // about what the measured files average

export class PathSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort(byPath);
  }

  override async shard(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { root, shard } = this.ctx.config;
    if (!shard) return files;
    const seconds = JSON.parse(readFileSync(path.join(root, "test/durations.json"), "utf8")) as Record<string, number>;
    const weight = (f: TestSpecification) => seconds[path.relative(root, f.moduleId).split(path.sep).join("/")] ?? statSync(f.moduleId).size / BYTES_PER_SECOND;
    const loads = Array.from({ length: shard.count }, () => ({ seconds: 0, files: [] as TestSpecification[] }));
    // heaviest first, each to the lightest shard so far (the first of equals)
    for (const f of [...files].sort((a, b) => weight(b) - weight(a) || byPath(a, b))) {
      const lightest = loads.reduce((min, l) => (l.seconds < min.seconds ? l : min));
      lightest.seconds += weight(f);
      lightest.files.push(f);
    }
    return loads[shard.index - 1]!.files;
  }
}
