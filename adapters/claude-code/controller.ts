// Claude Code wiring of the run controller (src/adapter/controller/). Measured on 2.1.332 with the
// scripted model (../shared reports "process-enforcement.md" §3; test/hosts/enforce-out-controller.test.ts):
// - every hook input carries session_id (the same after --resume) and the hook env CLAUDE_CODE_SESSION_ID;
// - PreToolUse on Agent names the role (subagent_type); a JSON deny reaches the model as the tool result;
// - SubagentStop {"decision":"block","reason"} sends the subagent back with the reason (never
//   additionalContext there: it re-runs the subagent); PostToolUse on Agent additionalContext / block
//   reaches the orchestrator as a system message and keeps the tool result;
// - UserPromptSubmit fires for ScheduleWakeup prompts with a payload like a typed one: those tools are
//   refused during a run, and each approval's prompt_id is checked later in the transcript
//   (turnOrigin human or sdk), which the host writes after the hook ran.
import type { FidelityRecord } from "../../src/adapter/fidelity.js";
import type { HostFile, Lowered } from "../../src/adapter/types.js";
import type { PipelineIR } from "../../src/ir/types.js";
import { judgementVerdictHow } from "../../src/adapter/controller/fidelity.js";
import { compileControllerModel } from "../../src/adapter/controller/model.js";
import { CONTROLLER_GAPS, renderControllerScript } from "../../src/adapter/controller/render.js";
import { guardHookCommand as failClosedHook } from "../../src/adapter/guard/hook-command.js";
import { unboundExit } from "../../src/adapter/controller/hook-command.js";

export const CONTROLLER_PATH = ".claude/hooks/harness-controller.cjs";

/** The real-host tests that prove the controller on Claude Code (test/hosts/enforce-out-controller.test.ts). */
const CONTROLLER_RUN = "claude-code: controller holds a Pebble run: order, human gates bound to the spec, checks at stage end, the loop cap";
export const CLAUDE_CONTROLLER_PROOFS = {
  order: CONTROLLER_RUN,
  gates: CONTROLLER_RUN,
  checks: CONTROLLER_RUN,
  "loop-cap": CONTROLLER_RUN,
  "hop-cap": "claude-code: controller refuses a delegation past the hop cap",
} as const;

