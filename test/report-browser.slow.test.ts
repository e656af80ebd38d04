// harness report rendered by a real headless Chromium (Debian's `chromium`), whose DOM must hold every
// host and role of the bundled pipeline and the recorded run, and whose screenshot must show the
// matrix's level colours. Slow (a browser start per check): npm run test:slow.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "./helpers/cli.js";
import { countColour, decodePng } from "./helpers/png.js";
import { HOSTS, reportProject, ROLES, RUN_ID } from "./helpers/report-project.js";

const CHROMIUM = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((f) => existsSync(f));

let project: string;
beforeAll(async () => {
  ({ project } = await reportProject());
});

function chromium(args: string[]): { stdout: string; code: number | null } {
  const profile = tempDir("harness-chromium-");
  const r = spawnSync(CHROMIUM!, ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", `--user-data-dir=${profile}`, ...args], { encoding: "utf8", timeout: 90_000, maxBuffer: 1 << 26 });
  return { stdout: r.stdout, code: r.status };
}

describe("harness report", () => {
  it.skipIf(!CHROMIUM && !process.env.HARNESS_REQUIRE_BROWSER)("renders in headless Chromium with every host, role and the run", () => {
    expect(CHROMIUM, "install Debian's chromium (apt-get install chromium)").toBeDefined();
    const url = `file://${path.join(project, "out/report.html")}`;
    const dom = chromium(["--dump-dom", url]);
    expect(dom.code).toBe(0);
    for (const host of HOSTS) expect(dom.stdout).toContain(`<table class="matrix" data-host="${host}">`);
    for (const role of ROLES) expect(dom.stdout.match(new RegExp(`<tr data-role="${role}">`, "g"))).toHaveLength(HOSTS.length);
    expect(dom.stdout).toContain(`<section class="run" data-run="${RUN_ID}">`);
    expect(dom.stdout).toMatch(/<div class="bar done" style="left:0\.00%;width:20\.00%" title="spec \(flint\): done">spec<\/div>/);
    expect(dom.stdout).toMatch(/✗<\/span> tests-pass \(exit 1, expect pass\)/);
    expect(dom.stdout).not.toContain("<img");

    const shot = path.join(tempDir("harness-shot-"), "report.png");
    expect(chromium(["--window-size=1400,1800", `--screenshot=${shot}`, url]).code).toBe(0);
    const image = decodePng(readFileSync(shot));
    expect([image.width, image.height]).toEqual([1400, 1800]);
    // The matrix is painted in its level colours (native, guard, instructed, lost), not blank.
    for (const colour of ["#c9f0d1", "#cfe3ff", "#ffe9b8", "#ffc9c9"]) expect(countColour(image, colour), colour).toBeGreaterThan(5_000);
  }, 200_000);
});
