// The Cursor shim around the shared guard runtime (src/adapter/guard/): reads one Cursor hook input,
// turns it into a host-neutral call, and writes the decision the way Cursor's hooks documentation
// (https://cursor.com/docs/hooks, as published 2026-08-24, read 2026-11-30) describes it. JavaScript
// source text, pasted after the runtime (rules in src/adapter/guard/render.ts). Not proven on the
// real host: Cursor has no CLI the tests can install.
//
// argv[2]: the hook event the entry in .cursor/hooks.json was wired for; the input's
// hook_event_name must say the same.
//   preToolUse           tool_name, tool_input, cwd. Writes (Write, StrReplace, Edit, MultiEdit,
//                        Delete, EditNotebook) are checked by their one path (an input naming any
//                        other path, a patch or a folder to delete is refused); Shell is refused here
//                        when the guard refuses it, and otherwise decided by beforeShellExecution
//                        (which can ask: preToolUse "ask" is "not enforced today", the docs say);
//                        Task is decided by subagentStart (wired); read-only tools pass; MCP:<tool>
//                        and any other tool are refused: the guard cannot model them and preToolUse
//                        cannot ask (beforeMCPExecution, which can, does not run in cloud agents).
//   beforeShellExecution command, cwd: the shell rules, allow / ask / deny.
//   beforeMCPExecution   tool_name: a tool the guard cannot model, so the human decides (ask); reached
//                        only where preToolUse did not run.
//   subagentStart        subagent_type: the agent to start (only pipeline roles, unless nested agents).
// Output (stdout, one JSON line): {"permission":"allow"}; {"permission":"ask","user_message",
// "agent_message"}; {} (no opinion: Cursor's own flow); deny = {"permission":"deny",...} on stdout,
// the reason on stderr and exit 2 (each one blocks by itself). subagentStart takes permission and
// user_message only; its "ask" counts as deny, so the guard never sends one.
//
// Who calls: Cursor's hook input names no role (no agent or subagent field on tool hooks), so every
// call is one "agent in this repository": the guard's orchestrator path with every role counted as a
// main-session role, i.e. writes within the union of all roles' write scopes, the pipeline's
// never-write and shell_deny for all, read-only git plus the orchestrator's exceptions, and only
// pipeline roles started as subagents. No off switch: Cursor passes sessionStart hook output as
// environment to later hooks, so any variable could come from a hook an agent wrote.
export const CURSOR_GUARD_CALL = String.raw`
const CU_EVENTS = new Set(["preToolUse", "beforeShellExecution", "beforeMCPExecution", "subagentStart"]);
const CU_WRITE = new Set(["Write", "StrReplace", "Edit", "MultiEdit", "Delete", "EditNotebook"]);
const CU_READ = new Set(["Read", "Grep", "Glob", "LS", "SemanticSearch", "WebFetch", "WebSearch", "TodoWrite", "ReadLints"]);
const CU_PATH_KEYS = ["file_path", "path", "target_file"];
// Keys of a write tool's input that hold text, not paths; any other key that looks like a path, a
// patch, a move or a rename (at any depth) means the call touches more than the one path checked.
const CU_BODY_KEYS = new Set(["contents", "content", "file_text", "text", "old_string", "new_string", "oldText", "newText", "replace_all", "replaceAll", "edits", "instructions", "explanation", "code_edit"]);
const CU_PATHLIKE = /path|file|dir|dest|target|patch|rename|move|copy|src|from|to$/i;
// The first key below v that names something beyond the checked path, or null.
function cuExtraPath(v, depth, top) {
  if (depth > 8) return "(nested too deep)";
  if (Array.isArray(v)) { for (const x of v) { const k = cuExtraPath(x, depth + 1, false); if (k) return k; } return null; }
  if (v === null || typeof v !== "object") return null;
  for (const k of Object.keys(v)) {
    const val = v[k];
    const named = typeof val === "string" || (val !== null && typeof val === "object"); // a flag names no path
    if (named && !(top && CU_PATH_KEYS.includes(k)) && !CU_BODY_KEYS.has(k) && CU_PATHLIKE.test(k)) return k;
    const inner = cuExtraPath(val, depth + 1, false);
    if (inner) return inner;
  }
  return null;
}
const CU_WHO = "the orchestrator (main thread)";
const CU_AGENT = "a Cursor agent in this repository (Cursor's hook input does not say which role)";
function cuAbs(p) { return typeof p === "string" && p !== "" && path.isAbsolute(p); }
// { call } for guardDecide, { defer } (no opinion: another wired hook decides), or a string (malformed).
function cuCall(raw, event, env, scriptProject) {
  if (!CU_EVENTS.has(event)) return "unknown hook event " + JSON.stringify(String(event));
  let input;
  try { input = JSON.parse(raw); } catch (e) { return "hook input is not JSON"; }
  if (input === null || typeof input !== "object" || Array.isArray(input)) return "hook input is not a JSON object";
  if (input.hook_event_name !== event) return "hook input is for " + JSON.stringify(String(input.hook_event_name)) + ", not " + event;
  if (input.cwd !== undefined && input.cwd !== null && typeof input.cwd !== "string") return "cwd is not a string";
  const project = scriptProject || (cuAbs(env.CURSOR_PROJECT_DIR) ? env.CURSOR_PROJECT_DIR : null);
  const cwd = cuAbs(input.cwd) ? input.cwd : null;
  const call = { as: null, agentType: null, agentId: null, kind: "other", tool: "", cwd, project };
  if (event === "subagentStart") {
    if (typeof input.subagent_type !== "string" || input.subagent_type === "") return "hook input has no subagent_type";
    call.kind = "spawn"; call.tool = "Task"; call.target = input.subagent_type;
    return { call };
  }
  if (event === "beforeMCPExecution") {
    if (typeof input.tool_name !== "string" || input.tool_name === "") return "hook input has no tool_name";
    call.tool = "MCP tool " + input.tool_name;
    return { call };
  }
  if (event === "beforeShellExecution") {
    if (typeof input.command !== "string") return "hook input has no command";
    if (!cwd) return "hook input has no absolute cwd, so the command's paths cannot be located";
    call.kind = "shell"; call.tool = "Shell"; call.command = input.command;
    return { call };
  }
  // preToolUse
  const tool = input.tool_name;
  const ti = input.tool_input;
  if (typeof tool !== "string" || tool === "" || ti === null || typeof ti !== "object" || Array.isArray(ti)) return "hook input has no tool_name or tool_input";
  call.tool = tool;
  if (tool === "Task") return { defer: true };
  if (CU_READ.has(tool)) return { defer: true };
  if (tool.startsWith("MCP:")) call.tool = "MCP tool " + tool.slice(4);
  if (tool === "Shell") {
    if (typeof ti.command !== "string") return "Shell tool_input has no command";
    if (ti.working_directory !== undefined && ti.working_directory !== null && !cuAbs(ti.working_directory)) return "Shell working_directory is not an absolute path";
    call.cwd = ti.working_directory || cwd;
    if (!call.cwd) return "hook input has no absolute cwd, so the command's paths cannot be located";
    call.kind = "shell"; call.command = ti.command;
    return { call, shellPre: true };
  }
  if (CU_WRITE.has(tool)) {
    let p;
    for (const k of CU_PATH_KEYS) {
      if (ti[k] === undefined || ti[k] === null) continue;
      if (typeof ti[k] !== "string" || ti[k] === "") return tool + " " + k + " is not a file path";
      if (p !== undefined && p !== ti[k]) return tool + " names two different paths";
      p = ti[k];
    }
    if (p === undefined) return tool + " names no file path (" + CU_PATH_KEYS.join(", ") + ")";
    const extra = cuExtraPath(ti, 0, true);
    if (extra) return tool + " input has " + JSON.stringify(extra) + " besides the path the guard checks";
    if (!path.isAbsolute(p) && !cwd) return tool + " names a relative path and the hook input has no absolute cwd";
    if (tool === "Delete") {
      let st = null;
      try { st = fs.lstatSync(path.resolve(cwd || "/", p)); } catch (e) { st = null; }
      if (st && st.isDirectory()) return "Delete of a folder, which the guard cannot check file by file";
    }
    call.kind = "write"; call.path = p;
    return { call };
  }
  return { call };
}
function cuMessage(reason) { return String(reason || "").split(CU_WHO).join(CU_AGENT); }
`;

