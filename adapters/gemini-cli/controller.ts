// Gemini CLI wiring of the run controller (src/adapter/controller/). Measured on 0.61.0 with the
// scripted model (test/hosts/enforce-out-controller.test.ts; ../shared reports "process-enforcement.md" §4.3):
// - project hooks in .gemini/settings.json (a trusted folder) run as shell commands with the hook env
//   GEMINI_SESSION_ID and GEMINI_PROJECT_DIR; every input carries session_id, the same after
//   `gemini --resume <id>`;
// - BeforeAgent fires for each human prompt (never inside a subagent) with the prompt AFTER the custom
//   command expanded it: `/pebble x` arrives as the command's whole text with x at its end, so the run
//   binds to that exact text (its sha256), which only the command (or a human pasting it) produces;
// - BeforeTool fires before the policy, for the orchestrator's calls and for every call a subagent
//   makes, with no agent identity in either; subagents are never offered invoke_agent, so each
//   invoke_agent is the orchestrator's, and while a subagent stage runs every other call is counted
//   as that subagent's. {"decision":"deny","reason"} reaches the model as "Tool execution blocked:
//   <reason>"; hookSpecificOutput.tool_input rewrites the call's arguments (an invoke_agent prompt);
// - there is no SubagentStop: AfterTool on invoke_agent is the stage end. Its additionalContext is
//   appended to the result as <hook_context>, decision:block replaces the result with the reason.
//   A finished subagent cannot be sent back, so a failed check allows only the stage's re-invocation
//   (counted against the check's retries and the hop cap), whose prompt the controller extends with
//   the failure it found.
import type { FidelityRecord } from "../../src/adapter/fidelity.js";
import type { HostFile, Lowered } from "../../src/adapter/types.js";
import type { PipelineIR } from "../../src/ir/types.js";
import crypto from "node:crypto";
import { judgementVerdictHow } from "../../src/adapter/controller/fidelity.js";
import { compileControllerModel } from "../../src/adapter/controller/model.js";
import { CONTROLLER_GAPS, renderControllerScript } from "../../src/adapter/controller/render.js";
import { unboundExit } from "../../src/adapter/controller/hook-command.js";
import { guardHookCommand as failClosedHook } from "../../src/adapter/guard/hook-command.js";

export const GEMINI_CONTROLLER_PATH = ".gemini/hooks/harness-controller.cjs";
const SETTINGS = ".gemini/settings.json";

const CONTROLLER_RUN = "gemini-cli: controller holds a Pebble run: order, human gates bound to the spec, checks at stage end, the loop cap";
export const GEMINI_CONTROLLER_PROOFS = {
  order: CONTROLLER_RUN,
  gates: CONTROLLER_RUN,
  checks: CONTROLLER_RUN,
  "loop-cap": CONTROLLER_RUN,
  "hop-cap": "gemini-cli: controller refuses a delegation past the hop cap",
} as const;

