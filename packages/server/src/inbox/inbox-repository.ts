import type { Queryable } from "../db/database.js";
import { newId } from "../db/ids.js";
import { iso, isoOrNull } from "../db/timestamps.js";

export interface InboxNotification {
  id: string;
  operatorId: string;
  kind: string;
  conversationId: string | null;
  payload: Record<string, unknown>;
  readAt: string | null;
  createdAt: string;
}

interface NotificationRow {
  id: string;
  operator_id: string;
  kind: string;
  conversation_id: string | null;
  payload: Record<string, unknown>;
  read_at: Date | null;
  created_at: Date;
}

/**
 * One notification in the inbox of every operator of the workspace; returns how many. Ids come
 * from newId like every other id (one per operator, sent as a JSON array of recipients).
 */
export async function notifyWorkspaceOperators(
  db: Queryable,
  notification: { workspaceId: string; kind: string; conversationId: string; payload: Record<string, unknown> },
): Promise<number> {
  const operators = await db.query<{ id: string }>(`SELECT id FROM operators WHERE workspace_id = $1 ORDER BY id`, [notification.workspaceId]);
  if (operators.rows.length === 0) return 0;
  const recipients = operators.rows.map((operator) => ({ id: newId("ntf"), operator_id: operator.id }));
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO inbox_notifications (id, workspace_id, operator_id, kind, conversation_id, payload)
     SELECT recipient.id, operators.workspace_id, operators.id, $2, $3, $4::jsonb
     FROM jsonb_to_recordset($5::jsonb) AS recipient (id text, operator_id text)
     JOIN operators ON operators.id = recipient.operator_id AND operators.workspace_id = $1
     RETURNING id`,
    [notification.workspaceId, notification.kind, notification.conversationId, JSON.stringify(notification.payload), JSON.stringify(recipients)],
  );
  return rows.length;
}

export async function listOperatorInbox(db: Queryable, operatorId: string, limit = 100): Promise<InboxNotification[]> {
  const { rows } = await db.query<NotificationRow>(
    `SELECT id, operator_id, kind, conversation_id, payload, read_at, created_at FROM inbox_notifications
     WHERE operator_id = $1 ORDER BY created_at DESC, id LIMIT $2`,
    [operatorId, limit],
  );
  return rows.map((row) => ({
    id: row.id,
    operatorId: row.operator_id,
    kind: row.kind,
    conversationId: row.conversation_id,
    payload: row.payload,
    readAt: isoOrNull(row.read_at),
    createdAt: iso(row.created_at),
  }));
}
