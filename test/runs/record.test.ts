// The run record (RUN-RECORD.md): its bytes, its reader, and `harness runs [show]` as users run it.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { listRecords, newRunId, readRecord, RUN_ID, recordPath, serializeRecord, writeRecord, type RunRecord } from "../../src/runs/record.js";
import { harness, tempDir } from "../helpers/cli.js";

function sample(id: string, over: Partial<RunRecord> = {}): RunRecord {
  return {
    version: 1,
    id,
    source: "runner",
    host: "claude-code",
    session: null,
    pipeline: "pebble",
    request: "add a --json flag",
    kind: "feature",
    status: "running",
    ending: null,
    started: "2026-12-01T23:15:00.000Z",
    ended: null,
    stages: [
      {
        stage: "tests",
        role: "mica",
        status: "done",
        started: "2026-12-01T23:15:01.000Z",
        ended: "2026-12-01T23:15:09.000Z",
        retries: 1,
        round: 1,
        session: "s-1",
        files: ["test/a.test.js"],
        checks: [{ check: "new-tests-fail", command: "npm test", expect: "fail", exit: 1, passed: true, durationMs: 812, log: `.harness/runs/${id}/checks/tests-new-tests-fail-1.log` }],
        verdict: null,
        tokens: { input: 1200, output: 300 },
        reason: null,
      },
      { stage: "implement", role: "jade", status: "pending", started: null, ended: null, retries: 0, round: 1, session: null, files: [], checks: [], verdict: null, tokens: null, reason: null },
    ],
    gates: [{ gate: "spec", artifact: ".pebble/spec.md", sha256: "a".repeat(64), decision: "approved", at: "2026-12-01T23:15:00.500Z", channel: "flag" }],
    caps: { loop: { used: 1, max: 2 }, hops: { used: 3, max: 12 }, retries: { "new-tests-fail": { used: 1, max: 1 } } },
    budget: null,
    ...over,
  };
}

const ID1 = "20261201T231500Z-a1b2c3";
const ID2 = "20261202T080000Z-0f0f0f";

