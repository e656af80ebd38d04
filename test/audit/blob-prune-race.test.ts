// The blob prune of one stage's stop against another stage's start running beside it (r6's race): the
// start reuses a stored blob the prune's listing found unnamed. The prune's own code is run with a
// file system that lets the start act at each step of it, so every interleaving is tried, one by one.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { AUDIT_BLOBS_SOURCE } from "../../src/adapter/audit/runtime-blobs.js";
import { AUDIT_IO_SOURCE } from "../../src/adapter/audit/runtime-io.js";

interface Blobs {
  auditBlobUse(dir: string): void;
  auditBlobPut(b: Buffer, store: boolean): string;
  auditBlobBegin(key: string): string | null;
  auditBlobEnd(mark: string | null): void;
  auditBlobPrune(dir: string): void;
}

/** The runtime's blob code, with every fs call first counted, and the start run at call number `at`. */
function loadBlobs(at: number, onCall: () => void): { blobs: Blobs; calls: () => number } {
  let n = 0;
  const hooked = new Proxy(fs, {
    get(target, key) {
      const v = Reflect.get(target, key) as unknown;
      if (typeof v !== "function") return v;
      return (...args: unknown[]) => {
        if (n++ === at) onCall();
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  const make = new Function("fs", "path", "crypto", "process",
    `${AUDIT_IO_SOURCE}\n${AUDIT_BLOBS_SOURCE}\nreturn { auditBlobUse, auditBlobPut, auditBlobBegin, auditBlobEnd, auditBlobPrune };`);
  return { blobs: make(hooked, path, crypto, process) as Blobs, calls: () => n };
}

let dir = "";
beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), "harness-prune-")); });
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const BYTES = Buffer.from("{\"hooks\":{}}\n");
const HASH = crypto.createHash("sha256").update(BYTES).digest("hex");

/** A blob stored by an ended stage and named by nothing now; an old one beside it, of no stage. */
function scene(): void {
  fs.mkdirSync(path.join(dir, "blobs"), { recursive: true });
  fs.writeFileSync(path.join(dir, "blobs", HASH), BYTES);
  const old = path.join(dir, "blobs", "0".repeat(64));
  fs.writeFileSync(old, "old\n");
  const t = new Date(Date.now() - 3600_000);
  fs.utimesSync(old, t, t);
}

/** The other stage's start, whole: mark, reuse (or store) the blob, write the state naming it, unmark. */
function start(b: Blobs): void {
  b.auditBlobUse(dir);
  const mark = b.auditBlobBegin("s2");
  const h = b.auditBlobPut(BYTES, true);
  fs.writeFileSync(path.join(dir, "s2.state"), JSON.stringify({ guarded: [{ p: "~/.claude/settings.json", h }] }));
  b.auditBlobEnd(mark);
}

it("a start run at any step of a prune keeps the blob its state names, with the right bytes", () => {
  scene();
  const probe = loadBlobs(-1, () => undefined);
  probe.blobs.auditBlobPrune(dir);
  const steps = probe.calls();
  expect(steps).toBeGreaterThan(5);
  for (let at = 0; at <= steps; at++) {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir);
    scene();
    let ran = false;
    const starter = loadBlobs(-1, () => undefined).blobs;
    const { blobs } = loadBlobs(at, () => { ran = true; start(starter); });
    blobs.auditBlobPrune(dir);
    if (!ran) start(starter);
    const kept = path.join(dir, "blobs", HASH);
    expect(fs.existsSync(kept), `start at fs call ${at} of the prune`).toBe(true);
    expect(fs.readFileSync(kept).equals(BYTES)).toBe(true);
    expect(fs.readdirSync(path.join(dir, "blobs")).filter((n) => n.startsWith(".gone-"))).toEqual([]);
  }
});

it("a prune run at any step of a start leaves the start's blob in place, with the right bytes", () => {
  scene();
  const probe = loadBlobs(-1, () => undefined);
  start(probe.blobs);
  const steps = probe.calls();
  expect(steps).toBeGreaterThan(3);
  for (let at = 0; at <= steps; at++) {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir);
    scene();
    const pruner = loadBlobs(-1, () => undefined).blobs;
    const { blobs } = loadBlobs(at, () => pruner.auditBlobPrune(dir));
    start(blobs);
    const kept = path.join(dir, "blobs", HASH);
    expect(fs.existsSync(kept), `prune at fs call ${at} of the start`).toBe(true);
    expect(fs.readFileSync(kept).equals(BYTES)).toBe(true);
  }
});

it("with no start beside it, the prune removes every blob nothing names, and the folder", () => {
  scene();
  loadBlobs(-1, () => undefined).blobs.auditBlobPrune(dir);
  expect(fs.existsSync(path.join(dir, "blobs"))).toBe(false);
});

it("a named blob stays, and a start under way keeps the fresh unnamed ones but not the old", () => {
  scene();
  fs.writeFileSync(path.join(dir, "s1.state"), JSON.stringify({ guarded: [{ h: HASH }] }));
  loadBlobs(-1, () => undefined).blobs.auditBlobPrune(dir);
  expect(fs.readdirSync(path.join(dir, "blobs"))).toEqual([HASH]);
  fs.rmSync(path.join(dir, "s1.state"));
  fs.writeFileSync(path.join(dir, "blobs", ".start-1-s3"), "");
  const old = path.join(dir, "blobs", "1".repeat(64));
  fs.writeFileSync(old, "old\n");
  const t = new Date(Date.now() - 3600_000);
  fs.utimesSync(old, t, t);
  loadBlobs(-1, () => undefined).blobs.auditBlobPrune(dir);
  expect(fs.readdirSync(path.join(dir, "blobs")).sort()).toEqual([".start-1-s3", HASH].sort());
});
