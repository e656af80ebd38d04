// OpenCode 1.18.33 tool ids (hosts note §3.6; `opencode debug agent <name>` → "tools"): the V1
// permission keys shared with Kilo, in src/adapter/opencode-permission/tools.ts.
export { V1_TOOLS as OPENCODE_TOOLS } from "../../src/adapter/opencode-permission/tools.js";
