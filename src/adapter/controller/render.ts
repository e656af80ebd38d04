// Assemble a generated run-controller script: header comment, imports, the process model as JSON,
// the shared runtime (runtime-*.ts, host-neutral) and the host's shim (its hook input and output).
// Same rules as the guard's (src/adapter/guard/render.ts): byte-identical output, CommonJS, Node 20.
import { CONTROLLER_DECIDE_SOURCE } from "./runtime-decide.js";
import { CONTROLLER_ORDER_SOURCE } from "./runtime-order.js";
import { CONTROLLER_STAGE_SOURCE } from "./runtime-stage.js";
import { CONTROLLER_STATE_SOURCE } from "./runtime-state.js";
import type { ControllerModel } from "./model.js";
import { STATE_KEY_SOURCE } from "../state-key.js";

/** The host-neutral runtime: defines ctlDecide(M, env, call, loaded) and its helpers; no side effects. */
export const CONTROLLER_RUNTIME = [STATE_KEY_SOURCE, CONTROLLER_STATE_SOURCE, CONTROLLER_ORDER_SOURCE, CONTROLLER_STAGE_SOURCE, CONTROLLER_DECIDE_SOURCE].map((s) => s.trim()).join("\n\n");

export interface ControllerScript {
  header: readonly string[];
  model: ControllerModel;
  shim: string;
  /** a fixed home for the controller's key and records instead of the account's (tests only) */
  home?: string;
}

export function renderControllerScript(s: ControllerScript): string {
  return [
    s.header.map((l) => l.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, " ")).map((l) => (l ? `// ${l}` : "//")).join("\n"),
    '"use strict";',
    'const fs = require("node:fs");',
    'const path = require("node:path");',
    'const os = require("node:os");',
    'const crypto = require("node:crypto");',
    'const cp = require("node:child_process");',
    "",
    `const MODEL = JSON.parse(${JSON.stringify(JSON.stringify(s.model))});`,
    `const CTL_HOME = ${s.home === undefined ? "null" : JSON.stringify(s.home)};`,
    CONTROLLER_RUNTIME,
    "",
    s.shim.trim(),
    "",
  ].join("\n");
}

/** The controller's limits, listed beside its fidelity records in MAPPING.md on every host it runs on. */
export const CONTROLLER_GAPS: readonly string[] = [
  "the run state is signed with a key kept outside the project (~/.local/state/harness/ in the account's home from the passwd database, never $HOME) and its last signature is kept there too, so a program that rewrites, replaces or deletes .harness/controller/ is detected and the run stops; a program that reads that key (code run by an allowed command runs as the same user) could forge it: tamper-evident, not tamper-proof",
  "the work kind is the orchestrator's choice: the controller holds the declared kind's stages in order, not that the kind fits the request",
  "a judgement check reads the stage document's machine-readable `Verdict:` line, not the quality of the judgement behind it; judgement checks of stages that write no document (e.g. Mica's failing-for-the-right-reason) stay instructed",
  "the orchestrator's own run of a check's command is refused only when spelled as the command (its first words; npm's test aliases and --if-present read as one): a run spelled otherwise (cd x && npm test, a filtered run) goes through; the controller runs the checks at stage end and only its results count",
  "a glob artifact (tests, code) is not checked for presence at stage end, nor a worktree role's document (it is in the role's own checkout); the stage-end audit checks what a stage changed",
];
