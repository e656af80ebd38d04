// harness report: one static page, every value escaped, deterministic. The render in a real headless
// Chromium (Debian's `chromium`) is test/report-browser.slow.test.ts (npm run test:slow).
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { harness } from "./helpers/cli.js";
import { reportProject } from "./helpers/report-project.js";

let project: string;
let html: string;
beforeAll(async () => {
  ({ project, html } = await reportProject());
});

describe("harness report", () => {
  it("is one self-contained page: no script, nothing from the network, every input escaped", () => {
    expect(html.startsWith("<!doctype html>\n")).toBe(true);
    expect(html).not.toMatch(/<script|<link|<img|<iframe|<[a-z][^>]*\ssrc=|url\(|@import|https?:\/\//i);
    expect(html).toContain("add a --json flag &lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    expect(html).toContain("Not shown (not a run record): .harness/runs/notes.json");
  });

  it("writes the same bytes again (no clock, stable order), and check ignores it", async () => {
    expect((await harness(["report", "--out", "out/again.html", "-q"], project)).stdout).toBe("");
    expect(readFileSync(path.join(project, "out/again.html"), "utf8")).toBe(html);
    expect((await harness(["build", "-q"], project)).code).toBe(0);
    expect((await harness(["check", "-q"], project)).code).toBe(0);
  });

  it("shows each cell's level, how, loss and proof, and links the host's MAPPING.md", () => {
    expect(html).toMatch(/<td class="cell guard" title="guard: \.claude\/hooks\/harness-guard\.cjs[^"]*">/);
    expect(html).toContain('<a href="claude-code/MAPPING.md">claude-code: guard refuses jade writing tests/</a>');
    expect(html).toMatch(/<span class="code">L_SCOPE_INSTRUCTED<\/span>/);
    expect(html).toMatch(/<h2 id="accepted">Accepted losses \(\d+\)<\/h2><table>/);
  });
});
