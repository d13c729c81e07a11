import type { Migration } from "./migration.js";

/**
 * Outbound webhooks (src/webhooks/): a workspace's endpoints, each with its signing secret stored
 * encrypted (AES-256-GCM under a key derived from the service's secret: it must be usable to sign,
 * so it cannot be a one-way hash), and the delivery log, one row per attempt.
 * Query paths: a workspace's endpoints (list, and the fan-out's "who subscribes to this event")
 * by (workspace_id, created_at, id); one endpoint by its primary key (with workspace_id checked);
 * an endpoint's deliveries newest first, and their pruning, by (endpoint_id, scheduled_at, id);
 * the fan-out's de-duplication by the unique (endpoint_id, event_id, attempt); a workspace's
 * deletion cascades through its endpoints (workspace_id index) to their deliveries (endpoint_id).
 */
export const webhooks: Migration = {
  name: "0019-webhooks",
  statements: [
    `CREATE TABLE webhook_endpoints (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      url text NOT NULL,
      description text NOT NULL DEFAULT '',
      events text[] NOT NULL CHECK (cardinality(events) > 0),
      secret_ciphertext text NOT NULL,
      secret_prefix text NOT NULL,
      enabled boolean NOT NULL DEFAULT true,
      disabled_reason text,
      disabled_at timestamptz,
      consecutive_failures integer NOT NULL DEFAULT 0,
      failing_since timestamptz,
      last_success_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE INDEX webhook_endpoints_workspace_idx ON webhook_endpoints (workspace_id, created_at, id)`,
    `CREATE TABLE webhook_deliveries (
      id text PRIMARY KEY,
      endpoint_id text NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
      workspace_id text NOT NULL,
      event_id text NOT NULL,
      event_type text NOT NULL,
      attempt integer NOT NULL CHECK (attempt > 0),
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed', 'skipped')),
      status_code integer,
      duration_ms integer,
      error text,
      response_body text CHECK (octet_length(response_body) <= 1024),
      scheduled_at timestamptz NOT NULL DEFAULT now(),
      completed_at timestamptz
    )`,
    `CREATE INDEX webhook_deliveries_endpoint_recent_idx ON webhook_deliveries (endpoint_id, scheduled_at DESC, id DESC)`,
    `CREATE UNIQUE INDEX webhook_deliveries_event_attempt_idx ON webhook_deliveries (endpoint_id, event_id, attempt)`,
  ],
};
