import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * Worker threads run compiled JavaScript, so tests (which import the TypeScript sources)
 * point the pools at `packages/server/dist/embeddings/`. The root `npm test` builds first.
 */
function compiledWorker(file: string): URL {
  const url = new URL(`../../dist/embeddings/${file}`, import.meta.url);
  if (!existsSync(fileURLToPath(url))) {
    throw new Error(`${fileURLToPath(url)} is missing: run \`npx tsc -b packages/contracts packages/server\` first`);
  }
  return url;
}

export const localWorkerUrl = compiledWorker("local-embedding-worker.js");
export const hashingWorkerUrl = compiledWorker("hashing-embedding-worker.js");
