import type { WebhookDelivery } from "@frontdesk/contracts";
import type { Queryable } from "../db/database.js";
import { newId } from "../db/ids.js";
import { textArray } from "../db/text-array.js";
import { iso, isoOrNull } from "../db/timestamps.js";

interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  status: WebhookDelivery["status"];
  status_code: number | null;
  duration_ms: number | null;
  error: string | null;
  response_body: string | null;
  scheduled_at: Date | string;
  completed_at: Date | string | null;
}

const COLUMNS = `id, endpoint_id, event_id, event_type, attempt, status, status_code, duration_ms, error, response_body, scheduled_at, completed_at`;

const toDelivery = (row: DeliveryRow): WebhookDelivery => ({
  id: row.id,
  endpoint_id: row.endpoint_id,
  event_id: row.event_id,
  event_type: row.event_type,
  attempt: row.attempt,
  status: row.status,
  status_code: row.status_code,
  duration_ms: row.duration_ms,
  error: row.error,
  response_body: row.response_body,
  scheduled_at: iso(row.scheduled_at),
  completed_at: isoOrNull(row.completed_at),
});

export interface ScheduledDelivery {
  endpointId: string;
  workspaceId: string;
  eventId: string;
  eventType: string;
  attempt: number;
  scheduledAt: Date;
}

/**
 * Schedules one attempt (a `pending` row). Null when this attempt of this event already exists for
 * the endpoint (webhook_deliveries_event_attempt_idx): an event announced twice is delivered once.
 */
export async function insertPendingDelivery(db: Queryable, delivery: ScheduledDelivery): Promise<string | null> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO webhook_deliveries (id, endpoint_id, workspace_id, event_id, event_type, attempt, scheduled_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (endpoint_id, event_id, attempt) DO NOTHING RETURNING id`,
    [newId("whd"), delivery.endpointId, delivery.workspaceId, delivery.eventId, delivery.eventType, delivery.attempt, delivery.scheduledAt.toISOString()],
  );
  return rows[0]?.id ?? null;
}

export interface AttemptResult {
  status: "succeeded" | "failed" | "skipped";
  statusCode: number | null;
  durationMs: number | null;
  error: string | null;
  responseBody: string | null;
}

export async function completeDelivery(db: Queryable, deliveryId: string, result: AttemptResult, at: Date): Promise<void> {
  await db.query(
    `UPDATE webhook_deliveries SET status = $2, status_code = $3, duration_ms = $4, error = $5, response_body = $6, completed_at = $7 WHERE id = $1`,
    [deliveryId, result.status, result.statusCode, result.durationMs, result.error, result.responseBody, at.toISOString()],
  );
}

/** An endpoint's attempts, newest first, `limit` at most, before the cursor's (scheduled_at, id) when given. */
export async function listEndpointDeliveries(
  db: Queryable,
  workspaceId: string,
  endpointId: string,
  page: { limit: number; before: { scheduledAt: string; id: string } | null },
): Promise<WebhookDelivery[]> {
  const cursor = page.before ? `AND (scheduled_at, id) < ($4::timestamptz, $5)` : "";
  const { rows } = await db.query<DeliveryRow>(
    `SELECT ${COLUMNS} FROM webhook_deliveries WHERE endpoint_id = $1 AND workspace_id = $2 ${cursor}
     ORDER BY scheduled_at DESC, id DESC LIMIT $3`,
    page.before ? [endpointId, workspaceId, page.limit, page.before.scheduledAt, page.before.id] : [endpointId, workspaceId, page.limit],
  );
  return rows.map(toDelivery);
}

/** The log is kept for `days`: older attempts of the endpoint go (an index range of webhook_deliveries_endpoint_recent_idx). */
export async function pruneEndpointDeliveries(db: Queryable, endpointId: string, olderThan: Date): Promise<void> {
  await db.query(`DELETE FROM webhook_deliveries WHERE endpoint_id = $1 AND scheduled_at < $2`, [endpointId, olderThan.toISOString()]);
}

/**
 * Erasure: drops the queued deliveries (not begun yet) of events about the erased visitor — their
 * conversations' requests, ratings and closes, and their leads — since a pending job's payload holds
 * the event's data (a lead's contact details, a request's reason); each dropped attempt stays in the
 * log as `skipped`, without the data. An attempt already under way cannot be recalled. Runs in the
 * erasure's transaction; a store where the job queue never started has nothing queued.
 */
export async function dropQueuedDeliveriesAbout(tx: Queryable, workspaceId: string, subject: { visitorId: string; conversationIds: readonly string[] }): Promise<number> {
  const { rows: queue } = await tx.query<{ present: boolean }>(`SELECT to_regclass('pgboss.job') IS NOT NULL AS present`);
  if (!queue[0]?.present) return 0;
  const { rows } = await tx.query<{ delivery_id: string }>(
    `DELETE FROM pgboss.job j
     WHERE j.name = 'deliver-webhook' AND j.state < 'active' AND j.data->>'workspaceId' = $1
       AND (j.data->'event'->'data'->>'conversation_id' = ANY($2::text[])
            OR j.data->'event'->'data'->'lead'->>'conversation_id' = ANY($2::text[])
            OR j.data->'event'->'data'->'lead'->>'visitor_id' = $3)
     RETURNING j.data->>'deliveryId' AS delivery_id`,
    [workspaceId, textArray(subject.conversationIds), subject.visitorId],
  );
  if (rows.length === 0) return 0;
  await tx.query(
    `UPDATE webhook_deliveries SET status = 'skipped', error = 'Not delivered: the visitor it was about was erased.', completed_at = now()
     WHERE workspace_id = $1 AND id = ANY($2::text[]) AND status = 'pending'`,
    [workspaceId, textArray(rows.map((row) => row.delivery_id))],
  );
  return rows.length;
}
