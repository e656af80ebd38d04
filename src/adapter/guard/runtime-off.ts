// Guard runtime, part 5: whether the off switch really came from the person who started the host.
// JavaScript source text (see render.ts).
//
// Hosts copy a settings file's `env` into the environment of hooks, and code a role's test run
// executes can write those files (the user's are outside the project). So the switch counts only
// when (1) no settings file the host reads sets it in `env`, read as JSON (a `\u0048ARNESS…` escape is
// the same key), (2) every such file that exists is a regular file and parses, and (3) on Linux, where a process's
// starting environment is readable, the host process (the first ancestor that is not a shell) was started with it: a value put in by the
// host after it started (from its settings) is not there. The home folder is the account's
// (/etc/passwd), not $HOME, which settings could change too.
export const GUARD_OFF_SOURCE = String.raw`
function guardOffHonoured(name, files) {
  const v = process.env[name];
  if (typeof v !== "string" || !/^(1|true|yes|on)$/i.test(v.trim())) return false;
  // the host's own start first: a switch it did not start with needs no file read
  if (!guardStartedWith(name)) return false;
  for (const f of files) {
    const text = guardRegularText(f);
    if (text === undefined) continue;
    if (text === null || text.includes(name)) return false;
    let data;
    try { data = JSON.parse(text); } catch (e) { return false; }
    const env = data && typeof data === "object" ? data.env : undefined;
    if (env && typeof env === "object" && Object.keys(env).some((k) => k.toUpperCase() === name.toUpperCase())) return false;
  }
  return true;
}
// A file's text (settings, .env, a worktree record), undefined when there is none, null when it is not a regular file of at most
// 4 MB (a FIFO there would hold the hook until the host's timeout, which some hosts read as allow).
function guardRegularText(f) {
  let fd;
  try { fd = fs.openSync(f, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK || 0)); }
  catch (e) { return e && (e.code === "ENOENT" || e.code === "ENOTDIR") ? undefined : null; }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile() || st.size > 4194304) return null;
    return fs.readFileSync(fd, "utf8");
  } catch (e) { return null; } finally { try { fs.closeSync(fd); } catch (e) { /* closed */ } }
}
// Linux: the host process (the first ancestor that is not a shell) was started with name set. Elsewhere: true.
const GUARD_SHELLS = new Set(["sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "busybox"]);
function guardStartedWith(name) {
  try { fs.accessSync("/proc/self/environ"); } catch (e) { return process.platform !== "linux"; }
  let pid = process.ppid;
  for (let hops = 0; pid > 1 && hops < 16; hops++) {
    try {
      const stat = fs.readFileSync("/proc/" + pid + "/stat", "latin1");
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      if (GUARD_SHELLS.has(comm)) { pid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]); continue; }
      const env = fs.readFileSync("/proc/" + pid + "/environ", "latin1").split("\u0000");
      return env.some((e) => e.startsWith(name + "=") && /^(1|true|yes|on)$/i.test(e.slice(name.length + 1).trim()));
    } catch (e) { return false; }
  }
  return false;
}
// The account's home folder, from the password database rather than $HOME (null where there is none).
function guardHome() {
  try {
    const uid = String(process.getuid());
    for (const l of fs.readFileSync("/etc/passwd", "utf8").split("\n")) { const f = l.split(":"); if (f[2] === uid && f[5]) return f[5]; }
  } catch (e) { /* no password file */ }
  return null;
}
`;
