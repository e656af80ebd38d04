// rolePrompt renders a role's limits once per pipeline, vocabulary and role. The memo must never
// hand one pipeline's or one host's text to another: each key is varied here on its own.
import { describe, expect, it } from "vitest";
import { rolePrompt, type HostVocabulary } from "../src/emit/process.js";
import type { PipelineIR } from "../src/ir/types.js";
import { PEBBLE_ROLES } from "./helpers/cli.js";
import { readRoles } from "./helpers/compile.js";

const vocab = (note: string): HostVocabulary => ({ delegate: () => "", runInMain: () => "", askHuman: "", request: "", roleNotes: () => [note] });

describe("rolePrompt", () => {
  const pipeline = readRoles(PEBBLE_ROLES);
  const role = pipeline.roles.find((r) => !r.shell?.deny)!;

  it("differs per vocabulary for the same role", () => {
    expect(rolePrompt(pipeline, role, vocab("note A"))).toContain("note A");
    expect(rolePrompt(pipeline, role, vocab("note B"))).toContain("note B");
  });

  it("differs per pipeline when the same role object is shared", () => {
    const v = vocab("note");
    const before = rolePrompt(pipeline, role, v);
    const other: PipelineIR = { ...pipeline, policies: { ...pipeline.policies, shellDeny: ["only-this-command *"] } };
    const after = rolePrompt(other, role, v);
    expect(after).toContain("`only-this-command *`");
    expect(after).not.toBe(before);
    expect(rolePrompt(pipeline, role, v)).toBe(before);
  });
});
