// In-process compilation for unit, golden and parse-back tests.
import { HOSTS, HOST_IDS } from "../../adapters/index.js";
import { compileHost, type HostOutput } from "../../src/compile.js";
import { readPipeline } from "../../src/ir/normalize.js";
import type { PipelineIR } from "../../src/ir/types.js";

// One read per roles folder for a worker's test files (the suite runs with isolate: false, so
// module state outlives a test file). Each caller gets its own deep copy: a test that edits the IR it
// was given (a role's write scope, the never-write list) cannot leak the edit into another file's
// compilation. A folder a test edits is a fresh temp folder, so its path is new.
const read = new Map<string, PipelineIR>();
export function readRoles(dir: string): PipelineIR {
  let pipeline = read.get(dir);
  if (!pipeline) read.set(dir, (pipeline = readPipeline(dir, { knownHosts: HOST_IDS }).pipeline));
  return structuredClone(pipeline);
}

export async function compileAll(dir: string, hosts: readonly string[] = HOST_IDS): Promise<{ pipeline: PipelineIR; outputs: HostOutput[] }> {
  const pipeline = readRoles(dir);
  const outputs = await Promise.all(hosts.map(async (h) => compileHost(pipeline, await HOSTS[h]!())));
  return { pipeline, outputs };
}