const SHIM = String.raw`
const CC_SCHEDULE = new Set(["ScheduleWakeup", "CronCreate", "RemoteTrigger", "Monitor"]);
const CC_WRITE = { Write: "file_path", Edit: "file_path", MultiEdit: "file_path", NotebookEdit: "notebook_path" };
const CC_EVENTS = { UserPromptSubmit: "prompt", PreToolUse: "pre", SubagentStart: "start", SubagentStop: "stop", PostToolUse: "post", Stop: "end" };
let ccEvent = process.argv[2];
function ccOut(o) { if (o) fs.writeSync(1, JSON.stringify(o) + "\n"); process.exit(0); }
function ccFail(why) {
  const msg = "harness controller: " + why + "; refusing (fail closed).";
  if (ccEvent === "PreToolUse") ccOut({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: msg } });
  fs.writeSync(2, msg + "\n");
  process.exit(2);
}
process.on("uncaughtException", function (e) { ccFail("internal error (" + ctlLine(String((e && e.message) || e), 200) + ")"); });
/** where the transcript says a prompt came from: "human" (typed or -p), another origin, or null (no row yet) */
function ccOrigin(transcript, pid) {
  if (!transcript) return null;
  let text;
  try { text = ctlRead(transcript).toString("utf8"); } catch (e) { return null; }
  for (const line of text.split("\n")) {
    if (line.indexOf(pid) < 0) continue;
    let row; try { row = JSON.parse(line); } catch (e) { continue; }
    if (row.type !== "user" || row.promptId !== pid || typeof (row.message && row.message.content) !== "string") continue;
    return row.turnOrigin === "human" || row.turnOrigin === "sdk" ? "human" : String(row.turnOrigin || row.promptSource || "not the human");
  }
  return null;
}
function ccMain() {
  const event = CC_EVENTS[ccEvent];
  if (!event) return ccFail("unknown hook event " + ccEvent);
  let input;
  try { input = JSON.parse(fs.readFileSync(0, "utf8")); } catch (e) { return ccFail("hook input is not JSON"); }
  if (!input || typeof input !== "object" || typeof input.session_id !== "string" || !input.session_id) return ccOut(null);
  const root = process.env.CLAUDE_PROJECT_DIR || input.cwd || process.cwd();
  const home = ctlHome();
  // an account with no home never had a record there: only a state in the project binds it
  const P = ctlPaths(MODEL, root, home || root, input.session_id);
  const bound = ctlExists(P.state) || (home !== null && ctlExists(P.witness));
  const prompt = typeof input.prompt === "string" ? input.prompt.trim() : "";
  if (!bound && !(event === "prompt" && !input.agent_id && (prompt === MODEL.entry || prompt.indexOf(MODEL.entry + " ") === 0 || prompt.indexOf(MODEL.entry + "\n") === 0))) return ccOut(null);
  if (home === null) return ccFail("the account (uid " + process.getuid() + ") has no home in the passwd database, where the run controller keeps its key");
  ctlLock(P);
  const loaded = ctlLoad(P);
  const before = loaded && loaded.data ? JSON.stringify(loaded.data) : null;
  const ti = input.tool_input && typeof input.tool_input === "object" ? input.tool_input : {};
  const tool = typeof input.tool_name === "string" ? input.tool_name : "";
  const call = { event: event, sid: input.session_id, agent: input.agent_id || null, agentType: input.agent_type || null, prompt: prompt, promptId: input.prompt_id || null, tool: tool, report: typeof input.last_assistant_message === "string" ? input.last_assistant_message : "" };
  if (tool === "Agent" || tool === "Task") call.spawn = { role: String(ti.subagent_type || ""), background: ti.run_in_background === true };
  else if (Object.prototype.hasOwnProperty.call(CC_WRITE, tool) && typeof ti[CC_WRITE[tool]] === "string") call.write = path.resolve(input.cwd || root, ti[CC_WRITE[tool]]);
  else if (tool === "Bash" && typeof ti.command === "string") call.shell = ti.command.trim();
  else if (CC_SCHEDULE.has(tool)) call.schedule = true;
  if (event === "post" && !call.spawn) return ccOut(null);
  const env = {
    host: "claude-code", root: root, childEnv: process.env, canSendBack: true,
    now: function () { return new Date().toISOString(); },
    channel: process.env.CLAUDE_CODE_SESSION_ATTENDED === "1" ? "tty" : "resume",
    resume: function (sid, text) { return "claude -p --resume " + sid + " " + JSON.stringify(text); },
    origin: function (pid) { return ccOrigin(input.transcript_path, pid); },
  };
  const res = ctlDecide(MODEL, env, call, loaded);
  if (res.data && JSON.stringify(res.data) !== before) ctlSave(P, res.data);
  const a = res.answer;
  if (!a) return ccOut(null);
  if (a.deny) return ccOut({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: a.deny } });
  if (a.sendBack) return ccOut({ decision: "block", reason: a.sendBack });
  if (a.block) return ccOut({ decision: "block", reason: a.block });
  if (a.context) return ccOut({ hookSpecificOutput: { hookEventName: event === "prompt" ? "UserPromptSubmit" : "PostToolUse", additionalContext: a.context } });
  if (a.message) { fs.writeSync(2, a.message + "\n"); return ccOut({ systemMessage: a.message }); }
  return ccOut(null);
}
ccMain();
`;

function header(pipeline: PipelineIR): string[] {
  return [
    `harness run controller for Claude Code, pipeline ${pipeline.name}: stage order, work kind, human gates, checks, caps.`,
    "Generated by harness from the pipeline definition. Do not edit; rebuild instead.",
    "",
    `Wired in .claude/settings.json; argv[2] = the hook event. A session is bound from its /${pipeline.name} prompt on;`,
    "any other session exits at once (the hook command checks for its state before node starts).",
    "State: .harness/controller/<session>.json (signed), the run record .harness/runs/<run-id>.json.",
    "Not covered:",
    ...CONTROLLER_GAPS.map((g) => `  - ${g}`),
  ];
}

