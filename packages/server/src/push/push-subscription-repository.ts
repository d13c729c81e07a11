import type { PushDevice } from "@frontdesk/contracts";
import type { Queryable } from "../db/database.js";
import { textArray } from "../db/text-array.js";
import { iso, isoOrNull } from "../db/timestamps.js";

/** A stored subscription, as sending needs it: the auth secret still sealed. */
export interface PushSubscriptionRecord {
  id: string;
  workspaceId: string;
  operatorId: string;
  endpoint: string;
  p256dh: string;
  authSealed: string;
}

interface DeviceRow {
  id: string;
  device_label: string;
  endpoint: string;
  created_at: Date;
  last_success_at: Date | null;
  last_failure_at: Date | null;
  last_failure: string | null;
}

const DEVICE_COLUMNS = "id, device_label, endpoint, created_at, last_success_at, last_failure_at, last_failure";

const toDevice = (row: DeviceRow): PushDevice => ({
  id: row.id,
  device_label: row.device_label,
  endpoint_origin: new URL(row.endpoint).origin,
  created_at: iso(row.created_at),
  last_success_at: isoOrNull(row.last_success_at),
  last_failure_at: isoOrNull(row.last_failure_at),
  last_failure: row.last_failure,
});

/**
 * Stores a browser's subscription for the operator; the same browser subscribing again (its
 * endpoint) replaces its keys and label and keeps its id. `sealAuth` seals the auth secret for the
 * row's id. Returns the device and whether it is new.
 */
export async function upsertPushSubscription(
  db: Queryable,
  subscription: { id: string; workspaceId: string; operatorId: string; endpoint: string; p256dh: string; deviceLabel: string },
  sealAuth: (id: string) => string,
): Promise<{ device: PushDevice; created: boolean }> {
  const existing = await db.query<{ id: string }>(`SELECT id FROM push_subscriptions WHERE operator_id = $1 AND endpoint = $2`, [subscription.operatorId, subscription.endpoint]);
  const id = existing.rows[0]?.id ?? subscription.id;
  const { rows } = await db.query<DeviceRow & { created: boolean }>(
    `INSERT INTO push_subscriptions (id, workspace_id, operator_id, endpoint, p256dh, auth_sealed, device_label)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (operator_id, endpoint) DO UPDATE SET p256dh = EXCLUDED.p256dh, auth_sealed = EXCLUDED.auth_sealed, device_label = EXCLUDED.device_label,
       last_failure_at = NULL, last_failure = NULL
     RETURNING ${DEVICE_COLUMNS}, (xmax = 0) AS created`,
    [id, subscription.workspaceId, subscription.operatorId, subscription.endpoint, subscription.p256dh, sealAuth(id), subscription.deviceLabel],
  );
  const row = rows[0];
  if (!row) throw new Error("a push subscription upsert returned no row");
  return { device: toDevice(row), created: row.created };
}

/** How many devices the operator has subscribed. */
export async function countOperatorPushSubscriptions(db: Queryable, operatorId: string): Promise<number> {
  const { rows } = await db.query<{ count: string | number }>(`SELECT count(*) FROM push_subscriptions WHERE operator_id = $1`, [operatorId]);
  return Number(rows[0]?.count ?? 0);
}

export async function listOperatorPushDevices(db: Queryable, operatorId: string): Promise<PushDevice[]> {
  const { rows } = await db.query<DeviceRow>(`SELECT ${DEVICE_COLUMNS} FROM push_subscriptions WHERE operator_id = $1 ORDER BY created_at, id`, [operatorId]);
  return rows.map(toDevice);
}

/** Deletes one of the operator's subscriptions; whether it was theirs and there. */
export async function deleteOperatorPushSubscription(db: Queryable, operatorId: string, id: string): Promise<boolean> {
  const { rows } = await db.query(`DELETE FROM push_subscriptions WHERE operator_id = $1 AND id = $2 RETURNING id`, [operatorId, id]);
  return rows.length > 0;
}

