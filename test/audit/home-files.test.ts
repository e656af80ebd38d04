// r4 red team: start-up files in the home that the guarded list (enforcement.ts) left out. The list
// names ~/.bashrc, ~/.bash_profile, ~/.profile, ~/.zshenv, ~/.zshrc and ~/.npmrc, but a login shell
// (the human's terminal; bash reads ~/.bash_login where there is no ~/.bash_profile, zsh reads
// ~/.zprofile and ~/.zlogin) and pnpm (its user configuration, $XDG_CONFIG_HOME/pnpm/rc, holds the
// same node-options and script-shell as an .npmrc) read others: code a role's tests ran planted them
// and the stage passed.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { withRepo } from "./helpers.js";

const BASE = { "src/a.ts": "a\n", "tests/a.test.ts": "t\n", ".gitignore": "node_modules/\n" };
const FILES = [".bash_login", ".bash_logout", ".zprofile", ".zlogin", ".zlogout", ".config/fish/config.fish", ".config/pnpm/rc"];

describe("audit: login-shell start-up files and pnpm's user configuration are enforcement files (r4)", () => {
  it.each(FILES)("~/%s created by a stage's code is removed and fails the stage", (rel) =>
    withRepo(BASE, (r) => {
      const abs = path.join(r.home, rel);
      r.start("l1", "jade");
      fs.mkdirSync(path.dirname(abs), { recursive: true });
      fs.writeFileSync(abs, rel.endsWith("rc") ? "node-options=--require=/tmp/x.js\n" : "git() { echo pwned; }\n");
      r.put("src/b.ts", "b\n");
      r.stop("l1", "jade");
      expect(fs.existsSync(abs)).toBe(false);
      const rep = r.report("l1");
      expect(rep.code).toBe(2);
      expect(rep.stderr).toContain(`~/${rel} (created; removed)`);
      expect(r.read("src/b.ts")).toBe("b\n");
    }),
  );

  it("zsh's files where ZDOTDIR moves them are guarded there too", () =>
    withRepo(BASE, (r) => {
      const zdot = path.join(r.home, "zdot");
      fs.mkdirSync(zdot);
      r.run("start", { hook_event_name: "SubagentStart", agent_id: "z1", agent_type: "jade" }, [], { ZDOTDIR: zdot });
      fs.writeFileSync(path.join(zdot, ".zshrc"), "git() { echo pwned; }\n");
      r.run("stop", { hook_event_name: "SubagentStop", agent_id: "z1", agent_type: "jade", stop_hook_active: false }, [], { ZDOTDIR: zdot });
      expect(fs.existsSync(path.join(zdot, ".zshrc"))).toBe(false);
      expect(r.report("z1").code).toBe(2);
    }));
});