/** The script's main code: stdin, the event's output, exit codes. */
export const CURSOR_GUARD_MAIN = String.raw`
let cuDone = false;
let cuEvent = process.argv[2];
function cuFinish(d) {
  if (cuDone) return;
  cuDone = true;
  let code = 2;
  try {
    const why = cuMessage(d.reason);
    let out = {};
    if (d.kind === "deny") {
      const text = why || "harness guard: refused (no reason given; fail closed).";
      out = cuEvent === "subagentStart" ? { permission: "deny", user_message: text } : { permission: "deny", user_message: text, agent_message: text };
      fs.writeSync(1, JSON.stringify(out) + "\n");
      fs.writeSync(2, text + "\n");
      code = 2;
    } else {
      if (d.kind === "allow") out = { permission: "allow" };
      else if (d.kind === "ask") out = { permission: "ask", user_message: why, agent_message: why };
      fs.writeSync(1, JSON.stringify(out) + "\n");
      code = 0;
    }
  } catch (e) { code = 2; }
  process.exit(code);
}
function cuFail(why) { cuFinish({ kind: "deny", reason: "harness guard: " + why + "; refusing (fail closed)." }); }
process.on("uncaughtException", (e) => cuFail("internal error (" + guardLine(String((e && e.message) || e), 200) + ")"));

function cuMain() {
  let scriptProject = null;
  try {
    const self = __filename;
    const tail = "/.cursor/hooks/" + path.basename(self);
    if (self.endsWith(tail)) scriptProject = self.slice(0, -tail.length) || "/";
  } catch (e) { scriptProject = null; }
  let raw;
  try { raw = guardReadStdin(); } catch (e) { return cuFail("cannot read the hook input (" + ((e && e.code) || e) + ")"); }
  const r = cuCall(raw, cuEvent, process.env, scriptProject);
  if (typeof r === "string") return cuFail(r);
  if (r.defer) return cuFinish({ kind: "none" });
  let d;
  try { d = guardDecide(POLICY, r.call); } catch (e) { return cuFail("internal error (" + guardLine(String((e && e.message) || e), 200) + ")"); }
  // preToolUse cannot ask (the docs: "not enforced today"): a Shell call the human must decide goes
  // on to beforeShellExecution, which asks; any other tool is refused.
  if (d.kind === "ask" && cuEvent === "preToolUse") d = r.shellPre ? { kind: "none" } : { kind: "deny", reason: d.reason + " Cursor cannot ask before this tool, so it is refused (fail closed)." };
  if (d.kind === "ask" && cuEvent === "subagentStart") d = { kind: "deny", reason: d.reason };
  // "none" from the runtime is no opinion; for a write or a spawn it never happens
  cuFinish(d);
}
cuMain();
`;
