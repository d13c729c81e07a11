import type { Queryable } from "../db/database.js";
import { isoOrNull } from "../db/timestamps.js";

/** A conversation whose snooze changed, as its event names it. */
export interface SnoozeChanged {
  workspaceId: string;
  agentId: string;
  visitorId: string;
}

interface ChangedRow {
  workspace_id: string;
  agent_id: string;
  visitor_id: string;
}

const toChanged = (row: ChangedRow): SnoozeChanged => ({ workspaceId: row.workspace_id, agentId: row.agent_id, visitorId: row.visitor_id });

/** Snoozes a conversation the caller locked: `snoozeId` names this snooze (its wake-up job carries it); `until` null: until the visitor writes. */
export async function writeSnooze(tx: Queryable, conversationId: string, snooze: { snoozeId: string; until: Date | null }): Promise<void> {
  await tx.query(`UPDATE conversations SET snooze_id = $2, snoozed_until = $3 WHERE id = $1`, [conversationId, snooze.snoozeId, snooze.until]);
}

/** Ends the conversation's snooze, whichever it is; null when it was not snoozed (nothing written). */
export async function clearSnooze(tx: Queryable, workspaceId: string, conversationId: string): Promise<SnoozeChanged | null> {
  const { rows } = await tx.query<ChangedRow>(
    `UPDATE conversations SET snooze_id = NULL, snoozed_until = NULL
     WHERE id = $1 AND workspace_id = $2 AND snooze_id IS NOT NULL
     RETURNING workspace_id, agent_id, visitor_id`,
    [conversationId, workspaceId],
  );
  return rows[0] ? toChanged(rows[0]) : null;
}

/** Ends the snooze `snoozeId` if its time has come by `now`; null when it is another snooze, none, or not due yet. */
export async function clearDueSnooze(tx: Queryable, workspaceId: string, conversationId: string, snoozeId: string, now: Date): Promise<SnoozeChanged | null> {
  const { rows } = await tx.query<ChangedRow>(
    `UPDATE conversations SET snooze_id = NULL, snoozed_until = NULL
     WHERE id = $1 AND workspace_id = $2 AND snooze_id = $3 AND snoozed_until <= $4
     RETURNING workspace_id, agent_id, visitor_id`,
    [conversationId, workspaceId, snoozeId, now],
  );
  return rows[0] ? toChanged(rows[0]) : null;
}

/** The conversation's snooze: its id and time (null: until the visitor writes); null when it is not snoozed. */
export async function findSnooze(db: Queryable, workspaceId: string, conversationId: string): Promise<{ snoozeId: string; until: string | null } | null> {
  const { rows } = await db.query<{ snooze_id: string | null; snoozed_until: Date | null }>(
    `SELECT snooze_id, snoozed_until FROM conversations WHERE id = $1 AND workspace_id = $2`,
    [conversationId, workspaceId],
  );
  const row = rows[0];
  return row?.snooze_id ? { snoozeId: row.snooze_id, until: isoOrNull(row.snoozed_until) } : null;
}
