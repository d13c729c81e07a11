import type { Queryable, SqlValue } from "./database.js";

/** Runs a DELETE (`sql`, without RETURNING) and answers how many rows it removed. */
export async function countRemoved(db: Queryable, sql: string, params: readonly SqlValue[]): Promise<number> {
  const { rows } = await db.query<{ n: number }>(`WITH removed AS (${sql} RETURNING 1) SELECT count(*)::int AS n FROM removed`, params);
  return rows[0]?.n ?? 0;
}
