import type { Migration } from "./migration.js";

/**
 * Webhook events kept apart from their jobs (issue 28). An event's body — which may hold a lead's
 * contact details, a request's reason or a rating's comment — lives in `webhook_events` only, with
 * the visitor and conversation it is about, so that erasure can find and delete it; the
 * `deliver-webhook` job names the event by id and carries no personal data, queued, active or
 * completed. The body is cleared once no attempt of the event is left to make; the row (its
 * subject) stays as long as the delivery log, so that erasure can still clear the receivers'
 * answers about the visitor.
 *
 * An attempt under way is `sending` until its lease ends: a workspace's attempts under way are
 * counted against its concurrency (webhook_deliveries_sending_idx), and erasure waits for those of
 * its events. An endpoint's circuit breaker counts failed attempts in a row and opens for a cool-down.
 *
 * Upgrades: the queued jobs' events move into the table; every stored job (queued, completed or
 * archived) loses its event's body.
 */
export const webhookEvents: Migration = {
  name: "0024-webhook-events",
  statements: [
    `CREATE TABLE webhook_events (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      type text NOT NULL,
      body text,
      visitor_id text,
      conversation_id text,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE INDEX webhook_events_visitor_idx ON webhook_events (workspace_id, visitor_id) WHERE visitor_id IS NOT NULL`,
    `CREATE INDEX webhook_events_conversation_idx ON webhook_events (workspace_id, conversation_id) WHERE conversation_id IS NOT NULL`,
    `CREATE INDEX webhook_events_created_idx ON webhook_events (workspace_id, created_at)`,
    `ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_status_check`,
    `ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_status_check CHECK (status IN ('pending', 'sending', 'succeeded', 'failed', 'skipped'))`,
    `ALTER TABLE webhook_deliveries ADD COLUMN lease_until timestamptz`,
    `CREATE INDEX webhook_deliveries_event_idx ON webhook_deliveries (event_id)`,
    `CREATE INDEX webhook_deliveries_sending_idx ON webhook_deliveries (workspace_id, lease_until) WHERE status = 'sending'`,
    `ALTER TABLE webhook_endpoints ADD COLUMN attempt_failures integer NOT NULL DEFAULT 0`,
    `ALTER TABLE webhook_endpoints ADD COLUMN circuit_open_until timestamptz`,
    `CREATE INDEX curated_answers_question_idx ON curated_answers (workspace_id, agent_id, question_normalised)`,
    `DO $$
     BEGIN
       IF to_regclass('pgboss.job') IS NOT NULL THEN
         INSERT INTO webhook_events (id, workspace_id, type, body, visitor_id, conversation_id)
         SELECT DISTINCT ON (j.data->'event'->>'id') j.data->'event'->>'id', j.data->>'workspaceId', j.data->'event'->>'type', (j.data->'event')::text,
                j.data->'event'->'data'->'lead'->>'visitor_id',
                COALESCE(j.data->'event'->'data'->>'conversation_id', j.data->'event'->'data'->'lead'->>'conversation_id')
         FROM pgboss.job j JOIN workspaces w ON w.id = j.data->>'workspaceId'
         WHERE j.name = 'deliver-webhook' AND j.state < 'completed' AND j.data ? 'event'
         ON CONFLICT (id) DO NOTHING;
         UPDATE pgboss.job SET data = jsonb_set(data - 'event', '{eventId}', to_jsonb(data->'event'->>'id'))
         WHERE name = 'deliver-webhook' AND data ? 'event';
       END IF;
       IF to_regclass('pgboss.archive') IS NOT NULL THEN
         UPDATE pgboss.archive SET data = jsonb_set(data - 'event', '{eventId}', to_jsonb(data->'event'->>'id'))
         WHERE name = 'deliver-webhook' AND data ? 'event';
       END IF;
     END $$`,
  ],
};
