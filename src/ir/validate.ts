// Stage 2: schema validation of every loaded document, all issues at once.
import type { Diagnostic } from "../errors.js";
import type { LoadedProject } from "../load/load.js";
import { diagnoseZod, fieldPath } from "../schema/diagnose.js";
import { parsePipelineFast, parseRoleFast } from "../schema/fast-parse.js";
import { pipelineSchema, type PipelineFileData } from "../schema/pipeline.js";
import { roleSchema, type RoleFrontMatterData } from "../schema/role.js";
import { keysAt } from "../schema/shape.js";
import { roleFieldHint } from "../schema/role-rules.js";
import { ID_HINT, ID_PATTERN } from "../schema/vocabulary.js";
import { locate, type YamlSource } from "../load/yaml-source.js";
import type { LoadedRole } from "../load/load.js";

export interface ValidRole {
  loaded: LoadedRole;
  data: RoleFrontMatterData;
}

export interface ValidProject {
  pipeline: PipelineFileData;
  roles: ValidRole[];
}

export function validateProject(project: LoadedProject): { valid?: ValidProject; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [...project.diagnostics];
  let pipeline: PipelineFileData | undefined;
  if (project.pipeline.data !== undefined) {
    const data = project.pipeline.data ?? {};
    pipeline = parsePipelineFast(data);
    const proto = pipeline ? [] : protoKeys(project.pipeline, "E_PIPELINE_SCHEMA");
    if (proto.length) diagnostics.push(...proto);
    else if (!pipeline) {
      const result = pipelineSchema().safeParse(data);
      if (result.success) pipeline = result.data;
      else diagnostics.push(...diagnoseZod(result.error, project.pipeline, "E_PIPELINE_SCHEMA", (p) => keysAt(pipelineSchema(), p)));
    }
  }
  const roles: ValidRole[] = [];
  for (const loaded of project.roles) {
    if (!ID_PATTERN.test(loaded.id)) {
      diagnostics.push({
        code: "E_ROLE_ID",
        severity: "error",
        position: { file: loaded.source.file, line: 1, column: 1 },
        message: `the file name "${loaded.id}" is not a plain role id; rename the file: ${ID_HINT}.`,
      });
      continue;
    }
    if (loaded.source.data === undefined) continue; // YAML errors already reported
    const raw = loaded.source.data ?? {};
    let data = parseRoleFast(raw);
    if (!data) {
      const proto = protoKeys(loaded.source, "E_ROLE_SCHEMA");
      if (proto.length) {
        diagnostics.push(...proto);
        continue;
      }
      const result = roleSchema().safeParse(raw);
      if (!result.success) {
        diagnostics.push(...diagnoseZod(result.error, loaded.source, "E_ROLE_SCHEMA", (p) => keysAt(roleSchema(), p), roleFieldHint));
        continue;
      }
      data = result.data;
    }
    if (data.id !== undefined && data.id !== loaded.id) {
      diagnostics.push({
        code: "E_ROLE_ID",
        severity: "error",
        position: locate(loaded.source, ["id"]),
        field: "id",
        message: `id "${data.id}" differs from the file name "${loaded.id}.md". Remove the id field or rename the file.`,
      });
      continue;
    }
    roles.push({ loaded, data });
  }
  // Whole-program checks still run on what did validate, so one pass reports everything.
  return { valid: pipeline ? { pipeline, roles } : undefined, diagnostics };
}

/**
 * An own "__proto__" key anywhere in a document. zod reads it as the result's prototype and drops
 * it without an issue, so the value would vanish silently: report it at the key instead.
 */
function protoKeys(source: YamlSource, code: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  const walk = (node: unknown, path: PropertyKey[]): void => {
    if (node === null || typeof node !== "object") return;
    if (Array.isArray(node)) {
      node.forEach((item, i) => walk(item, [...path, i]));
      return;
    }
    for (const key of Object.keys(node)) {
      const keyPath = [...path, key];
      if (key === "__proto__")
        out.push({
          code,
          severity: "error",
          position: locate(source, keyPath, true),
          field: fieldPath(keyPath),
          message: `"__proto__" cannot be a key: JavaScript takes it as the object's prototype, so its value would be lost. Rename the key.`,
        });
      else walk((node as Record<string, unknown>)[key], keyPath);
    }
  };
  walk(source.data, []);
  return out;
}
