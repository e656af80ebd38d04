// The happy path's validator. A valid project is most runs; building the zod schemas and running
// them costs ~12 ms of a ~190 ms build. These functions accept only documents the zod schemas
// (role.ts, pipeline.ts) accept and return exactly what zod returns: the same values, defaults and
// key order. Anything else, every invalid document and any input they do not model (explicit
// undefined, objects that are not plain, numbers outside what they check), returns undefined and
// goes to zod, which reports it with its messages and locations. test/fast-parse.test.ts checks
// the equivalence on the bundled processes and on random documents.
import { LOSS_CODES } from "../adapter/fidelity.js";
import type { PipelineFileData } from "./pipeline.js";
import type { RoleFrontMatterData } from "./role.js";
import { globProblem, oneLine, tidySpaces } from "./rules.js";
import { ARTIFACT_KINDS, ARTIFACT_REF, CONSTRAINTS, EFFORTS, ID_PATTERN, ISOLATIONS, MEMORIES, MODEL_TIERS, SHELL_ACTIONS, TEMPERATURES } from "./vocabulary.js";
import { modelProblem, toolProblem } from "./role-rules.js";

const NOT_FAST = Symbol("not fast");
type Data = Record<string, unknown>;
type Parse<T = unknown> = (v: unknown) => T;

function no(): never {
  throw NOT_FAST;
}

function attempt<T>(parse: () => T): T | undefined {
  try {
    return parse();
  } catch (e) {
    if (e === NOT_FAST) return undefined;
    throw e;
  }
}

/** An object as YAML makes them (zod also takes others, such as null-prototype ones: those go to zod). */
const plain = (v: unknown): Data => (typeof v === "object" && v !== null && Object.getPrototypeOf(v) === Object.prototype ? (v as Data) : no());

/** A plain object holding only the given keys, none of them undefined (zod keeps such a key). */
function object(v: unknown, keys: readonly string[]): Data {
  const o = plain(v);
  for (const k of Object.keys(o)) if (!keys.includes(k) || o[k] === undefined) no();
  return o;
}

const has = (o: Data, key: string) => Object.prototype.hasOwnProperty.call(o, key);

/** Output fields in the schema's order: required, optional (left out when absent) or defaulted. */
type Field = [key: string, parse: Parse, absent?: "optional" | (() => unknown)];
function fields(spec: readonly Field[]): Parse<Data> {
  const keys = spec.map(([k]) => k);
  return (v) => {
    const o = object(v, keys);
    const out: Data = {};
    for (const [key, parse, absent] of spec) {
      if (has(o, key)) out[key] = parse(o[key]);
      else if (absent === undefined) no();
      else if (absent !== "optional") out[key] = absent();
    }
    return out;
  };
}

const str = (v: unknown): string => (typeof v === "string" ? v : no());
const id: Parse<string> = (v) => (ID_PATTERN.test(str(v)) ? (v as string) : no());
const text: Parse<string> = (v) => {
  const t = str(v).trim();
  return t.length ? t : no();
};
const glob: Parse<string> = (v) => (str(v).length && globProblem(v as string) === undefined ? (v as string) : no());
const pathEntry: Parse<string> = (v) => {
  const ref = ARTIFACT_REF.exec(str(v));
  if (ref) return ID_PATTERN.test(ref[1]!) ? (v as string) : no();
  return glob(v);
};
const command: Parse<string> = (v) => (str(v).length && tidySpaces(v as string) && oneLine(v as string) ? (v as string) : no());
const oneOf =
  (values: readonly string[]): Parse<string> =>
  (v) =>
    values.includes(str(v)) ? (v as string) : no();
const bool: Parse<boolean> = (v) => (typeof v === "boolean" ? v : no());
const int =
  (min: number, max = Number.MAX_SAFE_INTEGER): Parse<number> =>
  (v) =>
    typeof v === "number" && Number.isSafeInteger(v) && v >= min && v <= max ? v : no();
const number =
  (min: number, max: number): Parse<number> =>
  (v) =>
    typeof v === "number" && Number.isFinite(v) && v >= min && v <= max ? v : no();
const array =
  <T>(item: Parse<T>, min = 0): Parse<T[]> =>
  (v) => {
    if (!Array.isArray(v) || Object.getPrototypeOf(v) !== Array.prototype || v.length < min) no();
    const out: T[] = [];
    for (let i = 0; i < v.length; i++) out.push(item(v[i]));
    return out;
  };
const record =
  (key: Parse<string>, value: Parse): Parse<Data> =>
  (v) => {
    const o = plain(v);
    const out: Data = {};
    for (const k of Object.keys(o)) out[key(k)] = value(o[k]);
    return out;
  };
const nullable =
  (parse: Parse): Parse =>
  (v) =>
    v === null ? null : parse(v);
const empty = () => [];
const tool: Parse<string> = (v) => (toolProblem(str(v)) === undefined ? (v as string) : no());
const modelRef: Parse<string> = (v) => (modelProblem(str(v)) === undefined ? (v as string) : no());
const SERVER = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
const server: Parse<string> = (v) => (SERVER.test(str(v)) ? (v as string) : no());
/** role.ts's FieldMap: a copy of a plain object, values as they are; a "__proto__" key is left to zod's error. */
const anyRecord: Parse<Data> = (v) => {
  const o = plain(v);
  return Object.prototype.hasOwnProperty.call(o, "__proto__") ? no() : { ...o };
};
const mcpServers: Parse = (v) => (Array.isArray(v) ? array(server)(v) : record(server, anyRecord)(v));