describe("run record", () => {
  it("run ids are UTC stamps with 6 hex and sort by time", () => {
    const a = newRunId(new Date("2026-12-01T23:15:00.123Z"));
    expect(a).toMatch(RUN_ID);
    expect(a.startsWith("20261201T231500Z-")).toBe(true);
    expect([newRunId(new Date("2027-01-01T00:00:00Z")), a].sort()[0]).toBe(a);
  });

  it("serializes in the documented key order, 2-space JSON, whatever order the object was built in", () => {
    const r = sample(ID1);
    const shuffled = Object.fromEntries(Object.entries(r).reverse()) as unknown as RunRecord;
    const bytes = serializeRecord(shuffled);
    expect(bytes).toBe(serializeRecord(r));
    expect(Object.keys(JSON.parse(bytes))).toEqual(["version", "id", "source", "host", "session", "pipeline", "request", "kind", "status", "ending", "started", "ended", "stages", "gates", "caps", "budget"]);
    expect(Object.keys(JSON.parse(bytes).stages[0])).toEqual(["stage", "role", "status", "started", "ended", "retries", "round", "session", "files", "checks", "verdict", "tokens", "reason"]);
    expect(bytes).toMatch(/^\{\n {2}"version": 1,\n/);
    expect(bytes.endsWith("}\n")).toBe(true);
  });

  it("writes atomically under .harness/runs and reads back what it wrote", () => {
    const root = tempDir();
    writeRecord(root, sample(ID1));
    expect(fs.readdirSync(path.join(root, ".harness/runs"))).toEqual([`${ID1}.json`]); // no temp file left
    expect(readRecord(root, ID1).record).toEqual(sample(ID1));
  });

  it("lists newest first and reports files it cannot read, without hiding the good ones", () => {
    const root = tempDir();
    writeRecord(root, sample(ID1));
    writeRecord(root, sample(ID2, { source: "controller", status: "passed" }));
    fs.writeFileSync(recordPath(root, "20261203T000000Z-000000"), "{ cut sho");
    fs.writeFileSync(path.join(root, ".harness/runs/notes.json"), "{}");
    const { records, problems } = listRecords(root);
    expect(records.map((r) => r.id)).toEqual([ID2, ID1]);
    expect(problems).toHaveLength(2);
    expect(problems.join("\n")).toMatch(/20261203T000000Z-000000\.json: not valid JSON/);
    expect(problems.join("\n")).toMatch(/notes\.json: not a run record name/);
  });

  it("refuses a record with a wrong shape, naming the field", () => {
    const root = tempDir();
    writeRecord(root, sample(ID1));
    const file = recordPath(root, ID1);
    const bad = JSON.parse(fs.readFileSync(file, "utf8"));
    bad.stages[0].status = "finished";
    fs.writeFileSync(file, JSON.stringify(bad));
    expect(() => readRecord(root, ID1)).toThrow(/stages\[0\]\.status "finished" is not one of pending, running/);
    bad.stages[0].status = "done";
    bad.id = ID2;
    fs.writeFileSync(file, JSON.stringify(bad));
    expect(() => readRecord(root, ID1)).toThrow(/its "id" is 20261202T080000Z-0f0f0f/);
  });
});

describe("harness runs", () => {
  it("prints [] with --json and a hint without, in a project with no runs", async () => {
    const root = tempDir();
    expect(await harness(["runs", "--json"], root)).toMatchObject({ code: 0, stdout: "[]\n" });
    const plain = await harness(["runs"], root);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(/no runs yet/);
  });

  it("lists runs newest first, one line each; --json gives the records", async () => {
    const root = tempDir();
    writeRecord(root, sample(ID1));
    writeRecord(root, sample(ID2, { source: "controller", status: "passed", request: "fix the typo" }));
    const r = await harness(["runs"], root);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^${ID2}\\s+passed\\s+claude-code\\s+feature\\s+1/2\\s+fix the typo$`));
    expect(lines[1]).toMatch(new RegExp(`^${ID1}\\s+running`));
    const j = await harness(["runs", "--json"], root);
    expect(JSON.parse(j.stdout).map((x: RunRecord) => x.id)).toEqual([ID2, ID1]);
  });

  it("show prints the stages, checks, gates and caps; --json prints the record itself", async () => {
    const root = tempDir();
    writeRecord(root, sample(ID1));
    const r = await harness(["runs", "show", ID1], root);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/tests\s+mica\s+done · 1 retry · 8\.0s · 1200 in \/ 300 out tokens/);
    expect(r.stdout).toMatch(/pass new-tests-fail \(npm test, exit 1, expect fail\)/);
    expect(r.stdout).toMatch(/implement\s+jade\s+pending/);
    expect(r.stdout).toMatch(/gate spec: approved \(flag, .*\) \.pebble\/spec\.md sha256 aaaaaaaaaaaa/);
    expect(r.stdout).toMatch(/caps: loop 1\/2, hops 3\/12, new-tests-fail 1\/1/);
    const j = await harness(["runs", "show", ID1, "--json"], root);
    expect(JSON.parse(j.stdout)).toEqual(sample(ID1));
    expect((await harness(["runs", "show", "--into", root, ID1], "/")).code).toBe(0);
  });

  it("show: a malformed id is a usage error (exit 2); an unknown or broken run exits 1 and says why", async () => {
    const root = tempDir();
    expect(await harness(["runs", "show", "../../etc/passwd"], root)).toMatchObject({ code: 2 });
    const missing = await harness(["runs", "show", ID1], root);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no such run/);
    fs.mkdirSync(path.join(root, ".harness/runs"), { recursive: true });
    fs.writeFileSync(recordPath(root, ID1), "[]");
    expect((await harness(["runs", "show", ID1], root)).stderr).toMatch(/not a JSON object/);
  });
});
