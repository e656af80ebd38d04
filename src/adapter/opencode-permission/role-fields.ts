// Host-native agent fields a role may set under `hosts: {opencode|kilo: {...}}`: the ConfigAgentV1
// fields OpenCode 1.18.33 (and Kilo, its fork) reads that harness does not write itself (hosts note
// §3.2; any other key is moved into `options` and ignored, so it is refused here).
import type { RoleFeatures } from "../types.js";

export const V1_ROLE_FEATURES: RoleFeatures = {
  leads: true,
  fields: {
    hidden: { type: "boolean" },
    color: { type: "string" },
    top_p: { type: "number" },
    variant: { type: "string" },
  },
  owned: {
    description: "description",
    mode: "isolation (subagent or main)",
    temperature: "temperature",
    prompt: "the role's body",
    steps: "max_turns",
    maxSteps: "max_turns",
    permission: "permissions (write, never_write, shell)",
    tools: "tools",
    disable: "the stages (a role in no stage is an error)",
  },
};
