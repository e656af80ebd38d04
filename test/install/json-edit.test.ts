// JSON edited in place: the project's layout stays around harness's additions, which come out exactly.
import { describe, expect, it } from "vitest";
import { jsonEdit } from "../../src/install/json-edit.js";
import { parseJsonc } from "../../src/install/jsonc.js";
import type { Data } from "../../src/install/merge.js";

const round = (text: string, after: Data) => {
  const before = JSON.parse(text) as Data;
  const edited = jsonEdit(text, before, after, "  ");
  expect(edited).not.toBeNull();
  expect(JSON.parse(edited!)).toEqual(after);
  expect(jsonEdit(edited!, after, before, "  ")).toBe(text);
  return edited!;
};

describe("jsonEdit", () => {
  it("appends keys and entries in each container's own style, and cuts them out exactly", () => {
    const text = '{\n  "model": "opus",\n  "allow": ["a"],\n  "hooks": {\n    "Pre": [\n      { "m": 1 }\n    ]\n  }\n}\n';
    const edited = round(text, { model: "opus", allow: ["a", "b"], hooks: { Pre: [{ m: 1 }, { m: 2 }] }, env: { X: "1" } });
    expect(edited).toBe('{\n  "model": "opus",\n  "allow": ["a", "b"],\n  "hooks": {\n    "Pre": [\n      { "m": 1 },\n      {\n        "m": 2\n      }\n    ]\n  },\n  "env": {\n    "X": "1"\n  }\n}\n');
  });

  it("fills an empty object or array the way JSON.stringify would, and empties it back", () => {
    expect(round('{\n  "a": {},\n  "b": []\n}\n', { a: { k: 1 }, b: ["x"] })).toBe('{\n  "a": {\n    "k": 1\n  },\n  "b": [\n    "x"\n  ]\n}\n');
    expect(round("{}\n", { k: 1 })).toBe('{\n  "k": 1\n}\n');
  });

  it("replaces a value that changes kind (OpenCode's edit: ask shorthand)", () => {
    round('{\n  "permission": {\n    "edit": "ask"\n  }\n}\n', { permission: { edit: { "*": "ask", ".env": "deny" } } });
  });

  it("returns null rather than guess: CRLF, one-line files", () => {
    expect(jsonEdit('{\r\n  "a": 1\r\n}\r\n', { a: 1 }, { a: 1, b: 2 }, "  ")).toBeNull();
    expect(jsonEdit('{"a":1}', { a: 1 }, { a: 1, b: 2 }, "")).toBeNull();
  });

  it("cuts neighbouring entries as one span (install taking two adopted agents out of opencode.json), comments kept", () => {
    expect(jsonEdit('{\n  "l": [1, 2, 3]\n}\n', { l: [1, 2, 3] }, { l: [3] }, "  ")).toBe('{\n  "l": [3]\n}\n');
    const text = '{\n  // mine\n  "agent": {\n    "a": { "x": 1 },\n    "b": { "y": 2 }\n  },\n  "m": 1\n}\n';
    expect(jsonEdit(text, { agent: { a: { x: 1 }, b: { y: 2 } }, m: 1 }, { agent: {}, m: 1 }, "  ", parseJsonc)).toBe('{\n  // mine\n  "agent": {},\n  "m": 1\n}\n');
    expect(jsonEdit(text, { agent: { a: { x: 1 }, b: { y: 2 } }, m: 1 }, { agent: { b: { y: 2 } }, m: 1 }, "  ", parseJsonc)).toBe('{\n  // mine\n  "agent": {\n    "b": { "y": 2 }\n  },\n  "m": 1\n}\n');
  });
});
