/** A parameter value the store accepts; objects must be JSON.stringify'd and cast with ::jsonb. */
export type SqlValue = string | number | boolean | null | Date;

export interface QueryResult<Row> {
  rows: Row[];
}

/** Something SQL can be run on: the database itself or an open transaction. */
export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: readonly SqlValue[]): Promise<QueryResult<Row>>;
}

/** The one store: PGlite in-process or Postgres over a pool. Same SQL for both. */
export interface Database extends Queryable {
  readonly kind: "pglite" | "postgres";
  /** Runs `work` in a transaction, committing when it resolves and rolling back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Runs a multi-statement script (migrations); returns the rows of its last statement. */
  exec(sql: string): Promise<Record<string, unknown>[]>;
  /**
   * Runs `work` while this process holds the session-level advisory lock `key`, so that processes
   * sharing one Postgres take turns (PGlite belongs to one process: `work` runs at once). `work`
   * uses the store as usual; it must not wait for the same lock itself.
   */
  withAdvisoryLock<T>(key: number, work: () => Promise<T>): Promise<T>;
  /**
   * Resolves once the store answers `SELECT 1`, for /healthz. On Postgres it goes over a connection
   * of its own, not the pool: a pool busy with answers is load, not an outage, and a health check
   * queued behind it would report a healthy store as gone. Concurrent pings share one query.
   */
  ping(): Promise<void>;
  close(): Promise<void>;
}
