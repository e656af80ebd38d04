// YAML documents that remember where each value came from, so every diagnostic can name a line and column.
import { LineCounter, parseDocument, isMap, isSeq, isScalar, isPair, type Document, type Node } from "yaml";
import type { Diagnostic, SourcePosition } from "../errors.js";

export interface YamlSource {
  file: string;
  doc: Document;
  data: unknown;
  /** Lines before the YAML text in its file (1 for front matter after the opening `---`). */
  lineOffset: number;
  lineCounter: LineCounter;
}

export function parseYamlSource(file: string, text: string, lineOffset: number): { source: YamlSource; errors: Diagnostic[] } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true, strict: true });
  const errors: Diagnostic[] = [];
  // The first error is the real one; the rest are usually its echoes.
  for (const e of [...doc.errors.slice(0, 1), ...doc.warnings]) {
    const at = lineCounter.linePos(e.pos[0]);
    errors.push({
      code: "E_YAML",
      severity: e.name === "YAMLWarning" ? "warning" : "error",
      position: { file, line: at.line + lineOffset, column: at.col },
      message: `${firstLine(e.message)}. Fix the YAML syntax here (quote values that contain ": ", "#", or start with "@", "*", "&", "!").`,
    });
  }
  const data = errors.some((e) => e.severity === "error") ? undefined : doc.toJS({ maxAliasCount: 100 });
  return { source: { file, doc, data, lineOffset, lineCounter }, errors };
}

function firstLine(message: string): string {
  return (message.split("\n")[0] ?? message).replace(/[.\s]+$/, "");
}

/** The position of the deepest node that exists along `path`; the key itself when `atKey`. */
export function locate(source: YamlSource, path: readonly PropertyKey[], atKey = false): SourcePosition {
  let node: unknown = source.doc.contents;
  let best: Node | null = (node as Node) ?? null;
  let keyNode: Node | null = null;
  for (const segment of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(segment));
      if (!pair) break;
      keyNode = pair.key as Node;
      node = pair.value;
      best = (pair.value as Node | null) ?? keyNode;
    } else if (isSeq(node) && typeof segment === "number") {
      const item = node.items[segment];
      if (!item) break;
      keyNode = null;
      node = item;
      best = item as Node;
    } else break;
  }
  const target = atKey && keyNode ? keyNode : best;
  const offset = target?.range?.[0] ?? 0;
  const at = source.lineCounter.linePos(offset);
  return { file: source.file, line: at.line + source.lineOffset, column: at.col };
}

/** Positions of every map key, by dotted path, for later diagnostics (losses name the field). */
export function fieldPositions(source: YamlSource): Record<string, { line: number; column: number }> {
  const out: Record<string, { line: number; column: number }> = {};
  const walk = (node: unknown, prefix: string, depth: number) => {
    if (!isMap(node) || depth > 3) return;
    for (const pair of node.items) {
      if (!isPair(pair) || !isScalar(pair.key)) continue;
      const key = prefix ? `${prefix}.${String(pair.key.value)}` : String(pair.key.value);
      const at = source.lineCounter.linePos((pair.key as Node).range?.[0] ?? 0);
      out[key] = { line: at.line + source.lineOffset, column: at.col };
      walk(pair.value, key, depth + 1);
    }
  };
  walk(source.doc.contents, "", 0);
  return out;
}
