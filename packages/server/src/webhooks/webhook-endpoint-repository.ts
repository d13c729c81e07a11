import type { WebhookEndpoint, WebhookEventType } from "@frontdesk/contracts";
import type { Queryable } from "../db/database.js";
import { iso, isoOrNull } from "../db/timestamps.js";
import { textArray } from "../db/text-array.js";

/** A `webhook_endpoints` row as the use cases need it (the sealed secret never leaves src/webhooks/). */
export interface WebhookEndpointRecord {
  id: string;
  workspaceId: string;
  url: string;
  description: string;
  events: WebhookEventType[];
  secretCiphertext: string;
  secretPrefix: string;
  enabled: boolean;
  disabledReason: string | null;
  disabledAt: string | null;
  consecutiveFailures: number;
  failingSince: string | null;
  lastSuccessAt: string | null;
  /** Failed attempts in a row (any delivery), which open the circuit breaker. */
  attemptFailures: number;
  /** While in the future, attempts wait instead of being made (the endpoint's circuit is open). */
  circuitOpenUntil: string | null;
  createdAt: string;
  updatedAt: string;
}

interface EndpointRow {
  id: string;
  workspace_id: string;
  url: string;
  description: string;
  events: WebhookEventType[];
  secret_ciphertext: string;
  secret_prefix: string;
  enabled: boolean;
  disabled_reason: string | null;
  disabled_at: Date | string | null;
  consecutive_failures: number;
  failing_since: Date | string | null;
  last_success_at: Date | string | null;
  attempt_failures: number;
  circuit_open_until: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

const COLUMNS = `id, workspace_id, url, description, events, secret_ciphertext, secret_prefix, enabled, disabled_reason, disabled_at,
  consecutive_failures, failing_since, last_success_at, attempt_failures, circuit_open_until, created_at, updated_at`;

/** A Postgres array literal for a `$n::text[]` parameter (event types need no quoting, but quote anyway). */

const toRecord = (row: EndpointRow): WebhookEndpointRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  url: row.url,
  description: row.description,
  events: row.events,
  secretCiphertext: row.secret_ciphertext,
  secretPrefix: row.secret_prefix,
  enabled: row.enabled,
  disabledReason: row.disabled_reason,
  disabledAt: isoOrNull(row.disabled_at),
  consecutiveFailures: row.consecutive_failures,
  failingSince: isoOrNull(row.failing_since),
  lastSuccessAt: isoOrNull(row.last_success_at),
  attemptFailures: row.attempt_failures,
  circuitOpenUntil: isoOrNull(row.circuit_open_until),
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
});

/** The endpoint as the console API and the CLI show it: without its sealed secret. */
export function presentWebhookEndpoint(endpoint: WebhookEndpointRecord): WebhookEndpoint {
  return {
    id: endpoint.id,
    workspace_id: endpoint.workspaceId,
    url: endpoint.url,
    description: endpoint.description,
    events: endpoint.events,
    enabled: endpoint.enabled,
    disabled_reason: endpoint.disabledReason,
    disabled_at: endpoint.disabledAt,
    secret_prefix: endpoint.secretPrefix,
    consecutive_failures: endpoint.consecutiveFailures,
    failing_since: endpoint.failingSince,
    last_success_at: endpoint.lastSuccessAt,
    circuit_open_until: endpoint.circuitOpenUntil,
    created_at: endpoint.createdAt,
    updated_at: endpoint.updatedAt,
  };
}

export interface NewWebhookEndpoint {
  id: string;
  workspaceId: string;
  url: string;
  description: string;
  events: WebhookEventType[];
  secretCiphertext: string;
  secretPrefix: string;
}

export async function insertWebhookEndpoint(db: Queryable, endpoint: NewWebhookEndpoint): Promise<WebhookEndpointRecord> {
  const { rows } = await db.query<EndpointRow>(
    `INSERT INTO webhook_endpoints (id, workspace_id, url, description, events, secret_ciphertext, secret_prefix)
     VALUES ($1, $2, $3, $4, $5::text[], $6, $7) RETURNING ${COLUMNS}`,
    [endpoint.id, endpoint.workspaceId, endpoint.url, endpoint.description, textArray(endpoint.events), endpoint.secretCiphertext, endpoint.secretPrefix],
  );
  return toRecord(rows[0]!);
}

/** The workspace's endpoints, oldest first (webhook_endpoints_workspace_idx). */
export async function listWorkspaceWebhookEndpoints(db: Queryable, workspaceId: string): Promise<WebhookEndpointRecord[]> {
  const { rows } = await db.query<EndpointRow>(`SELECT ${COLUMNS} FROM webhook_endpoints WHERE workspace_id = $1 ORDER BY created_at, id`, [workspaceId]);
  return rows.map(toRecord);
}

export async function countWorkspaceWebhookEndpoints(db: Queryable, workspaceId: string): Promise<number> {
  const { rows } = await db.query<{ count: number }>(`SELECT count(*)::int AS count FROM webhook_endpoints WHERE workspace_id = $1`, [workspaceId]);
  return rows[0]?.count ?? 0;
}

