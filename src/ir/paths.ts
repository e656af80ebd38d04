// Warnings for paths that are valid globs but almost certainly mean something else: `src` written
// for the folder matches one file called `src`, so the role could write nothing inside it.
import path from "node:path";
import { isDirectory } from "../cache/probes.js";
import type { Diagnostic } from "../errors.js";
import { locate } from "../load/yaml-source.js";
import type { YamlSource } from "../load/yaml-source.js";
import { ARTIFACT_REF } from "../schema/vocabulary.js";
import type { ValidProject } from "./validate.js";

/** Names that are folders in nearly every project; a file of that name is the rare case. */
const FOLDER_NAMES = new Set(["src", "lib", "app", "apps", "test", "tests", "spec", "docs", "doc", "packages", "scripts", "bin", "build", "dist", "out", "config", "public", "assets", "e2e", "infra", "deploy", "notes", "drafts", "articles", "content", "pages", "components", "internal", "cmd", "pkg"]);


/** A plain path with no glob syntax that is a folder here, or is named like one. */
export function looksLikeFolder(entry: string, cwd: string): boolean {
  if (/[*?[\]{}]/.test(entry) || ARTIFACT_REF.test(entry)) return false;
  return isDirectory(path.resolve(cwd, entry)) || FOLDER_NAMES.has(path.posix.basename(entry));
}

export function pathWarnings(project: ValidProject, pipelineSource: YamlSource, cwd = process.cwd()): Diagnostic[] {
  const out: Diagnostic[] = [];
  const check = (entry: string, source: YamlSource, at: (string | number)[], field: string) => {
    if (!looksLikeFolder(entry, cwd)) return;
    out.push({
      code: "W_PATH_FOLDER",
      severity: "warning",
      position: locate(source, at),
      field,
      message: `"${entry}" matches one file named ${entry}, not the folder's contents. Write "${entry}/**" for everything in the folder.`,
    });
  };
  for (const [name, artifact] of Object.entries(project.pipeline.artifacts))
    (artifact.paths ?? []).forEach((p, i) => check(p, pipelineSource, ["artifacts", name, "paths", i], `artifacts.${name}.paths[${i}]`));
  project.pipeline.policies.never_write.forEach((p, i) => check(p, pipelineSource, ["policies", "never_write", i], `policies.never_write[${i}]`));
  for (const role of project.roles)
    (["write", "never_write"] as const).forEach((key) =>
      role.data.permissions[key].forEach((p, i) => check(p, role.loaded.source, ["permissions", key, i], `permissions.${key}[${i}]`)),
    );
  return out;
}
