// The run controller's order rules: which stage may start now, gates, caps. JavaScript source text
// (rules in src/adapter/guard/render.ts). Works on `data` = { record, agents, prompts, kindStages }.
export const CONTROLLER_ORDER_SOURCE = String.raw`
function ctlStage(M, id) { for (const s of M.stages) if (s.id === id) return s; return null; }
/** the run's stages in the declared kind's order */
function ctlKindStages(M, data) { return (data.record.kind === null ? [] : (M.kinds[data.record.kind] || M.stages.map(function (s) { return s.id; }))).map(function (id) { return ctlStage(M, id); }); }
/** slot = position among the kind's stages, adjacent stages of one parallel group sharing one */
function ctlSlots(M, data) {
  const out = []; let prev = null;
  for (const s of ctlKindStages(M, data)) { if (prev !== null && prev === s.group && out.length) out[out.length - 1].push(s); else out.push([s]); prev = s.group; }
  return out;
}
function ctlEntry(data, id) { const st = data.record.stages; for (let i = st.length - 1; i >= 0; i--) if (st[i].stage === id) return st[i]; return null; }
function ctlName(s) { return s.id + " (" + s.role + ")"; }
function ctlFinished(e) { return e && (e.status === "done" || e.status === "skipped"); }
function ctlGate(data, name) { const g = data.record.gates; for (let i = g.length - 1; i >= 0; i--) if (g[i].gate === name) return g[i]; return null; }
function ctlApproveText(name) { return "approve " + name; }
/** the reply a headless human resumes the session with: through the pipeline's command, whose hooks a resumed session has only once it is invoked again */
function ctlResumeText(M, name) { return M.entry + " approve " + name; }
/** A main-session stage ends when the run moves past it: its documents must be there, and its verdict decide. */
function ctlCloseMain(M, env, data, s) {
  const e = ctlEntry(data, s.id);
  if (!e || e.status !== "running") return;
  const r = ctlStageEnd(M, env, data, s, e, null);
  if (r.problems.length && !r.verdict) { e.status = "failed"; e.reason = r.problems.join("; "); }
  else ctlJudge(M, env, data, s, e, r);
  e.ended = env.now();
}
/** null when stage s may start now, else why not (naming what must come first) */
function ctlBlocked(M, env, data, s) {
  for (const slot of ctlSlots(M, data)) {
    if (slot.indexOf(s) >= 0) return null;
    for (const p of slot) {
      if (p.main) ctlCloseMain(M, env, data, p);
      const e = ctlEntry(data, p.id);
      if (!ctlFinished(e)) return "stage " + ctlName(p) + " must come first" + (e && e.status !== "pending" ? " (it is " + e.status + (e.reason ? ": " + ctlLine(e.reason, 300) : "") + ")" : "") + (p.when ? "; it runs only when " + p.when + " holds, else record it skipped: " + ctlSkipHint(M, p) : "");
      if (p.gate) {
        const g = ctlGate(data, p.gate.name);
        if (!g || g.decision !== "approved") return "the " + p.gate.name + " at " + p.gate.path + " needs the human's approval first: stop and ask the human to reply \"" + ctlApproveText(p.gate.name) + "\"" + (env.resume ? " (headless: " + env.resume(data.record.session, ctlResumeText(M, p.gate.name)) + ")" : "");
        const now = ctlSha(env.root, p.gate.path);
        if (now !== g.sha256) {
          data.record.gates.push({ gate: p.gate.name, artifact: p.gate.path, sha256: now, decision: "void", at: env.now(), channel: g.channel });
          return "the " + p.gate.name + " at " + p.gate.path + " changed after the human approved it, so the approval is void: ask the human again (\"" + ctlApproveText(p.gate.name) + "\")";
        }
      }
    }
  }
  return "stage " + ctlName(s) + " is not part of work kind " + data.record.kind + " (its stages: " + (M.kinds[data.record.kind] || []).join(", ") + ")";
}
function ctlSkipHint(M, s) { return "\u0060" + ": harness skip " + s.id + " <reason>" + "\u0060"; }
/** what may run now, for refusals and verdicts */
function ctlNext(M, env, data) {
  const r = data.record;
  if (r.status === "stopped" || r.status === "failed") return "nothing: the run is stopped for the human (" + ctlLine(r.ending || "", 200) + ")";
  if (r.kind === null) return "the work kind: declare it with the shell step \u0060: harness kind <kind>\u0060 (kinds: " + Object.keys(M.kinds).join(", ") + ")";
  const repair = ctlRepairOpen(M, data);
  if (repair) return "stage " + ctlName(repair) + ", the repair of stage " + repair.repair + " (which runs again after it)";
  for (const slot of ctlSlots(M, data)) {
    const open = slot.filter(function (p) { return !ctlFinished(ctlEntry(data, p.id)); });
    if (open.length) return open.map(function (p) { return "stage " + ctlName(p) + (p.main ? " in this session" : ""); }).join(" or ");
    for (const p of slot) if (p.gate) {
      const g = ctlGate(data, p.gate.name);
      if (!g || g.decision !== "approved") return "the human's approval of the " + p.gate.name + " (the human replies \"" + ctlApproveText(p.gate.name) + "\")";
    }
  }
  return "the handover to the human (every stage of " + r.kind + " is done)";
}
function ctlHalt(data, env, status, why) {
  const r = data.record;
  if (r.status === "stopped" || r.status === "failed") return;
  r.status = status; r.ending = ctlLine(why, 600); r.ended = env.now();
}
function ctlRefuse(data, env, s, role, why) {
  (data.record.refusals = data.record.refusals || []).push({ at: env.now(), stage: s ? s.id : null, role: role || null, reason: ctlLine(why, 400) });
}
/** a new round of the loop: a loop stage that already ran starts again */
function ctlRound(M, env, data, s) {
  const L = M.loop;
  if (!L || L.stages.indexOf(s.id) < 0) return null;
  const e = ctlEntry(data, s.id);
  if (!e || e.status === "pending") return null;
  const round = e.round + 1;
  if (round > L.max) return { over: "loop cap reached: stage " + ctlName(s) + " already ran " + e.round + " of " + L.max + " rounds. " + L.onExhausted };
  for (const id of L.stages) { const x = ctlStage(M, id); if (x && x.main) ctlCloseMain(M, env, data, x); }
  const after = ctlKindStages(M, data).filter(function (x) { return L.stages.indexOf(x.id) >= 0 && ctlKindStages(M, data).indexOf(x) >= ctlKindStages(M, data).indexOf(s); });
  for (const x of after) data.record.stages.push(ctlNewEntry(x, round));
  data.record.caps.loop.used = Math.max(data.record.caps.loop.used, round);
  return { round: round };
}
/** a stage's first entry in a run: a repair stage's is skipped until a check routes to it */
function ctlPlanEntry(s) {
  const e = ctlNewEntry(s, 1);
  if (s.repair) { e.status = "skipped"; e.reason = "a repair stage: it runs only when a check after " + s.repair + " sends the work to it"; }
  return e;
}
/** the repair stage a failed check sent the work to (it must run next), or the one running */
function ctlRepairOpen(M, data) {
  for (const s of ctlKindStages(M, data)) {
    if (!s.repair) continue;
    const e = ctlEntry(data, s.id);
    if (data.allow === s.id || (e && e.status === "running")) return s;
  }
  return null;
}
function ctlNewEntry(s, round) { return { stage: s.id, role: s.role, status: "pending", started: null, ended: null, retries: 0, round: round, session: null, files: [], checks: [], verdict: null, tokens: null, reason: null }; }
`;
