// Terminal output: colour only on a TTY and never with NO_COLOR (picocolors decides).
import pc from "picocolors";

export const color = pc;
export const out = (line = "") => process.stdout.write(`${line}\n`);
export const err = (line = "") => process.stderr.write(`${line}\n`);
