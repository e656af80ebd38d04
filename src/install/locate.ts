// Where in a project's file a key or block sits, so install's warnings read `file:line:col:` like
// the compiler's. Best effort: it points at the first match along the key path, else at 1:1.
import { BLOCK_BEGIN } from "./block.js";

export interface Problem {
  /** W_HAND_EDIT (an owned part was edited), W_CONFLICT (a project key differs), W_NOT_OWNED (a file harness did not write), W_DUPLICATE_ENTRY / W_ORPHANED_ENTRY (an array entry naming a harness file that harness does not account for) */
  code: "W_HAND_EDIT" | "W_CONFLICT" | "W_NOT_OWNED" | "W_DUPLICATE_ENTRY" | "W_ORPHANED_ENTRY";
  line: number;
  column: number;
  message: string;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function lineCol(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split("\n");
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}

export function problemAt(code: Problem["code"], file: string, text: string | null, message: string, keys: readonly string[] = []): Problem {
  if (text === null) return { code, line: 1, column: 1, message };
  if (!file.endsWith(".json") && !file.endsWith(".toml")) {
    const at = text.indexOf(BLOCK_BEGIN.slice(0, 18));
    return { code, ...(at >= 0 ? lineCol(text, at) : { line: 1, column: 1 }), message };
  }
  const toml = file.endsWith(".toml");
  let pos = 0;
  let found = -1;
  for (const key of keys) {
    const tokens = toml ? [`(?<=^|[\\s\\[.])${escape(key)}`, escape(JSON.stringify(key))] : [escape(JSON.stringify(key))];
    let best = -1;
    for (const t of tokens) {
      const re = new RegExp(`${t}${toml ? "\\s*[=.\\]]" : "\\s*:"}`, "gm");
      re.lastIndex = pos;
      const m = re.exec(text);
      if (m && (best < 0 || m.index < best)) best = m.index;
    }
    if (best < 0) break;
    found = best;
    pos = best + 1;
  }
  return { code, ...(found >= 0 ? lineCol(text, found) : { line: 1, column: 1 }), message };
}
