import type { Migration } from "./migration.js";

/**
 * Attachments (issue 33, part 4): the images and PDFs of a conversation, uploaded by its visitor
 * or an operator, and sent with a message. Their bytes are a bytea in the store, as file sources'
 * (0042): a backup of the store holds them, a refused upload or a rolled-back message leaves no
 * file behind, and they go with their conversation by its cascade (erasure and retention delete
 * them explicitly first, through attachments/). An upload waits with `message_id` null until a
 * message of the same conversation claims it. Query paths: an attachment by its primary key (the
 * served file, the claim), a conversation's by `attachments_conversation_idx` (the claim, erasure,
 * retention, export), a message's by `attachments_message_idx` (the message lists), and the
 * cascades from a workspace by `attachments_workspace_idx`.
 */
export const attachments: Migration = {
  name: "0045-attachments",
  statements: [
    `CREATE TABLE attachments (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      conversation_id text NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
      message_id text REFERENCES messages (id) ON DELETE CASCADE,
      uploaded_by text NOT NULL CHECK (uploaded_by IN ('visitor', 'operator')),
      operator_id text REFERENCES operators (id) ON DELETE SET NULL,
      filename text NOT NULL,
      media_type text NOT NULL,
      bytes integer NOT NULL CHECK (bytes > 0),
      content bytea NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE INDEX attachments_conversation_idx ON attachments (conversation_id, created_at)`,
    `CREATE INDEX attachments_message_idx ON attachments (message_id) WHERE message_id IS NOT NULL`,
    `CREATE INDEX attachments_workspace_idx ON attachments (workspace_id)`,
    `CREATE INDEX attachments_operator_idx ON attachments (operator_id) WHERE operator_id IS NOT NULL`,
  ],
};
