// A cold build of a large pipeline spends about a seventh of its CPU encoding, hashing and writing
// the files it stages (14,000 files, 150 MB at 1,000 roles), all of it on the thread that compiles.
// A second thread does that part for files of a host folder that does not exist yet (nothing to
// compare with): the compiler posts each file's text and goes on rendering; before the plans are
// made, `finish` waits for the thread and hands back every file's SHA-256, or its first error.
// The files still land in the staging folder only, so what reaches out/ and when is unchanged.
// A small build never starts it (stage.ts THREAD_AFTER): starting a thread costs more than it saves there.
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from "node:worker_threads";

// Plain CommonJS for `new Worker(..., { eval: true })`, so the bundle needs no second file. The
// compiler encodes the texts itself, into one buffer per batch that it hands over (transferred, not
// copied: a copied string costs more than the thread saves). The hash is fileset.ts's sha256 (one-shot
// crypto.hash where Node has it) of the bytes the file gets.
const THREAD = String.raw`
const { workerData } = require("node:worker_threads");
const fs = require("node:fs");
const path = require("node:path");
const crypto = require("node:crypto");
const { port, flag } = workerData;
const hash = crypto.hash ? (b) => crypto.hash("sha256", b, "hex") : (b) => crypto.createHash("sha256").update(b).digest("hex");
const made = new Set();
const hashes = [];
let error = null;
const done = (value) => { Atomics.store(flag, 0, value); Atomics.notify(flag, 0); };
process.on("exit", () => done(2));
port.on("message", (batch) => {
  if (batch === null) {
    port.postMessage({ hashes, error });
    done(1);
    port.close();
    return;
  }
  const { bytes, files } = batch;
  const all = Buffer.from(bytes);
  for (let i = 0; i < files.length && !error; i += 4) {
    const file = files[i], start = files[i + 1], end = files[i + 2], executable = files[i + 3];
    try {
      const data = all.subarray(start, end);
      hashes.push(hash(data));
      const folder = path.dirname(file);
      if (!made.has(folder)) {
        fs.mkdirSync(folder, { recursive: true });
        made.add(folder);
      }
      fs.writeFileSync(file, data);
      if (executable) fs.chmodSync(file, 0o755);
    } catch (e) {
      error = { message: e.message, code: e.code };
    }
  }
});
`;

/** Files whose hash the thread computes: filled in by `finish`. */
export interface Pending {
  sha256: string;
}

const BATCH_BYTES = 1 << 18; // ~256 KB a message: a message per file would cost more than it moves

export class WriteThread {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly flag = new Int32Array(new SharedArrayBuffer(4));
  private readonly pending: Pending[] = [];
  private bytes = Buffer.allocUnsafeSlow(BATCH_BYTES); // its own ArrayBuffer, so it can be transferred
  private used = 0;
  private files: (string | number | boolean)[] = [];
  private finished = false;

  constructor() {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.worker = new Worker(THREAD, { eval: true, workerData: { port: port2, flag: this.flag }, transferList: [port2] });
    this.worker.unref(); // a build that throws before `finish` must not be kept alive by it
  }

  write(file: string, text: string, executable: boolean, into: Pending): void {
    const most = text.length * 3; // UTF-8 bytes per UTF-16 unit, at most
    if (this.used + most > this.bytes.length) {
      this.send();
      if (most > this.bytes.length) this.bytes = Buffer.allocUnsafeSlow(most);
    }
    const start = this.used;
    this.used += this.bytes.write(text, start, "utf8");
    this.files.push(file, start, this.used, executable);
    this.pending.push(into);
  }

  private send(): void {
    if (!this.files.length) return;
    this.port.postMessage({ bytes: this.bytes.buffer, files: this.files }, [this.bytes.buffer]);
    this.bytes = Buffer.allocUnsafeSlow(BATCH_BYTES);
    this.used = 0;
    this.files = [];
  }

  /** Wait for every posted file to be written; fill in their hashes. Throws the first write's error. */
  finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.send();
    this.port.postMessage(null);
    let answer: { hashes: string[]; error: { message: string; code?: string } | null } | undefined;
    for (;;) {
      const got = receiveMessageOnPort(this.port);
      if (got) {
        answer = got.message;
        break;
      }
      if (Atomics.load(this.flag, 0) === 2) break; // the thread ended without an answer
      Atomics.wait(this.flag, 0, 0, 1000);
    }
    this.port.close();
    void this.worker.terminate();
    if (!answer) throw new Error("harness: the thread that writes the staged files stopped before it finished");
    if (answer.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
    for (let i = 0; i < this.pending.length; i++) this.pending[i]!.sha256 = answer.hashes[i]!;
  }
}
