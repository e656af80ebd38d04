// Options by allow list (issue 22, item 1), against the programs themselves: the properties ask each
// program's real parser (GNU sort/uniq/file, xxd, tree, tsc, npm) and check that the guard never allows a
// spelling the program reads as a write, an exec or an option outside the safe list. A process per
// spelling: npm run test:slow. The red team's tables and vitest's parser are options.test.ts.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PEBBLE_ROLES } from "../helpers/cli.js";
import { readRoles } from "../helpers/compile.js";
import { bashScene } from "./helpers.js";

const pipeline = readRoles(PEBBLE_ROLES);
const { root, kind } = bashScene(pipeline);

// ---------------------------------------------------------------- real parsers

const has = (bin: string) => spawnSync("sh", ["-c", `command -v ${bin}`]).status === 0;
/** long and short options a GNU program lists in --help */
function helpOptions(bin: string): { long: string[]; short: string[] } {
  const help = execFileSync(bin, ["--help"], { encoding: "utf8" });
  return { long: [...new Set(help.match(/--[a-z][a-z0-9-]+/g) ?? [])], short: [...new Set((help.match(/(?<![\w-])-[A-Za-z](?![\w-])/g) ?? []).map((s) => s[1]!))] };
}
/** a word a GNU program may read as an option: a full or abbreviated long name, with or without a value, or a cluster */
const gnuWord = (o: { long: string[]; short: string[] }) =>
  fc.oneof(
    fc.tuple(fc.constantFrom(...o.long), fc.nat(), fc.constantFrom("", "=OUT", " OUT")).map(([n, k, v]) => (n.slice(0, 3 + (k % (n.length - 2))) + v).split(" ")),
    fc.tuple(fc.array(fc.constantFrom(...o.short), { minLength: 1, maxLength: 3 }), fc.constantFrom("", "OUT", " OUT")).map(([cs, v]) => `-${cs.join("")}${v}`.split(" ")),
    fc.constantFrom(["OUT"], ["in.txt"], ["--"]),
  );

describe.each([
  { bin: "sort", extra: [] as string[] },
  { bin: "uniq", extra: [] },
  { bin: "xxd", extra: [] },
  { bin: "file", extra: [] },
].filter((c) => has(c.bin)))("the guard against the real $bin", ({ bin }) => {
  it("never allows a spelling that makes it write a file", () => {
    const o = bin === "xxd" ? { long: ["-revert", "-cols", "-len", "-postscript", "-include"], short: [..."abcCeEgilnoprsuRd"] } : helpOptions(bin);
    const dir = fs.mkdtempSync(path.join(root, `${bin}-`));
    let wrote = 0;
    fc.assert(
      fc.property(fc.array(gnuWord(o), { minLength: 1, maxLength: 3 }), (words) => {
        const args = [...words.flat(), "in.txt"];
        for (const f of fs.readdirSync(dir)) fs.rmSync(path.join(dir, f), { recursive: true, force: true });
        fs.writeFileSync(path.join(dir, "in.txt"), "b\na\na\n");
        fs.writeFileSync(path.join(dir, "OUT"), "0\tstring\tHELLO\thello\n"); // a magic source file for `file -C -m OUT`
        const before = new Map(fs.readdirSync(dir).map((f) => [f, fs.readFileSync(path.join(dir, f), "utf8")]));
        spawnSync(bin, args, { cwd: dir, input: "b\na\n", timeout: 3000, stdio: ["pipe", "ignore", "ignore"] });
        const after = fs.readdirSync(dir);
        const changed = after.length !== before.size || after.some((f) => before.get(f) !== fs.readFileSync(path.join(dir, f), "utf8"));
        if (changed) wrote++;
        if (changed) expect(kind("jade", [bin, ...args]), `${bin} ${args.join(" ")} wrote a file`).not.toBe("allow");
      }),
      { numRuns: 200, seed: 22 },
    );
    expect(wrote, "the generator never produced a writing spelling: the property tests nothing").toBeGreaterThan(0);
  }, 120_000);
});

/** The files in dir and their bytes (the folder holds only files). */
const snapshot = (dir: string) => new Map(fs.readdirSync(dir).map((f) => [f, fs.readFileSync(path.join(dir, f), "utf8")]));
const changedSince = (dir: string, before: Map<string, string>) => {
  const after = fs.readdirSync(dir);
  return after.length !== before.size || after.some((f) => before.get(f) !== fs.readFileSync(path.join(dir, f), "utf8"));
};

