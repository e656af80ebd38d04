// The run controller's decisions, one per host-neutral event. JavaScript source text (rules in
// src/adapter/guard/render.ts). A shim turns its host's hook input into a call and the answer into
// its host's output:
//   call: { event: "prompt"|"pre"|"start"|"stop"|"post"|"end", sid, agent (an agent id inside a
//           spawned agent, else null), prompt, promptId, tool, spawn: { role, background }, write
//           (absolute path), shell (command), schedule (a tool that plants a prompt), report }
//   env:  { root, home, now(), childEnv, channel ("tty"|"resume"|"prompt"), resume(sid, text),
//           origin(promptId) -> "human"|"model"|null, canSendBack }
//   answer: null | { deny } | { context } | { block } | { sendBack }
export const CONTROLLER_DECIDE_SOURCE = String.raw`
function ctlNewRun(M, env, call, request) {
  const now = env.now();
  const kinds = Object.keys(M.kinds);
  const record = { version: 1, id: ctlRunId(now), source: "controller", host: env.host, session: call.sid, pipeline: M.pipeline, request: request, kind: kinds.length ? null : "all", status: "running", ending: null, started: now, ended: null, stages: [], gates: [], caps: { loop: { used: 0, max: M.loop ? M.loop.max : 0 }, hops: { used: 0, max: M.maxHops }, retries: {} }, budget: null };
  const data = { record: record, agents: {}, prompts: {} };
  if (!kinds.length) for (const s of M.stages) record.stages.push(ctlPlanEntry(s));
  return data;
}
function ctlDeclare(M, env, data, cmd) {
  const r = data.record;
  let m = /^:\s+harness\s+kind\s+([a-z][a-z0-9-]*)\s*$/.exec(cmd);
  if (m) {
    if (r.kind !== null) return { deny: "harness: the work kind is already " + r.kind + "; it is declared once per run. Next: " + ctlNext(M, env, data) + "." };
    if (!M.kinds[m[1]]) return { deny: "harness: no work kind " + m[1] + " (kinds: " + Object.keys(M.kinds).join(", ") + ")." };
    r.kind = m[1];
    for (const id of M.kinds[m[1]]) r.stages.push(ctlPlanEntry(ctlStage(M, id)));
    return { deny: "harness: recorded work kind " + r.kind + " (stages: " + M.kinds[r.kind].join(", ") + "); this step runs nothing. Next: " + ctlNext(M, env, data) + "." };
  }
  m = /^:\s+harness\s+skip\s+([a-z][a-z0-9-]*)\s+(\S.*)$/.exec(cmd);
  if (m) {
    const s = ctlStage(M, m[1]), e = ctlEntry(data, m[1]);
    if (!s || !e) return { deny: "harness: " + m[1] + " is not a stage of this run." };
    if (!s.when) return { deny: "harness: stage " + ctlName(s) + " is not conditional; it cannot be skipped." };
    if (e.status !== "pending") return { deny: "harness: stage " + ctlName(s) + " is " + e.status + "; only a stage that has not run can be skipped." };
    e.status = "skipped"; e.reason = ctlLine(m[2].replace(/^["']|["']$/g, ""), 400); e.ended = env.now();
    return { deny: "harness: recorded stage " + s.id + " skipped (" + s.when + " does not hold: " + e.reason + "); this step runs nothing. Next: " + ctlNext(M, env, data) + "." };
  }
  return null;
}
function ctlStopped(data) { return data.record.status === "stopped" || data.record.status === "failed"; }
function ctlSpawn(M, env, data, call) {
  const r = data.record, role = call.spawn.role;
  const stages = ctlKindStages(M, data).filter(function (s) { return s.role === role; });
  const any = M.stages.filter(function (s) { return s.role === role; });
  const refuse = function (s, why) { ctlRefuse(data, env, s, role, why); return { deny: "harness: " + (s ? "stage " + ctlName(s) : role) + " refused: " + why + ". May run now: " + ctlNext(M, env, data) + "." }; };
  if (ctlStopped(data)) return refuse(null, "the run is stopped for the human (" + ctlLine(r.ending || "", 300) + ")");
  if (r.kind === null) return refuse(any[0] || null, "the work kind is not declared yet");
  if (!any.length) return refuse(null, role + " is not a role of the " + M.pipeline + " pipeline");
  if (!stages.length) return refuse(any[0], "work kind " + r.kind + " does not run it (its stages: " + M.kinds[r.kind].join(", ") + ")");
  const s = stages.filter(function (x) { return !ctlFinished(ctlEntry(data, x.id)); })[0] || stages[stages.length - 1];
  if (s.main) return refuse(s, "it runs in the orchestrator's own session, not as a subagent");
  if (call.spawn.background) return refuse(s, "pipeline stages run in the foreground, so their verdict reaches you (run_in_background: false)");
  const e = ctlEntry(data, s.id);
  if (e.status === "running") return refuse(s, "it is already running");
  // after a check routed to a repair stage, that stage runs first; it runs at no other time
  const open = ctlRepairOpen(M, data);
  if (open && open !== s) return refuse(s, "the repair stage " + ctlName(open) + " runs first (a check after " + open.repair + " sent the work to it)");
  const repair = Boolean(s.repair) && open === s;
  if (s.repair && !repair) return refuse(s, "it is a repair stage: it runs only when a check after " + s.repair + " sends the work to it");
  let round = null;
  const again = !repair && e.status === "failed" && data.allow === s.id;
  if (!repair && (e.status === "done" || (e.status === "failed" && !again))) {
    round = ctlRound(M, env, data, s);
    if (!round) return refuse(s, "it already ran (" + e.status + ")");
  }
  if (round && round.over) { ctlRefuse(data, env, s, role, round.over); ctlHalt(data, env, "stopped", round.over); return { deny: "harness: stage " + ctlName(s) + " refused: " + round.over }; }
  const why = repair ? null : ctlBlocked(M, env, data, s);
  if (why) return refuse(s, why);
  if (r.caps.hops.used >= r.caps.hops.max) {
    const over = "hop cap reached: " + r.caps.hops.used + " of " + r.caps.hops.max + " delegations used." + (M.loop ? " " + M.loop.onExhausted : "");
    ctlRefuse(data, env, s, role, over); ctlHalt(data, env, "stopped", over);
    return { deny: "harness: stage " + ctlName(s) + " refused: " + over };
  }
  r.caps.hops.used++;
  let cur = ctlEntry(data, s.id);
  if (again || repair) { r.stages.push(ctlNewEntry(s, repair ? ctlEntry(data, s.repair).round : cur.round)); cur = ctlEntry(data, s.id); data.allow = null; }
  cur.status = "running"; cur.started = env.now(); cur.reason = null;
  if (cur.round > r.caps.loop.used && M.loop && M.loop.stages.indexOf(s.id) >= 0) r.caps.loop.used = cur.round;
  return null;
}
/** the orchestrator's first write to a main-session stage's document starts that stage */
function ctlMainWrite(M, env, data, call) {
  const rel = path.relative(env.root, call.write).split(path.sep).join("/");
  const owner = M.stages.filter(function (s) { return s.main && s.docs.indexOf(rel) >= 0; });
  if (!owner.length) return null;
  if (ctlStopped(data)) return { deny: "harness: the run is stopped for the human (" + ctlLine(data.record.ending || "", 300) + "); " + rel + " stays as it is." };
  if (data.record.kind === null) return { deny: "harness: " + rel + " belongs to stage " + ctlName(owner[0]) + ", and the work kind is not declared yet. May run now: " + ctlNext(M, env, data) + "." };
  const mine = ctlKindStages(M, data).filter(function (s) { return owner.indexOf(s) >= 0; });
  if (!mine.length) return { deny: "harness: " + rel + " belongs to stage " + ctlName(owner[0]) + ", which work kind " + data.record.kind + " does not run." };
  const s = mine[0], e = ctlEntry(data, s.id);
  if (e.status === "running" || e.status === "done") return null; // revising it voids an approval (sha256), never the write
  const why = ctlBlocked(M, env, data, s);
  if (why) { ctlRefuse(data, env, s, s.role, why); return { deny: "harness: not yet time for stage " + ctlName(s) + ": " + why + ". May run now: " + ctlNext(M, env, data) + "." }; }
  e.status = "running"; e.started = env.now();
  return null;
}
function ctlPrompt(M, env, data, call) {
  const text = String(call.prompt || "").trim();
  const m = /^approve(?:\s+([a-z][a-z0-9-]*))?\s*[.!]?$/i.exec(text);
  if (!m || !data || ctlStopped(data)) return null;
  // a bare "approve" (what the gate's question asks for) approves the gate the run waits at
  const waiting = /approval of the ([a-z0-9-]+)/.exec(ctlNext(M, env, data));
  const name = m[1] ? m[1].toLowerCase() : waiting ? waiting[1] : null;
  if (!name) return { context: "harness: no gate waits for an approval now; name it: \"approve <gate>\"." };
  const s = M.stages.filter(function (x) { return x.gate && x.gate.name === name; })[0];
  if (!s) return { context: "harness: there is no gate named " + name + " in this pipeline." };
  const sha = ctlSha(env.root, s.gate.path);
  if (!sha) return { context: "harness: nothing to approve yet: " + s.gate.path + " does not exist." };
  data.record.gates.push({ gate: name, artifact: s.gate.path, sha256: sha, decision: "approved", at: env.now(), channel: env.channel });
  data.prompts[data.record.gates.length - 1] = call.promptId || null;
  if (data.record.status === "waiting-gate") data.record.status = "running";
  return { context: "harness: the human approved the " + name + " (" + s.gate.path + ", sha256 " + sha.slice(0, 12) + "); editing it voids the approval. May run now: " + ctlNext(M, env, data) + "." };
}
/** approvals whose prompt the host's transcript shows was not the human's are void */
function ctlVerifyApprovals(env, data) {
  if (!env.origin) return;
  const g = data.record.gates;
  for (const k of Object.keys(data.prompts)) {
    const pid = data.prompts[k];
    if (!pid) continue;
    const o = env.origin(pid);
    if (o === null) continue;
    delete data.prompts[k];
    if (o !== "human") { const a = g[Number(k)]; g.push({ gate: a.gate, artifact: a.artifact, sha256: a.sha256, decision: "void", at: env.now(), channel: a.channel, reason: "the prompt was " + o + ", not typed by the human" }); }
  }
}
function ctlStopEvent(M, env, data, call) {
  const s = ctlKindStages(M, data).filter(function (x) { const e = ctlEntry(data, x.id); return e && e.status === "running" && !x.main && (data.agents[call.agent] === x.id || (!data.agents[call.agent] && x.role === call.agentType)); })[0];
  if (!s) return null;
  const e = ctlEntry(data, s.id);
  const res = ctlStageEnd(M, env, data, s, e, call.report);
  const back = ctlJudge(M, env, data, s, e, res, env.canSendBack);
  if (back) return { sendBack: back };
  if (e.status !== "running") e.ended = e.ended || env.now();
  return null;
}
/** the stage a post event reports: the spawned role's (Claude Code's Agent call returns at its end), or
 *  the stage of the agents a wait named (Codex wait_agent: call.waited, the agent ids that finished) */
function ctlPostStage(M, data, call) {
  if (call.spawn) return M.stages.filter(function (x) { return x.role === call.spawn.role; }).map(function (x) { return ctlEntry(data, x.id) ? x : null; }).filter(Boolean).pop();
  const ids = (call.waited || []).filter(function (id) { return data.agents[id]; });
  return ids.length ? ctlStage(M, data.agents[ids[ids.length - 1]]) : null;
}
function ctlPostEvent(M, env, data, call) {
  const s = ctlPostStage(M, data, call);
  if (!s) return null;
  const e = ctlEntry(data, s.id);
  const last = s.checks.filter(function (c) { return c.run; }).length;
  const checks = e.checks.slice(Math.max(0, e.checks.length - last)).map(function (c) { return c.check + " " + (c.passed ? "passed" : "FAILED") + " (\u0060" + c.command + "\u0060 exit " + c.exit + ", log " + c.log + ")"; });
  const line = "harness: stage " + ctlName(s) + " " + e.status + (e.reason ? ": " + ctlLine(e.reason, 400) : "") + (checks.length ? "; checks: " + checks.join(", ") : "") + (e.verdict ? "; verdict " + e.verdict : "") + ". May run now: " + ctlNext(M, env, data) + ".";
  if (e.status === "done") return { context: line };
  if (e.status === "running" || e.status === "pending") return null;
  return { block: line };
}
function ctlEnd(M, env, data) {
  const r = data.record;
  if (ctlStopped(data) || r.status === "passed") return null;
  const next = ctlNext(M, env, data);
  if (/^the handover/.test(next) && r.kind !== null) { r.status = "passed"; r.ending = "every stage of " + r.kind + " is done"; r.ended = env.now(); return null; }
  const m = /approval of the ([a-z0-9-]+)/.exec(next);
  if (m) {
    const how = env.resume ? env.resume(r.session, ctlResumeText(M, m[1])) : "reply \"" + ctlApproveText(m[1]) + "\"";
    r.status = "waiting-gate"; r.ending = "waiting for the human: " + how;
    return { message: "harness: the " + M.pipeline + " run waits for the human's approval of the " + m[1] + ". To approve: " + how };
  }
  return null;
}
/** A command line in the words that decide what it runs: up to the first operator or redirection, npm's
 *  aliases spelled one way, --if-present dropped. Only for telling the orchestrator what the controller
 *  already does (no security rests on it: only the controller's own runs count). */
function ctlCommandWords(cmd) {
  const words = [];
  for (const w of String(cmd).trim().split(/\s+/)) {
    if (/[|;&<>()\u0060$]/.test(w)) break;
    if (w !== "--if-present") words.push(w);
  }
  if (words[0] === "npm" && (words[1] === "test" || words[1] === "t" || words[1] === "tst")) words.splice(1, 1, "run", "test");
  if (words[0] === "npm" && words[1] === "run-script") words[1] = "run";
  return words.join(" ");
}
/** the subagent stages at whose end the controller runs this command as a check, or none */
function ctlRunsAtStageEnd(M, data, cmd) {
  const w = ctlCommandWords(cmd);
  if (!w) return [];
  return ctlKindStages(M, data).filter(function (s) { return !s.main && s.checks.some(function (c) { return c.run && ctlCommandWords(c.run) === w; }); });
}
/** the one entry point: the answer for one call (the caller holds the lock and saves what changed) */
function ctlDecide(M, env, call, loaded) {
  let data = loaded && loaded.data ? loaded.data : null;
  if (loaded && loaded.tampered) {
    if (!data) data = ctlNewRun(M, env, call, null);
    if (!data.tampered) { data.tampered = loaded.tampered; ctlHalt(data, env, "failed", "tampering: " + loaded.tampered + "; the run is stopped (fail closed)"); data.record.status = "failed"; }
  }
  if (call.event === "prompt") {
    if (call.agent) return { data: data, answer: null }; // a spawned agent's first message: model-written, never the human
    const text = String(call.prompt || "").trim();
    if (text === M.entry || text.indexOf(M.entry + " ") === 0 || text.indexOf(M.entry + "\n") === 0) {
      if (data && !ctlStopped(data) && data.record.status !== "passed") {
        // "/<pipeline> approve <gate>": the human's reply through the pipeline's command, which also
        // re-arms the command's own hooks in a resumed session
        const reply = ctlPrompt(M, env, data, { prompt: text.slice(M.entry.length), promptId: call.promptId });
        if (reply) return { data: data, answer: reply };
        return { data: data, answer: { context: "harness: the " + M.pipeline + " run " + data.record.id + " continues. May run now: " + ctlNext(M, env, data) + "." } };
      }
      data = ctlNewRun(M, env, call, ctlLine(text.slice(M.entry.length), 2000));
      return { data: data, answer: { context: "harness: run " + data.record.id + " of the " + M.pipeline + " pipeline started; a run controller holds its order, gates, checks and caps. First: " + ctlNext(M, env, data) + "." } };
    }
    if (!data) return { data: null, answer: null };
    ctlVerifyApprovals(env, data);
    return { data: data, answer: ctlPrompt(M, env, data, call) };
  }
  if (!data) return { data: null, answer: null };
  ctlVerifyApprovals(env, data);
  if (call.event === "pre") {
    if (data.tampered) return { data: data, answer: { deny: "harness: " + data.record.ending } };
    if (ctlStopped(data) || data.record.status === "passed") {
      if (call.spawn) return { data: data, answer: ctlSpawn(M, env, data, call) };
      return { data: data, answer: null };
    }
    if (call.schedule) return { data: data, answer: { deny: "harness: " + call.tool + " is off during a pipeline run: a scheduled prompt could pose as the human." } };
    if (call.shell && /^:\s+harness\s/.test(call.shell) && call.agent) return { data: data, answer: { deny: "harness: only the orchestrator declares the work kind or a skipped stage, never a delegated role." } };
    if (call.shell && /^:\s+harness\s/.test(call.shell)) return { data: data, answer: ctlDeclare(M, env, data, call.shell) || { deny: "harness: unknown controller step; use \u0060: harness kind <kind>\u0060 or \u0060: harness skip <stage> <reason>\u0060." } };
    if (call.spawn) return { data: data, answer: ctlSpawn(M, env, data, call) };
    if (call.shell && !call.agent) {
      // a deterministic step costs no model turn: the controller runs the check and sends its verdict
      const by = ctlRunsAtStageEnd(M, data, call.shell);
      if (by.length) return { data: data, answer: { deny: "harness: \u0060" + ctlLine(call.shell, 200) + "\u0060 is a check the run controller runs itself at the end of " + by.map(ctlName).join(", ") + " and logs under " + M.stateDir + "/runs/; its one-line verdict reaches you when the stage ends, so do not run it yourself. May run now: " + ctlNext(M, env, data) + "." } };
    }
    if (call.write && !call.agent) return { data: data, answer: ctlMainWrite(M, env, data, call) };
    return { data: data, answer: null };
  }
  if (data.tampered) return { data: data, answer: call.event === "post" ? { block: "harness: " + data.record.ending } : null };
  if (call.event === "start") {
    const s = ctlKindStages(M, data).filter(function (x) { const e = ctlEntry(data, x.id); return x.role === call.agentType && e && e.status === "running"; })[0];
    if (s) { data.agents[call.agent] = s.id; ctlEntry(data, s.id).session = call.agent; }
    return { data: data, answer: null };
  }
  if (call.event === "stop") return { data: data, answer: ctlStopEvent(M, env, data, call) };
  if (call.event === "post") return { data: data, answer: ctlPostEvent(M, env, data, call) };
  if (call.event === "end") return { data: data, answer: ctlEnd(M, env, data) };
  return { data: data, answer: null };
}
`;