const shellRules = fields([
  ["allow", array(command), empty],
  ["ask", array(command), empty],
  ["deny", array(command), empty],
  ["default", oneOf(SHELL_ACTIONS), () => "ask"],
]);

const role = fields([
  ["id", id, "optional"],
  ["title", text],
  ["description", text],
  ["isolation", oneOf(ISOLATIONS)],
  ["worktree", bool, () => false],
  ["model", modelRef, "optional"],
  ["temperature", oneOf(TEMPERATURES), "optional"],
  ["tools", array(tool, 1)],
  [
    "permissions",
    fields([
      ["write", array(pathEntry), empty],
      ["never_write", array(pathEntry), empty],
      ["shell", shellRules, "optional"],
    ]),
    () => ({ write: [], never_write: [] }),
  ],
  ["reads", array(id), empty],
  ["writes", array(id), empty],
  ["forbidden", text],
  ["done", text],
  ["max_turns", int(1), "optional"],
  ["effort", oneOf(EFFORTS), "optional"],
  ["starts", array(id, 1), "optional"],
  ["skills", array(text), "optional"],
  ["mcp_servers", mcpServers, "optional"],
  ["memory", oneOf(MEMORIES), "optional"],
  ["initial_prompt", text, "optional"],
  ["background", bool, "optional"],
  ["hosts", record(id, anyRecord), "optional"],
]);

const stage = fields([
  ["id", id],
  ["role", id],
  ["description", text, "optional"],
  ["when", id, "optional"],
  [
    "gate",
    fields([
      ["approve", id],
      ["ask", text],
    ]),
    "optional",
  ],
  ["repair_for", id, "optional"],
]);
const parallelGroup = fields([["parallel", array(stage, 2)]]);
// The two shapes are disjoint (both strict; only a group has "parallel"), so zod's union picks the same one.
const stageEntry: Parse = (v) => (typeof v === "object" && v !== null && has(v as Data, "parallel") ? parallelGroup(v) : stage(v));

const artifactFields = fields([
  ["description", text],
  ["kind", oneOf(ARTIFACT_KINDS), "optional"],
  ["paths", array(glob, 1), "optional"],
]);
/** pipeline.ts's refinement: a message has no paths, a file has some. */
const artifact: Parse<Data> = (v) => {
  const a = artifactFields(v);
  return (a.kind === "message") === (a.paths === undefined) ? a : no();
};

const pipeline = fields([
  ["name", id],
  ["title", text],
  ["description", text],
  ["argument_hint", text, () => "<request>"],
  [
    "artifacts",
    record(id, artifact),
  ],
  ["conditions", record(id, text), () => ({})],
  [
    "work_kinds",
    record(
      id,
      fields([
        ["description", text],
        ["stages", array(id, 1)],
      ]),
    ),
  ],
  ["stages", array(stageEntry, 1)],
  [
    "commands",
    record(
      id,
      fields([
        ["run", text],
        ["description", text],
        ["after", array(id), empty],
      ]),
    ),
    () => ({}),
  ],
  [
    "checks",
    array(
      fields([
        ["id", id],
        ["after", id],
        ["description", text],
        ["command", id, "optional"],
        ["expect", oneOf(["pass", "fail"]), () => "pass"],
        ["retries", int(0, 10), () => 1],
        ["on_failure", (v) => (v === "human" ? v : id(v)), () => "human"],
      ]),
    ),
    empty,
  ],
  [
    "loop",
    fields([
      ["stages", array(id, 2)],
      ["max_rounds", int(1, 10)],
      ["on_exhausted", text],
    ]),
    "optional",
  ],
  ["budget", fields([["tokens", int(1)]]), "optional"],
  ["briefing", array(text, 1), () => ["why the task matters", "which artifacts to read", "what done looks like", "what is off limits"]],
  [
    "policies",
    fields([
      ["shell_deny", array(command), empty],
      ["never_write", array(glob), empty],
      ["orchestrator_shell", array(command), empty],
      ["nested_agents", bool, () => false],
      ["max_hops", int(1), "optional"],
      ["scope", oneOf(["pipeline", "repository"]), () => "pipeline"],
    ]),
    () => ({ shell_deny: [], never_write: [], orchestrator_shell: [], nested_agents: false, scope: "pipeline" }),
  ],
  ["temperatures", record(oneOf(TEMPERATURES), number(0, 2)), () => ({ cold: 0.1, neutral: 0.3, warm: 0.6 })],
  ["hosts", record(id, nullable(fields([["models", record(oneOf(MODEL_TIERS), text), "optional"]]))), () => ({})],
  ["targets", array(id, 1), "optional"],
  [
    "accepted_losses",
    array(
      fields([
        ["host", id],
        ["role", id, "optional"],
        ["constraint", oneOf(CONSTRAINTS)],
        ["loss", oneOf(Object.keys(LOSS_CODES)), "optional"],
        ["reason", text],
      ]),
    ),
    empty,
  ],
  ["required_enforcement", array(oneOf(CONSTRAINTS)), empty],
]);

/** What `roleSchema().safeParse(data)` returns as data when it succeeds, or undefined: ask zod. */
export const parseRoleFast = (data: unknown): RoleFrontMatterData | undefined => attempt(() => role(data) as unknown as RoleFrontMatterData);

/** What `pipelineSchema().safeParse(data)` returns as data when it succeeds, or undefined: ask zod. */
export const parsePipelineFast = (data: unknown): PipelineFileData | undefined => attempt(() => pipeline(data) as unknown as PipelineFileData);
