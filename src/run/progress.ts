// What `harness run` prints without --json: on a terminal one line per stage with its elapsed time;
// otherwise (CI) only what the human must read: questions, a gate it stopped at, and how the run ended.
import { color } from "../ui.js";
import type { RunEvent } from "./runner.js";

const secs = (ms: number) => `${(ms / 1000).toFixed(1)}s`;

function tokens(t: unknown): string {
  if (!t || typeof t !== "object") return "";
  const x = t as { input?: number; output?: number; premiumRequests?: number; costUsd?: number };
  if (x.premiumRequests !== undefined) return ` · ${x.premiumRequests} premium req`;
  const n = (x.input ?? 0) + (x.output ?? 0);
  return ` · ${n >= 1000 ? `${(n / 1000).toFixed(1)}k` : n} tokens${x.costUsd !== undefined ? ` $${x.costUsd.toFixed(4)}` : ""}`;
}

export function progressLine(e: RunEvent, terminal: boolean, startedMs: number): string | null {
  const elapsed = color.dim(secs(Date.now() - startedMs));
  switch (e.event) {
    case "stage": {
      if (!terminal) return null;
      const mark = e.status === "done" ? color.green("✓") : e.status === "skipped" ? color.dim("-") : color.red("✗");
      const took = typeof e.started === "string" ? ` ${secs(Date.now() - Date.parse(e.started))}` : "";
      return `${mark} ${String(e.stage).padEnd(10)} ${String(e.role).padEnd(8)} ${e.status}${took}${e.round && Number(e.round) > 1 ? ` · round ${e.round}` : ""}${e.retries ? ` · ${e.retries} retr.` : ""}${e.verdict ? ` · ${e.verdict}` : ""}${tokens(e.tokens)}${e.reason ? ` · ${e.reason}` : ""}  ${elapsed}`;
    }
    case "check":
      return terminal && !e.passed ? `  ${color.red("FAIL")} ${e.check} (exit ${e.exit}, expected ${e.expect}) ${color.dim(String(e.log ?? ""))}` : null;
    case "kind":
      return terminal ? `run ${e.id}: ${e.kind} (${(e.stages as string[]).join(" → ")})` : null;
    case "question":
      return null; // the prompt itself prints the questions
    case "gate-wait":
      return `${e.ask as string}`.trim();
    case "end":
      if (e.status === "passed") return terminal ? `${color.green("passed")} run ${e.id}  ${elapsed}` : `run ${e.id} passed`;
      return `run ${e.id} ${color.yellow(String(e.status))}: ${e.ending}${e.resume && !String(e.ending).includes(String(e.resume)) ? `\n  ${e.resume}` : ""}`;
    default:
      return null;
  }
}
