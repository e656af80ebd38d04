// The answer of a PreToolUse guard hook in the Claude-shaped hook protocol that Qwen Code and Factory
// Droid share: allow as JSON on stdout, a refusal as exit 2 with the reason on stderr, and an "ask"
// refused, since neither host can be trusted to put it to a human headless. `p` prefixes the
// script's own names (each host's script keeps its own), `host` names it in the refusal.

/** Runtime source: `<p>Finish(decision)` and `<p>Fail(why)`, and an uncaught error refuses. */
export function preToolFinishRuntime(p: string, host: string): string {
  return String.raw`
let ${p}Done = false;
function ${p}Finish(d) {
  if (${p}Done) return;
  ${p}Done = true;
  let code = 2;
  try {
    if (d.kind === "allow") {
      fs.writeSync(1, JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow" } }) + "\n");
      code = 0;
    } else if (d.kind === "none") {
      code = 0;
    } else {
      const why = d.reason || "harness guard: refused (no reason given; fail closed).";
      fs.writeSync(2, (d.kind === "ask" ? why + " (${host} cannot be trusted to ask here: refused.)" : why) + "\n");
    }
  } catch (e) { code = 2; }
  process.exit(code);
}
function ${p}Fail(why) { ${p}Finish({ kind: "deny", reason: "harness guard: " + why + "; refusing (fail closed)." }); }
process.on("uncaughtException", (e) => ${p}Fail("internal error (" + guardLine(String((e && e.message) || e), 200) + ")"));
`;
}
