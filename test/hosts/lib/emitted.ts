// What harness emits for the repo's own roles: `harness build --roles roles --out <dir>`, run in
// process through the CLI's own build() (same host selection, same files, same executable bits,
// same manifest), into a scratch folder under .cache/ (never into out/, which others may be
// rebuilding). The global setup builds it once per run; see helpers.emittedRoot().
//
// HARNESS_HOSTS_OUT=<dir> checks another build instead (a folder holding <host>/ per host, e.g. out/).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "./env.js";

export const ROLES_DIR = path.join(REPO_ROOT, "roles");
export const EMITTED_ROOT = path.join(REPO_ROOT, ".cache", "hosts-emitted");

export interface Emitted {
  /** folder holding one <host>/ per registered host; "" when the build failed */
  root: string;
  /** registered hosts (adapters/index.ts HOST_IDS) */
  hosts: string[];
  /** build() exit code: 0 ok, 1 unaccepted error-level losses (files written anyway) */
  code?: number;
  /** why nothing could be built (invalid roles, compiler error); the tests fail with it */
  error?: string;
  durationMs: number;
}

/** Regenerate templates.gen.ts files (git-ignored) when one is missing or older than its .hbs, as `npm run build` would. */
function freshTemplates(): void {
  const dirs = [path.join(REPO_ROOT, "src", "emit", "templates")];
  for (const d of fs.readdirSync(path.join(REPO_ROOT, "adapters"), { withFileTypes: true }))
    if (d.isDirectory()) dirs.push(path.join(REPO_ROOT, "adapters", d.name, "templates"));
  const stale = dirs.some((dir) => {
    if (!fs.existsSync(dir)) return false;
    const hbs = fs.readdirSync(dir).filter((n) => n.endsWith(".hbs"));
    if (!hbs.length) return false;
    const gen = path.join(path.dirname(dir), "templates.gen.ts");
    if (!fs.existsSync(gen)) return true;
    const t = fs.statSync(gen).mtimeMs;
    return hbs.some((n) => fs.statSync(path.join(dir, n)).mtimeMs > t);
  });
  if (!stale) return;
  const r = spawnSync(process.execPath, [path.join(REPO_ROOT, "scripts", "precompile-templates.mjs")], { cwd: REPO_ROOT, encoding: "utf8", timeout: 60_000 });
  if (r.status !== 0) throw new Error(`scripts/precompile-templates.mjs failed: ${r.error?.message ?? r.stderr}`);
}

/** Build every registered host from roles/ into <dest>/<host>/ (dest is emptied first). Never throws. */
export async function buildEmitted(dest: string, roles = ROLES_DIR): Promise<Emitted> {
  const t0 = Date.now();
  let hosts: string[] = [];
  try {
    freshTemplates();
    const registry = await import("../../../adapters/index.js");
    hosts = [...registry.HOST_IDS];
    const { build } = await import("../../../src/commands/build.js");
    fs.rmSync(dest, { recursive: true, force: true });
    fs.mkdirSync(dest, { recursive: true });
    const code = await build({ registry: registry.HOSTS, roles, out: dest, host: hosts, quiet: true });
    return { root: dest, hosts, code, durationMs: Date.now() - t0 };
  } catch (e) {
    const err = e as Error;
    // invalid roles or usage: the compiler's own message says it all; anything else: the stack
    const detail = err.name === "InputError" || err.name === "UsageError" ? err.message : (err.stack ?? err.message);
    return { root: "", hosts, error: `harness build --roles ${path.relative(REPO_ROOT, roles)} --out ${path.relative(REPO_ROOT, dest)} failed (${err.name}): ${detail}`, durationMs: Date.now() - t0 };
  }
}
