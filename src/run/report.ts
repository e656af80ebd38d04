// What the runner reads from a stage's final reply (the short report the role hands back, which the
// runner holds in its own memory from the host's stdout; no file a stage or check writes is read).
export type DeclaredStatus = "done" | "blocked" | "needs-human";

const line = (label: string) => new RegExp(`^[\\s>*_-]*${label}[*_]*\\s*:[*_]*\\s*([A-Za-z-]+)`, "im");

export function declaredStatus(text: string): DeclaredStatus | null {
  const m = line("Status").exec(text)?.[1]?.toLowerCase();
  return m === "done" || m === "blocked" || m === "needs-human" ? m : null;
}

export function declaredVerdict(text: string): string | null {
  return line("Verdict").exec(text)?.[1]?.toLowerCase() ?? null;
}

/** Verdicts that let the run go on; "needs-human" stops it; any other verdict fails the stage's judgement checks. */
export const PASSING_VERDICTS: ReadonlySet<string> = new Set(["approve", "approved", "pass", "passed"]);

/** `<condition>: yes|no` in a report (Flint's and Slate's "Deploy-relevant: yes"); null when not said. */
export function declaredCondition(text: string, condition: string): boolean | null {
  const esc = condition.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const m = new RegExp(`^[\\s>*_-]*${esc}[*_]*\\s*:[*_]*\\s*(yes|no)\\b`, "im").exec(text);
  return m ? m[1]!.toLowerCase() === "yes" : null;
}

/** The questions a role that asks the human put under "Questions:" (or the whole reply when it has no such list). */
export function questions(text: string): string {
  const i = text.search(/^[\s>*_-]*Questions[*_]*\s*:/im);
  return (i >= 0 ? text.slice(i) : text).trim();
}

/** The report as later stages see it: capped, so a long reply never floods a brief. */
export function shortReport(text: string, max = 2000): string {
  const t = text.trim();
  return t.length > max ? `${t.slice(0, max)}\n[… report cut at ${max} characters]` : t;
}
