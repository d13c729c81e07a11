import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import type { PgliteErrorData, PgliteReply, PgliteRequest, PgliteWorkerData } from "./pglite-worker-protocol.js";
import { collectGarbageNow, pgliteMemorySettings, useBaselineWasmCompiler } from "./pglite-memory.js";
import { VECTOR_SEARCH_SETTINGS } from "./vector-search-settings.js";

/**
 * The worker thread that owns PGlite: every statement runs here, one at a time, in the order it
 * was sent, so the service's event loop never waits on Postgres executing in WebAssembly.
 */
const port = parentPort;
if (!port) throw new Error("pglite-worker.js must run in a worker thread");
const { dataDir, sharedBuffersMb } = workerData as PgliteWorkerData;

useBaselineWasmCompiler();
const options = { extensions: { vector }, startParams: [...PGlite.defaultStartParams, ...pgliteMemorySettings(sharedBuffersMb)] };
const pglite = dataDir ? await PGlite.create(dataDir, options) : await PGlite.create(options);
await pglite.exec(VECTOR_SEARCH_SETTINGS);
collectGarbageNow();

function errorData(error: unknown): PgliteErrorData {
  const fields: PgliteErrorData["fields"] = {};
  if (error instanceof Error) {
    for (const [key, value] of Object.entries(error)) {
      if (key !== "name" && key !== "message" && key !== "stack" && (typeof value === "string" || typeof value === "number")) fields[key] = value;
    }
    return { message: error.message, fields };
  }
  return { message: String(error), fields };
}

async function handle(request: PgliteRequest): Promise<PgliteReply> {
  try {
    switch (request.kind) {
      case "query":
        return { id: request.id, ok: true, rows: (await pglite.query<Record<string, unknown>>(request.sql, request.params)).rows };
      case "exec":
        return { id: request.id, ok: true, rows: (await pglite.exec(request.sql)).at(-1)?.rows ?? [] };
      case "close":
        await pglite.close();
        return { id: request.id, ok: true, rows: [] };
    }
  } catch (error) {
    return { id: request.id, ok: false, error: errorData(error) };
  }
}

// One at a time: PGlite is a single connection, and a transaction's statements must not interleave.
let queue = Promise.resolve();
port.on("message", (request: PgliteRequest) => {
  queue = queue.then(async () => port.postMessage(await handle(request)));
});
port.postMessage({ id: 0, ok: true, rows: [] } satisfies PgliteReply);
