// Codex wiring of the run controller (src/adapter/controller/). Measured on 0.171.0 with the scripted
// model (../shared reports "process-enforcement.md" §4.1; test/hosts/enforce-out-controller.test.ts):
// - every hook input carries session_id (the same after `codex exec resume <id>`); a spawned agent's
//   hooks carry agent_id and agent_type besides; the hook env names no session (only CODEX_HOME);
// - PreToolUse on spawn_agent names the role (tool_input.agent_type); a JSON deny reaches the model as
//   "Tool call blocked by PreToolUse hook: <reason>"; exec_command is tool_name "Bash";
// - UserPromptSubmit also fires inside every spawned agent with the spawn message (model-written) as
//   the prompt, with agent_id set: such a prompt never counts (the core ignores it);
// - SubagentStop {"decision":"block","reason"} sends the agent back with the reason;
// - the verdict reaches the orchestrator on PostToolUse of wait_agent, tool_name
//   "multi_agent_v1wait_agent": additionalContext arrives as a developer message, decision:block
//   replaces the tool output; `continue:false` does not stop a Codex run, so it is never used;
// - a child's SubagentStart and the parent's hooks run at the same moment: the core's lock holds.
import type { FidelityRecord } from "../../src/adapter/fidelity.js";
import type { HostFile, Lowered } from "../../src/adapter/types.js";
import type { PipelineIR } from "../../src/ir/types.js";
import { judgementVerdictHow } from "../../src/adapter/controller/fidelity.js";
import { compileControllerModel } from "../../src/adapter/controller/model.js";
import { CONTROLLER_GAPS, renderControllerScript } from "../../src/adapter/controller/render.js";
import { HOOK_CLEAN_ENV, hookProjectPath, guardHookCommand as failClosedHook } from "../../src/adapter/guard/hook-command.js";
import { HARNESS_STATE_DIR } from "../../src/schema/vocabulary.js";

export const CODEX_CONTROLLER_PATH = ".codex/hooks/harness-controller.cjs";
const HOOKS_FILE = ".codex/hooks.json";

const CONTROLLER_RUN = "codex: controller holds a Pebble run: order, human gates bound to the spec, checks at stage end, the loop cap";
export const CODEX_CONTROLLER_PROOFS = {
  order: CONTROLLER_RUN,
  gates: CONTROLLER_RUN,
  checks: CONTROLLER_RUN,
  "loop-cap": CONTROLLER_RUN,
  "hop-cap": "codex: controller refuses a delegation past the hop cap",
} as const;

