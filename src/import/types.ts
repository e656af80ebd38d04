// What `harness import` reads from one host agent file, before roles/ is written.
export type FieldStatus = "mapped" | "host-native" | "not representable" | "added";

export interface FieldReport {
  field: string; // the original's key (or a derived item, e.g. "tools: TodoRead")
  status: FieldStatus;
  /** where it went: "tools", "hosts.claude-code.color", or why it could not go anywhere */
  to: string;
}

export interface ImportedAgent {
  host: string;
  /** the original file, relative to the project root, POSIX */
  path: string;
  /** the name the original gives itself (before it became a role id) */
  name: string;
  description?: string;
  body: string;
  /** harness role fields, in harness order, without title/description/forbidden/done (the writer adds them) */
  role: Record<string, unknown>;
  /** a temperature value the original set (OpenCode, Gemini CLI): the pipeline maps it to a class */
  temperature?: number;
  report: FieldReport[];
  /** an entry inside a shared config file (opencode.json `agent.<name>`): its key there, and the SHA-256 of its value */
  key?: [string, string];
  valueSha?: string;
  /** shared-config entries the host merges into this agent file's agent (same name): install takes each key away */
  merged?: { path: string; key: [string, string]; valueSha: string }[];
}
