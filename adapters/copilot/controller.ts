// Copilot CLI wiring of the run controller (src/adapter/controller/). Measured on 1.0.102 with the
// scripted model (test/hosts/enforce-out-controller.test.ts; ../shared reports "process-enforcement.md" §4.2):
// - hooks in an agent's front matter fire for that agent's session only: in the orchestrator's
//   (`--agent <pipeline>`, the launcher) sessionStart, userPromptSubmitted, preToolUse and postToolUse
//   of its own calls, subagentStart/subagentStop of the agents it starts, agentStop; never a child's
//   tool calls or the child's own userPromptSubmitted (which a repository hook sees, with agentId and
//   the model-written task prompt). So the hooks in the orchestrator agent ARE the binding: a session
//   runs them only when Copilot runs it as that agent, which nothing the model writes can arrange
//   (.github/agents/ is the guard's protected path), and an ordinary session runs none;
// - every payload carries sessionId (the orchestrator's; subagentStart/Stop name the child in agentId
//   with parentAgentId = the session), the same after `--resume=<id>`;
// - preToolUse {"permissionDecision":"deny","permissionDecisionReason"} reaches the model as
//   "Denied by preToolUse hook: <reason>"; an exit 2's stderr is dropped, so every reason is JSON;
// - subagentStop {"decision":"block","reason"} sends the child back with the reason as its next message;
// - postToolUse on task: {"additionalContext"} is appended to the task result the orchestrator reads.
// Main-session roles run as their own Copilot sessions (the human starts them with their launcher), so
// such a stage counts as run once the run has reached it and its documents are there.
import type { FidelityRecord } from "../../src/adapter/fidelity.js";
import type { Lowered } from "../../src/adapter/types.js";
import type { PipelineIR } from "../../src/ir/types.js";
import { judgementVerdictHow } from "../../src/adapter/controller/fidelity.js";
import { compileControllerModel } from "../../src/adapter/controller/model.js";
import { CONTROLLER_GAPS, renderControllerScript } from "../../src/adapter/controller/render.js";
import { guardHookCommand as failClosedHook } from "../../src/adapter/guard/hook-command.js";

export const COPILOT_CONTROLLER_PATH = ".github/hooks/harness-controller.cjs";

const CONTROLLER_RUN = "copilot: controller holds a Pebble run: order, human gates bound to the spec, checks at stage end";
export const COPILOT_CONTROLLER_PROOFS = {
  order: CONTROLLER_RUN,
  gates: CONTROLLER_RUN,
  checks: CONTROLLER_RUN,
  "loop-cap": "copilot: controller refuses a third round of the loop",
  "hop-cap": "copilot: controller refuses a delegation past the hop cap",
} as const;

/** Copilot's hook events the controller answers, and the core's name for each. */
export const COPILOT_CONTROLLER_EVENTS = { userPromptSubmitted: "prompt", preToolUse: "pre", subagentStart: "start", subagentStop: "stop", postToolUse: "post", agentStop: "end" } as const;

