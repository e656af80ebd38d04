// The Claude Code shim around the shared guard runtime (src/adapter/guard/): reads the PreToolUse
// hook input, turns it into a host-neutral call, and writes the decision the way Claude Code 2.1.332
// reads it. JavaScript source text, pasted after the runtime (rules in src/adapter/guard/render.ts).
//
//   deny  -> exit 2, one line on stderr (the model sees it)
//   allow -> exit 0, {"hookSpecificOutput":{"permissionDecision":"allow"}} (runs without a prompt;
//            settings.json deny and ask rules still apply: real-host test, 2.1.332)
//   ask   -> exit 0, permissionDecision "ask" (the human decides; headless -p refuses)
//   none  -> exit 0, no output (Claude Code's own permission flow)
// PermissionRequest (Claude Code is about to ask the human): the same decision, answered "allow" only
// for a file write the guard allows into one of Claude Code's protected folders (CC_ASKS), which it
// asks about whatever PreToolUse said; anything else gets no answer, so Claude Code asks as before
// (headless -p: refused). A team's own ask rule on such a path is answered too (MAPPING.md).
// argv[2]: who the hook was installed for (a role id in .claude/agents/<role>.md or
// .claude/commands/<role>.md front matter, "@orchestrator" in the pipeline command's), or nothing
// (the settings.json hook of policies.scope: repository).
import { CLAUDE_PROTECTED_FOLDERS, CLAUDE_UNASKED_SUBFOLDERS } from "./protected-folders.js";

export const CLAUDE_GUARD_CALL = String.raw`
const CC_WRITE = { Write: ["file_path"], Edit: ["file_path"], MultiEdit: ["file_path"], NotebookEdit: ["notebook_path", "file_path"] };
const CC_READ = new Set(["Read", "Grep", "Glob", "WebFetch", "WebSearch", "TodoWrite", "TaskCreate", "TaskGet", "TaskList", "TaskUpdate", "TaskOutput", "AskUserQuestion", "ToolSearch", "ListAgents", "EnterPlanMode", "ExitPlanMode", "CronList", "ReportFindings", "LSP"]);
function ccCall(raw, env, as, scriptProject) {
  let input;
  try { input = JSON.parse(raw); } catch (e) { return "hook input is not JSON"; }
  if (input === null || typeof input !== "object" || Array.isArray(input)) return "hook input is not a JSON object";
  if (input.hook_event_name !== "PreToolUse" && input.hook_event_name !== "PermissionRequest") return "expected a PreToolUse or PermissionRequest hook input";
  const tool = input.tool_name;
  const ti = input.tool_input;
  if (typeof tool !== "string" || tool === "" || ti === null || typeof ti !== "object" || Array.isArray(ti)) return "hook input has no tool_name or tool_input";
  for (const k of ["agent_type", "agent_id", "cwd"]) if (input[k] !== undefined && input[k] !== null && typeof input[k] !== "string") return k + " is not a string";
  // a subagent's call names its type (measured); one that does not could be any role's
  if (input.agent_id && !input.agent_type) return "a subagent's call (agent_id) names no agent_type";
  const call = { event: input.hook_event_name, as, agentType: input.agent_type || null, agentId: input.agent_id || null, tool, kind: "other", cwd: input.cwd || null, project: env.CLAUDE_PROJECT_DIR || scriptProject || input.cwd || null };
  if (Object.prototype.hasOwnProperty.call(CC_WRITE, tool)) {
    call.kind = "write";
    for (const k of CC_WRITE[tool]) if (typeof ti[k] === "string") { call.path = ti[k]; break; }
  } else if (tool === "Bash") {
    // an array or any other non-string would be read by its String() form, not the words it holds
    if (typeof ti.command !== "string") return "Bash without a command string";
    call.kind = "shell"; call.command = ti.command;
  }
  else if (tool === "Agent" || tool === "Task") { call.kind = "spawn"; call.target = ti.subagent_type; }
  else if (CC_READ.has(tool)) call.kind = "read";
  else if (tool === "Skill") call.kind = "skill";
  return call;
}
`;

