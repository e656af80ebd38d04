// Lookups by id over a pipeline's IR, indexed once per pipeline. The emitters ask for a stage's
// role, its parallel siblings and an artifact's paths for every stage of every host; a linear
// search there made a build quadratic in roles (~0.2 s of a 1,000-role build). The IR is
// read-only after normalize, so an index built on first use stays true.
import type { ArtifactIR, PipelineIR, RoleIR, StageIR } from "./types.js";

interface Index {
  roles: Map<string, RoleIR>;
  artifacts: Map<string, ArtifactIR>;
  groups: Map<number, StageIR[]>;
}

const indexes = new WeakMap<PipelineIR, Index>();

/** The first entry per key, as Array.prototype.find would return it. */
function byKey<K, V>(items: readonly V[], key: (item: V) => K): Map<K, V> {
  const map = new Map<K, V>();
  for (const item of items) if (!map.has(key(item))) map.set(key(item), item);
  return map;
}

function index(pipeline: PipelineIR): Index {
  let found = indexes.get(pipeline);
  if (!found) {
    const groups = new Map<number, StageIR[]>();
    for (const stage of pipeline.stages) {
      const group = groups.get(stage.group);
      if (group) group.push(stage);
      else groups.set(stage.group, [stage]);
    }
    found = { roles: byKey(pipeline.roles, (r) => r.id), artifacts: byKey(pipeline.artifacts, (a) => a.name), groups };
    indexes.set(pipeline, found);
  }
  return found;
}

export const roleById = (pipeline: PipelineIR, id: string): RoleIR | undefined => index(pipeline).roles.get(id);
export const artifactByName = (pipeline: PipelineIR, name: string): ArtifactIR | undefined => index(pipeline).artifacts.get(name);
/** The other stages of `stage`'s parallel group, in pipeline order. */
export const parallelSiblings = (pipeline: PipelineIR, stage: StageIR): StageIR[] => (index(pipeline).groups.get(stage.group) ?? []).filter((s) => s.id !== stage.id);
