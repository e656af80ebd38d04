// The shell line a host runs as its guard hook. POSIX sh: blocks (exit 2, one line on stderr) when
// node is missing, and turns any other exit of the script than the ones the host reads as an answer
// into a block as well, so a crash or a missing file never lets a call through.
const NO_NODE = `command -v node >/dev/null 2>&1 || { echo "harness guard: node is not on PATH, so the pipeline guard cannot run; blocking (fail closed). Install Node.js 20+." >&2; exit 2; }`;
const FAILED = `echo "harness guard: the guard script failed (exit $rc); blocking (fail closed)." >&2; exit 2;`;

/**
 * `invocation`: `node <script> [args]`, already quoted. `answers`: the exits the script answers with,
 * "0 or 2" (exit 2 = refused, the reason on stderr) or "0" (the answer is JSON on stdout; the host
 * treats every other exit as an error, so the line turns it into a refusal that says so).
 */
export function guardHookCommand(invocation: string, answers: "0 or 2" | "0" = "0 or 2"): string {
  return answers === "0"
    ? [NO_NODE, invocation, "rc=$?", `[ "$rc" -eq 0 ] || { ${FAILED} }`].join("; ")
    : [NO_NODE, invocation, "rc=$?", `[ "$rc" -eq 0 ] || [ "$rc" -eq 2 ] || { ${FAILED} }`, `exit "$rc"`].join("; ");
}
