// Reading and writing the shared structured files harness merges into: JSON (settings.json,
// opencode.json) and TOML (.codex/config.toml). Serializers only, never string templates.
import { parse as tomlParse, stringify as tomlStringify } from "smol-toml";
import { sortKeys } from "../emit/render.js";
import { InstallError } from "./errors.js";
import { isObject, type Data } from "./merge.js";
import { jsonEdit } from "./json-edit.js";
import { hasComments, parseJsonc } from "./jsonc.js";
import { tomlEdit } from "./toml-edit.js";

/** "jsonc": JSON with comments and trailing commas, for a file its host reads that way (opencode.json). */
export type MergeFormat = "json" | "jsonc" | "toml";

export function formatOf(file: string, jsonc = false): MergeFormat | null {
  if (file.endsWith(".jsonc")) return "jsonc";
  if (file.endsWith(".json")) return jsonc ? "jsonc" : "json";
  if (file.endsWith(".toml")) return "toml";
  return null;
}

function lineCol(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split("\n");
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}

/** Parse a project's file; a broken one is an input error with its position, and nothing is written. */
export function parseData(format: MergeFormat, text: string, file: string): Data {
  let data: unknown;
  try {
    data = format === "json" ? JSON.parse(text.replace(/^\uFEFF/, "")) : format === "jsonc" ? parseJsonc(text.replace(/^\uFEFF/, " ")) : tomlParse(text);
  } catch (error) {
    const e = error as Error & { line?: number; column?: number };
    const pos = /position (\d+)/.exec(e.message);
    const at = e.line ? { line: e.line, column: e.column ?? 1 } : pos ? lineCol(text, Number(pos[1])) : { line: 1, column: 1 };
    const what = format === "json" ? "is not valid JSON (its host reads plain JSON: no comments or trailing commas)" : format === "jsonc" ? "is not valid JSON, even with comments and trailing commas" : "is not valid TOML";
    throw new InstallError(file, at.line, at.column, "E_INSTALL_PARSE", `${what}: ${e.message.split("\n")[0]}`, "Fix the file, then run harness install again");
  }
  if (!isObject(data)) throw new InstallError(file, 1, 1, "E_INSTALL_PARSE", `holds ${Array.isArray(data) ? "an array" : typeof data}, not an object`, "Harness merges only into an object at the top level");
  return data;
}

/** The indentation and final newline of an existing JSON file, so a merge keeps its look. */
function jsonStyle(text: string | null): { indent: string; newline: boolean } {
  if (text === null) return { indent: "  ", newline: true };
  const body = text.replace(/^\uFEFF/, "").replace(/\r\n/g, "\n").trim();
  const m = /^[{[][^\n]*\n([ \t]+)\S/.exec(body);
  // A one-line file stays one line, except an empty "{}" that harness fills.
  return { indent: m ? m[1]! : body.includes("\n") || /^\{\s*\}$/.test(body) ? "  " : "", newline: text.endsWith("\n") };
}

/**
 * Text for `data`, written over `previous` (null = the file is new). JSON keeps the file's key order
 * and indentation; TOML edits the text in place so the project's comments and layout survive.
 */
export function renderData(format: MergeFormat, data: Data, previous: string | null, previousData: Data | null, file = "file"): string {
  if (format !== "toml") {
    const style = jsonStyle(previous);
    if (previous !== null && previousData !== null) {
      const edited = jsonEdit(previous, previousData, data, style.indent, format === "jsonc" ? parseJsonc : JSON.parse);
      if (edited !== null) return edited;
      // Serializing again would drop the team's comments: refuse rather than lose them.
      if (format === "jsonc" && hasComments(previous))
        throw new InstallError(file, 1, 1, "E_INSTALL_PARSE", "holds comments, and harness cannot place its change without moving them (the file's layout is one harness does not edit in place)", "Lay the file out one key per line, or take the comments out, then run harness install again");
    }
    const body = JSON.stringify(previous === null ? sortKeys(data) : data, null, style.indent);
    const crlf = previous?.includes("\r\n") ? "\r\n" : "\n";
    const text = crlf === "\n" ? body : body.replace(/\n/g, "\r\n");
    return `${previous?.startsWith("\uFEFF") ? "\uFEFF" : ""}${text}${style.newline ? crlf : ""}`;
  }
  if (previous !== null && previousData !== null) {
    const edited = tomlEdit(previous, previousData, data);
    if (edited !== null) return edited;
  }
  const text = tomlStringify(data);
  return text.endsWith("\n") ? text : `${text}\n`;
}
