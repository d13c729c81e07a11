import type { Migration } from "./migration.js";

/**
 * Internal notes and saved replies (issue 33 parts 1 and 2).
 * `conversation_notes` (notes/): operators' words about a conversation, never the visitor's to
 * read; `after_seq` places a note among the conversation's messages, `mentions` the operators it
 * notified. They go with their conversation (erasure and retention delete them explicitly, the
 * foreign key is the backstop), and stay when their author is removed (name kept, id cleared).
 * `saved_replies` (saved-replies/): a workspace's replies (`owner_operator_id` null) and each
 * operator's own, a shortcut unique within each. The outbox gains the kind of a mention's alert.
 */
export const notesAndSavedReplies: Migration = {
  name: "0043-notes-and-saved-replies",
  statements: [
    `CREATE TABLE conversation_notes (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      conversation_id text NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
      operator_id text REFERENCES operators (id) ON DELETE SET NULL,
      author_name text NOT NULL,
      content text NOT NULL,
      mentions jsonb NOT NULL DEFAULT '[]',
      after_seq integer NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE INDEX conversation_notes_conversation_idx ON conversation_notes (conversation_id, created_at, id)`,
    `CREATE TABLE saved_replies (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      owner_operator_id text REFERENCES operators (id) ON DELETE CASCADE,
      title text NOT NULL,
      shortcut text NOT NULL,
      content text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE UNIQUE INDEX saved_replies_workspace_shortcut_idx ON saved_replies (workspace_id, shortcut) WHERE owner_operator_id IS NULL`,
    `CREATE UNIQUE INDEX saved_replies_owner_shortcut_idx ON saved_replies (owner_operator_id, shortcut) WHERE owner_operator_id IS NOT NULL`,
    `ALTER TABLE mail_messages DROP CONSTRAINT mail_messages_kind_check`,
    `ALTER TABLE mail_messages ADD CONSTRAINT mail_messages_kind_check
      CHECK (kind IN ('operator_alert', 'operator_unseen', 'operator_digest', 'visitor_reply', 'transcript', 'answer_tests_regressed', 'operator_mention'))`,
  ],
};