const SHIM = String.raw`
const GM_LOST = "its end never reached the controller (the invoke_agent call was refused after the controller allowed it, or cancelled)";
const GM_EVENTS = { BeforeAgent: "prompt", BeforeTool: "pre", AfterTool: "post", AfterAgent: "end" };
const GM_WRITE = { write_file: "file_path", replace: "file_path" };
const gmEvent = process.argv[2];
function gmOut(o) { if (o) fs.writeSync(1, JSON.stringify(o) + "\n"); process.exit(0); }
function gmFail(why) {
  const msg = "harness controller: " + why + "; refusing (fail closed).";
  if (gmEvent === "BeforeTool") gmOut({ decision: "deny", reason: msg });
  fs.writeSync(2, msg + "\n");
  process.exit(2);
}
process.on("uncaughtException", function (e) { gmFail("internal error (" + ctlLine(String((e && e.message) || e), 200) + ")"); });
/** the request after the pipeline command's own expanded text, or null when the prompt is not the command */
function gmCommandArgs(prompt) {
  if (prompt.length < ENTRY_TEXT.length) return null;
  if (crypto.createHash("sha256").update(prompt.slice(0, ENTRY_TEXT.length)).digest("hex") !== ENTRY_TEXT.sha256) return null;
  return prompt.slice(ENTRY_TEXT.length).trim();
}
/** the subagent stage running now: BeforeTool names no agent, so a call made meanwhile is counted as its */
function gmRunningSub(data) {
  if (!data || data.record.kind === null) return null;
  return ctlKindStages(MODEL, data).filter(function (s) { const e = ctlEntry(data, s.id); return !s.main && e && e.status === "running"; })[0] || null;
}
function gmText(r) {
  const c = r && typeof r === "object" ? r.llmContent : r;
  if (typeof c === "string") return c;
  return Array.isArray(c) ? c.map(function (p) { return p && typeof p.text === "string" ? p.text : ""; }).join("\n") : "";
}
/** the failure a re-invoked stage is sent back with: the reason of its failed entry in the same round */
function gmRetryNote(data, role) {
  const s = ctlKindStages(MODEL, data).filter(function (x) { const e = ctlEntry(data, x.id); return x.role === role && e && e.status === "running"; })[0];
  if (!s) return null;
  const all = data.record.stages.filter(function (x) { return x.stage === s.id; });
  const cur = all[all.length - 1], prev = all[all.length - 2];
  if (!prev || prev.status !== "failed" || prev.round !== cur.round || prev.reason === GM_LOST) return null;
  return "harness: the run controller sent stage " + ctlName(s) + " back: " + ctlLine(prev.reason || "", 1200) + ". Fix it, then finish again.";
}
/** A subagent stage still running when the turn ends or a new prompt comes never reached its AfterTool
 *  (the call was refused after the hook, by the policy or a confirmation, or cancelled): it runs again. */
function gmSettleLost(env, data) {
  if (!data || ctlStopped(data) || data.record.kind === null) return;
  for (const s of ctlKindStages(MODEL, data)) {
    const e = ctlEntry(data, s.id);
    if (s.main || !e || e.status !== "running") continue;
    e.status = "failed"; e.reason = GM_LOST; e.ended = env.now();
    data.allow = s.id;
  }
}
function gmMain() {
  const event = GM_EVENTS[gmEvent];
  if (!event) return gmFail("unknown hook event " + gmEvent);
  let input;
  try { input = JSON.parse(fs.readFileSync(0, "utf8")); } catch (e) { return gmFail("hook input is not JSON"); }
  if (!input || typeof input !== "object" || typeof input.session_id !== "string" || !input.session_id) return gmOut(null);
  const root = process.env.GEMINI_PROJECT_DIR || input.cwd || process.cwd();
  const home = ctlHome();
  const P = ctlPaths(MODEL, root, home || root, input.session_id);
  const bound = ctlExists(P.state) || (home !== null && ctlExists(P.witness));
  const raw = typeof input.prompt === "string" ? input.prompt : "";
  const args = event === "prompt" ? gmCommandArgs(raw) : null;
  if (!bound && args === null) return gmOut(null);
  if (home === null) return gmFail("the account (uid " + process.getuid() + ") has no home in the passwd database, where the run controller keeps its key");
  ctlLock(P);
  const loaded = ctlLoad(P);
  const before = loaded && loaded.data ? JSON.stringify(loaded.data) : null;
  const data0 = loaded && loaded.data && !loaded.tampered ? loaded.data : null;
  const ti = input.tool_input && typeof input.tool_input === "object" ? input.tool_input : {};
  const tool = typeof input.tool_name === "string" ? input.tool_name : "";
  const prompt = args !== null ? MODEL.entry + (args ? " " + args : "") : raw.trim();
  const call = { event: event, sid: input.session_id, agent: null, agentType: null, prompt: prompt, promptId: null, tool: tool, report: "" };
  if (tool === "invoke_agent") call.spawn = { role: String(ti.agent_name || ""), background: false };
  else if (event === "pre") {
    const sub = gmRunningSub(data0);
    if (sub) { call.agent = "subagent:" + sub.id; call.agentType = sub.role; }
    if (tool === "run_shell_command" && typeof ti.command === "string") call.shell = ti.command.trim();
    else if (Object.prototype.hasOwnProperty.call(GM_WRITE, tool) && typeof ti[GM_WRITE[tool]] === "string") call.write = path.resolve(root, ti[GM_WRITE[tool]]);
    if (sub && call.write) {
      // who writes cannot be told while a subagent runs: a main-session stage's document waits for its end
      const rel = path.relative(root, call.write).split(path.sep).join("/");
      if (MODEL.stages.some(function (s) { return s.main && s.docs.indexOf(rel) >= 0; })) return gmOut({ decision: "deny", reason: "harness: " + rel + " belongs to a main-session stage, and stage " + ctlName(sub) + " is running; write it after its end." });
    }
  }
  if (event === "post" && !call.spawn) return gmOut(null);
  const env = {
    host: "gemini-cli", root: root, childEnv: process.env, canSendBack: false,
    now: function () { return new Date().toISOString(); },
    channel: "prompt",
    resume: function (s, text) { return LAUNCH + " --resume " + s + " -p " + JSON.stringify(text); },
    origin: null,
  };
  if (event === "prompt" || event === "end") gmSettleLost(env, data0);
  let res;
  if (event === "post") {
    // the stage end: the subagent's result is its report; then the verdict for the orchestrator
    const role = call.spawn.role;
    const ran = data0 && ctlKindStages(MODEL, data0).some(function (s) { const e = ctlEntry(data0, s.id); return !s.main && s.role === role && e && e.status === "running"; });
    if (!ran && !(loaded && loaded.tampered)) return gmOut(null);
    const stop = ctlDecide(MODEL, env, { event: "stop", sid: call.sid, agent: null, agentType: role, tool: tool, report: gmText(input.tool_response) }, loaded);
    res = ctlDecide(MODEL, env, call, stop.data ? { data: stop.data } : loaded);
  } else res = ctlDecide(MODEL, env, call, loaded);
  if (res.data && JSON.stringify(res.data) !== before) ctlSave(P, res.data);
  const a = res.answer;
  if (!a) {
    const note = event === "pre" && call.spawn && res.data ? gmRetryNote(res.data, call.spawn.role) : null;
    if (note) return gmOut({ hookSpecificOutput: { hookEventName: "BeforeTool", tool_input: Object.assign({}, ti, { prompt: String(ti.prompt || "") + "\n\n" + note }) } });
    return gmOut(null);
  }
  if (a.deny) return gmOut({ decision: "deny", reason: a.deny });
  if (a.block) return gmOut({ decision: "block", reason: a.block });
  if (a.context) return gmOut({ hookSpecificOutput: { hookEventName: event === "prompt" ? "BeforeAgent" : "AfterTool", additionalContext: a.context } });
  if (a.message) return gmOut({ systemMessage: a.message });
  return gmOut(null);
}
gmMain();
`;

