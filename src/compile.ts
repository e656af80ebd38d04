// One pipeline × selected adapters → rendered file sets in memory. No disk writes here.
import type { Adapter } from "./adapter/types.js";
import type { FidelityRecord } from "./adapter/fidelity.js";
import type { PipelineIR } from "./ir/types.js";
import { renderFile, type RenderedFile } from "./emit/render.js";
import { renderMapping } from "./emit/mapping.js";
import { byCodeUnit } from "./compare.js";

export interface HostOutput {
  adapter: Adapter;
  files: RenderedFile[]; // sorted by path
  fidelity: FidelityRecord[];
  prompts: Record<string, string>;
}

export const MAPPING_FILE = "MAPPING.md";

export function compileHost(pipeline: PipelineIR, adapter: Adapter): HostOutput {
  const lowered = adapter.lower(pipeline);
  const files = lowered.files.map(renderFile);
  files.push({ path: MAPPING_FILE, content: renderMapping(adapter, pipeline, lowered.fidelity, lowered.gaps ?? []), executable: false });
  const seen = new Set<string>();
  for (const f of files) {
    if (seen.has(f.path)) throw new Error(`adapter ${adapter.id} produced ${f.path} twice`);
    if (f.path.startsWith("/") || f.path.split("/").includes("..")) throw new Error(`adapter ${adapter.id} produced a path outside its tree: ${f.path}`);
    seen.add(f.path);
  }
  files.sort((a, b) => byCodeUnit(a.path, b.path));
  return { adapter, files, fidelity: lowered.fidelity, prompts: lowered.prompts };
}
