import type { Migration } from "./migration.js";

/**
 * Erasure and retention (GDPR): see src/privacy/.
 * - `erasures`: one row per erasure (a visitor's, by themselves, an operator or the CLI) and per
 *   retention run that removed something: what was removed (counts), when, and who asked (an
 *   operator's id when it was one). Never the visitor's id, a conversation's id, or any content:
 *   the row proves an erasure happened without keeping whom it was about. Listed newest first per
 *   workspace.
 * - `workspaces.retention_days`: the workspace's override of FRONTDESK_RETENTION_DAYS (null: the
 *   deployment's setting; 0: keep forever). The retention job reads the workspaces with an
 *   override through a partial index.
 * - Indexes for the erasure's and the purge's deletes: events by visitor, leads by conversation
 *   (a deleted conversation sets them to null), inbox notifications by conversation (deleted with it).
 */
export const visitorErasure: Migration = {
  name: "0015-visitor-erasure",
  statements: [
    `CREATE TABLE erasures (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      agent_id text,
      scope text NOT NULL CHECK (scope IN ('visitor', 'retention')),
      requested_by text NOT NULL CHECK (requested_by IN ('visitor', 'operator', 'cli', 'retention')),
      operator_id text REFERENCES operators (id) ON DELETE SET NULL,
      counts jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE INDEX erasures_workspace_created_idx ON erasures (workspace_id, created_at DESC, id DESC)`,
    `CREATE INDEX erasures_operator_idx ON erasures (operator_id) WHERE operator_id IS NOT NULL`,
    `ALTER TABLE workspaces ADD COLUMN retention_days integer CHECK (retention_days IS NULL OR retention_days >= 0)`,
    `CREATE INDEX workspaces_retention_idx ON workspaces (id) WHERE retention_days IS NOT NULL`,
    `CREATE INDEX events_visitor_idx ON events (visitor_id) WHERE visitor_id IS NOT NULL`,
    `CREATE INDEX leads_conversation_idx ON leads (conversation_id) WHERE conversation_id IS NOT NULL`,
    `CREATE INDEX inbox_notifications_conversation_idx ON inbox_notifications (conversation_id)`,
  ],
};