const SHIM = String.raw`
const CP_EVENTS = { userPromptSubmitted: "prompt", preToolUse: "pre", subagentStart: "start", subagentStop: "stop", postToolUse: "post", agentStop: "end" };
const cpEvent = process.argv[2];
function cpOut(o) { if (o) fs.writeSync(1, JSON.stringify(o) + "\n"); process.exit(0); }
// Copilot drops an exit 2's stderr: a refusal is always JSON on stdout
function cpFail(why) {
  const msg = "harness controller: " + why + "; refusing (fail closed).";
  if (cpEvent === "preToolUse") cpOut({ permissionDecision: "deny", permissionDecisionReason: msg });
  fs.writeSync(2, msg + "\n");
  process.exit(2);
}
process.on("uncaughtException", function (e) { cpFail("internal error (" + ctlLine(String((e && e.message) || e), 200) + ")"); });
function cpArgs(v) { if (typeof v !== "string") return v && typeof v === "object" ? v : {}; try { const o = JSON.parse(v); return o && typeof o === "object" ? o : {}; } catch (e) { return {}; } }
/** the project: the folder this script was generated into (.github/hooks/ of it), else the hook's cwd */
function cpRoot(cwd) {
  const tail = "/.github/hooks/" + path.basename(__filename);
  return __filename.endsWith(tail) ? __filename.slice(0, -tail.length) || "/" : cwd;
}
/** A main-session stage runs as its own Copilot session: it starts once the run has reached it and its
 *  documents are there (the core closes it, judging them, when a later stage asks to start). A new
 *  round needs documents that changed since the round before. */
function cpMainStages(env, data) {
  if (!data || data.record.kind === null || ctlStopped(data) || data.record.status === "passed") return;
  for (const s of ctlKindStages(MODEL, data)) {
    if (!s.main || !s.docs.length) continue;
    const e = ctlEntry(data, s.id);
    if (!e || e.status !== "pending") continue;
    const sha = s.docs.map(function (d) { return ctlSha(env.root, d); });
    if (sha.some(function (x) { return !x; })) continue;
    const prev = data.record.stages.filter(function (x) { return x.stage === s.id && x !== e; }).pop();
    if (prev && prev.docSha === sha.join(",")) continue;
    if (ctlBlocked(MODEL, env, data, s) !== null) continue;
    e.status = "running"; e.started = env.now(); e.docSha = sha.join(",");
  }
}
function cpMain() {
  const event = CP_EVENTS[cpEvent];
  if (!event) return cpFail("unknown hook event " + cpEvent);
  let input;
  try { input = JSON.parse(fs.readFileSync(0, "utf8")); } catch (e) { return cpFail("hook input is not JSON"); }
  if (!input || typeof input !== "object") return cpFail("hook input is not a JSON object");
  const sid = typeof input.parentAgentId === "string" && input.parentAgentId ? input.parentAgentId : input.sessionId;
  if (typeof sid !== "string" || !sid) return cpFail("hook input names no session");
  const cwd = typeof input.cwd === "string" && input.cwd ? input.cwd : process.cwd();
  const root = cpRoot(cwd);
  const home = ctlHome();
  if (home === null) return cpFail("the account (uid " + process.getuid() + ") has no home in the passwd database, where the run controller keeps its key");
  const P = ctlPaths(MODEL, root, home, sid);
  ctlLock(P);
  const loaded = ctlLoad(P);
  const before = loaded && loaded.data ? JSON.stringify(loaded.data) : null;
  const tool = typeof input.toolName === "string" ? input.toolName : "";
  const ti = tool === "apply_patch" ? {} : cpArgs(input.toolArgs);
  let prompt = typeof input.prompt === "string" ? input.prompt.trim() : "";
  // this hook runs only in the orchestrator's session: its first prompt starts the run
  if (event === "prompt" && !loaded && prompt.indexOf(MODEL.entry) !== 0) prompt = MODEL.entry + " " + prompt;
  const call = { event: event, sid: sid, agent: typeof input.agentId === "string" && input.agentId ? input.agentId : null, agentType: input.agentType || null, prompt: prompt, promptId: null, tool: tool, report: typeof input.response === "string" ? input.response : "" };
  if (tool === "task") call.spawn = { role: String(ti.agent_type || ""), background: ti.mode === "background" };
  else if (tool === "bash" && typeof ti.command === "string") call.shell = ti.command.trim();
  else if ((tool === "create" || tool === "edit" || tool === "str_replace_editor") && typeof ti.path === "string") call.write = path.resolve(cwd, ti.path);
  if (event === "post" && !call.spawn) return cpOut(null);
  const env = {
    host: "copilot", root: root, childEnv: process.env, canSendBack: true,
    now: function () { return new Date().toISOString(); },
    channel: "prompt",
    // the human's reply through the pipeline's launcher, which starts the orchestrator agent (and its hooks) again
    resume: function (s, text) { const t = text.indexOf(MODEL.entry + " ") === 0 ? text.slice(MODEL.entry.length + 1) : text; return LAUNCHER + " " + JSON.stringify(t) + " --resume=" + s; },
    origin: null,
  };
  const data0 = loaded && loaded.data && !loaded.tampered ? loaded.data : null;
  cpMainStages(env, data0);
  const res = ctlDecide(MODEL, env, call, loaded);
  if (res.data && JSON.stringify(res.data) !== before) ctlSave(P, res.data);
  const a = res.answer;
  if (!a) return cpOut(null);
  if (a.deny) return cpOut({ permissionDecision: "deny", permissionDecisionReason: a.deny });
  if (a.sendBack) return cpOut({ decision: "block", reason: a.sendBack });
  if (a.block || a.context) return cpOut({ additionalContext: a.block || a.context });
  if (a.message) { fs.writeSync(2, a.message + "\n"); return cpOut(null); }
  return cpOut(null);
}
cpMain();
`;

