// The shell lines a host runs as its hooks (guard, stage-end audit, run controller). POSIX sh. The
// guard's line blocks (exit 2, one line on stderr) when node is missing, and turns any other exit of
// the script than the ones the host reads as an answer into a block as well, so a crash or a missing
// file never lets a call through.
// A host copies its settings' `env` into the hook's environment, and code a role runs can write the
// user's settings: nothing there may reach the runtime. So the line first unsets what Node.js, the
// dynamic loader and the shell read from the environment (sh's own builtin, no PATH needed), and
// drops relative and empty PATH entries (a folder a role writes, named from wherever the hook runs).
// An absolute PATH entry from settings stays: the files hold no machine's paths (they are committed
// and shared), so PATH is where node is found; MAPPING.md's Known gaps says which layer holds that.
export const HOOK_ENV_UNSET = ["NODE_OPTIONS", "NODE_PATH", "NODE_EXTRA_CA_CERTS", "NODE_ICU_DATA", "NODE_REPL_EXTERNAL_MODULE", "NODE_PRESERVE_SYMLINKS", "NODE_PRESERVE_SYMLINKS_MAIN", "NODE_REDIRECT_WARNINGS", "NODE_PENDING_DEPRECATION", "NODE_V8_COVERAGE", "NODE_DEBUG", "NODE_DEBUG_NATIVE", "NODE_COMPILE_CACHE", "NODE_TLS_REJECT_UNAUTHORIZED", "NODE_USE_ENV_PROXY", "NODE_TEST_CONTEXT", "UV_THREADPOOL_SIZE", "UV_USE_IO_URING", "LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "DYLD_INSERT_LIBRARIES", "DYLD_LIBRARY_PATH", "DYLD_FRAMEWORK_PATH", "OPENSSL_CONF", "SSL_CERT_FILE", "SSL_CERT_DIR", "BASH_ENV", "ENV", "CDPATH", "GLOBIGNORE"];
const CLEAN_ENV = `unset ${HOOK_ENV_UNSET.join(" ")}; harness_p=; IFS=:; set -f; for harness_d in $PATH; do case $harness_d in /*) harness_p=$harness_p\${harness_p:+:}$harness_d;; esac; done; unset IFS; PATH=$harness_p; export PATH`;
/** The start of every hook line (guard, audit, controller): the environment cleaned as above. Ends without `;`. */
export const HOOK_CLEAN_ENV = CLEAN_ENV;
/**
 * The node to run, as an absolute path in $harness_node (a shell function of that name is not node);
 * false when the PATH holds none (node is not installed for this user). The system's own (/usr/bin, /bin, which no role writes) comes first when it
 * is Node.js 20 or newer (r4: the PATH a host hands its hooks usually holds folders the user can write
 * ahead of /usr/bin, ~/.local/bin or ~/.cargo/bin, where code a role ran could plant a `node` that
 * answers every hook with exit 0); else the first on the cleaned PATH (nvm, volta, Homebrew, or an old
 * system node that would not run the script). Its version is asked only when the two differ.
 */
export const HOOK_FIND_NODE =
  `harness_node=$(command -v node 2>/dev/null); case $harness_node in /*) ` +
  `for harness_s in /usr/bin/node /bin/node; do if [ -f "$harness_s" ] && [ -x "$harness_s" ]; then ` +
  `{ [ "$harness_s" = "$harness_node" ] || "$harness_s" -e "process.exit(+(parseInt(process.versions.node) < 20))" >/dev/null 2>&1; } && harness_node=$harness_s; break; fi; done;; ` +
  `*) false;; esac`;
/** Put before a hook's node: the programs it starts (the audit's own git) are looked up in the system's
 *  own folders first, which no role writes, and only then on the cleaned PATH. Node itself was chosen by
 *  HOOK_FIND_NODE before this applies (an old system node would not run the script). */
export const HOOK_SYSTEM_PATH_FIRST = `PATH=/usr/bin:/bin\${PATH:+:$PATH}`;
/** A path below the repository's top level for a host whose hooks run in the session's folder (Codex), one
 *  quoted shell word: the system's own git first (`command -p`: the system's default folders, which no
 *  role writes), the cleaned PATH's only where there is none, the folder itself outside a repository. */
export const hookProjectPath = (rel: string): string => `"$( { command -p git rev-parse --show-toplevel || git rev-parse --show-toplevel; } 2>/dev/null || pwd)${rel ? `/${rel}` : ""}"`;
const NO_NODE = `${HOOK_FIND_NODE} || { echo "harness guard: node is not on PATH, so the pipeline guard cannot run; blocking (fail closed). Install Node.js 20+." >&2; exit 2; }`;
/** The invocation's `node` as the one HOOK_FIND_NODE chose. */
const chosenNode = (invocation: string): string => {
  if (!invocation.startsWith("node ")) throw new Error(`a hook invocation starts with node: ${invocation}`);
  return `"$harness_node" ${invocation.slice(5)}`;
};
const FAILED = `echo "harness guard: the guard script failed (exit $rc); blocking (fail closed)." >&2; exit 2;`;

/**
 * `invocation`: `node <script> [args]`, already quoted. `answers`: the exits the script answers with,
 * "0 or 2" (exit 2 = refused, the reason on stderr) or "0" (the answer is JSON on stdout; the host
 * treats every other exit as an error, so the line turns it into a refusal that says so).
 */
export function guardHookCommand(invocation: string, answers: "0 or 2" | "0" = "0 or 2"): string {
  const run = chosenNode(invocation);
  return answers === "0"
    ? [CLEAN_ENV, NO_NODE, run, "rc=$?", `[ "$rc" -eq 0 ] || { ${FAILED} }`].join("; ")
    : [CLEAN_ENV, NO_NODE, run, "rc=$?", `[ "$rc" -eq 0 ] || [ "$rc" -eq 2 ] || { ${FAILED} }`, `exit "$rc"`].join("; ");
}
