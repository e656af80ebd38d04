// Diagnostics read like a compiler's: `file:line:col: CODE field: problem. fix.`
import { byCodeUnit } from "./compare.js";

export interface SourcePosition {
  file: string;
  line: number; // 1-based
  column: number; // 1-based
}

export interface Diagnostic {
  code: string; // stable, e.g. E_ROLE_SCHEMA
  severity: "error" | "warning";
  position: SourcePosition;
  field?: string; // dotted path, e.g. permissions.write[2]
  message: string; // what is wrong and how to fix it
}

export function formatDiagnostic(d: Diagnostic): string {
  const where = `${d.position.file}:${d.position.line}:${d.position.column}`;
  const field = d.field ? ` ${d.field}:` : "";
  return `${where}: ${d.severity} ${d.code}${field} ${d.message}`;
}

/** Invalid input or usage: the CLI exits 2 and writes nothing. */
export class InputError extends Error {
  constructor(readonly diagnostics: Diagnostic[]) {
    super(diagnostics.map(formatDiagnostic).join("\n"));
    this.name = "InputError";
  }
}

/** Usage problems that have no source file (unknown host, bad flag combination). */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

export function sortDiagnostics(list: Diagnostic[]): Diagnostic[] {
  return [...list].sort(
    (a, b) =>
      byCodeUnit(a.position.file, b.position.file) ||
      a.position.line - b.position.line ||
      a.position.column - b.position.column ||
      byCodeUnit(a.code, b.code),
  );
}