/** The script's main code: kill switch, stdin, exit codes. */
export const CLAUDE_GUARD_MAIN = String.raw`
// Claude Code 2.1.332's protected folders (adapters/claude-code/protected-folders.ts), by path segment
const CC_ASKS = new Set(${JSON.stringify(CLAUDE_PROTECTED_FOLDERS)});
const CC_OWN = new Set(${JSON.stringify(CLAUDE_UNASKED_SUBFOLDERS)});
function ccAsksAbout(call) {
  if (typeof call.project !== "string" || typeof call.path !== "string") return false;
  const base = typeof call.cwd === "string" && path.isAbsolute(call.cwd) ? call.cwd : call.project;
  const parts = path.relative(path.resolve(call.project), path.resolve(base, call.path)).split(path.sep);
  if (parts[0] === ".." || path.isAbsolute(parts.join(path.sep))) return false;
  return parts.slice(0, -1).some((p, i) => CC_ASKS.has(p) && !(p === ".claude" && CC_OWN.has(parts[i + 1])));
}
function ccAnswerPrompt(call, d) {
  if (d.kind === "allow" && call.kind === "write" && ccAsksAbout(call)) {
    fs.writeSync(1, JSON.stringify({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow" } } }) + "\n");
  }
  process.exit(0);
}
let ccDone = false;
function ccFinish(d) {
  if (ccDone) return;
  ccDone = true;
  let code = 2;
  try {
    if (d.kind === "allow" || d.kind === "ask") {
      const out = { hookEventName: "PreToolUse", permissionDecision: d.kind };
      if (d.reason) out.permissionDecisionReason = d.reason;
      fs.writeSync(1, JSON.stringify({ hookSpecificOutput: out }) + "\n");
      code = 0;
    } else if (d.kind === "none") {
      if (d.reason) fs.writeSync(2, d.reason + "\n");
      code = 0;
    } else fs.writeSync(2, (d.reason || "harness guard: refused (no reason given; fail closed).") + "\n");
  } catch (e) { code = 2; }
  process.exit(code);
}
function ccFail(why) { ccFinish({ kind: "deny", reason: "harness guard: " + why + "; refusing (fail closed)." }); }
process.on("uncaughtException", (e) => ccFail("internal error (" + guardLine(String((e && e.message) || e), 200) + ")"));

// Claude Code copies a settings file's "env" into the environment of hooks, and code an agent's test
// run executes could write one: the switch counts only as guardOffHonoured (runtime-off) says.
function ccSettingsFiles() {
  const files = [];
  const homes = [guardHome(), process.env.HOME].filter((h) => typeof h === "string" && h !== "");
  const dirs = homes.map((h) => path.join(h, ".claude"));
  if (process.env.CLAUDE_CONFIG_DIR) dirs.push(process.env.CLAUDE_CONFIG_DIR);
  for (const d of dirs) files.push(path.join(d, "settings.json"), path.join(d, "settings.local.json"));
  for (const h of homes) files.push(path.join(h, ".claude.json"));
  const project = process.env.CLAUDE_PROJECT_DIR;
  if (project) files.push(path.join(project, ".claude", "settings.json"), path.join(project, ".claude", "settings.local.json"));
  for (const d of ["/etc/claude-code", "/Library/Application Support/ClaudeCode"]) {
    files.push(path.join(d, "managed-settings.json"));
    try { for (const f of fs.readdirSync(path.join(d, "managed-settings.d"))) files.push(path.join(d, "managed-settings.d", f)); } catch (e) { /* none */ }
  }
  return files;
}

function ccMain() {
  if (process.env[POLICY.off] !== undefined && guardOffHonoured(POLICY.off, ccSettingsFiles())) return ccFinish({ kind: "none", reason: "harness guard: OFF (" + POLICY.off + " is set in the environment Claude Code started with); pipeline limits are not enforced" });
  const as = process.argv[2] === undefined ? null : process.argv[2];
  let scriptProject = null;
  try {
    const self = __filename;
    const tail = "/.claude/hooks/" + path.basename(self);
    if (self.endsWith(tail)) scriptProject = self.slice(0, -tail.length) || "/";
  } catch (e) { scriptProject = null; }
  // one synchronous read of the piped input: no stream machinery to load (the hook's own timeout
  // bounds a writer that never closes the pipe)
  let raw;
  try { raw = guardReadStdin(); } catch (e) { return ccFail("cannot read the hook input (" + ((e && e.code) || e) + ")"); }
  const call = ccCall(raw, process.env, as, scriptProject);
  if (typeof call === "string") return ccFail(call);
  let d;
  try { d = guardDecide(POLICY, call); } catch (e) { return ccFail("internal error (" + guardLine(String((e && e.message) || e), 200) + ")"); }
  if (call.event === "PermissionRequest") return ccAnswerPrompt(call, d);
  ccFinish(d);
}
ccMain();
`;
