import { DEFAULT_PGLITE_SHARED_BUFFERS_MB } from "./pglite-memory.js";
import { Worker } from "node:worker_threads";
import { afterCommitQueue, type Database, type QueryResult, type SqlValue, type Transaction } from "./database.js";
import { initialisePgliteDataDir } from "./initialise-pglite-data-dir.js";
import type { PgliteErrorData, PgliteReply, PgliteRequest, PgliteWorkerData } from "./pglite-worker-protocol.js";
import { makeDirectory } from "../files/make-directory.js";
import { lockPgliteDataDir } from "./pglite-data-dir-lock.js";

export interface PgliteOptions {
  /** Default: the compiled `pglite-worker.js` next to this module (tests, which run the sources, pass it); `pglite-initdb.js` is taken from beside it. */
  workerUrl?: URL;
  /** Postgres's buffer pool in MB; default DEFAULT_PGLITE_SHARED_BUFFERS_MB. */
  sharedBuffersMb?: number;
}

/** A Postgres error raised in the PGlite worker, with the fields it carried (`code`, `detail`, …). */
export class PgliteError extends Error {
  readonly code: string | undefined;

  constructor(data: PgliteErrorData) {
    super(data.message);
    this.name = "PgliteError";
    Object.assign(this, data.fields);
    this.code = typeof data.fields.code === "string" ? data.fields.code : undefined;
  }
}

/** A request before it is numbered. */
type Unnumbered<T> = T extends unknown ? Omit<T, "id"> : never;

type Pending = { resolve: (rows: Record<string, unknown>[]) => void; reject: (error: Error) => void };

/**
 * PGlite (Postgres in WebAssembly) with pgvector, on disk under `dataDir`, or in memory when
 * `dataDir` is null. It runs in a worker thread of its own: statements execute there one after
 * another (PGlite is one connection), and the event loop stays free for requests while they do.
 * A transaction holds a gate that makes statements sent from outside it wait until it ends.
 */
export async function openPgliteDatabase(dataDir: string | null, options: PgliteOptions = {}): Promise<Database> {
  const workerUrl = options.workerUrl ?? new URL("./pglite-worker.js", import.meta.url);
  let unlock = async () => {};
  if (dataDir) {
    await makeDirectory(dataDir);
    unlock = await lockPgliteDataDir(dataDir);
    try {
      await initialisePgliteDataDir(dataDir, new URL("./pglite-initdb.js", workerUrl));
    } catch (error) {
      await unlock();
      throw error;
    }
  }
  const worker = new Worker(workerUrl, {
    workerData: { dataDir, sharedBuffersMb: options.sharedBuffersMb ?? DEFAULT_PGLITE_SHARED_BUFFERS_MB } satisfies PgliteWorkerData,
  });
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let failure: Error | null = null;

  const failAll = (error: Error): void => {
    failure ??= error;
    for (const request of pending.values()) request.reject(error);
    pending.clear();
  };
  const ready = new Promise<void>((resolve, reject) => {
    pending.set(0, { resolve: () => resolve(), reject });
  });
  worker.on("message", (reply: PgliteReply) => {
    const request = pending.get(reply.id);
    if (!request) return;
    pending.delete(reply.id);
    if (reply.ok) request.resolve(reply.rows);
    else request.reject(new PgliteError(reply.error));
  });
  worker.on("error", (error) => failAll(error));
  worker.on("exit", (code) => failAll(new Error(`The PGlite worker stopped (exit code ${code})`)));
  // A store that cannot open (a data dir another process holds, a damaged one …) stops its thread: the process can exit.
  await ready.catch(async (error: unknown) => {
    await worker.terminate();
    await unlock();
    throw error;
  });

  const send = (request: Unnumbered<PgliteRequest>): Promise<Record<string, unknown>[]> => {
    if (failure) return Promise.reject(failure);
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ ...request, id } satisfies PgliteRequest);
    });
  };
  const run = async <Row>(sql: string, params?: readonly SqlValue[]): Promise<QueryResult<Row>> => ({
    rows: (await send({ kind: "query", sql, params: params ? [...params] : undefined })) as Row[],
  });

  // While a transaction is open, statements from outside it wait: they would run inside it.
  // Each waiter checks the gate and acts in the same synchronous step (`while (gate) await gate;`
  // written inline, never behind an async helper): a helper's own promise would yield between the
  // check and the transaction taking the gate, and two transactions begun in one tick, or two
  // waiters woken by one gate, would both run inside one BEGIN.
  let gate: Promise<void> | null = null;

  const database: Database = {
    kind: "pglite",
    async query<Row>(sql: string, params?: readonly SqlValue[]) {
      while (gate) await gate;
      return run<Row>(sql, params);
    },
    async transaction(work) {
      while (gate) await gate;
      let open!: () => void;
      gate = new Promise((resolve) => (open = resolve));
      const afterCommit = afterCommitQueue();
      let result;
      try {
        await send({ kind: "exec", sql: "BEGIN" });
        const scoped: Transaction = { query: (sql, params) => run(sql, params), afterCommit: afterCommit.register };
        try {
          result = await work(scoped);
          await send({ kind: "exec", sql: "COMMIT" });
        } catch (error) {
          await send({ kind: "exec", sql: "ROLLBACK" }).catch(() => undefined);
          throw error;
        }
      } finally {
        gate = null;
        open();
      }
      // Once the gate is open: the work may read the committed rows.
      await afterCommit.run();
      return result;
    },
    async exec(sql) {
      while (gate) await gate;
      return send({ kind: "exec", sql });
    },
    withAdvisoryLock: (_key, work) => work(database),
    withAdvisoryLockIfFree: (_key, work) => work(database),
    // PGlite is one connection in a thread of its own: there is no pool to go around.
    async ping() {
      while (gate) await gate;
      await send({ kind: "query", sql: "SELECT 1", params: undefined });
    },
    async close() {
      while (gate) await gate;
      if (!failure) await send({ kind: "close" });
      await worker.terminate();
      await unlock();
    },
  };
  return database;
}