describe.runIf(has("xxd"))("the guard against the real xxd, words after its input file", () => {
  // third red team (r3): xxd stops reading options at its first file, so `xxd in.txt -p` writes a file named -p
  it("never allows a spelling that makes it write a file", () => {
    const dir = fs.mkdtempSync(path.join(root, "xxd-after-"));
    const word = fc.constantFrom(["-p"], ["-c", "8"], ["-l", "4"], ["-u"], ["OUT"], ["-"], ["--"], ["-r"]);
    let wrote = 0;
    fc.assert(
      fc.property(fc.array(word, { maxLength: 2 }), fc.array(word, { minLength: 1, maxLength: 2 }), (pre, post) => {
        const args = [...pre.flat(), "in.txt", ...post.flat()];
        for (const f of fs.readdirSync(dir)) fs.rmSync(path.join(dir, f), { recursive: true, force: true });
        fs.writeFileSync(path.join(dir, "in.txt"), "b\na\n");
        const before = snapshot(dir);
        spawnSync("xxd", args, { cwd: dir, input: "", timeout: 3000, stdio: ["pipe", "ignore", "ignore"] });
        if (!changedSince(dir, before)) return;
        wrote++;
        expect(kind("jade", ["xxd", ...args]), `xxd ${args.join(" ")} wrote a file`).not.toBe("allow");
      }),
      { numRuns: 120, seed: 22, examples: [[[], [["-p"]]]] },
    );
    expect(wrote).toBeGreaterThan(0);
  }, 120_000);
});

describe.runIf(has("tree"))("the guard against the real tree", () => {
  // tree.c's own loop: in a cluster each value letter (-P -I -L -o -H -T) takes the next word in order,
  // -L its digits first (2.1.3+); long names exact, a value with = or as the next word
  const letters = [..."adfiNpsDJXLPIoRHTx"];
  const long = ["--noreport", "--noreportx", "--sort", "--sortx", "--charset", "--timefmt", "--du", "--filelimit", "--fromfile", "--dirsfirst"];
  const word = fc.oneof(
    fc.tuple(fc.array(fc.constantFrom(...letters), { minLength: 1, maxLength: 3 }), fc.constantFrom("", "2")).map(([cs, d]) => [`-${cs.join("")}${d}`]),
    fc.tuple(fc.constantFrom(...long), fc.constantFrom("", "=name", " OUT")).map(([n, v]) => (n + v).split(" ")),
    fc.constantFrom(["OUT"], ["2"], ["*.txt"], ["."], ["--"]),
  );
  it("never allows a spelling that makes it write a file", () => {
    const dir = fs.mkdtempSync(path.join(root, "tree-"));
    let wrote = 0;
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 4 }), (words) => {
        const args = [...words.flat(), "."];
        for (const f of fs.readdirSync(dir)) fs.rmSync(path.join(dir, f), { recursive: true, force: true });
        fs.writeFileSync(path.join(dir, "in.txt"), "a\n");
        const before = snapshot(dir);
        spawnSync("tree", args, { cwd: dir, timeout: 3000, stdio: ["ignore", "ignore", "ignore"] });
        if (!changedSince(dir, before)) return;
        wrote++;
        expect(kind("onyx", ["tree", ...args]), `tree ${args.join(" ")} wrote a file`).not.toBe("allow");
      }),
      { numRuns: 300, seed: 22, examples: [[[["-NiPo"], ["x"], ["OUT"]]], [[["-aPo"], ["*.txt"], ["OUT"]]]] },
    );
    expect(wrote, "the generator never produced a writing spelling: the property tests nothing").toBeGreaterThan(0);
  }, 120_000);

  it("allows the spellings it models, which tree reads as they are modelled (no write, the listing asked for)", () => {
    const dir = fs.mkdtempSync(path.join(root, "tree-ok-"));
    fs.mkdirSync(path.join(dir, "sub"));
    fs.writeFileSync(path.join(dir, "a.ts"), "a\n");
    fs.writeFileSync(path.join(dir, "sub", "b.md"), "b\n");
    // -P then -I take the next two words in order: only a.ts is listed, sub/ is pruned
    const args = ["-aPI", "*.ts", "sub", "--noreport", "--sort", "name", "."];
    expect(kind("onyx", ["tree", ...args])).toBe("allow");
    const out = execFileSync("tree", args, { cwd: dir, encoding: "utf8" });
    expect(out).toContain("a.ts");
    expect(out).not.toContain("sub");
    expect(fs.readdirSync(dir).sort()).toEqual(["a.ts", "sub"]);
  });
});

