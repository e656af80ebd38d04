// The Copilot CLI shim around the shared guard runtime (src/adapter/guard/): reads Copilot's
// camelCase preToolUse hook input, turns it into host-neutral calls, and answers the way Copilot CLI
// 1.0.102 reads it. JavaScript source text, pasted after the runtime (rules in src/adapter/guard/render.ts).
//
// Hook input, measured on 1.0.102 (scripted model; test/hosts/guard-out-copilot.test.ts):
//   {"sessionId","timestamp","cwd","toolName","toolArgs"}                         a top-level agent (--agent <role>)
//   {…, "agentId","agentType":"<front-matter name>","parentAgentId"}             a tool call inside a task subagent
// toolArgs is an object (GitHub's docs show a JSON string: accepted too), except for apply_patch, whose
// toolArgs is the patch text itself. The hook runs with cwd = the project and COPILOT_PROJECT_DIR set.
//
// Output (measured): stdout {"permissionDecision":"deny","permissionDecisionReason":…} blocks the call
// and the model reads "Denied by preToolUse hook: <reason>"; "ask" is refused headless ("unable to ask
// user for confirmation"); "allow" runs the call with no prompt and ALSO overrides the session's
// --deny-tool flags (so the guard allows only what its own rules allow); no output = Copilot's own
// permission flow (the launchers' flags). Exit 2, or any other non-zero exit, denies the call.
//
// argv[2]: who the hook was installed for: a role id (.github/agents/<role>.agent.md front matter) or
// "@orchestrator" (the orchestrator agent's). An agent's hook fires only for that agent's own calls.
export const COPILOT_GUARD_CALL = String.raw`
const CP_WRITE = { create: "path", edit: "path", str_replace_editor: "path" };
// reads, and the CLI's own bookkeeping; sql is not here: SQLite can ATTACH and write a file anywhere
const CP_READ = new Set(["view", "grep", "rg", "glob", "read_bash", "list_bash", "stop_bash", "update_todo", "report_intent", "ask_user", "web_fetch", "fetch_copilot_cli_documentation", "read_agent", "list_agents"]);

// One hook input -> { call, paths? } or an error string (the caller refuses).
function cpCall(raw, env, as, scriptProject) {
  let input;
  try { input = JSON.parse(raw); } catch (e) { return "hook input is not JSON"; }
  if (input === null || typeof input !== "object" || Array.isArray(input)) return "hook input is not a JSON object";
  if (input.hook_event_name !== undefined || input.tool_name !== undefined) return "expected Copilot's camelCase preToolUse input (toolName, toolArgs)";
  const tool = input.toolName;
  if (typeof tool !== "string" || tool === "") return "hook input has no toolName";
  for (const k of ["agentType", "agentId", "parentAgentId", "cwd"]) if (input[k] !== undefined && input[k] !== null && typeof input[k] !== "string") return k + " is not a string";
  // a subagent's call names its type (measured on 1.0.102; the SDK types say "when known"): one that does not could be any role's
  if (input.agentId && !input.agentType) return "a subagent's call (agentId) names no agentType";
  // an agent's hook fires for that agent only (measured); any other name means the input is not understood
  if (as !== null && as !== "@orchestrator" && input.agentType && input.agentType !== as) return "the hook of " + as + " received a call of agent " + JSON.stringify(guardLine(input.agentType, 60));
  let args = input.toolArgs;
  if (tool !== "apply_patch") {
    if (typeof args === "string") { try { args = JSON.parse(args); } catch (e) { return "toolArgs of " + guardLine(tool, 60) + " is a string that is not JSON"; } }
    if (args === undefined || args === null) args = {};
    if (typeof args !== "object" || Array.isArray(args)) return "toolArgs of " + guardLine(tool, 60) + " is not an object";
  }
  const call = { as, agentType: input.agentType || null, agentId: input.agentId || null, tool, kind: "other", cwd: input.cwd || null, project: env.COPILOT_PROJECT_DIR || scriptProject || input.cwd || null };
  if (tool === "apply_patch") {
    const r = guardPatchPaths(args);
    if (r.error) return r.error;
    call.kind = "write";
    return { call, paths: r.paths };
  }
  if (tool === "str_replace_editor" && args.command === "view") call.kind = "read";
  else if (Object.prototype.hasOwnProperty.call(CP_WRITE, tool)) { call.kind = "write"; call.path = args[CP_WRITE[tool]]; }
  else if (tool === "bash") {
    if (typeof args.command !== "string") return "bash without a command string";
    call.kind = "shell"; call.command = args.command;
  } else if (tool === "task") { call.kind = "spawn"; call.target = args.agent_type; }
  else if (CP_READ.has(tool)) call.kind = "read";
  else if (tool === "skill") call.kind = "skill";
  return { call };
}

`;

/** The script's main code: off switch, stdin, output. */
export const COPILOT_GUARD_MAIN = String.raw`
let cpDone = false;
function cpFinish(d) {
  if (cpDone) return;
  cpDone = true;
  let code = 0;
  try {
    if (d.kind === "allow" || d.kind === "ask" || d.kind === "deny") {
      const out = { permissionDecision: d.kind };
      if (d.kind !== "allow") out.permissionDecisionReason = d.reason || "harness guard: refused (no reason given; fail closed).";
      fs.writeSync(1, JSON.stringify(out) + "\n");
    } else if (d.reason) fs.writeSync(2, d.reason + "\n");
  } catch (e) { code = 2; }
  process.exit(code);
}
function cpFail(why) { cpFinish({ kind: "deny", reason: "harness guard: " + why + "; refusing (fail closed)." }); }
process.on("uncaughtException", (e) => cpFail("internal error (" + guardLine(String((e && e.message) || e), 200) + ")"));

// Copilot copies settings into the environment of hooks too: the switch counts only as
// guardOffHonoured (runtime-off) says, over the user's and the repository's settings files.
function cpSettingsFiles() {
  const files = [];
  const homes = [guardHome(), process.env.HOME].filter((h) => typeof h === "string" && h !== "").map((h) => path.join(h, ".copilot"));
  if (process.env.COPILOT_HOME) homes.push(process.env.COPILOT_HOME);
  for (const d of homes) for (const f of ["config.json", "settings.json", "settings.local.json"]) files.push(path.join(d, f));
  const project = process.env.COPILOT_PROJECT_DIR;
  if (project) files.push(path.join(project, ".github", "copilot", "settings.json"), path.join(project, ".github", "copilot", "settings.local.json"));
  return files;
}

function cpMain() {
  if (process.env[POLICY.off] !== undefined && guardOffHonoured(POLICY.off, cpSettingsFiles())) return cpFinish({ kind: "none", reason: "harness guard: OFF (" + POLICY.off + " is set in the environment Copilot started with); pipeline limits are not enforced" });
  const as = process.argv[2] === undefined ? null : process.argv[2];
  let scriptProject = null;
  try {
    const tail = "/.github/hooks/" + path.basename(__filename);
    if (__filename.endsWith(tail)) scriptProject = __filename.slice(0, -tail.length) || "/";
  } catch (e) { scriptProject = null; }
  let raw;
  try { raw = guardReadStdin(); } catch (e) { return cpFail("cannot read the hook input (" + ((e && e.code) || e) + ")"); }
  const parsed = cpCall(raw, process.env, as, scriptProject);
  if (typeof parsed === "string") return cpFail(parsed);
  let d;
  try { d = guardDecidePaths(POLICY, parsed); } catch (e) { return cpFail("internal error (" + guardLine(String((e && e.message) || e), 200) + ")"); }
  cpFinish(d);
}
cpMain();
`;
