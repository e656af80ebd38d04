// One pipeline × selected adapters → rendered file sets in memory. No disk writes here.
import type { Adapter } from "./adapter/types.js";
import type { FidelityRecord } from "./adapter/fidelity.js";
import type { PipelineIR } from "./ir/types.js";
import { renderFile, type RenderedFile } from "./emit/render.js";
import { renderMapping } from "./emit/mapping.js";
import { byCodeUnit } from "./compare.js";
import { settleRoleFeatures } from "./adapter/role-features.js";

export interface HostOutput<F extends { path: string } = RenderedFile> {
  adapter: Adapter;
  files: F[]; // sorted by path
  fidelity: FidelityRecord[];
  prompts: Record<string, string>;
}

export const MAPPING_FILE = "MAPPING.md";

/**
 * `keep` receives each file as soon as it is rendered and returns what the output holds of it. A
 * build stages the bytes and keeps their hash, so a file's text lives for one file, not for the
 * whole run (at 1,000 roles, text held to the end is most of what the garbage collector copies).
 */
export function compileHost(pipeline: PipelineIR, adapter: Adapter): HostOutput;
export function compileHost<F extends { path: string }>(pipeline: PipelineIR, adapter: Adapter, keep: (file: RenderedFile) => F): HostOutput<F>;
export function compileHost(pipeline: PipelineIR, adapter: Adapter, keep: (file: RenderedFile) => { path: string } = (f) => f): HostOutput<{ path: string }> {
  const key = memo && memoKey(pipeline);
  const kept = memo?.get(adapter.id);
  if (kept && kept.key === key) return { adapter, files: kept.files.map(keep), fidelity: kept.fidelity, prompts: kept.prompts };
  const rendered: RenderedFile[] = [];
  const output = compileFresh(pipeline, adapter, (f) => {
    if (memo) rendered.push(f);
    return keep(f);
  });
  if (memo && key) memo.set(adapter.id, { key, files: rendered.sort((a, b) => byCodeUnit(a.path, b.path)), fidelity: output.fidelity, prompts: output.prompts });
  return output;
}

// Watch mode keeps each host's last compilation: a rebuild whose pipeline IR (every role, stage and
// setting, positions included) is what that host last compiled reuses its files.
let memo: Map<string, { key: string; files: RenderedFile[]; fidelity: FidelityRecord[]; prompts: Record<string, string> }> | null = null;
export function useCompileMemo(on: boolean): void {
  memo = on ? new Map() : null;
}
const keys = new WeakMap<PipelineIR, string>(); // one serialisation per pipeline, not one per host
function memoKey(pipeline: PipelineIR): string {
  let key = keys.get(pipeline);
  if (key === undefined) keys.set(pipeline, (key = JSON.stringify(pipeline)));
  return key;
}

function compileFresh(pipeline: PipelineIR, adapter: Adapter, keep: (file: RenderedFile) => { path: string }): HostOutput<{ path: string }> {
  const raw = adapter.lower(pipeline);
  const lowered = { ...raw, fidelity: settleRoleFeatures(adapter, pipeline, raw.fidelity) };
  const files: { path: string }[] = [];
  const seen = new Set<string>();
  const add = (f: RenderedFile) => {
    if (seen.has(f.path)) throw new Error(`adapter ${adapter.id} produced ${f.path} twice`);
    if (f.path.startsWith("/") || f.path.split("/").includes("..")) throw new Error(`adapter ${adapter.id} produced a path outside its tree: ${f.path}`);
    seen.add(f.path);
    files.push(keep(f));
  };
  for (const f of lowered.files) add(renderFile(f));
  add({ path: MAPPING_FILE, content: renderMapping(adapter, pipeline, lowered.fidelity, lowered.gaps ?? []), executable: false });
  files.sort((a, b) => byCodeUnit(a.path, b.path));
  return { adapter, files, fidelity: lowered.fidelity, prompts: lowered.prompts };
}
