// Assemble a generated guard script: header comment, imports, the policy as JSON, the shared runtime
// (src/adapter/guard/runtime-*.ts) and the host's shim (its hook input and output).
//
// The runtime parts are String.raw templates of plain JavaScript, pasted verbatim, so the output is
// byte-identical however harness itself runs. Rules for editing them: ES2022 that Node 20 runs as
// CommonJS, no imports (`fs`, `path` are node:fs and node:path); no side effects at the top level
// (tests evaluate them in-process with `new Function`); write "\x60" for a backtick and never the
// dollar-brace pair.
import { sortKeys } from "../../emit/render.js";
import { memoText } from "../../text-memo.js";
import type { GuardPolicy } from "./policy.js";
import { GUARD_COMMANDS_SOURCE } from "./runtime-commands.js";
import { GUARD_DECIDE_SOURCE } from "./runtime-decide.js";
import { GUARD_OFF_SOURCE } from "./runtime-off.js";
import { GUARD_OPTIONS_SOURCE } from "./runtime-options.js";
import { GUARD_PATHS_SOURCE } from "./runtime-paths.js";
import { GUARD_PROGRAMS_SOURCE } from "./runtime-programs.js";
import { GUARD_SHELL_SOURCE } from "./runtime-shell.js";

/** The host-neutral runtime: defines guardDecide(policy, call) and its helpers; no side effects. */
export const GUARD_RUNTIME = [GUARD_SHELL_SOURCE, GUARD_OPTIONS_SOURCE, GUARD_PROGRAMS_SOURCE, GUARD_COMMANDS_SOURCE, GUARD_PATHS_SOURCE, GUARD_DECIDE_SOURCE, GUARD_OFF_SOURCE].map((s) => s.trim()).join("\n\n");

export interface GuardScript {
  header: readonly string[];
  policy: GuardPolicy;
  /** the host's main code: reads its hook input, calls guardDecide(POLICY, call), writes its output */
  shim: string;
}

export function renderGuardScript(s: GuardScript): string {
  const policy = JSON.stringify(sortKeys(s.policy));
  // the whole input: the header lines, the policy and the shim (GUARD_RUNTIME is a constant)
  return memoText(
    () => `guard\u0000${JSON.stringify(s.header)}\u0000${policy}\u0000${s.shim}`,
    () =>
      [
        // a line terminator inside a comment would end it: header lines may hold user strings
        s.header.map((l) => l.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, " ")).map((l) => (l ? `// ${l}` : "//")).join("\n"),
        // CommonJS: Node loads it ~10 ms quicker than an ES module, and it runs before every tool call
        '"use strict";',
        'const fs = require("node:fs");',
        'const path = require("node:path");',
        "",
        // one line of data; JSON.parse of a string literal is quicker to load than an object literal
        `const POLICY = JSON.parse(${JSON.stringify(policy)});`,
        GUARD_RUNTIME,
        "",
        s.shim.trim(),
        "",
      ].join("\n"),
  );
}
