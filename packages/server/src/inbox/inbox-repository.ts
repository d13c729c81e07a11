import type { Queryable } from "../db/database.js";
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

/** One notification in the inbox of every operator of the workspace; returns how many. */
export async function notifyWorkspaceOperators(
  db: Queryable,
  notification: { workspaceId: string; kind: string; conversationId: string; payload: Record<string, unknown> },
): Promise<number> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO inbox_notifications (id, workspace_id, operator_id, kind, conversation_id, payload)
     SELECT 'ntf_' || replace(gen_random_uuid()::text, '-', ''), workspace_id, id, $2, $3, $4::jsonb
     FROM operators WHERE workspace_id = $1
     RETURNING id`,
    [notification.workspaceId, notification.kind, notification.conversationId, JSON.stringify(notification.payload)],
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
