// `harness run` on Kilo: the OpenCode-family driver (src/adapter/opencode-permission/runner.ts)
// with Kilo's program and its inline config variable (KILO_CONFIG_CONTENT in Kilo 7.7.7's code,
// which also keeps it out of the environment of the commands an agent runs).
import { v1Runner } from "../../src/adapter/opencode-permission/runner.js";

export const kilo = v1Runner({ host: "kilo", program: "kilo", binEnv: "KILO_BIN", overlayEnv: "KILO_CONFIG_CONTENT", display: "Kilo" });