/** The fan-out's question: which enabled endpoints of the workspace take this event type (the workspace index, then a filter). */
export async function listSubscribedEndpointIds(db: Queryable, workspaceId: string, eventType: string): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM webhook_endpoints WHERE workspace_id = $1 AND enabled AND $2 = ANY (events) ORDER BY created_at, id`,
    [workspaceId, eventType],
  );
  return rows.map((row) => row.id);
}

/** One endpoint of the workspace: another workspace's id is not found. `lock`: FOR UPDATE (the caller's transaction). */
export async function findWebhookEndpoint(db: Queryable, workspaceId: string, endpointId: string, lock = false): Promise<WebhookEndpointRecord | null> {
  const { rows } = await db.query<EndpointRow>(
    `SELECT ${COLUMNS} FROM webhook_endpoints WHERE id = $1 AND workspace_id = $2${lock ? " FOR UPDATE" : ""}`,
    [endpointId, workspaceId],
  );
  return rows[0] ? toRecord(rows[0]) : null;
}

export interface WebhookEndpointChange {
  url?: string;
  description?: string;
  events?: WebhookEventType[];
  /** true: enabled again, its failure count and reason cleared; false: turned off by hand (no reason). */
  enabled?: boolean;
}

export async function updateWebhookEndpoint(db: Queryable, workspaceId: string, endpointId: string, change: WebhookEndpointChange): Promise<WebhookEndpointRecord | null> {
  const { rows } = await db.query<EndpointRow>(
    `UPDATE webhook_endpoints SET
       url = coalesce($3, url),
       description = coalesce($4, description),
       events = coalesce($5::text[], events),
       enabled = coalesce($6, enabled),
       disabled_reason = CASE WHEN $6::boolean IS NULL THEN disabled_reason ELSE NULL END,
       disabled_at = CASE WHEN $6::boolean IS NULL THEN disabled_at WHEN $6 THEN NULL ELSE now() END,
       consecutive_failures = CASE WHEN $6::boolean THEN 0 ELSE consecutive_failures END,
       failing_since = CASE WHEN $6::boolean THEN NULL ELSE failing_since END,
       updated_at = now()
     WHERE id = $1 AND workspace_id = $2 RETURNING ${COLUMNS}`,
    [endpointId, workspaceId, change.url ?? null, change.description ?? null, change.events ? textArray(change.events) : null, change.enabled ?? null],
  );
  return rows[0] ? toRecord(rows[0]) : null;
}

export async function deleteWebhookEndpoint(db: Queryable, workspaceId: string, endpointId: string): Promise<WebhookEndpointRecord | null> {
  const { rows } = await db.query<EndpointRow>(`DELETE FROM webhook_endpoints WHERE id = $1 AND workspace_id = $2 RETURNING ${COLUMNS}`, [endpointId, workspaceId]);
  return rows[0] ? toRecord(rows[0]) : null;
}

/** A delivered event: the endpoint is healthy again, its circuit closed. */
export async function recordEndpointSuccess(db: Queryable, endpointId: string, at: Date): Promise<void> {
  await db.query(
    `UPDATE webhook_endpoints SET consecutive_failures = 0, failing_since = NULL, last_success_at = $2, attempt_failures = 0, circuit_open_until = NULL WHERE id = $1`,
    [endpointId, at.toISOString()],
  );
}

/**
 * A failed attempt (a test's too): one more in a row; from the `threshold`th on, the circuit opens
 * until `openUntil` (each further failure, the half-open trial's included, opens it again).
 */
export async function recordAttemptFailure(db: Queryable, endpointId: string, circuit: { threshold: number; openUntil: Date }): Promise<void> {
  await db.query(
    `UPDATE webhook_endpoints SET attempt_failures = attempt_failures + 1,
       circuit_open_until = CASE WHEN attempt_failures + 1 >= $2 THEN $3::timestamptz ELSE circuit_open_until END
     WHERE id = $1`,
    [endpointId, circuit.threshold, circuit.openUntil.toISOString()],
  );
}

/**
 * The circuit's gate for one attempt, in the claim's transaction (the endpoint row locked): open
 * (wait until the returned time), or let through. Past its cool-down a tripped circuit is
 * half-open: one attempt goes through as the trial, the others wait for its lease.
 */
export async function passCircuit(tx: Queryable, endpointId: string, circuit: { threshold: number; trialLeaseUntil: Date; now: Date }): Promise<Date | null> {
  const { rows } = await tx.query<{ attempt_failures: number; circuit_open_until: Date | string | null }>(
    `SELECT attempt_failures, circuit_open_until FROM webhook_endpoints WHERE id = $1 FOR UPDATE`,
    [endpointId],
  );
  const row = rows[0];
  if (!row || row.attempt_failures < circuit.threshold) return null;
  const openUntil = row.circuit_open_until ? new Date(row.circuit_open_until) : null;
  if (openUntil && openUntil > circuit.now) return openUntil;
  await tx.query(`UPDATE webhook_endpoints SET circuit_open_until = $2 WHERE id = $1`, [endpointId, circuit.trialLeaseUntil.toISOString()]);
  return null;
}

/** A failed attempt starts the endpoint's failing period (kept until a success). */
export async function recordEndpointFailingSince(db: Queryable, endpointId: string, at: Date): Promise<void> {
  await db.query(`UPDATE webhook_endpoints SET failing_since = coalesce(failing_since, $2) WHERE id = $1`, [endpointId, at.toISOString()]);
}

/** After a delivery failed every attempt: its new count, and (when `disabledReason`) the endpoint disabled with the reason. */
export async function recordEndpointFailure(
  db: Queryable,
  endpointId: string,
  change: { consecutiveFailures: number; failingSince: Date; disabledReason: string | null; at: Date },
): Promise<void> {
  await db.query(
    `UPDATE webhook_endpoints SET consecutive_failures = $2, failing_since = $3,
       enabled = CASE WHEN $4::text IS NULL THEN enabled ELSE false END,
       disabled_reason = coalesce($4, disabled_reason),
       disabled_at = CASE WHEN $4::text IS NULL THEN disabled_at ELSE $5::timestamptz END,
       updated_at = CASE WHEN $4::text IS NULL THEN updated_at ELSE $5::timestamptz END
     WHERE id = $1`,
    [endpointId, change.consecutiveFailures, change.failingSince.toISOString(), change.disabledReason, change.at.toISOString()],
  );
}
