import type { SqlValue } from "./database.js";

/** Sent to the PGlite worker thread; answered in order, one `PgliteReply` per request. */
export type PgliteRequest =
  | { id: number; kind: "query"; sql: string; params: SqlValue[] | undefined }
  | { id: number; kind: "exec"; sql: string }
  | { id: number; kind: "close" };

/** A Postgres error as plain data: the message and every field PGlite set (code, detail, constraint…). */
export interface PgliteErrorData {
  message: string;
  fields: Record<string, string | number | undefined>;
}

export type PgliteReply = { id: number; ok: true; rows: Record<string, unknown>[] } | { id: number; ok: false; error: PgliteErrorData };

/** What the worker is started with. */
export interface PgliteWorkerData {
  /** On-disk data directory, or null for an in-memory database. */
  dataDir: string | null;
  /** Postgres's buffer pool, resident from the start (see pglite-memory.ts). */
  sharedBuffersMb: number;
}
