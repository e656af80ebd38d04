// The Codex shim around the shared guard runtime (src/adapter/guard/): reads Codex's PreToolUse hook
// input, turns it into a host-neutral call, and answers the way Codex CLI 0.171.0 reads it.
// JavaScript source text, pasted after the runtime (rules in src/adapter/guard/render.ts).
//
// Hook input, measured on 0.171.0 with a scripted model (test/hosts/enforce-out.test.ts, "codex: guard …"; raw inputs dumped by a probe hook):
//   {"session_id","turn_id","transcript_path","cwd","hook_event_name":"PreToolUse","model",
//    "permission_mode","tool_name","tool_input","tool_use_id"}                   the session's own calls
//   {…, "agent_id":"<thread id>","agent_type":"<role name>"}                    a call inside a spawned agent
// agent_type is the name of the agent role the spawned thread runs (.codex/agents/<role>.toml), put in
// by Codex, not by either model: the spawning model only picks which role to start. The orchestrator's
// own calls, and an ordinary session's, carry neither field.
// Tool names seen: "Bash" (exec_command, tool_input {"command"}; `cwd` is the command's workdir, while
// the hook process itself runs in the session's folder), also for `apply_patch <<'PATCH' … PATCH`
// run through exec_command and for exec_command nested in code-mode `exec` (the outer `exec` fires
// no hook); "spawn_agent" (tool_input {"agent_type","message","fork_turns"}); "multi_agent_v1wait_agent".
// write_stdin (polling or typing into a running command) fires no hook at all; were it hooked, it is refused.
// A top-level apply_patch tool (not offered by the offline model catalogue, so not measured) is read
// from tool_input.command only when that is the patch text itself; anything else is refused.
//
// Output (measured): exit 2 with stderr blocks the call, and the model reads "Command blocked by
// PreToolUse hook: <stderr>. Command: …" ("Tool call blocked … Tool: <name>" for other tools); stdout
// {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny",…}} blocks the same
// way. Exit 1 (a crash) and a hook timeout let the call through: the hook command turns every non-zero
// exit into 2 (guard.ts); a timeout stays a gap. This shim denies with exit 2 and answers nothing else.
export const CODEX_GUARD_CALL = String.raw`
// tools with no effect of their own on files or commands: reads, questions, goals, and the agent
// tools (a message to another agent cannot widen that agent's limits: its calls are guarded as its role)
const CX_READ = new Set(["view_image", "web_search", "request_user_input", "get_goal", "create_goal", "update_goal", "wait", "sleep", "exec", "wait_agent", "list_agents", "close_agent", "interrupt_agent", "send_input", "send_message", "followup_task", "resume_agent"]);
const CX_NS = "multi_agent_v1";

// exec_command's apply_patch form, exactly: apply_patch <<'DELIM' NL patch NL DELIM [NL], the delimiter
// quoted (no expansion in the body) and on no line of the body. null = not this form (a shell command).
function cxHeredocPatch(cmd) {
  const m = /^apply_patch <<'([A-Za-z_][A-Za-z0-9_]*)'\n([\s\S]*)\n([A-Za-z_][A-Za-z0-9_]*)\n?$/.exec(cmd);
  if (!m || m[1] !== m[3]) return null;
  if (m[2].split("\n").includes(m[1])) return null;
  return m[2];
}

// One hook input -> { call, paths? }, { none: true } (not a pipeline role: no opinion), or an error string.
function cxCall(raw, scriptProject) {
  let input;
  try { input = JSON.parse(raw); } catch (e) { return "hook input is not JSON"; }
  if (input === null || typeof input !== "object" || Array.isArray(input)) return "hook input is not a JSON object";
  if (input.hook_event_name !== "PreToolUse") return "expected a PreToolUse hook input";
  for (const k of ["agent_type", "agent_id", "cwd"]) if (input[k] !== undefined && input[k] !== null && typeof input[k] !== "string") return k + " is not a string";
  const type = input.agent_type || null;
  // a spawned agent's call names its type (measured); one that does not could be any role's
  if (input.agent_id && type === null) return "a spawned agent's call (agent_id) names no agent_type";
  // the orchestrator's session, an ordinary session, or an agent of no pipeline role: not bound (scope pipeline)
  if (type === null || !Object.prototype.hasOwnProperty.call(POLICY.roles, type)) return { none: true };
  const tool = input.tool_name;
  const ti = input.tool_input;
  if (typeof tool !== "string" || tool === "") return "hook input has no tool_name";
  if (ti === null || typeof ti !== "object" || Array.isArray(ti)) return "tool_input of " + guardLine(tool, 60) + " is not an object";
  const call = { as: null, agentType: type, agentId: input.agent_id || null, tool, kind: "other", cwd: input.cwd || null, project: scriptProject };
  const bare = tool.startsWith(CX_NS) ? tool.slice(CX_NS.length) : tool;
  if (tool === "Bash") {
    if (typeof ti.command !== "string") return "Bash without a command string";
    const patch = cxHeredocPatch(ti.command);
    if (patch === null) { call.kind = "shell"; call.command = ti.command; return { call }; }
    const r = guardPatchPaths(patch);
    if (r.error) return r.error;
    call.kind = "write";
    return { call, paths: r.paths };
  }
  if (tool === "apply_patch") {
    const r = guardPatchPaths(ti.command);
    if (r.error) return r.error;
    call.kind = "write";
    return { call, paths: r.paths };
  }
  if (bare === "spawn_agent") { call.kind = "spawn"; call.target = ti.agent_type; }
  else if (CX_READ.has(bare)) call.kind = "read";
  return { call };
}

`;

/** The script's main code: stdin, exit codes. No off switch: the guard is off only when its hook is not trusted. */
export const CODEX_GUARD_MAIN = String.raw`
let cxDone = false;
// allow and none: exit 0, no output (Codex's own sandbox and rules still apply); ask and deny: exit 2
// with the reason on stderr (nobody can answer a question inside a spawned agent)
function cxFinish(d) {
  if (cxDone) return;
  cxDone = true;
  let code = 0;
  try {
    if (d.kind === "ask" || d.kind === "deny") {
      code = 2;
      fs.writeSync(2, (d.reason || "harness guard: refused (no reason given; fail closed).") + "\n");
    }
  } catch (e) { code = 2; }
  process.exit(code);
}
function cxFail(why) { cxFinish({ kind: "deny", reason: "harness guard: " + why + "; refusing (fail closed)." }); }
process.on("uncaughtException", (e) => cxFail("internal error (" + guardLine(String((e && e.message) || e), 200) + ")"));

function cxMain() {
  let scriptProject = null;
  try {
    const tail = "/.codex/hooks/" + path.basename(__filename);
    if (__filename.endsWith(tail)) scriptProject = __filename.slice(0, -tail.length) || "/";
  } catch (e) { scriptProject = null; }
  let raw;
  try { raw = guardReadStdin(); } catch (e) { return cxFail("cannot read the hook input (" + ((e && e.code) || e) + ")"); }
  const parsed = cxCall(raw, scriptProject);
  if (typeof parsed === "string") return cxFail(parsed);
  if (parsed.none) return cxFinish({ kind: "none" });
  let d;
  try { d = guardDecidePaths(POLICY, parsed); } catch (e) { return cxFail("internal error (" + guardLine(String((e && e.message) || e), 200) + ")"); }
  if (d.kind === "ask") d = { kind: "deny", reason: d.reason };
  cxFinish(d);
}
cxMain();
`;