function header(pipeline: PipelineIR): string[] {
  return [
    `harness run controller for Gemini CLI, pipeline ${pipeline.name}: stage order, work kind, human gates, checks, caps.`,
    "Generated by harness from the pipeline definition. Do not edit; rebuild instead.",
    "",
    `Wired in ${SETTINGS} (project hooks, a trusted folder); argv[2] = the hook event. A session is bound from its /${pipeline.name} prompt on;`,
    "any other session exits at once (the hook command checks for its state before node starts).",
    "State: .harness/controller/<session>.json (signed), the run record .harness/runs/<run-id>.json.",
    "Not covered:",
    ...CONTROLLER_GAPS.map((g) => `  - ${g}`),
  ];
}

/** `entryText`: the pipeline command's expanded prompt up to its request; `launch`: how the human starts gemini. */
export function renderGeminiController(pipeline: PipelineIR, entryText: string, launch: string, home?: string): string {
  const entry = { length: entryText.length, sha256: crypto.createHash("sha256").update(entryText).digest("hex") };
  const shim = `const ENTRY_TEXT = ${JSON.stringify(entry)};\nconst LAUNCH = ${JSON.stringify(launch)};\n${SHIM.trim()}`;
  return renderControllerScript({ header: header(pipeline), model: compileControllerModel(pipeline), shim, ...(home === undefined ? {} : { home }) });
}

