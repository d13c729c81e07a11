import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** Screenshots of the console's screens (gitignored), for a person to look at. */
export const ARTIFACTS = fileURLToPath(new URL("../../test-artifacts/", import.meta.url));
mkdirSync(ARTIFACTS, { recursive: true });
