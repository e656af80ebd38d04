// The real host programs load what the compiler emitted into out/<host>/, with zero complaints,
// and list every emitted agent. A host CLI that cannot be installed or run is a FAILURE.
// The only accepted reason not to load a host's tree is that out/<host>/ does not exist yet
// (describe.runIf below; to be made mandatory once the compiler lands).
import { describe, expect, it } from "vitest";
import { formatLoad, loadTree } from "./lib/index.js";
import { hasOut, hostBin, hostInstallMap, outDir } from "./helpers.js";
import { HOST_IDS, HOST_VERSIONS } from "./versions.js";

describe("pinned host CLIs", () => {
  for (const host of HOST_IDS) {
    it(`${host} ${HOST_VERSIONS[host]} is installed and answers --version`, () => {
      hostBin(host); // fails (not skips) when unusable
      const r = hostInstallMap()[host];
      expect(r.version).toBe(HOST_VERSIONS[host]);
      expect(r.versionOutput).toContain(HOST_VERSIONS[host]);
    });
  }
});

for (const host of HOST_IDS) {
  describe.runIf(hasOut(host))(`out/${host} loads in the real ${host}`, () => {
    it("loads with zero complaints and lists every emitted agent", async () => {
      const r = await loadTree(host, outDir(host), { bin: hostBin(host) });
      const msg = formatLoad(r);
      expect(r.declared.agents.length, `out/${host} declares no agents\n${msg}`).toBeGreaterThan(0);
      expect(r.complaints, msg).toEqual([]);
      for (const a of r.declared.agents) expect(r.agents, msg).toContain(a);
      for (const c of r.declared.commands) expect(r.commands, msg).toContain(c);
    });
  });
}
