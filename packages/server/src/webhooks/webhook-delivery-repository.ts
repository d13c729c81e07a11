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

/** An attempt that may be made now: pending, or under way on a lease that ended (the process making it died). */
const CLAIMABLE = `status = 'pending' OR (status = 'sending' AND lease_until <= now())`;

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
    `UPDATE webhook_deliveries SET status = $2, status_code = $3, duration_ms = $4, error = $5, response_body = $6, completed_at = $7, lease_until = NULL WHERE id = $1`,
    [deliveryId, result.status, result.statusCode, result.durationMs, result.error, result.responseBody, at.toISOString()],
  );
}

/** An attempt as its claim and completion see it: `claimable` when pending, or under way on a lease that ended (its process died). */
export interface LockedDelivery {
  status: WebhookDelivery["status"];
  eventType: string;
  claimable: boolean;
}

/** An attempt's row, locked until the caller's transaction ends (claim and completion lock it before its event). */
export async function lockDelivery(tx: Queryable, workspaceId: string, deliveryId: string): Promise<LockedDelivery | null> {
  const { rows } = await tx.query<{ status: WebhookDelivery["status"]; event_type: string; claimable: boolean }>(
    `SELECT status, event_type, (${CLAIMABLE}) AS claimable FROM webhook_deliveries WHERE id = $1 AND workspace_id = $2 FOR UPDATE`,
    [deliveryId, workspaceId],
  );
  const row = rows[0];
  return row ? { status: row.status, eventType: row.event_type, claimable: row.claimable } : null;
}

/**
 * The workspace's attempts under way (leases not ended) and the earliest end of their leases,
 * under a lock per workspace so that two claims cannot both take the last place
 * (webhook_deliveries_sending_idx).
 */
export async function countDeliveriesUnderWay(tx: Queryable, workspaceId: string): Promise<{ count: number; firstLeaseEnd: Date | null }> {
  await tx.query(`SELECT pg_advisory_xact_lock(hashtext('webhook-deliveries:' || $1))`, [workspaceId]);
  const { rows } = await tx.query<{ n: number; first_end: Date | string | null }>(
    `SELECT count(*)::int AS n, min(lease_until) AS first_end FROM webhook_deliveries WHERE workspace_id = $1 AND status = 'sending' AND lease_until > now()`,
    [workspaceId],
  );
  const row = rows[0];
  return { count: row?.n ?? 0, firstLeaseEnd: row?.first_end ? new Date(row.first_end) : null };
}

/** Marks a pending attempt under way for `leaseMs` by the store's clock (a process that dies mid-attempt frees its place when the lease ends). */
export async function startDelivery(tx: Queryable, deliveryId: string, leaseMs: number): Promise<void> {
  await tx.query(`UPDATE webhook_deliveries SET status = 'sending', lease_until = now() + $2 * interval '1 millisecond' WHERE id = $1`, [deliveryId, leaseMs]);
}

/** Moves a pending attempt later (its workspace's places are taken, or its endpoint's circuit is open). */
export async function postponeDelivery(tx: Queryable, deliveryId: string, until: Date): Promise<void> {
  await tx.query(`UPDATE webhook_deliveries SET status = 'pending', lease_until = NULL, scheduled_at = $2 WHERE id = $1`, [deliveryId, until.toISOString()]);
}

/**
 * Erasure: the attempts of erased events. Those not yet made are `skipped`; every attempt's
 * record of what the receiver answered is cleared (it may echo the visitor's data). Returns the
 * attempts under way, which erasure waits for once it has committed. Locks the attempts' rows
 * before their events are deleted, the order an attempt's claim takes too.
 */
export async function settleDeliveriesOfErasedEvents(tx: Queryable, workspaceId: string, eventIds: readonly string[]): Promise<string[]> {
  if (eventIds.length === 0) return [];
  const { rows } = await tx.query<{ id: string; status: WebhookDelivery["status"] }>(
    `UPDATE webhook_deliveries SET
       status = CASE WHEN ${CLAIMABLE} THEN 'skipped' ELSE status END,
       error = CASE WHEN ${CLAIMABLE} THEN 'Not delivered: the visitor it was about was erased.' ELSE error END,
       completed_at = CASE WHEN ${CLAIMABLE} THEN now() ELSE completed_at END,
       lease_until = CASE WHEN ${CLAIMABLE} THEN NULL ELSE lease_until END,
       response_body = NULL
     WHERE workspace_id = $1 AND event_id = ANY($2::text[]) RETURNING id, status`,
    [workspaceId, textArray(eventIds)],
  );
  return rows.filter((row) => row.status === "sending").map((row) => row.id);
}

/** How many of these attempts are still under way (their lease not ended). */
export async function countUnderWay(db: Queryable, deliveryIds: readonly string[]): Promise<number> {
  if (deliveryIds.length === 0) return 0;
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM webhook_deliveries WHERE id = ANY($1::text[]) AND status = 'sending' AND lease_until > now()`,
    [textArray(deliveryIds)],
  );
  return rows[0]?.n ?? 0;
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

