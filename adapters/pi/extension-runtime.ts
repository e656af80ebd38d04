// The Pi shim around the shared guard runtime (src/adapter/guard/): the body of the generated project
// extension. JavaScript source text (rules in src/adapter/guard/render.ts), pasted after the runtime;
// it expects POLICY, PI_AGENTS, PI_EXT_NAME and the imports fs, path, os, spawn, fileURLToPath.
//
// Pi 0.73.1 (measured, test/hosts/enforce-out-pi.test.ts): pi.on("tool_call") gets {toolName, toolCallId,
// input} with the validated arguments; returning {block: true, reason} blocks the call and the reason
// is the tool result; a handler that throws blocks it too. write/edit take `path` (Pi strips one
// leading @, turns Unicode spaces into spaces, expands ~ and resolves against the session cwd), bash
// takes `command` (run in the session cwd).
//
// Who a process is, read from the environment it was started with:
//   HARNESS_PI_ROLE=<role>   a role (set by harness_subagent for its child `pi`): that role's limits
//   a role's prompt          in --append-system-prompt / --system-prompt (another subagent extension's child): that role
//   HARNESS_PIPELINE_RUN     the orchestrator (set by .pi/bin/<pipeline>.sh); scope repository: always
//   neither                  an ordinary session: unbound (the roles it starts are bound in their child)
//   deny -> {block, reason};  ask -> the human confirms where Pi has a UI, else blocked;  allow/none -> run
export const PI_GUARD_SHIM = String.raw`
const PI_ROLE_ENV = "HARNESS_PI_ROLE";
const PI_RUN_ENV = "HARNESS_PIPELINE_RUN";
const PI_SPAWN = "harness_subagent";
const PI_READ = new Set(["read", "grep", "find", "ls"]);
const PI_TRUE = /^(1|true|yes|on)$/i;

// Pi's own path expansion (dist/core/tools/path-utils.js expandPath), so the guard checks the file Pi writes.
function piExpand(p) {
  let s = p.startsWith("@") ? p.slice(1) : p;
  s = s.replace(/[\u00a0\u2000-\u200a\u202f\u205f\u3000]/g, " ");
  if (s === "~") return os.homedir();
  if (s.startsWith("~/")) return os.homedir() + s.slice(1);
  return s;
}

// The off switch counts only when this process was started with it (Linux: /proc/self/environ, which
// code running inside Pi cannot change); Pi reads no env files.
function piOffHonoured() {
  const v = process.env[POLICY.off];
  if (typeof v !== "string" || !PI_TRUE.test(v.trim())) return false;
  let start;
  try { start = fs.readFileSync("/proc/self/environ", "latin1").split("\u0000"); } catch (e) { return process.platform !== "linux"; }
  return start.some((e) => e.startsWith(POLICY.off + "=") && PI_TRUE.test(e.slice(POLICY.off.length + 1).trim()));
}

function piBinding(env, project, argv) {
  const role = env[PI_ROLE_ENV];
  if (role !== undefined) return { as: role, child: true };
  const prompted = piRoleByPrompt(project, argv);
  if (prompted !== null) return { as: prompted, child: true };
  if (env[PI_RUN_ENV] !== undefined || POLICY.scope === "repository") return { as: "@orchestrator", child: false };
  return null;
}

// A process whose system prompt holds a role's prompt is that role, whoever started it: another
// subagent extension that reads .pi/agents/ (Pi's example one) starts its child with
// --append-system-prompt <file>, which Pi reads as a file when one of that name exists, else as text.
// Binding more is never weaker: a false match only refuses more.
function piRoleByPrompt(project, argv) {
  if (project === null) return null;
  const given = [];
  for (let i = 0; i < argv.length - 1; i++) if (argv[i] === "--append-system-prompt" || argv[i] === "--system-prompt") given.push(argv[i + 1]);
  if (!given.length) return null;
  // Pi reads the value as a file when one of that name exists; a FIFO is read as neither (never opened blocking)
  const texts = given.map((g) => { const t = piReadRegular(g); return typeof t === "string" ? t : g; });
  for (const role of Object.keys(PI_AGENTS)) {
    let body;
    try { body = piRolePrompt(project, role).trim(); } catch (e) { continue; }
    if (body && texts.some((t) => t.includes(body))) return role;
  }
  return null;
}

function piCall(event, project, cwd, bind) {
  const tool = event && event.toolName;
  const ti = event && event.input;
  if (typeof tool !== "string" || tool === "" || ti === null || typeof ti !== "object" || Array.isArray(ti)) return "a tool call without a tool name or input";
  const role = bind.as !== "@orchestrator";
  const call = { as: bind.as, agentType: role ? bind.as : null, agentId: bind.child ? "pi-child" : null, tool, kind: "other", cwd, project };
  if (tool === "write" || tool === "edit") {
    call.kind = "write";
    if (typeof ti.path === "string") call.path = piExpand(ti.path);
  } else if (tool === "bash") {
    if (typeof ti.command !== "string") return "bash without a command string";
    call.kind = "shell"; call.command = ti.command;
  } else if (tool === PI_SPAWN) { call.kind = "spawn"; call.target = ti.agent; }
  else if (PI_READ.has(tool)) call.kind = "read";
  return call;
}

const piBlock = (reason) => ({ block: true, reason });

// The extension's own file: <project>/.pi/extensions/<name>; anywhere else nothing is bound (fail closed).
function piProject() {
  const file = fileURLToPath(import.meta.url);
  const tail = path.sep + path.join(".pi", "extensions", PI_EXT_NAME);
  return file.endsWith(tail) ? file.slice(0, -tail.length) || path.sep : null;
}

// A file's text when it is a regular file (undefined: none, null: something else), never opened blocking: a
// FIFO a role's code put there would hold Pi's tool call for good.
function piReadRegular(f) {
  let fd;
  try { fd = fs.openSync(f, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK || 0)); } catch (e) { return e && e.code === "ENOENT" ? undefined : null; }
  try { return fs.fstatSync(fd).isFile() ? fs.readFileSync(fd, "utf8") : null; } catch (e) { return null; } finally { fs.closeSync(fd); }
}

// A role's prompt: the body of .pi/agents/<role>.md (after its front matter).
function piRolePrompt(project, role) {
  const text = piReadRegular(path.join(project, ".pi", "agents", role + ".md"));
  if (typeof text !== "string") throw new Error(".pi/agents/" + role + ".md is missing or not a regular file");
  if (!text.startsWith("---\n")) throw new Error(".pi/agents/" + role + ".md has no front matter");
  const end = text.indexOf("\n---\n", 4);
  if (end < 0) throw new Error(".pi/agents/" + role + ".md has an unterminated front matter");
  return text.slice(end + 5).replace(/^\n/, "");
}

// Pi's own command line, as this process was started (node + cli.js, or a single binary).
function piInvocation(args) {
  const script = process.argv[1];
  if (script && fs.existsSync(script)) return [process.execPath, [script, ...args]];
  return [process.execPath, args];
}

function piRunRole(project, extFile, name, task, signal, ctx) {
  const spec = PI_AGENTS[name];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "harness-pi-"));
  const promptFile = path.join(dir, "prompt-" + name + ".md");
  fs.writeFileSync(promptFile, piRolePrompt(project, name), { mode: 0o600 });
  // only this extension in the child: no other one can register a tool or patch a call after the guard
  const args = ["--mode", "json", "-p", "--no-session", "--no-extensions", "-e", extFile];
  args.push(...(spec.tools.length ? ["--tools", spec.tools.join(",")] : ["--no-tools"]));
  if (spec.model) args.push("--model", spec.model);
  else if (ctx && ctx.model && typeof ctx.model.provider === "string" && typeof ctx.model.id === "string") args.push("--provider", ctx.model.provider, "--model", ctx.model.id);
  args.push("--append-system-prompt", promptFile, "Task: " + task);
  const env = Object.assign({}, process.env);
  env[PI_ROLE_ENV] = name;
  const [cmd, argv] = piInvocation(args);
  return new Promise((resolve) => {
    const child = spawn(cmd, argv, { cwd: project, env, shell: false, stdio: ["ignore", "pipe", "pipe"] });
    let buf = "", err = "", last = "";
    const line = (l) => {
      let ev;
      try { ev = JSON.parse(l); } catch (e) { return; }
      const m = ev && ev.type === "message_end" ? ev.message : null;
      if (m && m.role === "assistant" && Array.isArray(m.content)) {
        const t = m.content.filter((c) => c && c.type === "text").map((c) => c.text).join("\n");
        if (t.trim()) last = t;
      }
    };
    child.stdout.on("data", (d) => { buf += d; const ls = buf.split("\n"); buf = ls.pop(); ls.forEach(line); });
    child.stderr.on("data", (d) => { if (err.length < 65536) err += d; });
    const kill = () => child.kill("SIGTERM");
    if (signal) { if (signal.aborted) kill(); else signal.addEventListener("abort", kill, { once: true }); }
    const done = (code) => {
      if (buf.trim()) line(buf);
      try { fs.rmSync(dir, { recursive: true, force: true }); } catch (e) { /* a temp folder */ }
      resolve({ code, last, err });
    };
    child.on("close", (code) => done(code === null ? 1 : code));
    child.on("error", (e) => { err += String((e && e.message) || e); done(1); });
  });
}

export default function harnessPipeline(pi) {
  const project = piProject();
  const extFile = project === null ? null : path.join(project, ".pi", "extensions", PI_EXT_NAME);
  const names = Object.keys(PI_AGENTS);
  if (names.length) pi.registerTool({
    name: PI_SPAWN,
    label: "Pipeline role",
    description: "Run one role of pipeline " + POLICY.pipeline + " (" + names.join(", ") + ") in its own pi process, with that role's prompt, tools and limits; returns the role's final report.",
    promptSnippet: "Delegate a pipeline stage to its role (" + names.join(", ") + ")",
    parameters: { type: "object", properties: { agent: { type: "string", enum: names, description: "the role to run" }, task: { type: "string", description: "the brief for the role" } }, required: ["agent", "task"], additionalProperties: false },
    async execute(_id, params, signal, _onUpdate, ctx) {
      if (project === null) throw new Error("harness: the extension is not in <project>/.pi/extensions/; no role is started");
      const name = params && params.agent;
      if (typeof name !== "string" || !Object.prototype.hasOwnProperty.call(PI_AGENTS, name)) throw new Error("harness: no role " + JSON.stringify(name) + "; roles: " + names.join(", "));
      const r = await piRunRole(project, extFile, name, String(params.task || ""), signal, ctx);
      if (r.code !== 0) throw new Error(name + " failed (exit " + r.code + "): " + guardLine(r.err || r.last, 2000));
      return { content: [{ type: "text", text: r.last || "(" + name + " gave no report)" }], details: { agent: name, exitCode: r.code } };
    },
  });
  const bind = piBinding(process.env, project, process.argv.slice(2));
  if (bind === null || piOffHonoured()) return;
  const known = bind.as === "@orchestrator" || Object.prototype.hasOwnProperty.call(POLICY.roles, bind.as);
  const cap = Object.prototype.hasOwnProperty.call(PI_AGENTS, bind.as) ? PI_AGENTS[bind.as].maxTurns : undefined;
  let turns = 0;
  if (cap !== undefined) pi.on("turn_start", (_e, ctx) => { turns++; if (turns > cap) ctx.abort(); });
  pi.on("tool_call", async (event, ctx) => {
    try {
      if (!known) return piBlock("harness guard: " + PI_ROLE_ENV + " names no role of pipeline " + POLICY.pipeline + "; refusing every call (fail closed).");
      if (project === null) return piBlock("harness guard: the extension is not in <project>/.pi/extensions/; refusing (fail closed).");
      if (cap !== undefined && turns > cap) return piBlock("harness guard: " + bind.as + " reached its max_turns (" + cap + "). Report back now.");
      const call = piCall(event, project, typeof ctx.cwd === "string" ? ctx.cwd : project, bind);
      if (typeof call === "string") return piBlock("harness guard: " + call + "; refusing (fail closed).");
      const d = guardDecide(POLICY, call);
      if (d.kind === "allow" || d.kind === "none") return undefined;
      const why = d.reason || "harness guard: refused (no reason given; fail closed).";
      if (d.kind === "ask" && ctx.hasUI && (await ctx.ui.confirm("harness guard", why))) return undefined;
      return piBlock(d.kind === "ask" ? why + " (no one to ask here: refused.)" : why);
    } catch (e) {
      return piBlock("harness guard: internal error (" + guardLine(String((e && e.message) || e), 200) + "); refusing (fail closed).");
    }
  });
}
`;
