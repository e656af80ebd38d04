// The run controller's stage end: the stage's documents, its report's status line, the pipeline's
// commands after it (run here, never by the model; output logged), its judgement verdict. JavaScript
// source text (rules in src/adapter/guard/render.ts). Needs `child_process` as `cp`.
export const CONTROLLER_STAGE_SOURCE = String.raw`
const CTL_VERDICT = { pass: "pass", approve: "pass", approved: "pass", fail: "fail", "changes-required": "fail", "needs-human": "needs-human" };
function ctlRunCommand(M, env, data, s, id, run, n) {
  const t0 = Date.now();
  const r = cp.spawnSync("/bin/sh", ["-c", run], { cwd: env.root, encoding: "utf8", timeout: 600000, maxBuffer: 16 * 1024 * 1024, env: env.childEnv });
  const out = (r.stdout || "") + (r.stderr || "");
  const rel = path.join(M.stateDir, "runs", data.record.id, "checks", s.id + "-" + id + "-" + n + ".log");
  ctlWriteAtomic(path.join(env.root, rel), "$ " + run + "\n" + out + "\n[exit " + (r.status === null ? "signal " + r.signal : r.status) + "]\n");
  return { exit: r.status === null ? -1 : r.status, durationMs: Date.now() - t0, log: rel.split(path.sep).join("/"), tail: ctlLine(out.trim().split("\n").slice(-6).join(" | "), 600) };
}
/** everything checkable at the end of stage s: { problems, verdict, status, failed: [check], ran } */
function ctlStageEnd(M, env, data, s, e, report) {
  const problems = [], failed = [];
  let status = null;
  for (const d of s.docs) {
    let size = -1;
    try { size = fs.statSync(path.join(env.root, d)).size; } catch (x) { size = -1; }
    if (size < 0) problems.push("its artifact " + d + " is missing");
    else if (size === 0) problems.push("its artifact " + d + " is empty");
  }
  if (report !== null) {
    const m = /^\s*Status:\s*(done|blocked|needs-human)\b/im.exec(String(report || ""));
    if (!m) problems.push("its report has no status line (\"Status: done | blocked | needs-human\")");
    else status = m[1].toLowerCase();
  }
  let verdict = null;
  if (s.verdictDoc) {
    let text = "";
    try { text = ctlRead(path.join(env.root, s.verdictDoc)).toString("utf8"); } catch (x) { text = ""; }
    const m = /^\s*\**Verdict:?\**:?\s*\**\s*([A-Za-z-]+)/im.exec(text);
    verdict = m ? (CTL_VERDICT[m[1].toLowerCase()] || null) : null;
    if (!verdict) problems.push(s.verdictDoc + " has no verdict line (\"Verdict: pass | fail | needs-human\")");
  } else if (s.verdictMsg && report !== null) {
    // the stage hands its result back in its final message (a message artifact): no file to read
    const m = /^\s*\**Verdict:?\**:?\s*\**\s*([A-Za-z-]+)/im.exec(String(report || ""));
    verdict = m ? (CTL_VERDICT[m[1].toLowerCase()] || null) : null;
    if (!verdict) problems.push("its final message has no verdict line (\"Verdict: pass | fail | needs-human\")");
  }
  const n = data.record.stages.filter(function (x) { return x.stage === s.id; }).length + "-" + (e.retries + 1);
  const ran = {};
  if (status !== "blocked" && status !== "needs-human") {
    for (const c of s.checks) {
      if (!c.run) continue;
      const res = ran[c.run] || (ran[c.run] = ctlRunCommand(M, env, data, s, c.id, c.run, n));
      const passed = c.expect === "fail" ? res.exit !== 0 : res.exit === 0;
      e.checks.push({ check: c.id, command: c.run, expect: c.expect, exit: res.exit, passed: passed, durationMs: res.durationMs, log: res.log });
      if (!passed) { failed.push(c); problems.push("check " + c.id + ": \u0060" + c.run + "\u0060 exited " + res.exit + ", expected to " + c.expect + ": " + res.tail); }
    }
    for (const st of s.steps) {
      const res = ran[st.run] || (ran[st.run] = ctlRunCommand(M, env, data, s, st.id, st.run, n));
      // a step is no check (nothing judges its exit): an optional field beside the record's checks
      (e.steps = e.steps || []).push({ step: st.id, command: st.run, exit: res.exit, durationMs: res.durationMs, log: res.log });
    }
  }
  return { problems: problems, verdict: verdict, status: status, failed: failed };
}
/** settle stage s from its stage-end result r; returns a send-back reason while retries last, else null */
function ctlJudge(M, env, data, s, e, r, canSendBack) {
  const rec = data.record;
  e.verdict = r.verdict;
  if (r.status === "blocked" || r.status === "needs-human" || r.verdict === "needs-human") {
    e.status = r.status === "blocked" ? "blocked" : "needs-human";
    e.reason = r.verdict === "needs-human" ? "the verdict is needs-human" : "the report says " + r.status;
    ctlHalt(data, env, "stopped", "stage " + ctlName(s) + ": " + e.reason + "; the run goes to the human");
    return null;
  }
  if (!r.problems.length && r.verdict !== "fail") {
    e.status = "done"; e.reason = null;
    // a repair done: the stage it repaired runs again, and its checks with it
    if (s.repair) rec.stages.push(ctlNewEntry(ctlStage(M, s.repair), e.round));
    return null;
  }
  // the judgement checks of a verdict "fail" count as failed (their on_failure target may run next)
  const failing = r.failed.length ? r.failed : s.checks.filter(function (c) { return !c.run; });
  const first = failing[0] || { id: s.id + "-artifacts", retries: 1, onFailure: s.id };
  const cap = rec.caps.retries[first.id] || (rec.caps.retries[first.id] = { used: 0, max: first.retries });
  const why = r.verdict === "fail" && !r.problems.length ? "the verdict in " + (s.verdictDoc || "its final message") + " is fail" : r.problems.join("; ");
  if (cap.used < cap.max && first.onFailure !== "human") {
    cap.used++;
    if (canSendBack && first.onFailure === s.id) { e.retries++; return "harness: stage " + ctlName(s) + " is not done (retry " + cap.used + " of " + cap.max + "): " + why + ". Fix it, then finish again."; }
    e.status = "failed"; e.reason = why; e.ended = env.now();
    data.allow = first.onFailure;
    return null;
  }
  e.status = "failed"; e.reason = why; e.ended = env.now();
  ctlHalt(data, env, "stopped", "stage " + ctlName(s) + " failed " + (first.onFailure === "human" ? "and goes to the human" : "after its retries (" + cap.used + " of " + cap.max + ")") + ": " + ctlLine(why, 300) + (M.loop && M.loop.onExhausted ? " " + M.loop.onExhausted : ""));
  return null;
}
`;
