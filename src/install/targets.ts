// The project's files as a plan sees them. A shared file may be a link (CLAUDE.md -> AGENTS.md):
// harness reads and writes its target inside the project and keeps the link, so two planned files
// can be one file on disk. Each step reads what the steps before it left there.
import { linkTarget, readCurrent } from "./safe-path.js";

export class Targets {
  private readonly texts = new Map<string, string | null>();
  private readonly seen = new Map<string, string[]>(); // target → the planned paths that lead to it

  constructor(private readonly root: string) {}

  /** The file on disk that `rel` stands for: itself, or a link's target. */
  target(rel: string): string {
    const t = linkTarget(this.root, rel);
    if (!this.seen.get(t)?.includes(rel)) this.seen.set(t, [...(this.seen.get(t) ?? []), rel]);
    return t;
  }

  /** A link's block is named after the link, so it and the target's own block live side by side. */
  blockName(rel: string): string | undefined {
    return this.target(rel) === rel ? undefined : rel;
  }

  read(rel: string): string | null {
    const t = this.target(rel);
    return this.texts.has(t) ? this.texts.get(t)! : readCurrent(this.root, t);
  }

  put(rel: string, text: string | null): void {
    this.texts.set(this.target(rel), text);
  }

  /** Planned files that share one file on disk all show its bytes before and after the whole plan. */
  settle<C extends { path: string; target?: string; before: string | null; after: string | null }>(changes: C[]): C[] {
    for (const c of changes) {
      const t = this.target(c.path);
      if (t === c.path && (this.seen.get(t)?.length ?? 0) < 2) continue;
      c.target = t;
      c.before = readCurrent(this.root, t);
      c.after = this.texts.has(t) ? this.texts.get(t)! : c.before;
    }
    return changes;
  }
}
