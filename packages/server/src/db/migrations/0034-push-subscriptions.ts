import type { Migration } from "./migration.js";

/**
 * Web Push subscriptions of operators' devices (src/push/, issue 30 item 2): one row per operator
 * and push service endpoint (a browser's subscription), with the subscription's public key
 * (`p256dh`) as given and its auth secret sealed (AES-256-GCM under a key derived from the
 * service's secret, the row's id as associated data). An operator's removal deletes their rows;
 * signing out everywhere and a new password delete them in the use cases.
 * Query paths: an operator's devices (list, and the fan-out of an alert through the workspace's
 * operators) by (operator_id, created_at); one row by its primary key; re-subscribing the same
 * browser by the unique (operator_id, endpoint).
 */
export const pushSubscriptions: Migration = {
  name: "0034-push-subscriptions",
  statements: [
    `CREATE TABLE push_subscriptions (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      operator_id text NOT NULL REFERENCES operators (id) ON DELETE CASCADE,
      endpoint text NOT NULL,
      p256dh text NOT NULL,
      auth_sealed text NOT NULL,
      device_label text NOT NULL DEFAULT '',
      created_at timestamptz NOT NULL DEFAULT now(),
      last_success_at timestamptz,
      last_failure_at timestamptz,
      last_failure text
    )`,
    `CREATE UNIQUE INDEX push_subscriptions_operator_endpoint_idx ON push_subscriptions (operator_id, endpoint)`,
    `CREATE INDEX push_subscriptions_operator_idx ON push_subscriptions (operator_id, created_at)`,
    `CREATE INDEX push_subscriptions_workspace_idx ON push_subscriptions (workspace_id)`,
  ],
};