function header(pipeline: PipelineIR, orchestrator: string): string[] {
  return [
    `harness run controller for GitHub Copilot CLI, pipeline ${pipeline.name}: stage order, work kind, human gates, checks, caps.`,
    "Generated by harness from the pipeline definition. Do not edit; rebuild instead.",
    "",
    `Wired as hooks in the front matter of .github/agents/${orchestrator}.agent.md (argv[2] = the hook event): Copilot runs`,
    "them in the orchestrator agent's session only, so every such session is a run of the pipeline and every other is unbound.",
    "State: .harness/controller/<session>.json (signed), the run record .harness/runs/<run-id>.json.",
    "Not covered:",
    ...CONTROLLER_GAPS.map((g) => `  - ${g}`),
  ];
}

/** `home`: a fixed home for the key and records instead of the account's (tests only). */
export function renderCopilotController(pipeline: PipelineIR, orchestrator: string, launcher: string, home?: string): string {
  const shim = `const LAUNCHER = ${JSON.stringify(launcher)};\n${SHIM.trim()}`;
  return renderControllerScript({ header: header(pipeline, orchestrator), model: compileControllerModel(pipeline, `/${pipeline.name}`), shim, ...(home === undefined ? {} : { home }) });
}

export function copilotControllerHookCommand(event: string): string {
  return failClosedHook(`node "\${COPILOT_PROJECT_DIR:-.}/${COPILOT_CONTROLLER_PATH}" ${event}`, "0");
}

/** The orchestrator agent's controller hooks (merged before its guard's preToolUse: the controller answers first). */
export function controllerHooks(): Record<string, unknown[]> {
  const entry = (event: string, timeoutSec: number) => [{ type: "command", bash: copilotControllerHookCommand(event), timeoutSec }];
  // stage end runs the pipeline's commands
  return Object.fromEntries(Object.keys(COPILOT_CONTROLLER_EVENTS).map((e) => [e, entry(e, e === "subagentStop" ? 1800 : 30)]));
}

/** Adds the controller script and its fidelity records; the orchestrator agent carries its hooks (index.ts). */
export function withCopilotController(pipeline: PipelineIR, orchestrator: string, launcher: string, lowered: Lowered): Lowered {
  const how = `${COPILOT_CONTROLLER_PATH} (hooks in .github/agents/${orchestrator}.agent.md: the orchestrator's session only, started via ${launcher} or copilot --agent ${orchestrator})`;
  const replaced = new Set(["order", "gates", "checks", "loop-cap", "hop-cap"]);
  const records: FidelityRecord[] = [
    { role: null, constraint: "order", level: "guard", how: `${how}: preToolUse refuses a task out of the declared kind's order; a main-session stage (its own session) counts once the run reached it and its documents are there` },
    ...(pipeline.stages.some((s) => s.gate) ? [{ role: null, constraint: "gates" as const, level: "guard" as const, how: `${how}: approval only from the orchestrator session's own userPromptSubmitted (never fired for a subagent's prompt), bound to the artifact's sha256` }] : []),
    ...(pipeline.checks.length ? [{ role: null, constraint: "checks" as const, level: "guard" as const, how: `${how}: subagentStop runs each check's command (exit vs expect, log under .harness/runs/) and sends the agent back within its retries; the verdict is added to the task result (postToolUse); ${judgementVerdictHow(pipeline)}`, ...(pipeline.checks.some((c) => !c.command) ? { loss: "L_CHECKS_INSTRUCTED" as const } : {}) }] : []),
    // the rounds are counted in the run state: a loop stage that already ran starts a new round at its
    // next task, a main-session stage's new round needs documents that changed since the round before
    ...(pipeline.loop ? [{ role: null, constraint: "loop-cap" as const, level: "guard" as const, how: `${how}: preToolUse refuses the task of round ${pipeline.loop.maxRounds + 1} with on_exhausted` }] : []),
    { role: null, constraint: "hop-cap", level: "guard", how: `${how}: delegation ${pipeline.policies.maxHops + 1} refused` },
  ];
  const gaps = [
    ...CONTROLLER_GAPS.map((g) => `controller: ${g}`),
    `controller: a main-session stage runs as its own Copilot session, outside the run: the controller holds when it may count (the run reached it, its documents are there, a new round's changed), not who wrote them`,
    `controller: /${pipeline.name} as a skill in an ordinary session (not the ${orchestrator} agent) runs no controller: its order, gates and checks are instructed there`,
  ];
  return {
    ...lowered,
    files: [...lowered.files, { path: COPILOT_CONTROLLER_PATH, kind: "text", executable: true, text: renderCopilotController(pipeline, orchestrator, launcher) }],
    fidelity: [...lowered.fidelity.filter((r) => !(r.role === null && replaced.has(r.constraint))), ...records],
    gaps: [...(lowered.gaps ?? []), ...gaps],
  };
}