describe.runIf(fs.existsSync("node_modules/.bin/tsc"))("the guard against the real tsc", () => {
  // what the guard may let tsc read: no emit location, no project, no build, no profile
  const SAFE = new Set(["noEmit", "pretty", "listFiles", "listFilesOnly", "showConfig", "strict", "skipLibCheck", "noErrorTruncation", "diagnostics", "extendedDiagnostics", "explainFiles", "traceResolution", "noUnusedLocals", "noUnusedParameters", "noImplicitAny", "noImplicitReturns", "strictNullChecks", "exactOptionalPropertyTypes", "noUncheckedIndexedAccess", "noFallthroughCasesInSwitch", "allowJs", "checkJs", "esModuleInterop", "resolveJsonModule", "isolatedModules", "target", "module", "lib", "jsx", "moduleResolution", "types"]);
  const names = ["outDir", "outFile", "declarationDir", "tsBuildInfoFile", "incremental", "composite", "generateCpuProfile", "rootDir", "declaration", "noEmit", "pretty", "strict", "target", "listFiles", "project", "build"];
  const caseMix = (s: string, bits: number) => [...s].map((c, i) => ((bits >> i) & 1 ? c.toUpperCase() : c.toLowerCase())).join("");
  const word = fc.oneof(
    fc.tuple(fc.constantFrom("-", "--"), fc.constantFrom(...names), fc.integer({ min: 0, max: 0xffff }), fc.constantFrom("", "=x")).map(([d, n, b, v]) => [d + caseMix(n, b) + v]),
    fc.constantFrom(["OUT"], ["false"], ["TRUE"], ["@resp.txt"], ["es2020"], ["a.ts"]),
  );
  it("never allows a spelling tsc reads as an option outside the safe list, or files without --noEmit", () => {
    const dir = fs.mkdtempSync(path.join(root, "tsc-"));
    fs.writeFileSync(path.join(dir, "tsconfig.json"), '{"files":[]}\n');
    fs.writeFileSync(path.join(dir, "resp.txt"), "--outDir OUT\n");
    fs.writeFileSync(path.join(dir, "a.ts"), "export const a = 1;\n");
    const tsc = path.resolve("node_modules/.bin/tsc");
    let unsafe = 0;
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 3 }), (words) => {
        const args = words.flat();
        const r = spawnSync(tsc, [...args, "--showConfig"], { cwd: dir, encoding: "utf8", timeout: 10_000 });
        if (r.status !== 0) return; // tsc refused the command line
        const shown = JSON.parse(r.stdout) as { compilerOptions?: Record<string, unknown>; files?: string[] };
        const opts = shown.compilerOptions ?? {};
        const bad = Object.keys(opts).filter((k) => !SAFE.has(k) || (k === "noEmit" && opts[k] !== true));
        if (!opts.noEmit && (shown.files ?? []).length) bad.push("files without --noEmit");
        if (!bad.length) return;
        unsafe++;
        expect(kind("jade", ["npx", "tsc", ...args]), `npx tsc ${args.join(" ")} reads ${bad.join(", ")}`).not.toBe("allow");
      }),
      { numRuns: 60, seed: 22 },
    );
    expect(unsafe).toBeGreaterThan(0);
  }, 120_000);
});

describe.runIf(has("npm"))("the guard against the real npm", () => {
  it("never allows a spelling npm reads as node-options, a config file, a prefix or a script shell", () => {
    const dir = fs.mkdtempSync(path.join(root, "npm-"));
    const show = "const e=process.env;console.log('SEEN='+JSON.stringify([e.NODE_OPTIONS,e.npm_config_userconfig,e.npm_config_script_shell,e.npm_config_globalconfig,e.npm_config_prefix,e.npm_config_local_prefix].filter((v)=>v&&v.includes('MARK'))))";
    fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "t", private: true, scripts: { test: `node -e "${show}"` } }));
    const names = ["node-options", "userconfig", "script-shell", "globalconfig", "prefix", "if-present", "silent"];
    const word = fc.tuple(fc.constantFrom(...names), fc.nat(), fc.constantFrom("upper", "lower", "under"), fc.constantFrom("=", " ")).map(([n, k, c, sep]) => {
      let w = n.slice(0, 4 + (k % (n.length - 3)));
      if (c === "upper") w = w.toUpperCase();
      if (c === "under") w = w.replaceAll("-", "_");
      return `--${w}${sep}--no-warnings/MARK`.split(" ");
    });
    let unsafe = 0;
    fc.assert(
      fc.property(word, (w) => {
        const args = ["test", ...w];
        const r = spawnSync("npm", args, { cwd: dir, encoding: "utf8", timeout: 20_000, env: { ...process.env, npm_config_update_notifier: "false" } });
        const seen = /SEEN=(\[.*\])/.exec(r.stdout)?.[1];
        if (!seen || seen === "[]") return;
        unsafe++;
        expect(kind("jade", ["npm", ...args]), `npm ${args.join(" ")} reads ${seen}`).not.toBe("allow");
      }),
      { numRuns: 10, seed: 22, examples: [[["--node-opt=--no-warnings/MARK"]], [["--userconf", "--no-warnings/MARK"]]] },
    );
    expect(unsafe).toBeGreaterThan(0);
  }, 300_000);
});