/** Deletes the operator's subscription of one endpoint (the browser unsubscribed); whether there was one. */
export async function deleteOperatorPushEndpoint(db: Queryable, operatorId: string, endpoint: string): Promise<boolean> {
  const { rows } = await db.query(`DELETE FROM push_subscriptions WHERE operator_id = $1 AND endpoint = $2 RETURNING id`, [operatorId, endpoint]);
  return rows.length > 0;
}

/** Deletes every subscription of the operator (signed out everywhere, new password); how many. */
export async function deleteAllOperatorPushSubscriptions(db: Queryable, operatorId: string): Promise<number> {
  const { rows } = await db.query(`DELETE FROM push_subscriptions WHERE operator_id = $1 RETURNING id`, [operatorId]);
  return rows.length;
}

/** The subscriptions of every operator of the workspace (or of one: a request routed to them): who an alert goes to (the operators its inbox notifies; a removed operator's rows went with them, ON DELETE CASCADE). */
export async function listWorkspacePushSubscriptionIds(db: Queryable, workspaceId: string, onlyOperatorId?: string): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    onlyOperatorId === undefined
      ? `SELECT id FROM push_subscriptions WHERE workspace_id = $1 ORDER BY id`
      : `SELECT id FROM push_subscriptions WHERE workspace_id = $1 AND operator_id = $2 ORDER BY id`,
    onlyOperatorId === undefined ? [workspaceId] : [workspaceId, onlyOperatorId],
  );
  return rows.map((row) => row.id);
}

/** The subscriptions of these operators of the workspace (push_subscriptions_operator_idx): whom a mention alerts. */
export async function listOperatorsPushSubscriptionIds(db: Queryable, workspaceId: string, operatorIds: readonly string[]): Promise<string[]> {
  if (operatorIds.length === 0) return [];
  const { rows } = await db.query<{ id: string }>(`SELECT id FROM push_subscriptions WHERE operator_id = ANY($2::text[]) AND workspace_id = $1 ORDER BY id`, [
    workspaceId,
    textArray(operatorIds),
  ]);
  return rows.map((row) => row.id);
}

/**
 * The subscription as a send needs it, only while it may be used: it still exists, and its
 * operator still exists (a removed operator's devices go with them, ON DELETE CASCADE; signing out
 * everywhere and a password change delete them too): checked at send time, not when queued.
 */
export async function findUsablePushSubscription(db: Queryable, id: string): Promise<PushSubscriptionRecord | null> {
  const { rows } = await db.query<{ id: string; workspace_id: string; operator_id: string; endpoint: string; p256dh: string; auth_sealed: string }>(
    `SELECT id, workspace_id, operator_id, endpoint, p256dh, auth_sealed FROM push_subscriptions WHERE id = $1`,
    [id],
  );
  const row = rows[0];
  return row ? { id: row.id, workspaceId: row.workspace_id, operatorId: row.operator_id, endpoint: row.endpoint, p256dh: row.p256dh, authSealed: row.auth_sealed } : null;
}

export async function recordPushSuccess(db: Queryable, id: string, at: Date): Promise<void> {
  await db.query(`UPDATE push_subscriptions SET last_success_at = $2, last_failure_at = NULL, last_failure = NULL WHERE id = $1`, [id, at]);
}

export async function recordPushFailure(db: Queryable, id: string, at: Date, failure: string): Promise<void> {
  await db.query(`UPDATE push_subscriptions SET last_failure_at = $2, last_failure = $3 WHERE id = $1`, [id, at, failure.slice(0, 300)]);
}

/** A push service said the subscription is gone (404, 410): deleted. */
export async function deletePushSubscription(db: Queryable, id: string): Promise<void> {
  await db.query(`DELETE FROM push_subscriptions WHERE id = $1`, [id]);
}
