import { microsecondsOf, timestampFromMicroseconds } from "../paging/page-cursor.js";
import { countRemoved } from "../db/count-removed.js";
import type { Queryable, SqlValue } from "../db/database.js";
import { textArray } from "../db/text-array.js";
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

const toNotification = (row: NotificationRow): InboxNotification => ({
  id: row.id,
  operatorId: row.operator_id,
  kind: row.kind,
  conversationId: row.conversation_id,
  payload: row.payload,
  readAt: isoOrNull(row.read_at),
  createdAt: iso(row.created_at),
});

/** A notification just put in an operator's inbox. */
export interface CreatedNotification {
  id: string;
  operatorId: string;
  createdAt: string;
}

/**
 * One notification in the inbox of every operator of the workspace (only its admins with
 * `onlyAdmins`, only one with `onlyOperatorId`); returns them. Ids come from newId like every other id (one per operator, sent as
 * a JSON array of recipients). `conversationId` is null for news about no conversation.
 */
export async function notifyWorkspaceOperators(
  db: Queryable,
  notification: { workspaceId: string; kind: string; conversationId: string | null; payload: Record<string, unknown>; onlyAdmins?: boolean; onlyOperatorId?: string },
): Promise<CreatedNotification[]> {
  const operators = await db.query<{ id: string }>(
    `SELECT id FROM operators WHERE workspace_id = $1 AND ($2::boolean IS NOT TRUE OR role = 'admin') AND ($3::text IS NULL OR id = $3::text) ORDER BY id`,
    [notification.workspaceId, notification.onlyAdmins === true, notification.onlyOperatorId ?? null],
  );
  if (operators.rows.length === 0) return [];
  const recipients = operators.rows.map((operator) => ({ id: newId("ntf"), operator_id: operator.id }));
  const { rows } = await db.query<{ id: string; operator_id: string; created_at: Date }>(
    `INSERT INTO inbox_notifications (id, workspace_id, operator_id, kind, conversation_id, payload)
     SELECT recipient.id, operators.workspace_id, operators.id, $2, $3, $4::jsonb
     FROM jsonb_to_recordset($5::jsonb) AS recipient (id text, operator_id text)
     JOIN operators ON operators.id = recipient.operator_id AND operators.workspace_id = $1
     RETURNING id, operator_id, created_at`,
    [notification.workspaceId, notification.kind, notification.conversationId, JSON.stringify(notification.payload), JSON.stringify(recipients)],
  );
  return rows.map((row) => ({ id: row.id, operatorId: row.operator_id, createdAt: iso(row.created_at) }));
}

/**
 * One notification in the inbox of each of these operators of the workspace (an id of another
 * workspace's operator, or of nobody, is skipped); returns them. A mention in a note notifies the
 * operators it names this way.
 */
export async function notifyOperators(
  db: Queryable,
  notification: { workspaceId: string; operatorIds: readonly string[]; kind: string; conversationId: string | null; payload: Record<string, unknown> },
): Promise<CreatedNotification[]> {
  if (notification.operatorIds.length === 0) return [];
  const recipients = notification.operatorIds.map((operatorId) => ({ id: newId("ntf"), operator_id: operatorId }));
  const { rows } = await db.query<{ id: string; operator_id: string; created_at: Date }>(
    `INSERT INTO inbox_notifications (id, workspace_id, operator_id, kind, conversation_id, payload)
     SELECT recipient.id, operators.workspace_id, operators.id, $2, $3, $4::jsonb
     FROM jsonb_to_recordset($5::jsonb) AS recipient (id text, operator_id text)
     JOIN operators ON operators.id = recipient.operator_id AND operators.workspace_id = $1
     RETURNING id, operator_id, created_at`,
    [notification.workspaceId, notification.kind, notification.conversationId, JSON.stringify(notification.payload), JSON.stringify(recipients)],
  );
  return rows.map((row) => ({ id: row.id, operatorId: row.operator_id, createdAt: iso(row.created_at) }));
}

export async function listOperatorInbox(db: Queryable, operatorId: string, limit = 100): Promise<InboxNotification[]> {
  const { rows } = await db.query<NotificationRow>(
    `SELECT id, operator_id, kind, conversation_id, payload, read_at, created_at FROM inbox_notifications
     WHERE operator_id = $1 ORDER BY created_at DESC, id LIMIT $2`,
    [operatorId, limit],
  );
  return rows.map(toNotification);
}

/** An operator's inbox in its order: unread first, then newest (ties by id); `after` continues a page. */
export async function listInboxPage(
  db: Queryable,
  operator: { id: string; workspaceId: string },
  page: { after?: { read: number; createdMicroseconds: string; id: string }; limit: number },
): Promise<{ notification: InboxNotification; read: number; createdMicroseconds: string }[]> {
  const params: SqlValue[] = [operator.id, operator.workspaceId, page.limit];
  let after = "";
  if (page.after) {
    params.push(page.after.read === 1, page.after.createdMicroseconds, page.after.id);
    const at = timestampFromMicroseconds("$5");
    after = `AND ((read_at IS NOT NULL) > $4::boolean OR ((read_at IS NOT NULL) = $4::boolean AND (created_at, id) < (${at}, $6)))`;
  }
  const { rows } = await db.query<NotificationRow & { created_us: string }>(
    `SELECT id, operator_id, kind, conversation_id, payload, read_at, created_at, ${microsecondsOf("created_at")} AS created_us
     FROM inbox_notifications
     WHERE operator_id = $1 AND workspace_id = $2 ${after}
     ORDER BY (read_at IS NOT NULL), created_at DESC, id DESC LIMIT $3`,
    params,
  );
  return rows.map((row) => ({ notification: toNotification(row), read: row.read_at === null ? 0 : 1, createdMicroseconds: row.created_us }));
}

export async function countUnreadInbox(db: Queryable, operator: { id: string; workspaceId: string }): Promise<number> {
  const { rows } = await db.query<{ count: number | string }>(
    `SELECT count(*) FROM inbox_notifications WHERE operator_id = $1 AND workspace_id = $2 AND read_at IS NULL`,
    [operator.id, operator.workspaceId],
  );
  return Number(rows[0]?.count ?? 0);
}

/**
 * Marks the operator's own unread notifications read: those of `ids` (ids that are unknown, read
 * already or another operator's are skipped), or all of them. Returns how many it marked.
 */
export async function markInboxRead(
  db: Queryable,
  operator: { id: string; workspaceId: string },
  which: { ids: string[] } | { all: true },
): Promise<number> {
  const { rows } = await db.query<{ id: string }>(
    `UPDATE inbox_notifications SET read_at = now()
     WHERE operator_id = $1 AND workspace_id = $2 AND read_at IS NULL AND ($3::jsonb IS NULL OR id IN (SELECT jsonb_array_elements_text($3::jsonb)))
     RETURNING id`,
    [operator.id, operator.workspaceId, "ids" in which ? JSON.stringify(which.ids) : null],
  );
  return rows.length;
}

/** Deletes the workspace's notifications about these conversations (inbox_notifications_conversation_idx), for erasure and retention; how many. */
export async function deleteNotificationsOfConversations(tx: Queryable, workspaceId: string, conversationIds: readonly string[]): Promise<number> {
  return countRemoved(tx, `DELETE FROM inbox_notifications n WHERE n.workspace_id = $1 AND n.conversation_id = ANY($2::text[])`, [
    workspaceId,
    textArray(conversationIds),
  ]);
}
