// Guard runtime, part 4: one decision per tool call. JavaScript source text (see render.ts).
//
// guardDecide(policy, call) → { kind: "allow" | "ask" | "deny" | "none", reason }
//   call = { as, agentType, agentId, kind, tool, path, command, target, cwd, project }
//   as:   who the hook was installed for: a role id (agent or command front matter), "@orchestrator"
//         (the pipeline's entry command), or null (a settings-level hook: scope repository)
//   kind: "write" (path), "shell" (command), "spawn" (target agent), "read" (reads only),
//         "skill" (runs a host command or skill), "other" (anything else, MCP tools included)
// "none" = no opinion: the host's own permission flow decides.
export const GUARD_DECIDE_SOURCE = String.raw`
const GUARD_RANK = { allow: 0, none: 1, ask: 2, deny: 3 };
function guardLine(s, max) {
  let t = String(s).replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ").replace(/ {2,}/g, " ").trim();
  return t.length > max ? t.slice(0, max - 1) + "\u2026" : t;
}
// The hook input: fd 0 read to its end; a non-blocking pipe that is not ready yet (EAGAIN) is
// polled, up to 10 s. Every host's shim reads its input through this.
function guardReadStdin() {
  const chunks = [];
  const buf = Buffer.alloc(65536);
  const nap = new Int32Array(new SharedArrayBuffer(4));
  for (let waited = 0; ; ) {
    let n;
    try { n = fs.readSync(0, buf, 0, buf.length, null); }
    catch (e) {
      if (e && e.code === "EAGAIN" && waited < 10000) { Atomics.wait(nap, 0, 0, 5); waited += 5; continue; }
      if (e && e.code === "EOF") break;
      throw e;
    }
    if (n === 0) break;
    chunks.push(Buffer.from(buf.subarray(0, n)));
    if (chunks.length > 1024) throw new Error("hook input larger than 64 MB");
  }
  return Buffer.concat(chunks).toString("utf8");
}
function guardOut(kind, reason) { return reason ? { kind, reason: "harness guard: " + guardLine(reason, 900) } : { kind }; }

// Who is calling: { role, id, label } for a role, { orch: true, label } for the orchestrator, or null (not ours).
function guardCaller(policy, call) {
  const t = call.agentType;
  if (typeof t === "string" && t !== "") {
    if (Object.prototype.hasOwnProperty.call(policy.roles, t)) return { role: policy.kinds[policy.roles[t]], id: t, label: t };
    return policy.scope === "repository" && call.as === null ? { foreign: true, label: "agent " + JSON.stringify(guardLine(t, 60)) } : null;
  }
  if (typeof call.agentId === "string" && call.agentId !== "") return policy.scope === "repository" && call.as === null ? { foreign: true, label: "an unnamed subagent" } : null;
  if (typeof call.as === "string" && Object.prototype.hasOwnProperty.call(policy.roles, call.as)) return { role: policy.kinds[policy.roles[call.as]], id: call.as, label: call.as };
  if (call.as === "@orchestrator" || (call.as === null && policy.scope === "repository")) return { orch: true, label: "the orchestrator (main thread)" };
  return null;
}

function guardDecide(policy, call) {
  const who = guardCaller(policy, call);
  if (!who) return guardOut("none");
  const refuse = " Report \"blocked\" instead.";
  if (who.foreign) {
    if (call.kind === "read") return guardOut("none");
    return guardOut("deny", who.label + " is not a role of pipeline " + policy.pipeline + ", so it may not use " + call.tool + " in this repository (policies.scope: repository). Have the orchestrator delegate to a pipeline role (" + Object.keys(policy.roles).join(", ") + ")." );
  }
  if (typeof call.project !== "string" || !path.isAbsolute(call.project)) return guardOut("deny", "no absolute project directory; refusing (fail closed).");
  let projectReal;
  try { projectReal = fs.realpathSync.native(call.project); } catch (e) { return guardOut("deny", "cannot resolve the project directory (" + (e && e.code) + "); refusing (fail closed)."); }
  const cwd = typeof call.cwd === "string" && path.isAbsolute(call.cwd) ? call.cwd : call.project;
  const st = { policy, role: who.role || null, id: who.id || null, label: who.label, sub: typeof call.agentId === "string" && call.agentId !== "", ctx: { project: path.resolve(call.project), projectReal } };
  if (call.kind === "read") return guardOut("none");
  if (call.kind === "write") return guardWrite(st, cwd, call.path);
  if (call.kind === "shell") return guardShell(st, cwd, call.command);
  if (call.kind === "spawn") return guardSpawn(st, call.target);
  if (call.kind === "skill" && who.orch) return guardOut("none");
  // host tools the role's tools name exactly (MCP tools, agent-team tools, Skill): the author allowed
  // them; "tools: [all]" leaves unnamed ones to the host's own permission flow
  if (who.role && guardToolNamed(who.role, call.tool)) return guardOut("allow");
  if (who.role && who.role.all) return guardOut("none");
  if (who.orch) return guardOut("ask", "the orchestrator wants to use " + call.tool + ", a tool the guard does not model; the human decides.");
  return guardOut("deny", who.label + " may not use " + call.tool + ": not a tool its role is given, and the guard cannot check what it does (fail closed)." + refuse);
}

// x: exact tool names; xp: server prefixes ("mcp__github__"), matching one more name part only
function guardToolNamed(role, tool) {
  if (typeof tool !== "string") return false;
  if (role.x && role.x.includes(tool)) return true;
  if (role.xp) for (const p of role.xp) if (tool.length > p.length && tool.startsWith(p) && !tool.slice(p.length).includes("__")) return true;
  return false;
}

function guardWrite(st, cwd, p) {
  if (typeof p !== "string" || p === "") return guardOut("deny", "a write without a file path; refusing (fail closed).");
  const why = guardPathWhy(st, cwd, p);
  return why ? guardOut("deny", why.text) : guardOut("allow");
}
// null, or { text } saying why the caller may not write p.
function guardPathWhy(st, cwd, p, how) {
  const loc = guardLocate(st.ctx, cwd, p);
  const tail = how ? ", in the command " + JSON.stringify(guardLine(how, 160)) : "";
  let why = loc.error ? "it " + loc.error : guardWriteWhy(st, loc.rels);
  if (!why) return null;
  let advice = " Report \"blocked\" instead.";
  if (!st.role && loc.rels) { const o = guardOwners(st, loc.rels); if (o.length && !why.startsWith("never-write")) advice = " Delegate it to " + o.join(" or ") + ", or report \"blocked\"."; }
  return { text: st.label + " may not write " + loc.shown + " (" + why + ")" + tail + "." + advice };
}

function guardShell(st, cwd, command) {
  const shown = JSON.stringify(guardLine(command, 160));
  const shellRole = st.role ? st.role.sh : null;
  if (st.role && !shellRole) return guardOut("deny", st.label + " may not run shell commands (its role has no shell tool). Report \"blocked\" instead.");
  // the orchestrator running one of the pipeline's own steps exactly as written (in the project root)
  const atRoot = path.resolve(cwd) === st.ctx.project || path.resolve(cwd) === st.ctx.projectReal;
  if (!st.role && st.policy.orch.r && atRoot && st.policy.orch.r.includes(command)) return guardOut("allow");
  let cmds;
  try { cmds = guardParse(command); }
  catch (e) {
    if (!(e && e.guardShell)) throw e;
    return guardUnmodelledOut(st, shown, e.message);
  }
  let worst = { kind: "allow" };
  const note = (d) => { if (GUARD_RANK[d.kind] > GUARD_RANK[worst.kind]) worst = d; };
  // bash's cd is logical: it reads .. against $PWD as spelled, which may name the folder through a
  // symbolic link. The shell's $PWD is the folder the host reports, as spelled or resolved.
  let logical = [path.resolve(cwd)];
  try { const real = fs.realpathSync.native(cwd); if (!logical.includes(real)) logical.push(real); } catch (e) { /* guardCd refuses */ }
  for (let i = 0; i < cmds.length && worst.kind !== "deny"; i++) {
    const c = cmds[i];
    if (c.argv[0] === "cd") {
      const r = guardCd(st, cwd, logical, c, cmds[i + 1]);
      if (r.error) { note(guardUnmodelledOut(st, shown, r.error)); continue; }
      cwd = r.cwd;
      logical = r.logical;
      continue;
    }
    for (const r of c.redirs) {
      // bash itself opens a TCP or UDP connection for /dev/tcp/HOST/PORT and /dev/udp/HOST/PORT, reading too
      if (/^\/dev\/(tcp|udp)\//.test(r.target)) { note(guardUnmodelledOut(st, shown, "it opens a network connection (" + r.target + ")")); continue; }
      if (r.op === "<") continue;
      // guardParse lets >& through only with one digit or - (a duplication, no file)
      if (r.op === ">&") continue;
      if (r.target === "/dev/null" || r.target === "/dev/stdout" || r.target === "/dev/stderr") continue;
      if (/^\/(dev|proc)\//.test(r.target)) { note(guardUnmodelledOut(st, shown, "it redirects to " + r.target)); continue; }
      const why = guardPathWhy(st, cwd, r.target, command);
      if (why) note(guardOut("deny", why.text));
    }
    if (worst.kind === "deny") break;
    // git runs the config of the repository it finds from its folder (runtime-paths)
    const repo = guardBase(c.argv[0]) === "git" ? guardGitRepoWhy(st.ctx, cwd) : null;
    if (repo) note(guardUnmodelledOut(st, shown, repo));
    const away = repo ? null : guardAwayWhy(st, cwd, c.argv);
    if (away) note(guardUnmodelledOut(st, shown, away));
    note(st.role ? guardRoleCommand(st, c.argv, shown) : guardOrchCommand(st, c.argv, shown));
  }
  return worst;
}

function guardUnmodelledOut(st, shown, why) {
  const text = " may not run " + shown + " as it is: " + why + ", which the guard cannot check exactly.";
  if (st.role && st.role.sh.def === "deny") return guardOut("deny", st.label + text + " Write it as plain commands, or report \"blocked\".");
  return guardOut("ask", st.label + text.replace(" may not run ", " wants to run ") + " The human decides.");
}

// cd into a literal folder of the project, followed by && (or nothing): { cwd, logical } or { error }.
// Where bash's logical cd (.. taken off the spelled $PWD, every spelling it may have) and the physical
// walk land in different folders, the guard cannot say which one the shell is in: refused.
function guardCd(st, cwd, logical, c, next) {
  if (c.argv.length !== 2 || c.redirs.length) return { error: "it uses cd without exactly one folder" };
  if (c.join === "|" || c.join === "||" || (next && next.join !== "&&")) return { error: "it uses cd outside a plain && chain" };
  const t = c.argv[1];
  if (!(t.startsWith("/") || t === "." || t === ".." || t.startsWith("./") || t.startsWith("../"))) return { error: "cd " + t + " may follow CDPATH" };
  const r = guardPhysical(cwd, t);
  if (r.error) return { error: "cd " + t + " " + r.error };
  let isDir = false;
  try { isDir = fs.statSync(r.real).isDirectory(); } catch (e) { isDir = false; }
  const rel = guardPosix(path.relative(st.ctx.projectReal, r.real));
  if (!isDir || guardOutside(rel)) return { error: "cd " + t + " leaves the project or is not a folder" };
  const spelled = [];
  for (const l of logical) {
    const p = path.resolve(l, t);
    const lr = guardPhysical(p, ".");
    if (lr.error || lr.real !== r.real) return { error: "cd " + t + " goes through a symbolic link, so bash's logical cd (" + p + ") and the folder it resolves to differ" };
    if (!spelled.includes(p)) spelled.push(p);
  }
  return { cwd: r.real, logical: spelled };
}

function guardRoleCommand(st, argv, shown) {
  const sh = st.role.sh, policy = st.policy, who = st.label;
  const name = guardBase(argv[0]);
  if (GUARD_WRAPPERS.has(name)) return guardUnmodelledOut(st, shown, name + " runs another command");
  const forms = guardForms(argv);
  let d = guardFirstMatch(policy, policy.deny, forms);
  if (d) return guardOut("deny", who + " may not run " + shown + " (no pipeline agent may run " + d + ")." + " Report \"blocked\" instead.");
  d = guardFirstMatch(policy, sh.d, forms);
  if (d) return guardOut("deny", who + " may not run " + shown + " (its shell rules deny " + d + "). Report \"blocked\" instead.");
  const k = guardFirstMatch(policy, sh.k, forms);
  if (k) return guardOut("ask", who + " wants to run " + shown + " (its shell rules ask for " + k + ").");
  const git = name === "git" ? guardGit(argv) : null;
  // allow rules match the command as written (git: minus harmless global options), by its bare name
  const exact = git ? (git.safe ? git.normal : null) : argv[0] === name ? argv : null;
  const a = exact ? guardAllowMatch(policy, sh.a, exact) : { why: null };
  if (a.pat) return guardOut("allow");
  if (git && !guardGitReadOnly(git.normal)) return guardOut("deny", who + " may not run " + shown + " (git " + (git.normal[1] || "") + " changes the repository; roles run read-only git only). Report \"blocked\" instead.");
  if (exact && !git && guardReadOnly(exact)) return guardOut("allow");
  const known = exact ? guardArgsWhy(exact, git ? 2 : 1) : "it is not written by its bare name";
  const readOnlyName = !git && (Object.prototype.hasOwnProperty.call(GUARD_SPECS, name) || name === "printf");
  const why = a.why || (sh.def === "allow" || readOnlyName ? known : null) || "no shell rule of its role allows it";
  if (sh.def === "allow" && known === null) return guardOut("allow");
  if (sh.def === "deny") return guardOut("deny", who + " may not run " + shown + " (" + why + "; its allowed commands: " + (sh.a.map((x) => policy.pats[x]).join(", ") || "none") + "). Report \"blocked\" instead.");
  return guardOut("ask", who + " wants to run " + shown + " (" + why + "; the default is ask).");
}

function guardOrchCommand(st, argv, shown) {
  const policy = st.policy, who = st.label;
  const name = guardBase(argv[0]);
  const git = name === "git" ? guardGit(argv) : null;
  const exact = git ? (git.safe ? git.normal : null) : argv[0] === name ? argv : null;
  // its own exceptions to the pipeline's deny list (git stash push *), with options known safe
  if (exact && guardAllowMatch(policy, policy.orch.x, exact).pat) return guardOut("allow");
  if (GUARD_WRAPPERS.has(name)) return guardUnmodelledOut(st, shown, name + " runs another command");
  const forms = guardForms(argv);
  const d = guardFirstMatch(policy, policy.deny, forms);
  if (d) return guardOut("deny", who + " may not run " + shown + " (no pipeline agent may run " + d + "). Leave this step to the human, or report \"blocked\".");
  if (git && !guardGitReadOnly(git.normal)) return guardOut("deny", who + " may not run " + shown + " (git " + (git.normal[1] || "") + " changes the repository; the orchestrator runs read-only git and its own exceptions only). Leave this step to the human.");
  const a = exact ? guardAllowMatch(policy, policy.orch.a, exact) : { why: null };
  if (a.pat) return guardOut("allow");
  if (exact && !git && guardReadOnly(exact)) return guardOut("allow");
  const known = exact && !git && Object.prototype.hasOwnProperty.call(GUARD_SPECS, name) ? guardArgsWhy(exact, 1) : null;
  // not "none": in acceptEdits mode Claude Code itself runs some file commands (sed -i, cp) unasked
  return guardOut("ask", who + " wants to run " + shown + " (" + (a.why || known || "not among the commands the pipeline runs") + "); the human decides.");
}

function guardSpawn(st, target) {
  const policy = st.policy;
  if (target === undefined || target === null || target === "") target = "general-purpose";
  if (typeof target !== "string") return guardOut("deny", "the agent to start is not named by a string; refusing (fail closed).");
  const shown = JSON.stringify(guardLine(target, 80));
  if (st.role && st.role.st) return st.role.st.includes(target) ? guardOut("allow") : guardOut("deny", st.label + " may start only " + st.role.st.join(", ") + " (its role's starts); refused " + shown + ". Report back instead.");
  if (st.role && !st.role.spawn) return guardOut("deny", st.label + " may not start agents (its role cannot spawn; refused " + shown + "). Report back to the orchestrator instead.");
  if (st.sub && !policy.nested) return guardOut("deny", st.label + " may not start " + shown + ": nested agents are off. Report back to the orchestrator instead.");
  if (!Object.prototype.hasOwnProperty.call(policy.roles, target) && !policy.nested) return guardOut("deny", st.label + " may not start " + shown + ": it is not a role of pipeline " + policy.pipeline + " (nested agents are off). Start one of: " + Object.keys(policy.roles).join(", ") + ".");
  return guardOut("allow");
}

// For hosts whose write tool takes a patch (Copilot's and Codex's apply_patch). The files an apply_patch
// text touches: { paths } or { error }. The guard reads only the canonical shape, exactly: a line is a
// directive (*** Begin Patch, *** Add File: P, *** Update File: P, *** Delete File: P, *** Move to: P,
// *** End of File, *** End Patch) or a hunk line (+, -, space, @@, empty). Codex's parser trims the
// lines it reads as headers (Unicode white space, U+0085 included) and Copilot's is not published,
// so any other line that could read as a directive once trimmed, and any file name with white space
// or a control character at either end, is refused: the patch, not the directive, is skipped.
const GUARD_PATCH_LOOSE = /^[\s\u0085\u180e\u200b-\u200d\u2060\ufeff]*\*\*\*[\s\u0085\u180e\u200b-\u200d\u2060\ufeff]*(add|update|delete|move|end|begin)/i;
const GUARD_PATCH_EDGE = /^[\s\u0085\u180e\u200b-\u200d\u2060\ufeff]|[\s\u0085\u180e\u200b-\u200d\u2060\ufeff]$|[\u0000-\u001f\u007f-\u009f]/;
function guardPatchPaths(text) {
  if (typeof text !== "string") return { error: "apply_patch arguments are not the patch text" };
  if (/[\r\u2028\u2029]/.test(text)) return { error: "the patch holds carriage returns or Unicode line separators" };
  const lines = text.split("\n");
  let i = 0;
  while (i < lines.length && lines[i] === "") i++;
  let end = lines.length;
  while (end > i && lines[end - 1] === "") end--;
  if (lines[i] !== "*** Begin Patch") return { error: "the patch does not start with *** Begin Patch" };
  if (end - 1 <= i || lines[end - 1] !== "*** End Patch") return { error: "the patch does not end with *** End Patch" };
  const paths = [];
  for (const line of lines.slice(i + 1, end - 1)) {
    const m = /^\*\*\* (Add File|Update File|Delete File|Move to): (.*)$/.exec(line);
    if (m) {
      const p = m[2];
      if (p === "" || GUARD_PATCH_EDGE.test(p)) return { error: "a file name in the patch is empty, or has white space or a control character at an end" };
      paths.push(p);
      continue;
    }
    if (line === "*** End of File" || line === "@@" || line.startsWith("@@ ")) continue;
    if (line === "" || ((line[0] === "+" || line[0] === "-" || line[0] === " ") && !GUARD_PATCH_LOOSE.test(line.slice(1)) && !GUARD_PATCH_LOOSE.test(line))) continue;
    return { error: "the patch has a line the guard does not read exactly (" + guardLine(JSON.stringify(line), 80) + ")" };
  }
  if (!paths.length) return { error: "the patch names no file" };
  return { paths };
}

// A call that writes several files (a patch): each file is decided alone; the strictest answer wins (deny > ask > none > allow).
function guardDecidePaths(policy, parsed) {
  if (!parsed.paths) return guardDecide(policy, parsed.call);
  let worst = null;
  for (const p of parsed.paths) {
    const d = guardDecide(policy, Object.assign({}, parsed.call, { path: p }));
    if (worst === null || GUARD_RANK[d.kind] > GUARD_RANK[worst.kind]) worst = d;
    if (worst.kind === "deny") break;
  }
  return worst;
}
`;
