// Sums vitest JSON reports into the one closing line CI reads: "N passed, N failed".
import { existsSync, readFileSync } from "node:fs";
let passed = 0;
let failed = 0;
let missing = 0;
for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) {
    console.error(`no test report at ${file}: that suite did not run`);
    missing++;
    continue;
  }
  const report = JSON.parse(readFileSync(file, "utf8"));
  passed += report.numPassedTests ?? 0;
  failed += (report.numFailedTests ?? 0) + (report.numTodoTests ?? 0) * 0;
  // A suite that failed to load counts as a failure even with no test inside.
  failed += (report.testResults ?? []).filter((r) => r.status === "failed" && (r.assertionResults ?? []).length === 0).length;
}
failed += missing;
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
