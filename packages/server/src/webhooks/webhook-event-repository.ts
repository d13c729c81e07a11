import type { Queryable } from "../db/database.js";
import { textArray } from "../db/text-array.js";

/**
 * The SQL of `webhook_events`: an event's body as every attempt sends it, and the visitor and
 * conversation it is about (migration 0024). Jobs name an event by id only; erasure deletes the
 * events about a visitor, which ends every attempt still to come.
 */

/** Who an event is about, for erasure: a lead's visitor, a conversation. */
export interface WebhookEventSubject {
  visitorId?: string | null;
  conversationId?: string | null;
}

/** Stores an event's body once (an occurrence announced twice keeps its first body). */
export async function insertWebhookEvent(
  tx: Queryable,
  event: { id: string; workspaceId: string; type: string; body: string; subject: WebhookEventSubject },
): Promise<void> {
  await tx.query(
    `INSERT INTO webhook_events (id, workspace_id, type, body, visitor_id, conversation_id) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING`,
    [event.id, event.workspaceId, event.type, event.body, event.subject.visitorId ?? null, event.subject.conversationId ?? null],
  );
}

/**
 * The body an attempt sends, its row share-locked until the caller's transaction ends, so that an
 * erasure deleting it waits for the claim and the claim after an erasure finds nothing. Null when
 * the event was erased (or every attempt of it is over).
 */
export async function lockWebhookEventBody(tx: Queryable, workspaceId: string, eventId: string): Promise<string | null> {
  const { rows } = await tx.query<{ body: string | null }>(`SELECT body FROM webhook_events WHERE id = $1 AND workspace_id = $2 FOR KEY SHARE`, [eventId, workspaceId]);
  return rows[0]?.body ?? null;
}

/** Whether the event can still be sent: an attempt under way polls it and stops when it is gone. */
export async function webhookEventExists(db: Queryable, workspaceId: string, eventId: string): Promise<boolean> {
  const { rows } = await db.query(`SELECT 1 FROM webhook_events WHERE id = $1 AND workspace_id = $2 AND body IS NOT NULL`, [eventId, workspaceId]);
  return rows.length > 0;
}

/** Clears an event's body once none of its attempts is pending or under way: nothing is kept that no attempt needs. */
export async function releaseWebhookEventBody(tx: Queryable, workspaceId: string, eventId: string): Promise<void> {
  await tx.query(
    `UPDATE webhook_events e SET body = NULL WHERE e.id = $1 AND e.workspace_id = $2 AND e.body IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status IN ('pending', 'sending'))`,
    [eventId, workspaceId],
  );
}

/** Visitors and conversations whose events erasure or retention deletes. */
export interface ErasedSubjects {
  visitorIds: readonly string[];
  conversationIds: readonly string[];
}

/** The ids of the workspace's events about one of the visitors or conversations (one indexed statement each). */
export async function findWebhookEventsAbout(tx: Queryable, workspaceId: string, subjects: ErasedSubjects): Promise<string[]> {
  const ids = new Set<string>();
  for (const [column, values] of [
    ["visitor_id", subjects.visitorIds],
    ["conversation_id", subjects.conversationIds],
  ] as const) {
    if (values.length === 0) continue;
    const { rows } = await tx.query<{ id: string }>(`SELECT id FROM webhook_events WHERE workspace_id = $1 AND ${column} = ANY($2::text[])`, [workspaceId, textArray(values)]);
    for (const row of rows) ids.add(row.id);
  }
  return [...ids];
}

/** Deletes events by id (erasure, after their attempts were settled). */
export async function deleteWebhookEvents(tx: Queryable, workspaceId: string, eventIds: readonly string[]): Promise<void> {
  if (eventIds.length === 0) return;
  await tx.query(`DELETE FROM webhook_events WHERE workspace_id = $1 AND id = ANY($2::text[])`, [workspaceId, textArray(eventIds)]);
}

/** Events older than the delivery log, with no attempt left in it: gone with the log (webhook_events_created_idx). */
export async function pruneWebhookEvents(db: Queryable, workspaceId: string, olderThan: Date): Promise<void> {
  await db.query(
    `DELETE FROM webhook_events e WHERE e.workspace_id = $1 AND e.created_at < $2
       AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id)`,
    [workspaceId, olderThan.toISOString()],
  );
}
