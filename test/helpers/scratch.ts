// Where scratch git repositories go: tmpfs (/dev/shm) when it is there and writable, else
// os.tmpdir(). The audit and controller tests make and remove a git repository per test, and each
// hook they run writes index copies and state; on a disk (this machine's /tmp is ext4 mounted with
// discard) that was ~40% of those files' system time. Not for projects the guard judges: it refuses
// any path through /dev (test/guard), so those stay under os.tmpdir().
import { accessSync, constants, statSync } from "node:fs";
import os from "node:os";

function pick(): string {
  try {
    if (statSync("/dev/shm").isDirectory()) {
      accessSync("/dev/shm", constants.W_OK);
      return "/dev/shm";
    }
  } catch {
    // no /dev/shm
  }
  return os.tmpdir();
}

/** The folder for scratch repositories (an explicit HARNESS_TEST_SCRATCH wins). */
export const SCRATCH = process.env.HARNESS_TEST_SCRATCH || pick();
