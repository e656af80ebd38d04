// The Factory Droid shim around the shared guard runtime (src/adapter/guard/): reads Droid's
// PreToolUse hook input, finds which pipeline session is calling, and answers the way Droid 0.225.2
// reads it. JavaScript source text, pasted after the runtime (rules in src/adapter/guard/render.ts).
//
// Hook input (measured, 0.225.2): {session_id, transcript_path, cwd, permission_mode,
// hook_event_name: "PreToolUse", tool_name, tool_input}, the same in the main session and in a
// Task subagent: nothing names a droid. A Task subagent runs in its own droid process (`droid exec
// --input-format stream-jsonrpc`), a child of its parent's droid process with the parent's environment.
// So the role is bound by the process that runs the session, never by the hook input: a launcher
// .factory/bin/<name>.sh sets HARNESS_ROLE (a role id or @orchestrator) and HARNESS_LAUNCH (its own
// pid) and starts droid as its child. The guard reads both from the droid process's starting
// environment (/proc/<pid>/environ: a command the model runs cannot change it) and binds the session
// only when that process's parent is the launcher. A Task subagent inherits the variables but not
// the parent: it is refused outright (pipeline roles start through their launchers, never Task).
// No HARNESS_ROLE: an ordinary session, unbound (none).
//
//   deny  -> exit 2, one line on stderr (the model reads "Error: <line>")
//   allow -> exit 0, {"hookSpecificOutput":{"permissionDecision":"allow"}}
//   ask   -> refused like deny: under --auto high nobody would be asked
//   none  -> exit 0, no output (Droid's own permission flow)
// argv[2]: "repository" under policies.scope repository (every unbound main session is the orchestrator).
import { preToolFinishRuntime } from "../../src/adapter/guard/runtime-pretool.js";

export const DROID_GUARD_CALL = String.raw`
const DR_WRITE = { Create: ["file_path"], Edit: ["file_path"], MultiEdit: ["file_path"], ApplyPatch: [] };
const DR_READ = new Set(["Read", "LS", "Grep", "Glob", "WebSearch", "FetchUrl", "ToolSearch", "TaskOutput", "TodoWrite"]);
// .factory/bin/<role>.sh (or ./.factory/bin/<role>.sh), alone, no redirection: the orchestrator starting a role
function drLaunch(command) {
  let cmds;
  try { cmds = guardParse(command); } catch (e) { if (e && e.guardShell) return null; throw e; }
  if (cmds.length !== 1 || cmds[0].redirs.length) return null;
  const m = /^(?:\.\/)?\.factory\/bin\/([a-z0-9_-]+)\.sh$/.exec(cmds[0].argv[0]);
  return m ? m[1] : null;
}
function drAtRoot(cwd, project) {
  if (typeof project !== "string" || !path.isAbsolute(project)) return false;
  if (cwd === null || cwd === project) return true;
  try { return path.isAbsolute(cwd) && fs.realpathSync.native(cwd) === fs.realpathSync.native(project); } catch (e) { return false; }
}
function drCall(raw, as, project) {
  let input;
  try { input = JSON.parse(raw); } catch (e) { return "hook input is not JSON"; }
  if (input === null || typeof input !== "object" || Array.isArray(input)) return "hook input is not a JSON object";
  if (input.hook_event_name !== "PreToolUse") return "expected a PreToolUse hook input";
  const tool = input.tool_name;
  const ti = input.tool_input;
  if (typeof tool !== "string" || tool === "" || ti === null || typeof ti !== "object" || Array.isArray(ti)) return "hook input has no tool_name or tool_input";
  if (input.cwd !== undefined && input.cwd !== null && typeof input.cwd !== "string") return "cwd is not a string";
  const role = as !== null && as !== "@orchestrator";
  const call = { as, agentType: role ? as : null, agentId: null, tool, kind: "other", cwd: input.cwd || null, project: project || input.cwd || null };
  if (Object.prototype.hasOwnProperty.call(DR_WRITE, tool)) {
    call.kind = "write";
    for (const k of DR_WRITE[tool]) if (typeof ti[k] === "string") { call.path = ti[k]; break; }
  } else if (tool === "Execute") {
    if (typeof ti.command !== "string") return "Execute without a command string";
    // the launcher path is relative: it names the launcher only from the project's root (from src/ it
    // is src/.factory/bin/…, a file a role's code could have written)
    const target = drAtRoot(call.cwd, call.project) ? drLaunch(ti.command) : null;
    if (target !== null) { call.kind = "spawn"; call.target = target; call.launch = true; }
    else { call.kind = "shell"; call.command = ti.command; }
  } else if (tool === "Task") { call.kind = "spawn"; call.target = ti.subagent_type; }
  else if (DR_READ.has(tool)) call.kind = "read";
  else if (tool === "Skill") call.kind = "skill";
  return call;
}
`;

