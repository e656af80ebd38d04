// harness build --watch / install --watch: build (or install) once as usual, then rebuild in this
// process whenever a file in the roles folder changes. Rebuilds are debounced, write atomically
// like every build, and print one line each with their time; an input error is printed in the
// compiler format and nothing is written until the input is fixed. Ctrl-C closes the watcher and
// exits 0. The process keeps what the last rebuild parsed (src/load/parse-memo.ts) and compiled
// (src/compile.ts), so a rebuild redoes only what its change touched.
import { existsSync, watch, type FSWatcher } from "node:fs";
import path from "node:path";
import { InputError, UsageError } from "../errors.js";
import { displayPath } from "../load/load.js";
import { useParseMemo } from "../load/parse-memo.js";
import { useCompileMemo } from "../compile.js";
import { useStageMemo } from "../stage-memo.js";
import { useTextMemo } from "../text-memo.js";
import { color, err, out } from "../ui.js";
import type { BuildOptions } from "./build.js";
import type { InstallOptions } from "./install.js";

/** How long a burst of saves (an editor's temp file, rename, chmod) waits before one rebuild. */
export const DEBOUNCE_MS = 40;

export interface WatchTarget {
  roles: string;
  /** The command once, printing as usual (the first run). */
  first(): Promise<number>;
  /** The command again, quietly: the exit code and a short summary for the rebuild line. */
  again(): Promise<{ code: number; summary: string }>;
}

/** Runs until SIGINT (or `signal` aborts); resolves with the exit code 0. */
export async function watchRoles(target: WatchTarget, signal?: AbortSignal): Promise<number> {
  useParseMemo(true);
  useCompileMemo(true);
  useStageMemo(true);
  useTextMemo(true);
  const rolesDir = path.resolve(target.roles);
  await report(async () => target.first(), null);
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let dirty = false;
  const changed = new Set<string>();

  const rebuild = async () => {
    if (running) {
      dirty = true; // one more rebuild when this one ends
      return;
    }
    // An editor's temporary files come and go within the burst: name what is there, or a role that went.
    const names = [...changed].filter((n) => existsSync(path.join(rolesDir, n)) || n.endsWith(".md") || n.endsWith(".yaml")).sort();
    changed.clear();
    running = report(async () => target.again(), names)
      .catch((error: unknown) => {
        err(`harness: internal error: ${(error as Error).stack ?? String(error)}`);
      })
      .finally(() => {
        running = null;
        if (dirty) {
          dirty = false;
          schedule();
        }
      });
    await running;
  };
  const schedule = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(fire, DEBOUNCE_MS);
  };
  // A process that was not scheduled for a while wakes with its timer due and more events queued:
  // let the event loop read them first (they schedule a new timer), and rebuild only if none came.
  const fire = () => {
    timer = null;
    setImmediate(() => {
      if (timer === null) void rebuild();
    });
  };

  let watcher: FSWatcher;
  try {
    watcher = watch(rolesDir, (_event, name) => {
      if (name) changed.add(String(name));
      schedule();
    });
  } catch {
    throw new UsageError(`${displayPath(rolesDir)}: cannot watch this folder. Pass --roles with a folder that holds pipeline.yaml.`);
  }
  // The handlers are in place before the line that says so (a Ctrl-C right after it must stop cleanly).
  let stopped!: () => void;
  const done = new Promise<void>((resolve) => (stopped = resolve));
  const stop = () => {
    watcher.close();
    if (timer) clearTimeout(timer);
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
    // A rebuild in flight finishes (its writes are atomic either way) before the process ends.
    void (running ?? Promise.resolve()).then(() => stopped());
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  signal?.addEventListener("abort", stop);
  err(color.dim(`watching ${displayPath(rolesDir)}/ (Ctrl-C stops)`));
  await done;
  useParseMemo(false);
  useCompileMemo(false);
  useStageMemo(false);
  useTextMemo(false);
  err(color.dim("stopped watching"));
  return 0;
}

/** Run one build; input errors are printed, not thrown (the watcher waits for the fix). */
async function report(run: () => Promise<number | { code: number; summary: string }>, names: string[] | null): Promise<void> {
  const started = performance.now();
  try {
    const result = await run();
    if (names === null) return;
    const ms = Math.round(performance.now() - started);
    const { code, summary } = result as { code: number; summary: string };
    const line = `${stamp()} rebuilt in ${ms} ms (${names.join(", ") || "roles"}): ${summary}`;
    out(code === 0 ? line : color.yellow(line));
  } catch (error) {
    if (!(error instanceof InputError) && !(error instanceof UsageError)) throw error;
    err(error.message);
    const ms = Math.round(performance.now() - started);
    const n = error instanceof InputError ? error.diagnostics.filter((d) => d.severity === "error").length : 1;
    out(color.red(`${stamp()} ${names === null ? "build" : "rebuild"} failed in ${ms} ms: ${n} error(s); nothing was written. Fix and save; the watcher rebuilds.`));
  }
}

const stamp = () => new Date().toISOString().slice(11, 19);

/** `harness build --watch`. */
export async function watchBuild(options: BuildOptions): Promise<number> {
  const { build, buildOnce } = await import("./build.js");
  const { Staging } = await import("../stage.js");
  let staging: InstanceType<typeof Staging> | undefined;
  const done = watchRoles(
    {
      roles: options.roles,
      first: () => build(options),
      again: async () => {
        staging ??= new Staging(path.resolve(options.out));
        const { code, plans } = await buildOnce({ ...options, quiet: true, staging });
      const written = plans.reduce((n, p) => n + p.write.length, 0);
      const removed = plans.reduce((n, p) => n + p.remove.length, 0);
      const where = plans.filter((p) => p.write.length || p.remove.length).map((p) => p.host);
      const what = written || removed ? `${written} written, ${removed} removed${where.length ? ` in ${where.join(", ")}` : ""}` : "no change";
        return { code, summary: code ? `${what}; exit 1 (the lines above say why)` : what };
      },
    },
  );
  try {
    return await done;
  } finally {
    staging?.discard();
  }
}

/** `harness install --watch`. */
export async function watchInstall(options: InstallOptions): Promise<number> {
  const { install } = await import("./install.js");
  return watchRoles({
    roles: options.roles ?? "roles",
    first: () => install(options),
    again: async () => {
      const code = await install({ ...options, quiet: true });
      return { code, summary: code ? "installed; something was kept (the lines above say what)" : `installed into ${displayPath(path.resolve(options.into ?? "."))}` };
    },
  });
}
