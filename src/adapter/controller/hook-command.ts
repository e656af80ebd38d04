// The shell test in front of a controller hook: an unbound session exits before node starts (the hook
// runs before every tool call). POSIX sh, no PATH needed but for `id`, which `command -p` finds in the
// system's own folders.
// Neither file it looks for may be movable by what a role writes: the host copies its settings' `env`
// into the hook's environment, so the record outside the project is found in the account's home from
// the passwd database (`id -un`, then sh's own ~user expansion), never in $HOME. Whatever cannot be
// worked out (no `id`, an odd account name, no home) does not exit: node runs and decides.
import { HARNESS_STATE_DIR } from "../../schema/vocabulary.js";

/** `sid`, `project`: shell words for the session id and the project folder (e.g. "$CLAUDE_CODE_SESSION_ID"). Ends without `;`. */
export function unboundExit(sid: string, project: string): string {
  return [
    `[ -n "${sid}" ]`,
    `harness_u=$(command -p id -un 2>/dev/null)`,
    `case $harness_u in ''|*[!A-Za-z0-9._-]*) false;; esac`,
    `eval "harness_h=~$harness_u"`,
    `case $harness_h in /*) :;; *) false;; esac`,
    `[ ! -e "$harness_h/.local/state/harness/sessions/${sid}" ]`,
    `[ ! -e "${project}/${HARNESS_STATE_DIR}/controller/${sid}.json" ]`,
    "exit 0",
  ].join(" && ");
}
