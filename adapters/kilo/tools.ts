// Kilo 7.7.7 tool ids: OpenCode's V1 ids (`kilo agent list` shows the same permission keys), shared
// in src/adapter/opencode-permission/tools.ts. Kilo's own extra tools (suggest, plan_enter,
// repo_clone, kilo_memory_*, …) are withheld by each agent's leading "*": deny.
export { V1_TOOLS as KILO_TOOLS } from "../../src/adapter/opencode-permission/tools.js";
