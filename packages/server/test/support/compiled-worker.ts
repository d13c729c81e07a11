import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * Worker threads run compiled JavaScript, so tests (which import the TypeScript sources) point
 * them at `packages/server/dist/` (`npm test` builds first).
 */
export function compiledWorkerUrl(relative: string): URL {
  const url = new URL(`../../dist/${relative}`, import.meta.url);
  if (!existsSync(fileURLToPath(url))) throw new Error(`${fileURLToPath(url)} is missing: run \`npm run build\` first.`);
  return url;
}
