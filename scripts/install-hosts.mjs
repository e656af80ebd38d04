#!/usr/bin/env node
// Install the exactly pinned host CLIs (Claude Code, OpenCode, Codex, Kilo) used by the real-host
// test suite, each into its own prefix under .cache/hosts/ (git-ignored):
//
//   .cache/hosts/<sanitized package>@<version>/node_modules/.bin/<bin>
//
// The pins live in test/hosts/versions.json (re-exported with types by test/hosts/versions.ts).
// Idempotent: a host whose binary already answers `--version` with the pinned version is not
// reinstalled. Nothing is added to the project's package.json.
//
// Usage:
//   node scripts/install-hosts.mjs [--check] [--details] [host ...]
//     host       claude-code | opencode | codex | kilo (default: all)
//     --check    do not install; only report which binaries work
//     --details  print the full record per host instead of the path
//
// stdout: one JSON object, host -> absolute binary path:
//           { "claude-code": "/…/.cache/hosts/anthropic-ai__claude-code@2.1.332/node_modules/.bin/claude", … }
//         with --details: host -> { bin, version, package, ok, installed?, versionOutput?, error? }
// stderr: progress. Exit 0 when every requested host works, 1 otherwise, 2 on usage errors.
// npm prints EBADENGINE warnings under Node 20 (claude-code declares node >= 22); they are expected,
// the CLIs are native binaries.

import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const HOSTS_CACHE = path.join(REPO_ROOT, ".cache", "hosts");
export const PINS = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "test", "hosts", "versions.json"), "utf8"));

const INSTALL_TIMEOUT_MS = 10 * 60 * 1000;
const VERSION_TIMEOUT_MS = 60 * 1000;
const LOCK_STALE_MS = 15 * 60 * 1000;

/** "@anthropic-ai/claude-code" -> "anthropic-ai__claude-code" */
export function sanitizePackageName(pkg) {
  return pkg.replace(/^@/, "").replace(/\//g, "__");
}

export function hostPrefix(host) {
  const pin = PINS[host];
  if (!pin) throw new Error(`unknown host '${host}' (known: ${Object.keys(PINS).join(", ")})`);
  return path.join(HOSTS_CACHE, `${sanitizePackageName(pin.package)}@${pin.version}`);
}

export function hostBinPath(host) {
  // a platform package with no `bin` entry (Factory Droid's linux-x64 binary) names its file in `path`
  const pin = PINS[host];
  return pin.path ? path.join(hostPrefix(host), ...pin.path.split("/")) : path.join(hostPrefix(host), "node_modules", ".bin", pin.bin);
}

/** Run `<bin> --version` in a throw-away HOME; resolve to the output if it names the pinned version. */
export function checkBinary(host) {
  const bin = hostBinPath(host);
  const pin = PINS[host];
  if (!fs.existsSync(bin)) return { ok: false, error: `${bin} does not exist` };
  const home = path.join(REPO_ROOT, ".cache", "hosts-scratch", "version-home");
  fs.mkdirSync(path.join(home, "tmp"), { recursive: true });
  const r = spawnSync(bin, ["--version"], {
    cwd: home,
    encoding: "utf8",
    timeout: VERSION_TIMEOUT_MS,
    killSignal: "SIGKILL",
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: home,
      TMPDIR: path.join(home, "tmp"),
      CODEX_HOME: path.join(home, ".codex"),
      XDG_CONFIG_HOME: path.join(home, ".config"),
      XDG_DATA_HOME: path.join(home, ".local", "share"),
      XDG_CACHE_HOME: path.join(home, ".cache"),
      XDG_STATE_HOME: path.join(home, ".local", "state"),
      TERM: "dumb",
      NO_COLOR: "1",
      DISABLE_AUTOUPDATER: "1",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      OPENCODE_DISABLE_AUTOUPDATE: "1",
      OPENCODE_DISABLE_MODELS_FETCH: "1",
      KILO_DISABLE_AUTOUPDATE: "1",
      KILO_DISABLE_MODELS_FETCH: "1",
      KILO_TELEMETRY_LEVEL: "off",
      FACTORY_AIRGAP_ENABLED: "1",
    },
  });
  if (r.error) return { ok: false, error: `${bin} --version: ${r.error.message}` };
  const out = `${r.stdout ?? ""}${r.stderr ?? ""}`;
  if (r.status !== 0) return { ok: false, error: `${bin} --version exited ${r.status}: ${out.trim().slice(0, 400)}` };
  if (!out.includes(pin.version)) return { ok: false, error: `${bin} --version printed '${out.trim().slice(0, 200)}', expected ${pin.version}` };
  const line = out.split("\n").find((l) => l.includes(pin.version)) ?? pin.version;
  return { ok: true, versionOutput: line.trim() };
}

