// Makes the compiled CLI executable (npm links bins, but `node dist/src/cli.js` users and tests need the bit).
import { chmodSync } from "node:fs";
chmodSync(new URL("../dist/src/cli.js", import.meta.url), 0o755);
