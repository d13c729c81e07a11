/** A parameter value the store accepts (a Uint8Array is a bytea); objects must be JSON.stringify'd and cast with ::jsonb. */
export type SqlValue = string | number | boolean | null | Date | Uint8Array;

export interface QueryResult<Row> {
  rows: Row[];
}

/** Something SQL can be run on: the database itself or an open transaction. */
export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: readonly SqlValue[]): Promise<QueryResult<Row>>;
}

/** Work that waits for a transaction's commit: it must report its own failures (it never rejects into the change). */
export type AfterCommitWork = () => Promise<void>;

/** An open transaction: SQL run in it, and work registered to run once it has committed. */
export interface Transaction extends Queryable {
  /**
   * Runs `work` once this transaction has committed (never when it rolls back), after its
   * connection is given back, so `work` may read the committed rows; each in the order registered,
   * before `transaction()` resolves. A `work` that rejects is ignored: the change is committed.
   */
  afterCommit(work: AfterCommitWork): void;
}

/** Whether `queryable` is an open transaction (a statement on the store commits by itself). */
export const isTransaction = (queryable: Queryable): queryable is Transaction => typeof (queryable as Partial<Transaction>).afterCommit === "function";

/** The one store: PGlite in-process or Postgres over a pool. Same SQL for both. */
export interface Database extends Queryable {
  readonly kind: "pglite" | "postgres";
  /**
   * Runs `work` in a transaction, committing when it resolves and rolling back when it throws;
   * after a commit, the work `tx.afterCommit` registered runs before this resolves.
   */
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
  /** Runs a multi-statement script (migrations); returns the rows of its last statement. */
  exec(sql: string): Promise<Record<string, unknown>[]>;
  /**
   * Runs `work` while this process holds the session-level advisory lock `key`, so that processes
   * sharing one Postgres take turns (PGlite belongs to one process: `work` runs at once). `work`
   * uses the store as usual; it must not wait for the same lock itself. It is given the connection
   * that holds the lock: on Postgres a session apart from the pool, outside any transaction, whose
   * settings end with `work` (a concurrent index build with memory of its own); on PGlite the
   * store itself, whose settings `work` must reset.
   */
  withAdvisoryLock<T>(key: number, work: (holder: Queryable) => Promise<T>): Promise<T>;
  /**
   * withAdvisoryLock, but when another session holds `key` it resolves to null at once instead of
   * waiting: a session that waits for a lock holds a snapshot, which a concurrent index build of
   * the lock's holder would wait for in turn (a deadlock).
   */
  withAdvisoryLockIfFree<T>(key: number, work: (holder: Queryable) => Promise<T>): Promise<T | null>;
  /**
   * Resolves once the store answers `SELECT 1`, for /healthz. On Postgres it goes over a connection
   * of its own, not the pool: a pool busy with answers is load, not an outage, and a health check
   * queued behind it would report a healthy store as gone. Concurrent pings share one query.
   */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** The after-commit work of one transaction: registered while it is open, run once it committed. */
export function afterCommitQueue(): { register: (work: AfterCommitWork) => void; run: () => Promise<void> } {
  const queued: AfterCommitWork[] = [];
  return {
    register: (work) => void queued.push(work),
    // Work registered by other work runs too (a subscriber raising an event of its own).
    run: async () => {
      for (let next = queued.shift(); next; next = queued.shift()) await next().catch(() => undefined);
    },
  };
}