/** The script's main code: kill switch, the session's binding, stdin, exit codes. */
export const DROID_GUARD_MAIN = preToolFinishRuntime("dr", "Droid") + String.raw`
// The droid process that runs this hook (the first ancestor that is not a shell): its pid, its
// parent's pid and its starting environment. null where /proc cannot be read.
function drHost() {
  let pid = process.ppid;
  for (let hops = 0; pid > 1 && hops < 16; hops++) {
    let stat;
    try { stat = fs.readFileSync("/proc/" + pid + "/stat", "latin1"); } catch (e) { return null; }
    const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    if (GUARD_SHELLS.has(comm)) { pid = ppid; continue; }
    let env;
    try { env = fs.readFileSync("/proc/" + pid + "/environ", "latin1").split("\u0000"); } catch (e) { return null; }
    const get = (k) => { const e = env.find((x) => x.startsWith(k + "=")); return e === undefined ? undefined : e.slice(k.length + 1); };
    return { pid, ppid, role: get("HARNESS_ROLE"), launch: get("HARNESS_LAUNCH") };
  }
  return null;
}

function drMain() {
  let project = null;
  try {
    const tail = "/.factory/hooks/" + path.basename(__filename);
    if (__filename.endsWith(tail)) project = __filename.slice(0, -tail.length) || "/";
  } catch (e) { project = null; }
  const home = guardHome();
  const settings = [];
  for (const dir of [project, home, process.env.HOME].filter((d) => typeof d === "string" && d !== ""))
    settings.push(path.join(dir, ".factory", "settings.json"), path.join(dir, ".factory", "settings.local.json"));
  if (process.env[POLICY.off] !== undefined && guardOffHonoured(POLICY.off, settings)) return drFinish({ kind: "none" });
  const repository = process.argv[2] === "repository";
  let as = null;
  const host = drHost();
  if (host === null) {
    // no starting environment to read: a session that says it is a pipeline's cannot be verified
    if (process.env.HARNESS_ROLE !== undefined) return drFail("cannot read the droid process's starting environment to verify HARNESS_ROLE");
  } else if (host.role !== undefined) {
    if (host.launch === undefined || String(host.ppid) !== host.launch)
      return drFinish({ kind: "deny", reason: "harness guard: this is a Task subagent of a " + POLICY.pipeline + " session, which no launcher started; pipeline roles start through .factory/bin/<role>.sh only. Report \"blocked\" instead." });
    if (host.role !== "@orchestrator" && !Object.prototype.hasOwnProperty.call(POLICY.roles, host.role)) return drFail("HARNESS_ROLE " + JSON.stringify(guardLine(host.role, 60)) + " is not a role of pipeline " + POLICY.pipeline);
    as = host.role;
  }
  if (as === null && !repository) return drFinish({ kind: "none" });
  if (as === null) as = "@orchestrator";
  let raw;
  try { raw = guardReadStdin(); } catch (e) { return drFail("cannot read the hook input (" + ((e && e.code) || e) + ")"); }
  const call = drCall(raw, as, project);
  if (typeof call === "string") return drFail(call);
  if (call.kind === "spawn" && !call.launch)
    return drFinish({ kind: "deny", reason: "harness guard: " + (as === "@orchestrator" ? "the orchestrator" : as) + " may not start droids with Task in a " + POLICY.pipeline + " run: a role starts through .factory/bin/<role>.sh (its own session, bound to its limits). Report \"blocked\" instead." });
  let d;
  try { d = guardDecide(POLICY, call); } catch (e) { return drFail("internal error (" + guardLine(String((e && e.message) || e), 200) + ")"); }
  drFinish(d);
}
drMain();
`;