/** The hook command: BeforeAgent always reaches node (only it can read the prompt); any other event of an unbound session exits in the shell. */
export function geminiControllerHookCommand(event: string): string {
  const run = failClosedHook(`node "$GEMINI_PROJECT_DIR/${GEMINI_CONTROLLER_PATH}" ${event}`);
  if (event === "BeforeAgent") return run;
  return `${unboundExit("$GEMINI_SESSION_ID", "$GEMINI_PROJECT_DIR")}; ${run}`;
}

function settings(): HostFile {
  // timeouts in milliseconds; the stage end runs the pipeline's commands
  const entry = (event: string, timeout: number, matcher?: string) => [{ ...(matcher ? { matcher } : {}), hooks: [{ type: "command", name: "harness-controller", command: geminiControllerHookCommand(event), timeout }] }];
  const hooks = {
    BeforeAgent: entry("BeforeAgent", 30_000),
    BeforeTool: entry("BeforeTool", 30_000, ".*"),
    AfterTool: entry("AfterTool", 1_800_000, "^invoke_agent$"),
    AfterAgent: entry("AfterAgent", 30_000),
  };
  return { path: SETTINGS, kind: "json", data: { hooks }, install: { mode: "merge" } };
}

/** Adds the controller script, its hooks and its fidelity records. `entryText`: see renderGeminiController. */
export function withGeminiController(pipeline: PipelineIR, entryText: string, launch: string, lowered: Lowered): Lowered {
  const how = `${GEMINI_CONTROLLER_PATH} (${SETTINGS} hooks, bound from /${pipeline.name} on)`;
  const replaced = new Set(["order", "gates", "checks", "loop-cap", "hop-cap"]);
  const records: FidelityRecord[] = [
    { role: null, constraint: "order", level: "guard", how: `${how}: BeforeTool refuses an invoke_agent out of the declared kind's order, and a main-session stage's first write to its document` },
    ...(pipeline.stages.some((s) => s.gate) ? [{ role: null, constraint: "gates" as const, level: "guard" as const, how: `${how}: approval only from a human prompt (BeforeAgent, which never fires inside a subagent), bound to the artifact's sha256` }] : []),
    ...(pipeline.checks.length ? [{ role: null, constraint: "checks" as const, level: "guard" as const, how: `${how}: AfterTool on invoke_agent runs each check's command (exit vs expect, log under .harness/runs/); a failure allows only the stage's re-invocation within its retries, its prompt carrying the controller's output; ${judgementVerdictHow(pipeline)}`, ...(pipeline.checks.some((c) => !c.command) ? { loss: "L_CHECKS_INSTRUCTED" as const } : {}) }] : []),
    ...(pipeline.loop ? [{ role: null, constraint: "loop-cap" as const, level: "guard" as const, how: `${how}: round ${pipeline.loop.maxRounds + 1} refused with on_exhausted` }] : []),
    { role: null, constraint: "hop-cap", level: "guard", how: `${how}: delegation ${pipeline.policies.maxHops + 1} refused (a re-invocation after a failed check counts)` },
  ];
  const gaps = [
    ...CONTROLLER_GAPS.map((g) => `controller: ${g}`),
    "controller: Gemini CLI 0.61 has no SubagentStop: a subagent whose checks fail has already ended, so the controller refuses every stage but its re-invocation (within the check's retries) and adds its output to that invocation's prompt",
    "controller: BeforeTool names no agent: while a subagent stage runs, every tool call is counted as that subagent's (a main-session document is refused until the stage ends); the policy (--policy) keeps each subagent to its own scope",
    `controller: the hooks are project settings, which Gemini CLI loads only in a trusted folder; the user's own settings (hooksConfig.enabled, or hooksConfig.disabled naming harness-controller) can switch them off, outside what the policy guards; the run binds to /${pipeline.name}'s exact expanded text, so a changed command file binds no run`,
    "controller: an answer the human gives through ask_user is a tool result, not a prompt: it approves no gate (the human types approve <gate>)",
  ];
  return {
    ...lowered,
    files: [...lowered.files, settings(), { path: GEMINI_CONTROLLER_PATH, kind: "text", executable: true, text: renderGeminiController(pipeline, entryText, launch) }],
    fidelity: [...lowered.fidelity.filter((r) => !(r.role === null && replaced.has(r.constraint))), ...records],
    gaps: [...(lowered.gaps ?? []), ...gaps],
  };
}
