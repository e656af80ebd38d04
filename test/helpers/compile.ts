// In-process compilation for unit, golden and parse-back tests.
import { HOSTS, HOST_IDS } from "../../adapters/index.js";
import { compileHost, type HostOutput } from "../../src/compile.js";
import { readPipeline } from "../../src/ir/normalize.js";
import type { PipelineIR } from "../../src/ir/types.js";

export function readRoles(dir: string): PipelineIR {
  return readPipeline(dir, { knownHosts: HOST_IDS }).pipeline;
}

export async function compileAll(dir: string, hosts: readonly string[] = HOST_IDS): Promise<{ pipeline: PipelineIR; outputs: HostOutput[] }> {
  const pipeline = readRoles(dir);
  const outputs = await Promise.all(hosts.map(async (h) => compileHost(pipeline, await HOSTS[h]!())));
  return { pipeline, outputs };
}
