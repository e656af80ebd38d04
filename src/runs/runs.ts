// harness runs [--json] | harness runs show <id> [--json]: the runs of a project, from their records.
import path from "node:path";
import { UsageError } from "../errors.js";
import { color, err, out } from "../ui.js";
import { listRecords, readRecord, RecordError, RUN_ID, type RunRecord, type StageRecord } from "./record.js";

export interface RunsOptions {
  into?: string;
  json?: boolean;
}

const root = (o: RunsOptions) => path.resolve(o.into ?? ".");

// colour names, not picocolors' functions: the palette is chosen per command line (src/ui.ts)
const STATUS_COLOR: Record<string, "green" | "cyan" | "yellow" | "dim"> = {
  passed: "green",
  done: "green",
  running: "cyan",
  "waiting-gate": "yellow",
  interrupted: "yellow",
  pending: "dim",
  skipped: "dim",
};
const paint = (s: string) => color[STATUS_COLOR[s] ?? "red"](s);

const stagesDone = (r: RunRecord) => `${r.stages.filter((s) => s.status === "done" || s.status === "skipped").length}/${r.stages.length}`;
const shorten = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

export function runs(options: RunsOptions): number {
  const { records, problems } = listRecords(root(options));
  for (const p of problems) err(`${color.yellow("warning")} ${p}`);
  if (options.json) {
    out(JSON.stringify(records, null, 2));
    return 0;
  }
  if (records.length === 0) {
    out("no runs yet (`harness run \"<request>\"` starts one)");
    return 0;
  }
  for (const r of records)
    out(`${r.id}  ${paint(r.status.padEnd(12))} ${r.host.padEnd(12)} ${(r.kind ?? "-").padEnd(9)} ${stagesDone(r).padStart(5)}  ${shorten(r.request.replace(/\s+/g, " "), 60)}`);
  return 0;
}

function tokens(s: StageRecord): string {
  if (!s.tokens) return "";
  if ("premiumRequests" in s.tokens) return ` · ${s.tokens.premiumRequests} premium request(s)`;
  return ` · ${s.tokens.input} in / ${s.tokens.output} out tokens${s.tokens.costUsd !== undefined ? ` ($${s.tokens.costUsd.toFixed(4)})` : ""}`;
}

function elapsed(a: string | null, b: string | null): string {
  if (!a || !b) return "";
  const ms = Date.parse(b) - Date.parse(a);
  return Number.isFinite(ms) ? ` · ${(ms / 1000).toFixed(1)}s` : "";
}

export function runsShow(id: string, options: RunsOptions): number {
  if (!RUN_ID.test(id)) throw new UsageError(`"${id}" is not a run id (<yyyymmddThhmmssZ>-<6 hex>). \`harness runs\` lists the runs of this project.`);
  let record: RunRecord;
  try {
    record = readRecord(root(options), id).record;
  } catch (e) {
    if (e instanceof RecordError) {
      err(`${color.red("error")} ${e.message}`);
      return 1;
    }
    throw e;
  }
  if (options.json) {
    out(JSON.stringify(record, null, 2));
    return 0;
  }
  const r = record;
  out(`${color.bold(r.id)}  ${paint(r.status)}  (${r.source}, ${r.host}${r.session ? `, session ${r.session}` : ""})`);
  out(`pipeline ${r.pipeline} · kind ${r.kind ?? "not classified"} · started ${r.started}${r.ended ? ` · ended ${r.ended}` : ""}`);
  out(`request: ${r.request}`);
  if (r.ending) out(`ending: ${r.ending}`);
  for (const s of r.stages) {
    const extra = `${s.round > 1 ? ` · round ${s.round}` : ""}${s.retries ? ` · ${s.retries} retr${s.retries === 1 ? "y" : "ies"}` : ""}${s.verdict ? ` · verdict ${s.verdict}` : ""}${elapsed(s.started, s.ended)}${tokens(s)}`;
    out(`  ${s.stage.padEnd(10)} ${s.role.padEnd(8)} ${paint(s.status)}${extra}${s.reason ? ` · ${s.reason}` : ""}`);
    for (const c of s.checks) out(`      ${c.passed ? color.green("pass") : color.red("FAIL")} ${c.check}${c.command ? ` (${c.command}, exit ${c.exit ?? "-"}, expect ${c.expect})` : ""}${c.log ? color.dim(` ${c.log}`) : ""}`);
    if (s.files.length) out(color.dim(`      files: ${s.files.join(", ")}`));
  }
  for (const g of r.gates) out(`  gate ${g.gate}: ${g.decision} (${g.channel}, ${g.at}) ${g.artifact} sha256 ${g.sha256.slice(0, 12)}`);
  const caps = [r.caps.loop ? `loop ${r.caps.loop.used}/${r.caps.loop.max}` : null, `hops ${r.caps.hops.used}/${r.caps.hops.max}`, ...Object.entries(r.caps.retries).map(([k, v]) => `${k} ${v.used}/${v.max}`)].filter(Boolean);
  out(`caps: ${caps.join(", ")}`);
  if (r.budget) out(`budget: ${r.budget.tokens.used}/${r.budget.tokens.max} tokens`);
  return 0;
}
