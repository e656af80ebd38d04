// Stage 1: read `roles/` into YAML sources with positions. Reads files; decides nothing.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { decodeText } from "./encoding.js";
import path from "node:path";
import type { Diagnostic } from "../errors.js";
import { InputError } from "../errors.js";
import { parseYamlSource, type YamlSource } from "./yaml-source.js";
import { projectTop } from "../project-root.js";
import { memoParse, nextParseRound } from "./parse-memo.js";
import { nextTextRound } from "../text-memo.js";

export const PIPELINE_FILE = "pipeline.yaml";

export interface LoadedRole {
  id: string; // file name without .md
  source: YamlSource;
  body: string;
  bodyLine: number; // 1-based line where the body starts
}

export interface LoadedProject {
  dir: string;
  pipeline: YamlSource;
  roles: LoadedRole[];
  /** Ids of every role file, including those whose front matter could not be read. */
  roleIds: string[];
  diagnostics: Diagnostic[];
}

/** Display paths are relative to the working directory, POSIX-style, so errors are clickable and stable. */
export function displayPath(file: string, cwd = process.cwd()): string {
  const rel = path.relative(cwd, file);
  return (rel && !rel.startsWith("..") ? rel : file).split(path.sep).join("/");
}

/** E_ROLES_DIR's fix. From a subfolder of a project, `harness init` belongs in the project root, never here. */
function initHint(dir: string, dirShown: string, cwd: string): string {
  const top = projectTop(cwd);
  const rest = `or pass --roles with a folder that holds ${PIPELINE_FILE} and one .md file per role.`;
  if (dirShown === "roles" && top !== path.resolve(cwd) && path.resolve(dir) === path.join(path.resolve(cwd), "roles"))
    return `cannot read the roles folder, here or in any folder above. This is a subfolder of the project at ${top}: run \`harness init\` there to write a starter pipeline, ${rest}`;
  return `cannot read the roles folder. Run \`harness init${dirShown === "roles" ? "" : ` --roles ${dirShown}`}\` to write a starter pipeline there, ${rest}`;
}

export function loadProject(dir: string, cwd = process.cwd()): LoadedProject {
  const diagnostics: Diagnostic[] = [];
  const dirShown = displayPath(dir, cwd);
  let entries: string[];
  try {
    if (!statSync(dir).isDirectory()) throw new Error("not a directory");
    entries = readdirSync(dir).sort();
  } catch {
    throw new InputError([
      {
        code: "E_ROLES_DIR",
        severity: "error",
        position: { file: dirShown, line: 1, column: 1 },
        message: initHint(dir, dirShown, cwd),
      },
    ]);
  }
  const pipelinePath = path.join(dir, PIPELINE_FILE);
  if (!entries.includes(PIPELINE_FILE)) {
    throw new InputError([
      {
        code: "E_NO_PIPELINE",
        severity: "error",
        position: { file: displayPath(pipelinePath, cwd), line: 1, column: 1 },
        message: `missing pipeline file. Create ${PIPELINE_FILE} in ${dirShown} (see README "Pipeline format").`,
      },
    ]);
  }
  const pipelineText = normalizeText(readFileSync(pipelinePath, "utf8"));
  nextParseRound();
  nextTextRound();
  const shownPipeline = displayPath(pipelinePath, cwd);
  const parsedPipeline = memoParse(shownPipeline, pipelineText, 0, () => parseYamlSource(shownPipeline, pipelineText, 0));
  diagnostics.push(...parsedPipeline.errors);

  const roles: LoadedRole[] = [];
  const roleIds: string[] = [];
  for (const name of entries) {
    if (!name.endsWith(".md") || name.toLowerCase() === "readme.md") continue;
    const file = path.join(dir, name);
    const shown = displayPath(file, cwd);
    const decoded = decodeText(shown, readFileSync(file));
    roleIds.push(name.slice(0, -3));
    if ("diagnostic" in decoded) {
      diagnostics.push(decoded.diagnostic);
      continue;
    }
    const text = normalizeText(decoded.text);
    const role = splitRoleFile(shown, name.slice(0, -3), text, diagnostics);
    if (role) roles.push(role);
  }
  return { dir, pipeline: parsedPipeline.source, roles, roleIds, diagnostics };
}

/** LF only, no BOM: the same bytes on every platform. */
export function normalizeText(text: string): string {
  return text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
}

function splitRoleFile(file: string, id: string, text: string, diagnostics: Diagnostic[]): LoadedRole | null {
  if (!/^---[ \t]*\n/.test(text)) {
    diagnostics.push({
      code: "E_NO_FRONT_MATTER",
      severity: "error",
      position: { file, line: 1, column: 1 },
      message: "a role file must start with YAML front matter. Put a line \"---\", the role's fields, and another \"---\" before the prompt.",
    });
    return null;
  }
  const split = splitFrontMatter(text);
  const closed = /\n---[ \t]*(\n|$)/.test(text.slice(3));
  if (!closed) {
    diagnostics.push({
      code: "E_NO_FRONT_MATTER",
      severity: "error",
      position: { file, line: 1, column: 1 },
      message: "front matter is never closed. Add a line \"---\" after the role's fields.",
    });
    return null;
  }
  const frontMatter = split.matter.replace(/^\n/, "");
  const parsed = memoParse(file, frontMatter, 1, () => parseYamlSource(file, frontMatter, 1));
  diagnostics.push(...parsed.errors);
  const bodyLine = 1 + frontMatter.split("\n").length + 1;
  return { id, source: parsed.source, body: split.content.replace(/^\n+/, "").trimEnd() + "\n", bodyLine };
}

/**
 * The front matter after the opening "---" up to the first "\n---", and the text after that line
 * break: the split gray-matter made before it was dropped (it loaded js-yaml 3 and esprima).
 */
export function splitFrontMatter(text: string): { matter: string; content: string } {
  const rest = text.slice(3);
  const close = rest.indexOf("\n---");
  if (close < 0) return { matter: rest, content: "" };
  let content = rest.slice(close + 4);
  if (content[0] === "\r") content = content.slice(1);
  if (content[0] === "\n") content = content.slice(1);
  return { matter: rest.slice(0, close), content };
}
