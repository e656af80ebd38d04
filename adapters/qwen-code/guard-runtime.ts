// The Qwen Code shim around the shared guard runtime (src/adapter/guard/): reads Qwen Code's
// PreToolUse hook input, turns it into a host-neutral call, and answers the way Qwen Code 0.24.4
// reads it. JavaScript source text, pasted after the runtime (rules in src/adapter/guard/render.ts).
//
// Hook input (measured, 0.24.4): {session_id, transcript_path, cwd, hook_event_name: "PreToolUse",
// timestamp, permission_mode, agent_id? ("<agent name>-<call id>", only inside a subagent), prompt_id,
// tool_name, tool_input, tool_use_id, tool_call_id}. There is no agent_type on a tool call, so a role
// is named by the argument of the hook in its own agent file, never parsed out of agent_id.
//
//   deny  -> exit 2, one line on stderr (the model reads it as the tool result)
//   allow -> exit 0, {"hookSpecificOutput":{"permissionDecision":"allow"}}
//   ask   -> refused like deny: under --approval-mode yolo nobody would be asked, so an "ask" the
//            host might turn into a yes is never handed to it
//   none  -> exit 0, no output (Qwen Code's own approval flow)
// argv[2]: a role id (.qwen/agents/<role>.md front matter) or "@orchestrator" (.qwen/settings.json;
// argv[3] "repository" under policies.scope repository).
// The orchestrator's hook binds the main thread only in a session its launcher started
// (HARNESS_PIPELINE_RUN in the environment Qwen Code started with); an ordinary session is unbound.
import { preToolFinishRuntime } from "../../src/adapter/guard/runtime-pretool.js";

export const QWEN_GUARD_CALL = String.raw`
const QW_WRITE = { write_file: ["file_path"], edit: ["file_path"], notebook_edit: ["notebook_path", "file_path"] };
const QW_READ = new Set(["read_file", "grep_search", "glob", "list_directory", "web_fetch", "web_search", "todo_write", "ask_user_question", "list_agents", "tool_search", "get_goal", "task_list", "cron_list", "lsp"]);
function qwCall(raw, env, as, scriptProject) {
  let input;
  try { input = JSON.parse(raw); } catch (e) { return "hook input is not JSON"; }
  if (input === null || typeof input !== "object" || Array.isArray(input)) return "hook input is not a JSON object";
  if (input.hook_event_name !== "PreToolUse") return "expected a PreToolUse hook input";
  const tool = input.tool_name;
  const ti = input.tool_input;
  if (typeof tool !== "string" || tool === "" || ti === null || typeof ti !== "object" || Array.isArray(ti)) return "hook input has no tool_name or tool_input";
  for (const k of ["agent_id", "cwd"]) if (input[k] !== undefined && input[k] !== null && typeof input[k] !== "string") return k + " is not a string";
  // a role's hook lives in its own agent file: it is that role whatever agent_id says
  const role = as !== null && as !== "@orchestrator";
  const call = { as, agentType: role ? as : null, agentId: input.agent_id || null, tool, kind: "other", cwd: input.cwd || null, project: scriptProject || env.QWEN_PROJECT_DIR || input.cwd || null };
  if (Object.prototype.hasOwnProperty.call(QW_WRITE, tool)) {
    call.kind = "write";
    for (const k of QW_WRITE[tool]) if (typeof ti[k] === "string") { call.path = ti[k]; break; }
  } else if (tool === "run_shell_command") {
    if (typeof ti.command !== "string") return "run_shell_command without a command string";
    if (ti.directory !== undefined && ti.directory !== null && ti.directory !== "") {
      if (typeof ti.directory !== "string") return "run_shell_command directory is not a string";
      call.cwd = path.resolve(call.cwd || call.project || "/", ti.directory);
    }
    call.kind = "shell"; call.command = ti.command;
  } else if (tool === "agent") { call.kind = "spawn"; call.target = ti.subagent_type; }
  else if (QW_READ.has(tool)) call.kind = "read";
  else if (tool === "skill") call.kind = "skill";
  return call;
}
`;

/** The script's main code: kill switch, launcher binding, stdin, exit codes. */
export const QWEN_GUARD_MAIN = preToolFinishRuntime("qw", "Qwen Code") + String.raw`
// Qwen Code loads .env files (the project's, .qwen/.env, the user's) and its settings' env into its
// environment, and code a role's test run executes could write any of them. The off switch counts
// only when no .env file names it (a dotenv key is literal text) and guardOffHonoured (runtime-off)
// finds it in no settings file, read as JSON, and in the environment the host was started with.
function qwOffHonoured(project) {
  const homes = [guardHome(), process.env.HOME].filter((h) => typeof h === "string" && h !== "");
  const dotenv = [];
  const settings = ["/etc/qwen-code/settings.json"];
  for (const dir of project ? [project, ...homes] : homes) {
    dotenv.push(path.join(dir, ".env"), path.join(dir, ".qwen", ".env"));
    settings.push(path.join(dir, ".qwen", "settings.json"));
  }
  // Qwen Code looks for .qwen/.env and .env in every folder from its working folder up, and in QWEN_HOME
  let up = project ? path.dirname(project) : null;
  for (let i = 0; up && i < 64; i++) {
    dotenv.push(path.join(up, ".env"), path.join(up, ".qwen", ".env"));
    const parent = path.dirname(up);
    if (parent === up) break;
    up = parent;
  }
  const qwenHome = process.env.QWEN_HOME;
  if (qwenHome) { dotenv.push(path.join(qwenHome, ".env")); settings.push(path.join(qwenHome, "settings.json")); }
  // the host's own start first (no file read for a switch it did not start with); then regular files only
  if (!guardStartedWith(POLICY.off)) return false;
  for (const f of dotenv) {
    const text = guardRegularText(f);
    if (text === undefined) continue;
    if (text === null || text.includes(POLICY.off)) return false;
  }
  return guardOffHonoured(POLICY.off, settings);
}

function qwMain() {
  let scriptProject = null;
  try {
    const tail = "/.qwen/hooks/" + path.basename(__filename);
    if (__filename.endsWith(tail)) scriptProject = __filename.slice(0, -tail.length) || "/";
  } catch (e) { scriptProject = null; }
  if (process.env[POLICY.off] !== undefined && qwOffHonoured(scriptProject)) return qwFinish({ kind: "none" });
  let as = process.argv[2] === undefined ? null : process.argv[2];
  // the orchestrator's hook (settings.json) binds only a session its launcher started: a variable an
  // env file could add but never remove, so its presence is what counts, whatever its value
  // (policies.scope repository: argv[3] "repository", every main thread is the orchestrator)
  if (as === "@orchestrator" && process.argv[3] !== "repository" && process.env.HARNESS_PIPELINE_RUN === undefined) return qwFinish({ kind: "none" });
  let raw;
  try { raw = guardReadStdin(); } catch (e) { return qwFail("cannot read the hook input (" + ((e && e.code) || e) + ")"); }
  const call = qwCall(raw, process.env, as, scriptProject);
  if (typeof call === "string") return qwFail(call);
  let d;
  try { d = guardDecide(POLICY, call); } catch (e) { return qwFail("internal error (" + guardLine(String((e && e.message) || e), 200) + ")"); }
  qwFinish(d);
}
qwMain();
`;