function runNpmInstall(prefix, spec, log) {
  return new Promise((resolve) => {
    fs.mkdirSync(prefix, { recursive: true });
    // A package.json in the prefix keeps npm from looking for a project further up.
    fs.writeFileSync(path.join(prefix, "package.json"), JSON.stringify({ name: "harness-host-cli", private: true }, null, 2) + "\n");
    const args = ["install", "--prefix", prefix, "--no-fund", "--no-audit", "--save-exact", "--loglevel", "warn", spec];
    log(`npm ${args.join(" ")}`);
    const child = spawn("npm", args, { cwd: prefix, stdio: ["ignore", "pipe", "pipe"], env: process.env });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), INSTALL_TIMEOUT_MS);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, output });
    });
    child.on("error", (e) => {
      clearTimeout(timer);
      resolve({ code: -1, signal: null, output: `${output}\n${e.message}` });
    });
  });
}

async function withLock(host, fn) {
  const lock = path.join(HOSTS_CACHE, `.lock-${host}`);
  fs.mkdirSync(HOSTS_CACHE, { recursive: true });
  const deadline = Date.now() + INSTALL_TIMEOUT_MS;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch (e) {
      if (e.code !== "EEXIST") throw e;
      const age = Date.now() - fs.statSync(lock).mtimeMs;
      if (age > LOCK_STALE_MS) { fs.rmSync(lock, { recursive: true, force: true }); continue; }
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${lock}`);
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * Make sure every requested host CLI is installed and answers --version with its pin.
 * @param {{ hosts?: string[], check?: boolean, log?: (s: string) => void }} [opts]
 * @returns {Promise<Record<string, {bin: string, version: string, package: string, ok: boolean, installed?: boolean, versionOutput?: string, error?: string}>>}
 */
export async function installHosts(opts = {}) {
  const hosts = opts.hosts?.length ? opts.hosts : Object.keys(PINS);
  const log = opts.log ?? ((s) => process.stderr.write(`[install-hosts] ${s}\n`));
  for (const h of hosts) if (!PINS[h]) throw new Error(`unknown host '${h}' (known: ${Object.keys(PINS).join(", ")})`);
  const entries = await Promise.all(
    hosts.map(async (host) => {
      const pin = PINS[host];
      const base = { bin: hostBinPath(host), version: pin.version, package: pin.package };
      let chk = checkBinary(host);
      if (chk.ok) {
        log(`${host}: ${pin.package}@${pin.version} already works (${chk.versionOutput}) at ${base.bin}`);
        return [host, { ...base, ok: true, installed: false, versionOutput: chk.versionOutput }];
      }
      if (opts.check) {
        log(`${host}: not usable: ${chk.error}`);
        return [host, { ...base, ok: false, error: chk.error }];
      }
      return withLock(host, async () => {
        chk = checkBinary(host); // another process may have finished it meanwhile
        if (chk.ok) return [host, { ...base, ok: true, installed: false, versionOutput: chk.versionOutput }];
        const prefix = hostPrefix(host);
        fs.rmSync(prefix, { recursive: true, force: true });
        const t0 = Date.now();
        const r = await runNpmInstall(prefix, `${pin.package}@${pin.version}`, (s) => log(`${host}: ${s}`));
        const secs = ((Date.now() - t0) / 1000).toFixed(1);
        if (r.code !== 0) {
          const error = `npm install ${pin.package}@${pin.version} failed (exit ${r.code}${r.signal ? `, ${r.signal}` : ""}) after ${secs}s:\n${r.output.trim().slice(-2000)}`;
          log(`${host}: ${error}`);
          return [host, { ...base, ok: false, error }];
        }
        chk = checkBinary(host);
        if (!chk.ok) {
          const error = `installed in ${secs}s but the binary does not work: ${chk.error}\nnpm output:\n${r.output.trim().slice(-2000)}`;
          log(`${host}: ${error}`);
          return [host, { ...base, ok: false, error }];
        }
        log(`${host}: installed ${pin.package}@${pin.version} in ${secs}s -> ${base.bin} (${chk.versionOutput})`);
        return [host, { ...base, ok: true, installed: true, versionOutput: chk.versionOutput }];
      });
    }),
  );
  return Object.fromEntries(entries);
}

/** host -> binary path (only hosts whose binary works) */
export function binMap(result) {
  return Object.fromEntries(Object.entries(result).filter(([, r]) => r.ok).map(([h, r]) => [h, r.bin]));
}

async function main(argv) {
  const check = argv.includes("--check");
  const details = argv.includes("--details");
  const hosts = argv.filter((a) => !a.startsWith("--"));
  const unknownFlag = argv.find((a) => a.startsWith("--") && a !== "--check" && a !== "--details");
  if (unknownFlag) {
    process.stderr.write(`unknown option ${unknownFlag}\nusage: node scripts/install-hosts.mjs [--check] [--details] [${Object.keys(PINS).join("|")} ...]\n`);
    return 2;
  }
  let result;
  try {
    result = await installHosts({ hosts, check });
  } catch (e) {
    process.stderr.write(`${e.message}\n`);
    return 2;
  }
  process.stdout.write(JSON.stringify(details ? result : binMap(result), null, 2) + "\n");
  const failed = Object.entries(result).filter(([, r]) => !r.ok);
  for (const [host, r] of failed) process.stderr.write(`[install-hosts] ${host}: NOT USABLE: ${r.error}\n`);
  return failed.length === 0 ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).then((code) => process.exit(code));
}
