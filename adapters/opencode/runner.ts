// `harness run` on OpenCode: the OpenCode-family driver (src/adapter/opencode-permission/runner.ts)
// with OpenCode's program and its inline config variable (measured on 1.18.33).
import { v1Runner } from "../../src/adapter/opencode-permission/runner.js";

export const opencode = v1Runner({ host: "opencode", program: "opencode", binEnv: "OPENCODE_BIN", overlayEnv: "OPENCODE_CONFIG_CONTENT", display: "OpenCode" });
