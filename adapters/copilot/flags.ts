// Copilot CLI permission rules as launch flags (`--allow-tool` / `--deny-tool`): the only place the
// CLI takes them from a project (repository settings refuse `permissions.*`; others.md §3.1, §5.1).
// Observed on 1.0.102 with a scripted model: `write(src/**)` allows writes under src/ (relative or
// absolute paths), `shell(npm test)` allows `npm test` with any further arguments, a deny beats every
// allow and applies inside subagents too, and a compound command is refused when one part is denied.
// Anything not allowed needs approval: asked interactively, refused in -p mode.
//
// A harness command pattern maps to shell(<prefix>) when its only wildcard is a trailing "*" or " *";
// anything else has no Copilot form (narrowed: an allow is left out, a deny is lost and recorded).
import type { ShellPolicyIR } from "../../src/ir/types.js";

export interface Flags {
  args: string[]; // ["--allow-tool", "write(src/**)", …]
  narrowed: { constraint: "write-scope" | "never-write" | "shell"; text: string }[];
}

/** `npm test*` → `npm test`; `git push *` → `git push`; null when a wildcard is anywhere else. */
export function commandPrefix(pattern: string): string | null {
  // every role's launcher lists the pipeline-wide denies again: each pattern is read once
  let head = prefixes.get(pattern);
  if (head === undefined) {
    const h = pattern.replace(/ ?\*$/, "");
    head = h && !/[*?]/.test(h) && !/[()]/.test(h) ? h : null;
    prefixes.set(pattern, head);
  }
  return head;
}
const prefixes = new Map<string, string | null>();

/** A glob Copilot's write() can take: no parentheses (they end the rule), no leading "/". */
const writeGlob = (g: string) => !/[()]/.test(g) && !g.startsWith("/");

// Every role's launcher repeats the pipeline's rules: each rule string is made once, so the flags,
// their dedup set and the launcher lines (launcher.ts) look up strings they have seen before.
const rules = { write: new Map<string, string>(), shell: new Map<string, string>() };
function rule(tool: "write" | "shell", arg: string): string {
  let r = rules[tool].get(arg);
  if (r === undefined) rules[tool].set(arg, (r = `${tool}(${arg})`));
  return r;
}

export function writeFlags(allow: readonly string[], deny: readonly string[]): Flags {
  const out: Flags = { args: [], narrowed: [] };
  for (const g of deny) {
    if (writeGlob(g)) out.args.push("--deny-tool", rule("write", g));
    else out.narrowed.push({ constraint: "never-write", text: `never-write ${g} has no write() form and is not denied` });
  }
  for (const g of allow) {
    if (writeGlob(g)) out.args.push("--allow-tool", rule("write", g));
    else out.narrowed.push({ constraint: "write-scope", text: `${g} has no write() form and is left out (narrower)` });
  }
  return out;
}

export function shellFlags(shell: Pick<ShellPolicyIR, "allow" | "deny" | "default"> | null, exceptions: readonly string[] = []): Flags {
  const out: Flags = { args: [], narrowed: [] };
  if (!shell) return out;
  const seen = { "--deny-tool": new Set<string>(), "--allow-tool": new Set<string>() };
  const push = (flag: "--deny-tool" | "--allow-tool", r: string) => {
    if (!seen[flag].has(r)) (seen[flag].add(r), out.args.push(flag, r));
  };
  for (const p of shell.deny) {
    if (exceptions.includes(p)) continue;
    const pre = commandPrefix(p);
    if (pre) push("--deny-tool", rule("shell", pre));
    else out.narrowed.push({ constraint: "shell", text: `deny ${p} has no shell() form: a command it covers runs when an allow rule matches it` });
  }
  if (shell.default === "allow") out.args.push("--allow-tool", "shell");
  else
    for (const p of shell.allow) {
      const pre = commandPrefix(p);
      if (pre) {
        push("--allow-tool", rule("shell", pre));
        // `X` alone is exact only when `X *` (or `X*`) is allowed too: shell(X) matches both
        if (!/\*$/.test(p) && !shell.allow.includes(`${p} *`) && !shell.allow.includes(`${p}*`))
          out.narrowed.push({ constraint: "shell", text: `allow ${p} also allows it with further arguments (broader: shell() rules match leading words)` });
      } else out.narrowed.push({ constraint: "shell", text: `allow ${p} has no shell() form and is left out (narrower)` });
    }
  return out;
}
