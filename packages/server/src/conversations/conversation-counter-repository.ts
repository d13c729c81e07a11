import type { Queryable } from "../db/database.js";

export interface MonthUsage {
  /** `YYYY-MM-01`, the UTC month. */
  month: string;
  conversations: number;
}

/**
 * The workspace's counted conversations of the months from `since` (a `YYYY-MM-01`) on, oldest
 * first, as init counts them against the quota (conversation_counters, read by its primary key).
 */
export async function listMonthlyConversationCounts(db: Queryable, workspaceId: string, since: string): Promise<MonthUsage[]> {
  const { rows } = await db.query<{ month: string; count: number }>(
    `SELECT to_char(month, 'YYYY-MM-DD') AS month, count FROM conversation_counters WHERE workspace_id = $1 AND month >= $2::date ORDER BY month`,
    [workspaceId, since],
  );
  return rows.map((row) => ({ month: row.month, conversations: Number(row.count) }));
}
