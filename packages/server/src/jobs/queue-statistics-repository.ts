import type { Queryable } from "../db/database.js";

/** Jobs waiting in one queue: how many, and how long the oldest one that may run has waited. */
export interface QueueStatistics {
  name: string;
  /** Jobs `created` or waiting for a `retry`, including those whose back-off has not elapsed. */
  queued: number;
  /** Seconds since the oldest waiting job became runnable (0 when none is). */
  oldestQueuedSeconds: number;
}

/**
 * Reads pg-boss's job table by queue. The filter is the predicate of pg-boss's own partial index
 * `(name, start_after) WHERE state < 'active'` (the index its workers fetch with), so the cost
 * follows the number of waiting jobs, not the completed ones kept for days.
 */
export async function readQueueStatistics(db: Queryable): Promise<QueueStatistics[]> {
  const { rows } = await db.query<{ name: string; queued: number; oldest: number | null }>(
    `SELECT name, count(*)::int AS queued,
       EXTRACT(epoch FROM now() - min(start_after) FILTER (WHERE start_after <= now()))::float8 AS oldest
     FROM pgboss.job WHERE state < 'active' GROUP BY name`,
  );
  return rows.map((row) => ({ name: row.name, queued: row.queued, oldestQueuedSeconds: Math.max(0, row.oldest ?? 0) }));
}
