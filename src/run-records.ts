// The run records `harness run` and the in-host controller write (.harness/runs/<id>.json; the shape
// is RUN-RECORD's, version 1), read for the report. Tolerant: a file that is not a record is named,
// never fatal, and every field is read as untrusted.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { RUNS_DIR } from "./runs/record.js";

export interface RunRecord {
  version: 1;
  id: string;
  source?: string;
  host?: string;
  pipeline?: string;
  request?: string;
  kind?: string | null;
  status?: string;
  ending?: string | null;
  started?: string;
  ended?: string | null;
  stages: {
    stage?: string;
    role?: string;
    status?: string;
    started?: string | null;
    ended?: string | null;
    retries?: number;
    round?: number;
    checks?: { check?: string; command?: string; expect?: string; exit?: number; passed?: boolean; durationMs?: number; log?: string }[];
    verdict?: string | null;
    tokens?: Record<string, number> | null;
    reason?: string | null;
  }[];
  gates?: { gate?: string; artifact?: string; decision?: string; at?: string; channel?: string }[];
}


/** The records newest first (ids sort by time), and the names of the files that are not records. */
export function readRunRecords(projectDir: string): { runs: RunRecord[]; unreadable: string[] } {
  const dir = path.join(projectDir, RUNS_DIR);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith(".json"));
  } catch {
    return { runs: [], unreadable: [] };
  }
  const runs: RunRecord[] = [];
  const unreadable: string[] = [];
  for (const name of names.sort()) {
    try {
      const data = JSON.parse(readFileSync(path.join(dir, name), "utf8")) as RunRecord;
      if (data && data.version === 1 && typeof data.id === "string" && Array.isArray(data.stages)) runs.push(data);
      else unreadable.push(`${RUNS_DIR}/${name}`);
    } catch {
      unreadable.push(`${RUNS_DIR}/${name}`);
    }
  }
  runs.sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  return { runs, unreadable };
}
