// Install problems in the compiler's format: `file:line:col: error CODE problem. fix.` (exit 2, nothing written).
import { InputError } from "../errors.js";

export class InstallError extends InputError {
  constructor(file: string, line: number, column: number, code: string, problem: string, fix: string) {
    super([{ code, severity: "error", position: { file, line, column }, message: `${problem}. ${fix}.` }]);
  }
}
