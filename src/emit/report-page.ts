// The report page (harness report): one static, self-contained HTML file. The host × role ×
// constraint matrix coloured by level (each cell with its how, its loss and its proof), the losses
// and the reasons they were accepted, and the recorded runs as a timeline per stage with checks,
// gates and tokens. No script, no external resource; every value is escaped by src/emit/html.ts.
import { h, page, type Child, type Html } from "./html.js";
import type { RunRecord } from "../run-records.js";

export interface ReportCell {
  role: string | null;
  constraint: string;
  level: string;
  how: string;
  loss?: string;
  proof: string;
}

export interface ReportInput {
  title: string;
  rolesDir: string;
  constraints: readonly string[];
  roles: readonly string[];
  hosts: { id: string; name: string; checked: string; mapping: string; cells: ReportCell[] }[];
  losses: { host: string; role: string | null; constraint: string; loss: string; severity: string; accepted?: string; where: string }[];
  runs: RunRecord[];
  unreadable: string[];
}

const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px;color:#1d2430;background:#fff}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #d8dee8;padding-bottom:4px}h3{font-size:15px;margin:18px 0 6px}
p.note{color:#556;margin:4px 0 12px}
table{border-collapse:collapse;margin:6px 0 14px}th,td{border:1px solid #d8dee8;padding:3px 6px;vertical-align:top;text-align:left}
th{background:#f3f5f9;font-weight:600}td.cell{min-width:70px;font-size:12px}
.native{background:#c9f0d1}.guard{background:#cfe3ff}.audit{background:#d3f2f0}.instructed{background:#ffe9b8}.lost{background:#ffc9c9}.none{background:#f6f7f9;color:#99a}
.lvl{font-weight:600}.code{font-family:ui-monospace,Menlo,monospace;font-size:11px}
details summary{cursor:pointer}details div{margin-top:2px;max-width:260px}
.legend span{display:inline-block;padding:2px 8px;margin-right:6px;border:1px solid #d8dee8}
.timeline{position:relative;height:22px;background:#f3f5f9;border:1px solid #d8dee8;margin:2px 0 6px}
.bar{position:absolute;top:2px;height:16px;min-width:3px;font-size:11px;overflow:hidden;white-space:nowrap;border-radius:2px}
.done,.passed,.approved{background:#7fd18f}.running,.waiting-gate,.pending{background:#9cc3ff}.failed,.refused,.stopped,.interrupted,.void{background:#f29a9a}.blocked,.needs-human,.feedback{background:#ffd27a}.skipped{background:#d5d9e0}
.ok{color:#16803c;font-weight:600}.bad{color:#b42318;font-weight:600}
`;

const LEVEL_ORDER = ["native", "guard", "audit", "instructed", "lost"];

function cell(host: ReportInput["hosts"][number], cells: ReportCell[]): Html {
  if (!cells.length) return h("td", { class: "cell none" }, "—");
  const sorted = [...cells].sort((a, b) => LEVEL_ORDER.indexOf(a.level) - LEVEL_ORDER.indexOf(b.level));
  const weakest = sorted[sorted.length - 1]!.level;
  return h(
    "td",
    { class: `cell ${weakest}`, title: sorted.map((c) => `${c.level}: ${c.how}${c.loss ? ` (${c.loss})` : ""}`).join("\n") },
    sorted.map((c) =>
      h(
        "details",
        {},
        h("summary", {}, h("span", { class: "lvl" }, c.level), c.loss ? [" ", h("span", { class: "code" }, c.loss)] : null),
        h("div", {}, c.how, h("br"), c.proof ? ["proof: ", h("a", { href: host.mapping }, c.proof)] : h("a", { href: host.mapping }, "MAPPING.md")),
      ),
    ),
  );
}

function matrix(input: ReportInput): Child[] {
  const legend = h("p", { class: "legend" }, LEVEL_ORDER.map((l) => h("span", { class: l }, l)), " A cell shows its weakest level; open it for how the host holds it, the loss and the test that proves it.");
  return [
    h("h2", { id: "matrix" }, "Host × role × constraint"),
    legend,
    input.hosts.map((host) => {
      const byKey = new Map<string, ReportCell[]>();
      for (const c of host.cells) {
        const key = `${c.role ?? ""}\u0000${c.constraint}`;
        byKey.set(key, [...(byKey.get(key) ?? []), c]);
      }
      const roles: (string | null)[] = [...input.roles, ...(host.cells.some((c) => c.role === null) ? [null] : [])];
      return [
        h("h3", { id: `host-${host.id}` }, `${host.name} `, h("span", { class: "code" }, host.id), " · ", host.checked, " · ", h("a", { href: host.mapping }, "MAPPING.md")),
        h(
          "table",
          { class: "matrix", "data-host": host.id },
          h("tr", {}, h("th", {}, "role"), input.constraints.map((c) => h("th", {}, c))),
          roles.map((role) => h("tr", { "data-role": role ?? "(pipeline)" }, h("th", {}, role ?? "(pipeline)"), input.constraints.map((c) => cell(host, byKey.get(`${role ?? ""}\u0000${c}`) ?? [])))),
        ),
      ];
    }),
  ];
}

function losses(input: ReportInput): Child[] {
  const accepted = input.losses.filter((l) => l.accepted);
  const open = input.losses.filter((l) => !l.accepted && l.severity !== "info");
  const row = (l: ReportInput["losses"][number], last: Child) => h("tr", {}, h("td", {}, l.host), h("td", {}, l.role ?? "(pipeline)"), h("td", {}, l.constraint), h("td", { class: "code" }, l.loss), h("td", {}, l.severity), h("td", {}, last));
  const head = (last: string) => h("tr", {}, ["host", "role", "constraint", "loss", "severity", last].map((t) => h("th", {}, t)));
  return [
    h("h2", { id: "accepted" }, `Accepted losses (${accepted.length})`),
    accepted.length ? h("table", {}, head("reason"), accepted.map((l) => row(l, l.accepted!))) : h("p", { class: "note" }, "None."),
    h("h2", { id: "unaccepted" }, `Losses not accepted (${open.length})`),
    open.length ? h("table", {}, head("where"), open.map((l) => row(l, h("span", { class: "code" }, l.where)))) : h("p", { class: "note" }, "None: every warning- and error-level loss is accepted."),
  ];
}

const ms = (iso: unknown) => (typeof iso === "string" && !Number.isNaN(Date.parse(iso)) ? Date.parse(iso) : null);
const seconds = (a: number | null, b: number | null) => (a !== null && b !== null ? `${((b - a) / 1000).toFixed(1)} s` : "");
const text = (v: unknown) => (v === null || v === undefined ? "" : typeof v === "string" ? v : JSON.stringify(v));
const cls = (v: unknown) => (typeof v === "string" && /^[a-z-]+$/.test(v) ? v : "");

function tokens(t: unknown): string {
  if (!t || typeof t !== "object") return "";
  return Object.entries(t as Record<string, unknown>)
    .map(([k, v]) => `${k} ${text(v)}`)
    .join(", ");
}

function run(r: RunRecord): Child {
  const stages = Array.isArray(r.stages) ? r.stages : [];
  const starts = stages.map((s) => ms(s.started)).filter((x): x is number => x !== null);
  const t0 = ms(r.started) ?? (starts.length ? Math.min(...starts) : null);
  const ends = stages.map((s) => ms(s.ended)).filter((x): x is number => x !== null);
  const t1 = ms(r.ended) ?? (ends.length ? Math.max(...ends) : null);
  const span = t0 !== null && t1 !== null && t1 > t0 ? t1 - t0 : null;
  const bar = (s: RunRecord["stages"][number]) => {
    const a = ms(s.started);
    if (span === null || a === null || t0 === null) return null;
    const b = ms(s.ended) ?? t1!;
    const left = ((a - t0) / span) * 100;
    const width = Math.max(((b - a) / span) * 100, 0.6);
    return h("div", { class: `bar ${cls(s.status)}`, style: `left:${left.toFixed(2)}%;width:${Math.min(width, 100 - left).toFixed(2)}%`, title: `${text(s.stage)} (${text(s.role)}): ${text(s.status)}` }, text(s.stage));
  };
  const gates = Array.isArray(r.gates) ? r.gates : [];
  return h(
    "section",
    { class: "run", "data-run": text(r.id) },
    h("h3", {}, h("span", { class: "code" }, text(r.id)), " · ", text(r.host), " · ", h("span", { class: cls(r.status) }, text(r.status))),
    h("p", { class: "note" }, `“${text(r.request)}”`, r.kind ? ` · kind ${text(r.kind)}` : "", ` · ${seconds(t0, t1)}`, r.ending ? ` · ${text(r.ending)}` : ""),
    h("div", { class: "timeline" }, stages.map(bar)),
    h(
      "table",
      {},
      h("tr", {}, ["stage", "role", "status", "time", "round", "retries", "checks", "verdict", "tokens", "reason"].map((t) => h("th", {}, t))),
      stages.map((s) =>
        h(
          "tr",
          {},
          h("td", {}, text(s.stage)),
          h("td", {}, text(s.role)),
          h("td", { class: cls(s.status) }, text(s.status)),
          h("td", {}, seconds(ms(s.started), ms(s.ended))),
          h("td", {}, text(s.round)),
          h("td", {}, text(s.retries)),
          h(
            "td",
            {},
            (Array.isArray(s.checks) ? s.checks : []).map((c) => h("div", {}, h("span", { class: c.passed ? "ok" : "bad" }, c.passed ? "✓" : "✗"), ` ${text(c.check)} (exit ${text(c.exit)}, expect ${text(c.expect)})`)),
          ),
          h("td", {}, text(s.verdict)),
          h("td", {}, tokens(s.tokens)),
          h("td", {}, text(s.reason)),
        ),
      ),
    ),
    gates.length ? h("table", {}, h("tr", {}, ["gate", "artifact", "decision", "channel", "at"].map((t) => h("th", {}, t))), gates.map((g) => h("tr", {}, h("td", {}, text(g.gate)), h("td", {}, text(g.artifact)), h("td", { class: cls(g.decision) }, text(g.decision)), h("td", {}, text(g.channel)), h("td", {}, text(g.at))))) : null,
  );
}

export function renderReport(input: ReportInput): string {
  const body: Child[] = [
    h("h1", {}, `${input.title}: the harness report`),
    h("p", { class: "note" }, `From ${input.rolesDir} · ${input.hosts.length} hosts · ${input.roles.length} roles · ${input.runs.length} recorded runs. `, h("a", { href: "#matrix" }, "matrix"), " · ", h("a", { href: "#accepted" }, "accepted losses"), " · ", h("a", { href: "#runs" }, "runs")),
    matrix(input),
    losses(input),
    h("h2", { id: "runs" }, `Runs (${input.runs.length})`),
    input.runs.length ? input.runs.map(run) : h("p", { class: "note" }, "No runs recorded in .harness/runs/ yet (harness run writes them)."),
    input.unreadable.length ? h("p", { class: "note" }, `Not shown (not a run record): ${input.unreadable.join(", ")}`) : null,
  ];
  return page(`${input.title}: harness report`, STYLE.trim(), body);
}