/** `home`: a fixed home for the key and records instead of the account's (tests only). */
export function renderClaudeController(pipeline: PipelineIR, home?: string): string {
  return renderControllerScript({ header: header(pipeline), model: compileControllerModel(pipeline), shim: SHIM, ...(home === undefined ? {} : { home }) });
}

/** The hook command: an unbound session exits in the shell, with no node start; otherwise fail closed. */
export function controllerHookCommand(event: string, early: boolean): string {
  const run = failClosedHook(`node "$CLAUDE_PROJECT_DIR/${CONTROLLER_PATH}" ${event}`);
  if (!early) return run;
  const skip = unboundExit("$CLAUDE_CODE_SESSION_ID", "$CLAUDE_PROJECT_DIR");
  return `${skip}; ${run}`;
}

function addHooks(settings: HostFile): void {
  if (settings.kind !== "json") throw new Error(".claude/settings.json is not a JSON file");
  const data = settings.data as { hooks?: Record<string, unknown[]> };
  const hooks = (data.hooks ??= {});
  const entry = (event: string, timeout: number, matcher?: string) => ({ ...(matcher ? { matcher } : {}), hooks: [{ type: "command", command: controllerHookCommand(event, event !== "UserPromptSubmit"), timeout }] });
  hooks.UserPromptSubmit = [...(hooks.UserPromptSubmit ?? []), entry("UserPromptSubmit", 30)];
  hooks.PreToolUse = [...(hooks.PreToolUse ?? []), entry("PreToolUse", 30, "*")];
  hooks.SubagentStart = [...(hooks.SubagentStart ?? []), entry("SubagentStart", 30)];
  // stage end runs the pipeline's commands
  hooks.SubagentStop = [...(hooks.SubagentStop ?? []), entry("SubagentStop", 1800)];
  hooks.PostToolUse = [...(hooks.PostToolUse ?? []), entry("PostToolUse", 30, "Agent|Task")];
  hooks.Stop = [...(hooks.Stop ?? []), entry("Stop", 30)];
}

/** Adds the controller script, its hooks and its fidelity records to the lowered tree. */
export function withClaudeController(pipeline: PipelineIR, lowered: Lowered): Lowered {
  const settings = lowered.files.find((f) => f.path === ".claude/settings.json");
  if (!settings) throw new Error("the Claude Code adapter emitted no .claude/settings.json to wire the controller into");
  addHooks(settings);
  const script: HostFile = { path: CONTROLLER_PATH, kind: "text", executable: true, text: renderClaudeController(pipeline) };
  const how = `${CONTROLLER_PATH} (settings.json hooks, bound from /${pipeline.name} on)`;
  const replaced = new Set(["gates", "checks", "loop-cap"]);
  const records: FidelityRecord[] = [
    { role: null, constraint: "order", level: "guard", how: `${how}: PreToolUse refuses a spawn out of the declared kind's order, and a main-session stage's first write to its document` },
    ...(pipeline.stages.some((s) => s.gate) ? [{ role: null, constraint: "gates" as const, level: "guard" as const, how: `${how}: approval only from a human prompt (no agent id, transcript origin), bound to the artifact's sha256; ScheduleWakeup/CronCreate refused during a run` }] : []),
    ...(pipeline.checks.length ? [{ role: null, constraint: "checks" as const, level: "guard" as const, how: `${how}: SubagentStop runs each check's command (exit vs expect, log under .harness/runs/) and sends the subagent back within its retries; ${judgementVerdictHow(pipeline)}`, ...(pipeline.checks.some((c) => !c.command) ? { loss: "L_CHECKS_INSTRUCTED" as const } : {}) }] : []),
    ...(pipeline.loop ? [{ role: null, constraint: "loop-cap" as const, level: "guard" as const, how: `${how}: round ${pipeline.loop.maxRounds + 1} refused with on_exhausted` }] : []),
    { role: null, constraint: "hop-cap", level: "guard", how: `${how}: delegation ${pipeline.policies.maxHops + 1} refused` },
  ];
  return {
    ...lowered,
    files: [...lowered.files, script],
    fidelity: [...lowered.fidelity.filter((r) => !(r.role === null && replaced.has(r.constraint))), ...records],
    gaps: [...(lowered.gaps ?? []), ...CONTROLLER_GAPS.map((g) => `controller: ${g}`)],
  };
}
