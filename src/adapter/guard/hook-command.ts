// The shell line a host runs as its guard hook. POSIX sh: blocks (exit 2, one line on stderr) when
// node is missing, and turns any other exit of the script than the ones the host reads as an answer
// into a block as well, so a crash or a missing file never lets a call through.
// A host copies its settings' `env` into the hook's environment, and code a role runs can write the
// user's settings: nothing there may reach the runtime. So the line first unsets what Node.js, the
// dynamic loader and the shell read from the environment (sh's own builtin, no PATH needed), and
// drops relative and empty PATH entries (a folder a role writes, named from wherever the hook runs).
// An absolute PATH entry from settings stays: the files hold no machine's paths (they are committed
// and shared), so PATH is where node is found; MAPPING.md's Known gaps says which layer holds that.
export const HOOK_ENV_UNSET = ["NODE_OPTIONS", "NODE_PATH", "NODE_EXTRA_CA_CERTS", "NODE_ICU_DATA", "NODE_REPL_EXTERNAL_MODULE", "NODE_PRESERVE_SYMLINKS", "NODE_PRESERVE_SYMLINKS_MAIN", "NODE_REDIRECT_WARNINGS", "NODE_PENDING_DEPRECATION", "NODE_V8_COVERAGE", "NODE_DEBUG", "NODE_DEBUG_NATIVE", "NODE_COMPILE_CACHE", "NODE_TLS_REJECT_UNAUTHORIZED", "NODE_USE_ENV_PROXY", "NODE_TEST_CONTEXT", "UV_THREADPOOL_SIZE", "UV_USE_IO_URING", "LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "DYLD_INSERT_LIBRARIES", "DYLD_LIBRARY_PATH", "DYLD_FRAMEWORK_PATH", "OPENSSL_CONF", "SSL_CERT_FILE", "SSL_CERT_DIR", "BASH_ENV", "ENV", "CDPATH", "GLOBIGNORE"];
const CLEAN_ENV = `unset ${HOOK_ENV_UNSET.join(" ")}; harness_p=; IFS=:; set -f; for harness_d in $PATH; do case $harness_d in /*) harness_p=$harness_p\${harness_p:+:}$harness_d;; esac; done; unset IFS; PATH=$harness_p; export PATH`;
const NO_NODE = `command -v node >/dev/null 2>&1 || { echo "harness guard: node is not on PATH, so the pipeline guard cannot run; blocking (fail closed). Install Node.js 20+." >&2; exit 2; }`;
const FAILED = `echo "harness guard: the guard script failed (exit $rc); blocking (fail closed)." >&2; exit 2;`;

/**
 * `invocation`: `node <script> [args]`, already quoted. `answers`: the exits the script answers with,
 * "0 or 2" (exit 2 = refused, the reason on stderr) or "0" (the answer is JSON on stdout; the host
 * treats every other exit as an error, so the line turns it into a refusal that says so).
 */
export function guardHookCommand(invocation: string, answers: "0 or 2" | "0" = "0 or 2"): string {
  return answers === "0"
    ? [CLEAN_ENV, NO_NODE, invocation, "rc=$?", `[ "$rc" -eq 0 ] || { ${FAILED} }`].join("; ")
    : [CLEAN_ENV, NO_NODE, invocation, "rc=$?", `[ "$rc" -eq 0 ] || [ "$rc" -eq 2 ] || { ${FAILED} }`, `exit "$rc"`].join("; ");
}