const SHIM = String.raw`
const CX_EVENTS = { UserPromptSubmit: "prompt", PreToolUse: "pre", SubagentStart: "start", SubagentStop: "stop", PostToolUse: "post", Stop: "end" };
let cxEvent = process.argv[2];
function cxOut(o) { if (o) fs.writeSync(1, JSON.stringify(o) + "\n"); process.exit(0); }
function cxFail(why) {
  const msg = "harness controller: " + why + "; refusing (fail closed).";
  if (cxEvent === "PreToolUse") cxOut({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: msg } });
  fs.writeSync(2, msg + "\n");
  process.exit(2);
}
process.on("uncaughtException", function (e) { cxFail("internal error (" + ctlLine(String((e && e.message) || e), 200) + ")"); });
function cxRoot(cwd) {
  // never the user's git configuration, which code a stage ran can replace by a FIFO (git would wait on it)
  const env = Object.assign({}, process.env, { GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_SYSTEM: "/dev/null", GIT_CONFIG_GLOBAL: "/dev/null", GIT_OPTIONAL_LOCKS: "0" });
  const r = cp.spawnSync("git", ["rev-parse", "--show-toplevel"], { cwd: cwd, encoding: "utf8", env: env, timeout: 10000, killSignal: "SIGKILL" });
  return r.status === 0 && r.stdout.trim() ? r.stdout.trim() : cwd;
}
/** the files an exec_command apply_patch heredoc names (Add/Update/Delete File), or null for any other command */
function cxPatchPaths(cmd) {
  const m = /^apply_patch <<'([A-Za-z_][A-Za-z0-9_]*)'\n([\s\S]*)\n([A-Za-z_][A-Za-z0-9_]*)\n?$/.exec(cmd);
  if (!m || m[1] !== m[3]) return null;
  const out = [];
  for (const line of m[2].split("\n")) { const f = /^\*\*\* (?:Add|Update|Delete) File: (.+)$/.exec(line); if (f) out.push(f[1].trim()); }
  return out;
}
function cxParse(v) { if (typeof v !== "string") return v; try { return JSON.parse(v); } catch (e) { return v; } }
function cxMain() {
  const event = CX_EVENTS[cxEvent];
  if (!event) return cxFail("unknown hook event " + cxEvent);
  let input;
  try { input = JSON.parse(fs.readFileSync(0, "utf8")); } catch (e) { return cxFail("hook input is not JSON"); }
  if (!input || typeof input !== "object" || typeof input.session_id !== "string" || !input.session_id) return cxOut(null);
  const cwd = typeof input.cwd === "string" && input.cwd ? input.cwd : process.cwd();
  const root = cxRoot(cwd);
  const home = ctlHome();
  const P = ctlPaths(MODEL, root, home || root, input.session_id);
  const bound = ctlExists(P.state) || (home !== null && ctlExists(P.witness));
  const prompt = typeof input.prompt === "string" ? input.prompt.trim() : "";
  if (!bound && !(event === "prompt" && !input.agent_id && (prompt === MODEL.entry || prompt.indexOf(MODEL.entry + " ") === 0 || prompt.indexOf(MODEL.entry + "\n") === 0))) return cxOut(null);
  if (home === null) return cxFail("the account (uid " + process.getuid() + ") has no home in the passwd database, where the run controller keeps its key");
  ctlLock(P);
  const loaded = ctlLoad(P);
  const before = loaded && loaded.data ? JSON.stringify(loaded.data) : null;
  const ti = cxParse(input.tool_input) || {};
  const tool = typeof input.tool_name === "string" ? input.tool_name : "";
  const call = { event: event, sid: input.session_id, agent: input.agent_id || null, agentType: input.agent_type || null, prompt: prompt, promptId: input.turn_id || null, tool: tool, report: typeof input.last_assistant_message === "string" ? input.last_assistant_message : "" };
  if (tool === "spawn_agent") call.spawn = { role: String(ti.agent_type || ""), background: false };
  else if (tool === "Bash" && typeof ti.command === "string") {
    const paths = cxPatchPaths(ti.command.trim());
    if (paths === null) call.shell = ti.command.trim();
    else if (paths.length) call.write = path.resolve(cwd, paths[0]);
  } else if (/wait_agent$/.test(tool)) {
    // the agents this wait saw finish (a timed-out wait names them as still running)
    const resp = cxParse(input.tool_response);
    const st = resp && typeof resp === "object" && resp.status && typeof resp.status === "object" ? resp.status : {};
    call.waited = Object.keys(st).filter(function (id) { const v = st[id]; return v && typeof v === "object" && !("running" in v) && !("pending_init" in v); });
  }
  if (event === "post" && !call.waited) return cxOut(null);
  const env = {
    host: "codex", root: root, childEnv: process.env, canSendBack: true,
    now: function () { return new Date().toISOString(); },
    // nothing in a Codex hook tells the TUI from exec
    channel: "prompt",
    resume: function (sid, text) { return "codex exec resume " + sid + " " + JSON.stringify(text); },
    origin: null,
  };
  const res = ctlDecide(MODEL, env, call, loaded);
  if (res.data && JSON.stringify(res.data) !== before) ctlSave(P, res.data);
  const a = res.answer;
  if (!a) return cxOut(null);
  if (a.deny) return cxOut({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: a.deny } });
  if (a.sendBack) return cxOut({ decision: "block", reason: a.sendBack });
  // continue:false does not stop a Codex run: a failed stage replaces wait_agent's output instead
  if (a.block) return cxOut({ decision: "block", reason: a.block });
  if (a.context) return cxOut({ hookSpecificOutput: { hookEventName: event === "prompt" ? "UserPromptSubmit" : "PostToolUse", additionalContext: a.context } });
  if (a.message) { fs.writeSync(2, a.message + "\n"); return cxOut(null); }
  return cxOut(null);
}
cxMain();
`;

function header(pipeline: PipelineIR): string[] {
  return [
    `harness run controller for Codex, pipeline ${pipeline.name}: stage order, work kind, human gates, checks, caps.`,
    "Generated by harness from the pipeline definition. Do not edit; rebuild instead.",
    "",
    `Wired in ${HOOKS_FILE} (once its hooks are trusted); argv[2] = the hook event. A session is bound from its $${pipeline.name} prompt on;`,
    `the hook command of every other event exits at once when the project has no ${HARNESS_STATE_DIR}/controller/ folder.`,
    "State: .harness/controller/<session>.json (signed), the run record .harness/runs/<run-id>.json.",
    "Not covered:",
    ...CONTROLLER_GAPS.map((g) => `  - ${g}`),
  ];
}

/** `home`: a fixed home for the key and records instead of the account's (tests only). */
export function renderCodexController(pipeline: PipelineIR, home?: string): string {
  return renderControllerScript({ header: header(pipeline), model: compileControllerModel(pipeline, `$${pipeline.name}`), shim: SHIM, ...(home === undefined ? {} : { home }) });
}

