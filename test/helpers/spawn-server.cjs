// The fork server of test/helpers/spawn-setup.ts: a small Node process that runs, one at a time,
// the spawnSync calls a test worker sends it, and answers with their results. Why: a fork copies the
// forking process's page tables and makes its pages copy-on-write, so starting git from a test
// worker that has grown to hundreds of MB (isolate: false keeps every file's module graph) costs
// that worker about ten times what it costs this ~50 MB process (31 ms against 3.5 ms, measured).
// Requests and answers go on two FIFOs (argv[2]/req and argv[2]/res), read and written with
// blocking calls: the worker's spawnSync stays synchronous, as the real one is. Each is a u32
// length, a JSON header, then raw bytes (the input; the outputs, as Buffers: the worker applies the
// call's encoding, as Node's spawnSync does last), so git's output is not copied through base64.
"use strict";
const cp = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const dir = process.argv[2];
const req = fs.openSync(path.join(dir, "req"), "r");
const res = fs.openSync(path.join(dir, "res"), "w");

function readExactly(n) {
  const buf = Buffer.allocUnsafe(n);
  let got = 0;
  while (got < n) {
    const k = fs.readSync(req, buf, got, n - got, null);
    if (k === 0) return null; // the worker closed its end: it exited
    got += k;
  }
  return buf;
}

function writeAll(buf) {
  let off = 0;
  while (off < buf.length) off += fs.writeSync(res, buf, off, buf.length - off);
}

for (;;) {
  const head = readExactly(4);
  if (!head) break;
  const body = readExactly(head.readUInt32LE(0));
  if (!body) break;
  const { file, args, options, input } = JSON.parse(body.toString("utf8"));
  if (input >= 0) options.input = input ? readExactly(input) : Buffer.alloc(0);
  const r = cp.spawnSync(file, args, options);
  const error = r.error ? { message: r.error.message, ...r.error } : undefined;
  const outs = r.output ? r.output.map((o) => (o == null ? -1 : o.length)) : null;
  const json = Buffer.from(JSON.stringify({ pid: r.pid, status: r.status, signal: r.signal, outs, error }), "utf8");
  const len = Buffer.allocUnsafe(4);
  len.writeUInt32LE(json.length, 0);
  writeAll(Buffer.concat([len, json, ...(r.output ?? []).filter((o) => o != null)]));
}