// hooks run in the session's folder: the script is found from the repository's top level
const ROOT = hookProjectPath("");
/** The hook command. The hook env names no session, so an unbound project exits in the shell when it has
 *  no controller folder at all; a prompt always reaches node (only it can read the prompt). */
export function codexControllerHookCommand(event: string): string {
  const run = failClosedHook(`node "$harness_r/${CODEX_CONTROLLER_PATH}" ${event}`);
  // the environment is cleaned before git finds the root, not only before node starts
  const root = `${HOOK_CLEAN_ENV}; harness_r=${ROOT}`;
  if (event === "UserPromptSubmit") return `${root}; ${run}`;
  return `${root}; [ ! -e "$harness_r/${HARNESS_STATE_DIR}/controller" ] && exit 0; ${run}`;
}

/** Adds the controller script, its hooks and its fidelity records to the lowered Codex tree. */
export function withCodexController(pipeline: PipelineIR, lowered: Lowered): Lowered {
  const existing = lowered.files.find((f) => f.path === HOOKS_FILE);
  const data = (existing?.kind === "json" ? existing.data : { hooks: {} }) as { hooks: Record<string, unknown[]> };
  const hooks = (data.hooks ??= {});
  const entry = (event: string, timeout: number, matcher?: string) => ({ ...(matcher ? { matcher } : {}), hooks: [{ type: "command", command: codexControllerHookCommand(event), timeout }] });
  hooks.UserPromptSubmit = [...(hooks.UserPromptSubmit ?? []), entry("UserPromptSubmit", 30)];
  hooks.PreToolUse = [...(hooks.PreToolUse ?? []), entry("PreToolUse", 30, ".*")];
  hooks.SubagentStart = [...(hooks.SubagentStart ?? []), entry("SubagentStart", 30)];
  // stage end runs the pipeline's commands
  hooks.SubagentStop = [...(hooks.SubagentStop ?? []), entry("SubagentStop", 1800)];
  hooks.PostToolUse = [...(hooks.PostToolUse ?? []), entry("PostToolUse", 30, ".*wait_agent")];
  hooks.Stop = [...(hooks.Stop ?? []), entry("Stop", 30)];
  const files: HostFile[] = [
    ...lowered.files.filter((f) => f !== existing),
    { path: HOOKS_FILE, kind: "json", data, install: { mode: "merge" } },
    { path: CODEX_CONTROLLER_PATH, kind: "text", executable: true, text: renderCodexController(pipeline) },
  ];
  const how = `${CODEX_CONTROLLER_PATH} (${HOOKS_FILE} hooks, once trusted; bound from $${pipeline.name} on)`;
  const replaced = new Set(["order", "gates", "checks", "loop-cap", "hop-cap"]);
  const records: FidelityRecord[] = [
    { role: null, constraint: "order", level: "guard", how: `${how}: PreToolUse refuses a spawn_agent out of the declared kind's order, and a main-session stage's first apply_patch to its document` },
    ...(pipeline.stages.some((s) => s.gate) ? [{ role: null, constraint: "gates" as const, level: "guard" as const, how: `${how}: approval only from a prompt with no agent id (UserPromptSubmit also fires inside spawned agents with the model's spawn message), bound to the artifact's sha256` }] : []),
    ...(pipeline.checks.length ? [{ role: null, constraint: "checks" as const, level: "guard" as const, how: `${how}: SubagentStop runs each check's command (exit vs expect, log under .harness/runs/) and sends the agent back within its retries; the verdict reaches the orchestrator on wait_agent; ${judgementVerdictHow(pipeline)}`, ...(pipeline.checks.some((c) => !c.command) ? { loss: "L_CHECKS_INSTRUCTED" as const } : {}) }] : []),
    ...(pipeline.loop ? [{ role: null, constraint: "loop-cap" as const, level: "guard" as const, how: `${how}: round ${pipeline.loop.maxRounds + 1} refused with on_exhausted` }] : []),
    { role: null, constraint: "hop-cap", level: "guard", how: `${how}: delegation ${pipeline.policies.maxHops + 1} refused` },
  ];
  const gaps = [
    ...CONTROLLER_GAPS.map((g) => `controller: ${g}`),
    `controller: the Codex hook env names no session, so the hook line of a tool call exits in the shell when the project has no ${HARNESS_STATE_DIR}/controller/ folder: code that deletes the folder unbinds the session's hooks until the stage-end audit puts it back and stops the run`,
    "controller: nothing in a Codex hook tells the TUI from exec, or a typed prompt from another source, beyond the agent id: a prompt with no agent id counts as the human's",
  ];
  return {
    ...lowered,
    files,
    fidelity: [...lowered.fidelity.filter((r) => !(r.role === null && replaced.has(r.constraint))), ...records],
    gaps: [...(lowered.gaps ?? []), ...gaps],
  };
}
